"""Reference ladders: one fixed rating scale per game, fitted on the tables that ``rate`` plays.

    python -m training.evaluation.ladder --env dead_mans_draw_v0            # play every match, fit, write
    python -m training.evaluation.ladder --env potsm_v0 --replay shipped     # replay only the shipped agent's match
    python -m training.evaluation.ladder --env tortuga_v0 --refit            # refit the stored table, play nothing

A ladder (``checkpoints/<env_id>/ladder.json``, beside the shipped agent it rates) holds the game's
entries at its default player count — ``random``, ``heuristic``, IS-MCTS and flat Monte Carlo at two
budgets each, and ``shipped`` (``checkpoints/<env_id>/model.zip``), each with its ``kind``
(:data:`KINDS`) — the matches they played and the ratings fitted from them.

Tables. A ladder names its *references* (``random`` and ``heuristic``: policies that never change) and
rates a policy at one design of table only: the policy in one seat, every other seat a reference drawn
at random (uniformly and independently), so a 4-seat table may be the policy against three heuristic
bots, against three random ones, or against two of one and one of the other. ``training.evaluation.rate``
plays exactly these tables (through :func:`play_match`), and so does the ladder for each of its other
entries (the entry's *placement*). The references themselves are fitted from a *pool* match, whose every
seat is a reference drawn the same way (tables of a single reference are left out: they carry no
information). Within a match each table is played for a block of ``n`` games, rotated so that every
policy holds every seat equally often; the tables come from shuffled cycles of every ordered filling, so
each full cycle has exactly the proportions of independent draws.

Why: a reference's fitted rating then equals, in expectation, what ``rate`` gives it (the pool's tables
holding a reference are, seat for seat, the tables ``rate`` deals it), and every other entry is rated by
the very estimator ``rate`` uses. Re-rating any entry lands on its rating up to the noise of the games,
whether or not the model below fits every composition of table (docs/evaluation.md, "What a rating
means").

Outcomes. Only whom each game's winners were matters to the model, so a match is stored as the count of
each outcome ``"<table> -> <winners>"``, both multisets of entry labels
(``"heuristic*2 + random + shipped -> heuristic"``: two heuristic seats, a random one and the shipped
agent's, won by a heuristic seat; ``-> heuristic*2``: two heuristic seats won, e.g. a Tortuga nation or a
tie), and ``-> none`` for a game without a winner (truncated or no winner), which says nothing about
strength.

Model. A first-place Plackett–Luce (multinomial logit) model: every seat ``s`` has a strength
``exp(θ(s))`` and a game's winner is seat ``s`` with probability ``exp(θ(s)) / Σ exp(θ)`` over the
seats. Several winners (ties, teams) are scored as independent draws from the same seats (Breslow's
tie rule): a two-seat tie scores like one win and one loss for each side, pulling the two towards
equal strength (a Dead Man's Draw tie, where both players win, or a Tortuga nation). Ratings are
``R = 1500 + (400 / ln 10) (θ − θ(heuristic))``: the heuristic bot is 1500 by definition, and
between two seats a 400-point difference means 10:1 odds of winning (``P = 1 / (1 + 10^(−Δ/400))``;
200 points: 76%, 100 points: 64%). With ``n`` seats, seat ``s`` wins with probability
``10^(R(s)/400) / Σ 10^(R/400)``. A weak Gaussian prior (sd 1,000 points on every θ) keeps the
rating of an entry that never wins (or never loses) finite; with a few hundred games it moves the
others by well under a point.

Fit, in two stages: the references' ratings by maximum likelihood on the pool; then each other entry
alone on its placement, the references held at their ratings (:func:`place`: what ``rate`` does with a
new policy). Placements never move the references, so a new entry changes no other rating.

Intervals. 95% percentile bootstrap over games: each match's outcome counts are redrawn
(multinomially, from its own frequencies) and both stages refitted, ``BOOTSTRAP`` times with a fixed
seed (a placed entry's interval so includes the references' uncertainty); the anchor's interval is
``[1500, 1500]`` by definition.

Older ladders (version 1: each match one focal entry against ``n − 1`` copies of one opponent, outcome
keys ``"<focal winners>-<opponent winners>"``, no ``references``, no ``kind``) still load, fit (all
entries jointly, as they were) and rate.

``fit_ladder``, ``place``, ``play_match`` and the file's reading and writing are used by
``training.evaluation.rate``.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import math
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pirate_envs.cli import command_prog
from pirate_envs.core.registry import ENV_IDS, game_class
from pirate_envs.policies.spec import SEARCH_BOTS, parse_policy_spec
from pirate_envs.shipped import checkpoints_dir

from ..checkpoints import atomic_write_text
from ..inputs import InputError, exits_on_input_error

SCALE = 400.0 / math.log(10.0)  # rating points per unit of θ (Elo's logistic scale)
ANCHOR = "heuristic"
ANCHOR_RATING = 1500.0
PRIOR_SD = 1000.0 / SCALE  # the weak prior on θ, in θ units
BOOTSTRAP = 1000
NONE = "none"  # the winners of a game without a winner
LADDER_VERSION = 2
REFERENCES = ("random", "heuristic")  # the references of every ladder: fixed policies
V1_REFERENCES = ("random", "heuristic", "shipped")  # what rate played against a version-1 ladder
KINDS = ("random", "heuristic", "search", "agent", "agent+search")
TABLES = "one seat against references drawn at random for every other seat (the pool: every seat a reference)"
# search parameters whose value may name a network (a checkpoint or the shipped agent): such a search is
# "agent+search"; with random or heuristic values (or none) it is "search"
NETWORK_PARAMS = ("rollout", "prior", "value", "model", "network", "policy")
NETWORK_SEARCH = ("puct",)  # search bots guided by a network whatever their parameters
_ENUMERATE = 4096  # up to this many ordered fillings a match cycles through them all; beyond, it draws them


@dataclass(frozen=True)
class LadderPlan:
    """What a game's ladder plays: its search entries, references and games per match (module docstring)."""

    searches: tuple[str, ...]  # the search entries' specs (each its own label), in the order they are played
    games: int = 4800  # the shipped agent's placement (network games are cheap: a narrow interval)
    search_games: int = 240  # each search entry's placement
    seed: int = 0
    references: tuple[str, ...] = REFERENCES
    reference_games: int = 12000  # the pool

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LadderPlan:
        """The plan a ladder file records (lists back to tuples; an older plan's ``ismcts`` iterations and
        ``flatmc`` rollouts become its search specs)."""
        data = dict(data)
        if "searches" not in data:
            data["searches"] = [f"ismcts:iterations={k}" for k in data.pop("ismcts", ())] + [
                f"flatmc:rollouts={k},rollout=random" for k in data.pop("flatmc", ())
            ]
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items()})

    def to_json(self) -> dict[str, Any]:
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}


