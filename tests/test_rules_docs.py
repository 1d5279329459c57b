"""The plain-words rules docs (``docs/rules/<game>.md``) are the project's rule book.

Every rule id that code, tests, configs or docs cite (``PSM-513``, ``DMD-505c``, the end of a range such
as ``DMD-201..233``) must be defined in its game's rules doc, where a definition is the id in bold
(``**PSM-513**``) at the start of a rule. No file may point readers at the rules files outside the
repository any more. A rules doc that does not exist yet is skipped, so each game's doc can land on its own.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# rules doc -> the prefix of its rule ids
RULES_DOCS = {
    "docs/rules/potsm.md": "PSM",
    "docs/rules/dead_mans_draw.md": "DMD",
    "docs/rules/tortuga.md": "TOR",
    "docs/rules/madame_ching.md": "MCH",
}
# the file name each game's rules had in the old, out-of-repository location
OLD_RULES_NAMES = {
    "docs/rules/potsm.md": "potsm.md",
    "docs/rules/dead_mans_draw.md": "dead_mans_draw.md",
    "docs/rules/tortuga.md": "tortuga_1667.md",
    "docs/rules/madame_ching.md": "madame_ching.md",
}
PREFIXES = "|".join(RULES_DOCS.values())
# "PSM-513", "DMD-505c"; not the section pattern "PSM-12NN"
CITED_ID = re.compile(rf"\b(?P<prefix>{PREFIXES})-(?P<number>\d+[a-z]?)(?![0-9A-Za-z])")
# the end of a range: "DMD-201..233", "DMD-202–211"
RANGE_END = re.compile(rf"\b(?P<prefix>{PREFIXES})-\d+[a-z]?(?:\.\.|–)(?P<number>\d+[a-z]?)(?![0-9A-Za-z])")
DEFINED_ID = re.compile(rf"\*\*(?P<rule>(?:{PREFIXES})-\d+[a-z]?)\*\*")
OLD_POINTERS = ("shared/rules", "../shared")

TEXT_SUFFIXES = {".py", ".md", ".yaml", ".yml", ".toml", ".txt", ".cfg", ".ini", ".rst", ".json", ".sh"}
SKIPPED_DIRS = {
    ".git",
    ".venv",
    "__pycache__",
    ".pytest_cache",
    ".ruff_cache",
    ".hypothesis",
    "build",
    "dist",
    "runs",
    "results",
}


def _skipped(path: Path) -> bool:
    parts = path.relative_to(ROOT).parts
    return any(part in SKIPPED_DIRS or part.endswith(".egg-info") for part in parts[:-1])


@cache
def repo_text_files() -> tuple[tuple[str, str], ...]:
    """(path relative to the root, text) of every text file of the project, build outputs left out."""
    files = []
    for path in sorted(ROOT.rglob("*")):
        if not path.is_file() or path.suffix not in TEXT_SUFFIXES or _skipped(path):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        files.append((path.relative_to(ROOT).as_posix(), text))
    return tuple(files)


def cited_ids(prefix: str) -> dict[str, str]:
    """Every id with ``prefix`` cited anywhere, mapped to the first file that cites it."""
    cited: dict[str, str] = {}
    for rel, text in repo_text_files():
        for pattern in (CITED_ID, RANGE_END):
            for match in pattern.finditer(text):
                if match["prefix"] == prefix:
                    cited.setdefault(f"{prefix}-{match['number']}", rel)
    return cited


def rules_doc_text(doc: str) -> str:
    path = ROOT / doc
    if not path.exists():
        pytest.skip(f"{doc} is not written yet")
    return path.read_text(encoding="utf-8")


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def heading_slugs(text: str) -> set[str]:
    return {github_slug(m[1]) for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*$", text, flags=re.MULTILINE)}


@pytest.mark.parametrize("doc", RULES_DOCS)
def test_rules_doc_defines_every_cited_rule_id(doc: str) -> None:
    defined = {m["rule"] for m in DEFINED_ID.finditer(rules_doc_text(doc))}
    cited = cited_ids(RULES_DOCS[doc])
    assert cited, f"no {RULES_DOCS[doc]} rule id is cited anywhere: the scan is broken"
    missing = sorted((rule, where) for rule, where in cited.items() if rule not in defined)
    assert not missing, f"{doc} does not define (as **ID**) these cited rule ids (first citing file): {missing}"


@pytest.mark.parametrize("doc", RULES_DOCS)
def test_rules_doc_defines_each_rule_id_once(doc: str) -> None:
    definitions = [m["rule"] for m in DEFINED_ID.finditer(rules_doc_text(doc))]
    twice = sorted({rule for rule in definitions if definitions.count(rule) > 1})
    assert not twice, f"{doc} defines these rule ids more than once: {twice}"
    foreign = sorted({rule for rule in definitions if not rule.startswith(RULES_DOCS[doc] + "-")})
    assert not foreign, f"{doc} defines rule ids of another game: {foreign}"


@pytest.mark.parametrize("doc", RULES_DOCS)
def test_rules_doc_links_resolve(doc: str) -> None:
    """Relative links in a rules doc reach an existing file and, with a #fragment, an existing heading."""
    text = rules_doc_text(doc)
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        file_part, _, fragment = target.partition("#")
        path = (ROOT / doc).parent / file_part if file_part else ROOT / doc
        if not path.exists():
            broken.append(f"{target}: no file {path.relative_to(ROOT)}")
        elif fragment and fragment not in heading_slugs(path.read_text(encoding="utf-8")):
            broken.append(f"{target}: no heading with anchor #{fragment}")
    assert not broken, f"{doc} has broken links: {broken}"


@pytest.mark.parametrize("doc", RULES_DOCS)
def test_nothing_points_at_the_old_rules_file_of(doc: str) -> None:
    rules_doc_text(doc)
    old = f"{OLD_POINTERS[0]}/{OLD_RULES_NAMES[doc]}"
    pointing = [rel for rel, text in repo_text_files() if old in text and rel != "tests/test_rules_docs.py"]
    assert not pointing, f"these files still point at {old}; link {doc} instead: {pointing}"


def test_nothing_points_at_the_rules_outside_the_repository() -> None:
    """No file names the out-of-repository rules folder (``shared/rules``, ``../shared``) at all."""
    missing_docs = [doc for doc in RULES_DOCS if not (ROOT / doc).exists()]
    if missing_docs:
        pytest.skip(f"rules docs not written yet: {missing_docs}")
    pointing = [
        (rel, pointer)
        for rel, text in repo_text_files()
        for pointer in OLD_POINTERS
        if pointer in text and rel != "tests/test_rules_docs.py"
    ]
    assert not pointing, f"these files point outside the repository for the rules; link docs/rules/ instead: {pointing}"
