"""The docs site's reading of our docstrings: the reST they are written in, turned into Markdown for mkdocstrings.

mkdocs.yml loads this file as a Griffe extension (docs/reference/api.md renders the docstrings). The code's
docstrings are written for ``help()`` and Sphinx-style readers; three of their constructs are not Markdown:

- cross-reference roles, ``:class:`~.base.Policy``` -> the code span ``Policy`` (the name as reST shows it: the
  last part after a ``~``, the title of ``:func:`title <target>```);
- literal blocks, a paragraph ending in ``::`` and the indented block after it -> a fenced code block;
- simple tables (columns drawn by ``====`` borders, as in the game modules' summary cards) -> Markdown tables.

Double-backquoted literals already are Markdown code spans, and lists and emphasis read the same in both.
Nothing here changes the code: only the site's copy of each docstring is converted.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|data|attr|exc|obj|const):`(?P<text>[^`]+)`")
TITLED = re.compile(r"^(?P<title>.+?)\s*<(?P<target>[^<>]+)>$")
BORDER = re.compile(r"^ *=+( +=+)+ *$")
LITERAL_INTRO = re.compile(r"(?P<text>.*?)\s*::\s*$")


def role_text(match: re.Match[str]) -> str:
    """The code span reST shows for a cross-reference role."""
    text = match.group("text")
    titled = TITLED.match(text)
    if titled:
        return f"`{titled.group('title')}`"
    if text.startswith("~"):
        text = text.rsplit(".", 1)[-1]
    return f"`{text.lstrip('.')}`"


def column_spans(border: str) -> list[tuple[int, int | None]]:
    """The (start, end) of every column of a simple table's border; the last column runs to the line's end."""
    spans: list[tuple[int, int | None]] = [(m.start(), m.end()) for m in re.finditer(r"=+", border)]
    spans[-1] = (spans[-1][0], None)
    return spans


def table_rows(lines: list[str], spans: list[tuple[int, int | None]]) -> list[list[str]]:
    """The rows of a simple table's body; a line whose first column is blank continues the row above it."""
    rows: list[list[str]] = []
    for line in lines:
        if not line.strip():
            continue
        cells = [line[start:end].strip() for start, end in spans]
        if rows and not cells[0]:
            rows[-1] = [f"{old} {new}".strip() for old, new in zip(rows[-1], cells, strict=True)]
        else:
            rows.append(cells)
    return rows


def markdown_row(cells: list[str]) -> str:
    return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"


def convert_table(lines: list[str]) -> list[str]:
    """A simple table (its lines from the first border to the last) as a Markdown table; without a header
    (two borders only) the Markdown header row is left empty."""
    borders = [i for i, line in enumerate(lines) if BORDER.match(line)]
    spans = column_spans(lines[borders[0]])
    if len(borders) >= 3:
        header = table_rows(lines[borders[0] + 1 : borders[1]], spans)
        head = [" ".join(column).strip() for column in zip(*header, strict=True)]
        body = table_rows(lines[borders[1] + 1 : borders[-1]], spans)
    else:
        head = [""] * len(spans)
        body = table_rows(lines[borders[0] + 1 : borders[-1]], spans)
    return [markdown_row(head), markdown_row(["---"] * len(spans)), *map(markdown_row, body)]


def indent_of(line: str) -> int:
    return len(line) - len(line.lstrip())


def table_end(lines: list[str], start: int) -> int | None:
    """The index of the closing border of the simple table whose first border is ``lines[start]``: the next
    border, or the one after it when rows follow that one directly (then the first two borders frame a header)."""
    ends = []
    for j in range(start + 1, len(lines)):
        if BORDER.match(lines[j]):
            ends.append(j)
            if len(ends) == 2 or j + 1 == len(lines) or not lines[j + 1].strip():
                break
        elif not lines[j].strip() and ends:
            break
    return ends[-1] if ends else None


def rest_to_markdown(text: str) -> str:
    """A docstring's reST constructs (see the module doc) as Markdown; everything else is kept as it is."""
    lines = ROLE.sub(role_text, text).splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        end = table_end(lines, i) if BORDER.match(line) else None
        if end is not None:
            out += convert_table(lines[i : end + 1])
            i = end + 1
            continue
        intro = LITERAL_INTRO.fullmatch(line)
        if intro and i + 1 < len(lines) and not lines[i + 1].strip():
            base = indent_of(line)
            block_end = i + 2
            while block_end < len(lines) and (not lines[block_end].strip() or indent_of(lines[block_end]) > base):
                block_end += 1
            block = lines[i + 2 : block_end]
            while block and not block[-1].strip():
                block.pop()
            if block:
                depth = min(indent_of(b) for b in block if b.strip())
                if intro.group("text").strip():
                    out += [intro.group("text") + ":", ""]
                out += [" " * base + "```", *(" " * base + b[depth:] for b in block), " " * base + "```", ""]
                i = block_end
                continue
        out.append(line)
        i += 1
    return "\n".join(out)


class RestDocstrings(griffe.Extension):
    """Converts every docstring's reST constructs to Markdown as Griffe reads it."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = rest_to_markdown(obj.docstring.value)