def search_budgets(
    ismcts: tuple[int, int], ismcts_random: tuple[int, int], flatmc: tuple[int, int], flatmc_random: tuple[int, int],
    puct: int,
) -> tuple[str, ...]:  # fmt: skip
    """A ladder's search entries: IS-MCTS (iterations) and flat Monte Carlo (rollouts per legal action), each with
    heuristic and with random rollouts at the two budgets given, then PUCT with the shipped agent's prior."""
    return (
        *(f"ismcts:iterations={k},rollout=heuristic" for k in ismcts),
        *(f"ismcts:iterations={k},rollout=random" for k in ismcts_random),
        *(f"flatmc:rollouts={k},rollout=heuristic" for k in flatmc),
        *(f"flatmc:rollouts={k},rollout=random" for k in flatmc_random),
        f"puct:iterations={puct}",
    )


# The search budgets are iteration counts that take about 0.005 s and 0.05 s a decision on one core of the
# build machine (benchmarks/search_budget.py measures them; the last, PUCT, about 0.05 s), so that a rating is
# reproducible on any machine. Games per match are multiples of the game's player count.
PLANS: dict[str, LadderPlan] = {
    "potsm_v0": LadderPlan(search_budgets((150, 1500), (700, 7000), (5, 50), (45, 450), 1500)),
    "dead_mans_draw_v0": LadderPlan(search_budgets((150, 1500), (1600, 16000), (50, 500), (450, 4500), 1300)),
    # the longest games (a seat's ~60 and ~40 decisions a game): fewer placement games
    "madame_ching_v0": LadderPlan(search_budgets((60, 600), (150, 1500), (15, 150), (40, 400), 600), search_games=120),
    "tortuga_v0": LadderPlan(search_budgets((30, 300), (800, 8000), (8, 80), (230, 2300), 300), search_games=180),
}


def ladder_path(env_id: str) -> Path:
    """``checkpoints/<env_id>/ladder.json`` (in a checkout, or the installed package's data)."""
    return checkpoints_dir() / env_id / "ladder.json"


def shipped_model(env_id: str) -> Path:
    return checkpoints_dir() / env_id / "model.zip"


def entries_of(env_id: str, plan: LadderPlan) -> dict[str, str]:
    """``{label: spec}`` of a ladder's entries; ``shipped`` is stored as a path relative to the repository."""
    entries = {"random": "random", "heuristic": "heuristic"}
    entries.update((spec, spec) for spec in plan.searches)
    entries["shipped"] = f"checkpoints/{env_id}/model.zip"
    return entries


def entry_kind(spec: str) -> str:
    """The :data:`KINDS` of an entry's spec: ``random``, ``heuristic``, ``search`` (a search bot with bot
    rollouts), ``agent+search`` (``puct``, or a search bot whose rollouts, prior or values name a network) or
    ``agent`` (a checkpoint, an RLlib module, the shipped agent or any other policy)."""
    parsed = parse_policy_spec(spec)
    if parsed.kind in ("random", "heuristic"):
        return parsed.kind
    if parsed.kind in NETWORK_SEARCH:
        return "agent+search"
    if parsed.kind in SEARCH_BOTS:
        params = dict(part.partition("=")[::2] for part in parsed.params.split(",") if part)
        networked = any(params.get(key, "random") not in ("random", "heuristic") for key in NETWORK_PARAMS)
        return "agent+search" if networked else "search"
    return "agent"


def schedule_of(env_id: str, plan: LadderPlan) -> list[tuple[str | None, int]]:
    """The matches ``(focal, games)``: first the references' pool (focal ``None``), then a placement of every
    other entry; match ``k`` is played with seed ``plan.seed + k``."""
    matches: list[tuple[str | None, int]] = [(None, plan.reference_games)]
    for label, spec in entries_of(env_id, plan).items():
        if label not in plan.references:
            searcher = parse_policy_spec(spec).kind in SEARCH_BOTS
            matches.append((label, plan.search_games if searcher else plan.games))
    return matches


def entry_checkpoint(spec: str) -> Path | None:
    """The checkpoint file an entry's spec names, None for a bot. Entries store the shipped model relative to
    the repository (``checkpoints/<env_id>/model.zip``); it is found in the shipped checkpoints folder, so
    the ladder may be read anywhere (a checkout or an installed wheel)."""
    parsed = parse_policy_spec(spec)
    if not parsed.on_disk:
        return None
    path = Path(parsed.path)
    return checkpoints_dir().joinpath(*path.parts[1:]) if path.parts[0] == "checkpoints" else path


def resolve_entry_spec(spec: str) -> str:
    """An entry's spec as a policy spec that works from any folder: a checkpoint's path is the file's own."""
    path = entry_checkpoint(spec)
    return spec if path is None else str(path)


def file_sha256(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


# --- tables and outcomes ---------------------------------------------------------------------------


def multiset_text(counts: Mapping[str, int]) -> str:
    """``"heuristic*2 + random"``: labels sorted, a count after ``*`` where above one."""
    return " + ".join(label if k == 1 else f"{label}*{k}" for label, k in sorted(counts.items()) if k > 0)


def parse_multiset(text: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for part in text.split(" + "):
        label, star, k = part.rpartition("*")
        label, k = (label, int(k)) if star and k.isdigit() else (part, 1)
        counts[label] = counts.get(label, 0) + k
    return counts


def outcome_key(record: Mapping[str, Any], labels: Sequence[str]) -> str:
    """``"<table> -> <winners>"`` of a tournament game record whose policy ``i`` is ``labels[i]``."""
    table = Counter(labels[p] for p in record["seats"])
    winners = list(record["winners"])
    if record.get("truncated") or not winners:
        return f"{multiset_text(table)} -> {NONE}"
    return f"{multiset_text(table)} -> {multiset_text(Counter(labels[record['seats'][s]] for s in winners))}"


def outcome_counts(records: Sequence[Mapping[str, Any]], labels: Sequence[str]) -> dict[str, int]:
    return dict(sorted(Counter(outcome_key(record, labels) for record in records).items()))


def parse_outcome(match: Mapping[str, Any], key: str, num_players: int) -> tuple[dict[str, int], dict[str, int]]:
    """The table (seats per label) and the winners (per label; empty without a winner) of an outcome key, of
    either version (version 1: ``"<focal winners>-<opponent winners>"``, a focal seat against ``n − 1``
    copies of the match's ``opponent``)."""
    if " -> " in key:
        table, _, winners = key.partition(" -> ")
        return parse_multiset(table), ({} if winners == NONE else parse_multiset(winners))
    table = {match["focal"]: 1}
    table[match["opponent"]] = table.get(match["opponent"], 0) + num_players - 1
    if key == NONE:
        return table, {}
    mine, _, theirs = key.partition("-")
    winners = {match["focal"]: int(mine)}
    winners[match["opponent"]] = winners.get(match["opponent"], 0) + int(theirs)
    return table, winners


def table_lineups(num_references: int, num_players: int, blocks: int, seed: int, focal: bool) -> list[tuple[int, ...]]:
    """The tables of a match, one per block of ``num_players`` games: policy indices per seat.

    With a ``focal`` policy (index 0) it holds the first place and every other place is one of the
    references ``1..m``; without (the pool), every place is a reference ``0..m-1`` and a table of one
    reference alone is left out. The ordered fillings come in shuffled cycles (each full cycle holds
    every filling once: the proportions of independent uniform draws), or are drawn independently where
    there are more than ``_ENUMERATE`` of them.
    """
    width = num_players - 1 if focal else num_players
    if num_references < (1 if focal else 2):
        raise InputError(f"a {'placement' if focal else 'pool'} needs {'a reference' if focal else 'two references'}")
    rng = np.random.default_rng([seed, 0x7AB1E])  # apart from the games' own seed streams
    fillings: list[tuple[int, ...]] = []
    if num_references**width <= _ENUMERATE:
        every = [t for t in itertools.product(range(num_references), repeat=width) if focal or len(set(t)) > 1]
        while len(fillings) < blocks:
            fillings += [every[i] for i in rng.permutation(len(every))]
    else:
        while len(fillings) < blocks:
            draw = tuple(int(x) for x in rng.integers(num_references, size=width))
            if focal or len(set(draw)) > 1:
                fillings.append(draw)
    return [(0, *(1 + p for p in t)) if focal else t for t in fillings[:blocks]]


def play_match(
    env_id: str, num_players: int, focal: tuple[str, Any] | None, references: Mapping[str, str], games: int,
    seed: int, workers: int = 1, progress: bool = False,
) -> dict[str, Any]:  # fmt: skip
    """Play one match and return its stored form: ``focal`` (``(label, spec)``) in one seat of every table and
    references (``{label: spec}``) drawn for the others, or without ``focal`` the references' pool; ``games``
    is rounded up to a multiple of ``num_players``. The one way ladder entries and ``rate`` play."""
    from .tournament import prepare_tournament

    started, cpu = time.perf_counter(), time.process_time()
    blocks = max(1, math.ceil(games / num_players))
    labels = ([focal[0]] if focal else []) + list(references)
    if len(set(labels)) != len(labels):
        raise InputError(f"the policy's label {focal and focal[0]!r} is also a reference's")
    specs = ([focal[1]] if focal else []) + [resolve_entry_spec(spec) for spec in references.values()]
    lineups = table_lineups(len(references), num_players, blocks, seed, focal is not None)
    tournament = prepare_tournament(
        env_id, num_players, dict(zip(labels, specs, strict=True)), blocks * num_players, seed, workers,
        keep_games=True, progress=progress, lineups=lineups,
    )  # fmt: skip
    result = tournament.run()
    return {
        "focal": focal[0] if focal else None,
        "references": list(references),
        "games": result["games"],
        "seed": seed,
        "outcomes": outcome_counts(result["game_records"], labels),
        "focal_win_rate": result["standings"][focal[0]]["win_rate"] if focal else None,
        "wall_seconds": round(time.perf_counter() - started, 1),
        # with worker processes their CPU time is not this process's
        "cpu_seconds": round(time.process_time() - cpu, 1) if tournament.workers == 1 else None,
    }


# --- the model -----------------------------------------------------------------------------------


@dataclass
class Observations:
    """Outcome rows of matches as arrays: seats and winners per entry (rows × entries), the number of games of
    each row, and which match it came from; ``draws`` tells the bootstrap how to redraw each match."""

    seats: np.ndarray
    wins: np.ndarray
    count: np.ndarray
    match: np.ndarray
    draws: list[tuple[np.ndarray, np.ndarray]]  # per match: its outcome counts and each outcome's row (-1: none)

    @classmethod
    def from_matches(cls, matches: Sequence[Mapping[str, Any]], index: Mapping[str, int], num_players: int):
        seats, wins, count, which, draws = [], [], [], [], []
        for m, match in enumerate(matches):
            totals, rows = [], []
            for key, games in match["outcomes"].items():
                table, winners = parse_outcome(match, key, num_players)
                totals.append(games)
                if not winners:
                    rows.append(-1)
                    continue
                unknown = (set(table) | set(winners)) - set(index)
                if unknown:
                    raise InputError(f"a match names {sorted(unknown)}, which are not entries of the ladder")
                rows.append(len(count))
                seats.append(np.bincount([index[k] for k in table], list(table.values()), len(index)))
                wins.append(np.bincount([index[k] for k in winners], list(winners.values()), len(index)))
                count.append(games)
                which.append(m)
            draws.append((np.array(totals, dtype=np.int64), np.array(rows, dtype=np.int64)))
        width = len(index)
        return cls(
            np.array(seats, dtype=float).reshape(-1, width),
            np.array(wins, dtype=float).reshape(-1, width),
            np.array(count, dtype=float),
            np.array(which, dtype=np.int64),
            draws,
        )

    def with_counts(self, count: np.ndarray) -> Observations:
        return Observations(self.seats, self.wins, count, self.match, self.draws)

    def rows(self, mask: np.ndarray) -> Observations:
        return Observations(self.seats[mask], self.wins[mask], self.count[mask], self.match[mask], self.draws)


def win_shares(theta: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """Each entry's share of a table's strength (its probability of providing one winner), per row."""
    strength = seats * np.exp(theta - theta.max())
    return strength / strength.sum(axis=1, keepdims=True)


def fit_thetas(
    num_entries: int,
    obs: Observations,
    free: np.ndarray | None = None,
    start: np.ndarray | None = None,
    prior_mean: np.ndarray | float | None = None,
) -> np.ndarray:
    """Maximum a posteriori θ by Newton's method (the log-likelihood is concave); ``free`` marks the fitted ones,
    the others keep their ``start``."""
    theta = np.zeros(num_entries) if start is None else np.array(start, dtype=float)
    free = np.ones(num_entries, dtype=bool) if free is None else np.asarray(free, dtype=bool)
    prior = np.zeros(num_entries) + (0.0 if prior_mean is None else np.asarray(prior_mean, dtype=float))
    weight = obs.count * obs.wins.sum(axis=1)  # games × winners per game: the draws of the model
    won = obs.count @ obs.wins
    for _ in range(100):
        p = win_shares(theta, obs.seats)
        grad = won - weight @ p - (theta - prior) / PRIOR_SD**2
        hess = np.einsum("r,ri,rj->ij", weight, p, p) - np.diag(weight @ p) - np.eye(num_entries) / PRIOR_SD**2
        step = np.zeros(num_entries)
        step[free] = np.linalg.solve(hess[np.ix_(free, free)], grad[free])
        largest = np.max(np.abs(step))
        if largest > 2.0:  # damped far from the optimum (two units of θ are 347 points)
            step *= 2.0 / largest
        theta -= step
        if largest < 1e-10:
            break
    return theta


@dataclass
class _Stages:
    """How a ladder is fitted: (rows, free entries, centre of the prior: 0, or the anchor's θ) per stage."""

    stages: list[tuple[np.ndarray, np.ndarray, bool]]
    anchor: int

    def solve(self, obs: Observations, num_entries: int, start: np.ndarray | None = None) -> np.ndarray:
        theta = np.zeros(num_entries) if start is None else np.array(start, dtype=float)
        for rows, free, anchored in self.stages:
            prior = theta[self.anchor] if anchored else None
            if anchored and start is None:
                theta[free] = theta[self.anchor]
            theta = fit_thetas(num_entries, obs.rows(rows), free, theta, prior)
        return theta


def _stages(
    labels: Sequence[str], matches: Sequence[Mapping[str, Any]], obs: Observations, references: Sequence[str] | None
) -> _Stages:
    index = {label: i for i, label in enumerate(labels)}
    everything = np.ones(len(obs.count), dtype=bool)
    if references is None:  # a version-1 ladder: every entry jointly
        return _Stages([(everything, np.ones(len(labels), dtype=bool), False)], index[ANCHOR])
    unknown = [r for r in references if r not in index]
    if unknown or ANCHOR not in references:
        raise ValueError(f"the references {list(references)} must be entries and hold the anchor {ANCHOR!r}")
    refs = np.isin(np.arange(len(labels)), [index[r] for r in references])
    focal = [match.get("focal") for match in matches]
    for m, label in enumerate(focal):
        seated = obs.seats[obs.match == m].sum(axis=0) > 0
        allowed = refs | (np.arange(len(labels)) == index.get(label, -1))
        if label in references or (seated & ~allowed).any():
            raise ValueError(f"match {m} is neither the references' pool nor one entry's placement against them")
    pool = np.isin(obs.match, [m for m, f in enumerate(focal) if f is None])
    stages = [(pool, refs, False)]
    for label in labels:
        if label not in references:
            rows = np.isin(obs.match, [m for m, f in enumerate(focal) if f == label])
            stages.append((rows, np.arange(len(labels)) == index[label], True))
    return _Stages(stages, index[ANCHOR])


def bootstrap_counts(obs: Observations, rng: np.random.Generator) -> np.ndarray:
    """One bootstrap draw of every row's count: each match's games redrawn from its own outcome frequencies."""
    count = np.zeros_like(obs.count)
    for totals, rows in obs.draws:
        if totals.sum() == 0:
            continue
        drawn = rng.multinomial(int(totals.sum()), totals / totals.sum())
        kept = rows >= 0
        count[rows[kept]] = drawn[kept]
    return count


def to_ratings(theta: np.ndarray, anchor: int) -> np.ndarray:
    return ANCHOR_RATING + SCALE * (theta - theta[anchor])


def fit_ladder(
    labels: Sequence[str],
    matches: Sequence[Mapping[str, Any]],
    num_players: int,
    bootstrap: int = BOOTSTRAP,
    seed: int = 0,
    references: Sequence[str] | None = None,
) -> dict[str, dict[str, Any]]:
    """Ratings with 95% bootstrap intervals of ``labels`` from ``matches``: ``{label: {"rating", "ci95"}}``.

    With ``references``: the two stages of the module docstring (the pool: matches with ``focal`` None;
    a placement: matches of one ``focal`` entry against references). Without: every entry jointly from
    every match (version-1 ladders).
    """
    index = {label: i for i, label in enumerate(labels)}
    if ANCHOR not in index:
        raise ValueError(f"a ladder needs the anchor entry {ANCHOR!r}")
    obs = Observations.from_matches(matches, index, num_players)
    stages = _stages(labels, matches, obs, references)
    theta = stages.solve(obs, len(labels))
    ratings = to_ratings(theta, index[ANCHOR])
    rng = np.random.default_rng(seed)
    draws = np.array(
        [
            to_ratings(stages.solve(obs.with_counts(bootstrap_counts(obs, rng)), len(labels), theta), index[ANCHOR])
            for _ in range(bootstrap)
        ]
    ).reshape(bootstrap, len(labels))
    low, high = np.percentile(draws, [2.5, 97.5], axis=0) if bootstrap else (ratings, ratings)
    return {
        label: {"rating": round(float(ratings[i]), 1), "ci95": [round(float(low[i]), 1), round(float(high[i]), 1)]}
        for label, i in index.items()
    }


def place(
    reference_ratings: Mapping[str, float], matches: Sequence[Mapping[str, Any]], num_players: int,
    bootstrap: int = BOOTSTRAP, seed: int = 0, label: str = "new",
) -> dict[str, Any]:  # fmt: skip
    """The rating (and 95% bootstrap interval) of one new policy from its ``matches`` against fixed references.

    The new policy (``label``) sits at the matches' tables with references only; the references keep
    their ladder ratings. The prior is centred on the anchor's rating. The ladder's second stage.
    """
    labels = [label, *reference_ratings]
    index = {name: i for i, name in enumerate(labels)}
    fixed = np.array([0.0, *((r - ANCHOR_RATING) / SCALE for r in reference_ratings.values())])
    free = np.zeros(len(labels), dtype=bool)
    free[0] = True
    obs = Observations.from_matches(matches, index, num_players)
    theta = fit_thetas(len(labels), obs, free=free, start=fixed, prior_mean=fixed)
    rng = np.random.default_rng(seed)
    draws = [
        fit_thetas(len(labels), obs.with_counts(bootstrap_counts(obs, rng)), free, theta, fixed)[0]
        for _ in range(bootstrap)
    ]
    rating = ANCHOR_RATING + SCALE * theta[0]
    low, high = (ANCHOR_RATING + SCALE * np.percentile(draws, [2.5, 97.5])) if bootstrap else (rating, rating)
    return {"rating": round(float(rating), 1), "ci95": [round(float(low), 1), round(float(high), 1)]}


def table_fit(
    match: Mapping[str, Any], focal: str, ratings: Mapping[str, float], num_players: int
) -> list[dict[str, Any]]:
    """The results of one ``focal`` seat per composition of the rest of the table, next to the model's
    expectation: ``[{"field", "games", "win_rate", "model"}]`` (win rates over the games with a winner; where
    ``focal`` holds several seats, per seat; with several winners, the model's expected winners per seat)."""
    rows: dict[str, list[float]] = {}
    labels = list(ratings)
    theta = np.array([(ratings[label] - ANCHOR_RATING) / SCALE for label in labels])
    for key, games in match["outcomes"].items():
        table, winners = parse_outcome(match, key, num_players)
        field = dict(table)
        field[focal] -= 1
        row = rows.setdefault(multiset_text(field), [0, 0, 0.0, 0.0])
        row[0] += games
        if winners:
            seats = np.array([[table.get(label, 0) for label in labels]], dtype=float)
            share = win_shares(theta, seats)[0][labels.index(focal)]
            row[1] += games
            row[2] += games * winners.get(focal, 0) / table[focal]
            row[3] += games * sum(winners.values()) * share / table[focal]
    return [
        {
            "field": field,
            "games": int(total),
            "win_rate": round(float(won / decided), 3) if decided else None,
            "model": round(float(expected / decided), 3) if decided else None,
        }
        for field, (total, decided, won, expected) in sorted(rows.items())
    ]


def win_probability(rating: float, other: float, num_players: int = 2) -> float:
    """The probability that one seat rated ``rating`` wins against ``num_players − 1`` seats rated ``other``, by
    the ladder's model: ``1 / (1 + (n − 1) · 10^((other − rating) / 400))`` (two seats: Elo's formula)."""
    return 1.0 / (1.0 + (num_players - 1) * 10.0 ** ((other - rating) / 400.0))


# --- files ---------------------------------------------------------------------------------------


def load_ladder(env_id: str, path: str | Path | None = None) -> dict[str, Any]:
    """The shipped ladder of ``env_id`` (or the file at ``path``); a missing or broken one is an InputError.
    Entries of older files without a ``kind`` get the one their spec implies."""
    path = Path(path) if path is not None else ladder_path(env_id)
    try:
        data = json.loads(path.read_text())
        if not isinstance(data["entries"], dict) or not isinstance(data["matches"], list):
            raise TypeError("entries must be a mapping and matches a list")
        for entry in data["entries"].values():
            entry.setdefault("kind", entry_kind(entry["spec"]))
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise InputError(
            f"no usable ladder for {env_id} at {path} ({type(exc).__name__}: {exc}); "
            f"build it with: python -m training.evaluation.ladder --env {env_id}"
        ) from None
    if data.get("env_id") != env_id:
        raise InputError(f"{path} is the ladder of {data.get('env_id')!r}, not of {env_id!r}")
    return data


def ladder_references(ladder: Mapping[str, Any]) -> list[str]:
    """The entries a policy is rated against: the ladder's references (a version-1 ladder: those of
    :data:`V1_REFERENCES` it has)."""
    if ladder.get("references"):
        return list(ladder["references"])
    return [r for r in V1_REFERENCES if r in ladder["entries"]]


def build_ladder(
    env_id: str, replay: Sequence[str] = (), refit_only: bool = False, workers: int = 1, progress: bool = False,
    say=print, plan: LadderPlan | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Play (all, or only the matches of the ``replay`` entries, keeping the rest) and fit a game's ladder.

    Replaying a reference replays every match (every table holds references)."""
    if plan is None and env_id not in PLANS:
        raise InputError(f"unknown env id {env_id!r}; ladders exist for: {', '.join(PLANS)}")
    plan = plan or PLANS[env_id]
    entries = entries_of(env_id, plan)
    references = {label: entries[label] for label in plan.references}
    num_players = game_class(env_id)().num_players
    unknown = [label for label in replay if label not in entries]
    if unknown:
        raise InputError(f"--replay: unknown entries {unknown}; the ladder's entries are: {', '.join(entries)}")
    old: dict[str | None, Mapping[str, Any]] = {}
    if replay or refit_only:
        previous = load_ladder(env_id)
        if previous.get("references") != list(plan.references):
            raise InputError(f"the stored {env_id} ladder was played at other tables (version 1); rebuild it all")
        old = {m["focal"]: m for m in previous["matches"]}
    replay_all = bool(set(replay) & set(plan.references))
    matches = []
    for k, (focal, games) in enumerate(schedule_of(env_id, plan)):
        stored = old.get(focal)
        if stored is not None and (refit_only or not (replay_all or focal in replay)):
            if stored["games"] != games or stored["seed"] != plan.seed + k:
                raise InputError(
                    f"the stored match of {focal or 'the pool'} was played with another plan; rebuild it all"
                )
            matches.append(stored)
            continue
        if refit_only:
            raise InputError(f"the stored ladder lacks the match of {focal or 'the pool'}; rebuild it all")
        what = "the references' pool" if focal is None else f"{focal} against references"
        say(f"{env_id}: {what} ({', '.join(references)}), {games} games (seed {plan.seed + k})")
        match = play_match(
            env_id, num_players, None if focal is None else (focal, resolve_entry_spec(entries[focal])),
            references, games, plan.seed + k, workers, progress,
        )  # fmt: skip
        rate = "" if focal is None else f"focal win rate {match['focal_win_rate']:.3f}, "
        say(f"  {rate}{len(match['outcomes'])} kinds of outcome ({match['wall_seconds']} s)")
        matches.append(match)
    fitted = fit_ladder(list(entries), matches, num_players, seed=plan.seed, references=plan.references)
    table = {}
    for label, spec in entries.items():
        mine = [m for m in matches if m["focal"] == (None if label in references else label)]
        table[label] = {
            "spec": spec,
            "kind": entry_kind(spec),
            "role": "reference" if label in references else "placed",
            **fitted[label],
            "games": sum(m["games"] for m in mine),
            "seeds": sorted({m["seed"] for m in mine}),
        }
    return {
        "version": LADDER_VERSION,
        "env_id": env_id,
        "num_players": num_players,
        "anchor": {"entry": ANCHOR, "rating": ANCHOR_RATING},
        "references": list(plan.references),
        "tables": TABLES,
        "scale": "first-place Plackett-Luce; two seats: P(win) = 1 / (1 + 10^(-diff/400))",
        "plan": plan.to_json(),
        "shipped_sha256": file_sha256(shipped_model(env_id)),
        "bootstrap": BOOTSTRAP,
        "entries": table,
        "matches": matches,
        "wall_seconds": round(sum(m.get("wall_seconds") or 0.0 for m in matches), 1),
        # None when a match was timed by the wall clock only (played with workers)
        "cpu_seconds": (
            round(sum(m["cpu_seconds"] for m in matches), 1)
            if all(m.get("cpu_seconds") is not None for m in matches)
            else None
        ),
    }


def ladder_markdown(ladder: Mapping[str, Any]) -> str:
    references = ", ".join(f"`{r}`" for r in ladder_references(ladder))
    lines = [
        f"## Ladder: {ladder['env_id']}, {ladder['num_players']} players (heuristic = 1500; references {references})",
        "",
        "| entry | kind | rating | 95% CI | games |",
        "|---|---|---|---|---|",
    ]
    ranked = sorted(ladder["entries"].items(), key=lambda item: -item[1]["rating"])
    for label, entry in ranked:
        low, high = entry["ci95"]
        lines.append(
            f"| `{label}` | {entry['kind']} | {entry['rating']:.0f} | [{low:.0f}, {high:.0f}] | {entry['games']} |"
        )
    return "\n".join(lines) + "\n"


def write_ladder(ladder: Mapping[str, Any], path: Path) -> None:
    atomic_write_text(path, json.dumps(ladder, indent=1) + "\n")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=command_prog(__spec__.name),
        description="Build (or refit) a game's reference ladder: " + __doc__.split("\n")[0],
    )
    parser.add_argument(
        "--env", required=True, nargs="+", metavar="ENV_ID", help=f"one or more of: {', '.join(ENV_IDS)}"
    )
    parser.add_argument(
        "--replay",
        nargs="+",
        default=[],
        metavar="ENTRY",
        help="replay only the matches of these entries (e.g. shipped)",
    )
    parser.add_argument("--refit", action="store_true", help="refit the stored match table; play nothing")
    parser.add_argument("--workers", type=int, default=1, help="parallel processes per match (default 1)")
    parser.add_argument("--out", default=None, help="write here instead of checkpoints/<env_id>/ladder.json (one env)")
    parser.add_argument("--progress", action="store_true", help="show a progress bar on stderr")
    return parser


@exits_on_input_error
def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.out and len(args.env) > 1:
        raise InputError("--out takes one --env")
    for env_id in args.env:
        ladder = build_ladder(env_id, args.replay, args.refit, args.workers, args.progress)
        path = Path(args.out) if args.out else ladder_path(env_id)
        write_ladder(ladder, path)
        print(ladder_markdown(ladder), end="")
        cpu = "" if ladder["cpu_seconds"] is None else f", {ladder['cpu_seconds']} s of CPU"
        print(f"wrote {path} ({ladder['wall_seconds']} s of play{cpu})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
