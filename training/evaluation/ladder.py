"""Reference ladders: one fixed rating scale per game, fitted from a recorded match table.

    python -m training.evaluation.ladder --env dead_mans_draw_v0            # play the whole table, refit, write
    python -m training.evaluation.ladder --env potsm_v0 --replay shipped     # replay only the shipped agent's matches
    python -m training.evaluation.ladder --env tortuga_v0 --refit            # refit the stored table, play nothing

A ladder (``checkpoints/<env_id>/ladder.json``, beside the shipped agent it rates) holds the game's
reference entries at its default player count — ``random``, ``heuristic``, IS-MCTS and flat Monte
Carlo at two budgets each, and ``shipped`` (``checkpoints/<env_id>/model.zip``) — the match table
they played and the ratings fitted from it.

Matches. A match is one seat-rotated tournament (``training.evaluation.tournament``) of a *focal* entry in one
seat against ``n − 1`` copies of an *opponent* entry, with its own seed. Only whom each game's
winners were matters to the model, so a match is stored as the count of each outcome
``"<focal winners>-<opponent winners>"`` (``"1-0"``: the focal seat won; ``"0-2"``: two opponent
seats won, e.g. a Tortuga nation; ``"1-1"``: a Dead Man's Draw tie), plus ``"none"`` for games
without a winner (truncated or no winner), which carry no information about strength.

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

Intervals. 95% percentile bootstrap over games: each match's outcome counts are redrawn
(multinomially, from its own frequencies) and the ladder refitted, ``BOOTSTRAP`` times with a fixed
seed; the anchor's interval is ``[1500, 1500]`` by definition.

``fit_ladder``, ``place`` (one new policy against fixed references) and the file's reading and
writing are used by ``training.evaluation.rate``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
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
NONE = "none"  # outcome key of a game without a winner
LADDER_VERSION = 1


@dataclass(frozen=True)
class LadderPlan:
    """What a game's ladder plays: search budgets and games per match (see the module docstring)."""

    ismcts: tuple[int, int]  # iterations (random rollouts)
    flatmc: tuple[int, int]  # rollouts per legal action (random rollouts)
    games: int = 400  # per match between the cheap entries (random, heuristic, shipped)
    search_games: int = 40  # per match of a search bot (against random, and against heuristic)
    seed: int = 0


# Budgets chosen so that all four ladders cost about 10-15 minutes of one core (docs/evaluation.md).
PLANS: dict[str, LadderPlan] = {
    "potsm_v0": LadderPlan(ismcts=(10, 40), flatmc=(1, 4), search_games=48),
    "dead_mans_draw_v0": LadderPlan(ismcts=(10, 40), flatmc=(2, 8), search_games=60),
    "madame_ching_v0": LadderPlan(ismcts=(2, 5), flatmc=(1, 2), search_games=28),
    "tortuga_v0": LadderPlan(ismcts=(5, 20), flatmc=(1, 3), search_games=36),
}


def ladder_path(env_id: str) -> Path:
    """``checkpoints/<env_id>/ladder.json`` (in a checkout, or the installed package's data)."""
    return checkpoints_dir() / env_id / "ladder.json"


def shipped_model(env_id: str) -> Path:
    return checkpoints_dir() / env_id / "model.zip"


def entries_of(env_id: str, plan: LadderPlan) -> dict[str, str]:
    """``{label: spec}`` of a ladder's entries; ``shipped`` is stored as a path relative to the repository."""
    entries = {"random": "random", "heuristic": "heuristic"}
    for iterations in plan.ismcts:
        entries[f"ismcts:iterations={iterations}"] = f"ismcts:iterations={iterations}"
    for rollouts in plan.flatmc:
        entries[f"flatmc:rollouts={rollouts},rollout=random"] = f"flatmc:rollouts={rollouts},rollout=random"
    entries["shipped"] = f"checkpoints/{env_id}/model.zip"
    return entries


def schedule_of(env_id: str, plan: LadderPlan) -> list[tuple[str, str, int]]:
    """The matches ``(focal, opponent, games)``: search bots hold the single seat (their searches cost)."""
    matches = [
        ("heuristic", "random", plan.games),
        ("shipped", "random", plan.games),
        ("shipped", "heuristic", plan.games),
    ]
    searchers = [label for label in entries_of(env_id, plan) if parse_policy_spec(label).kind in SEARCH_BOTS]
    matches += [(label, opponent, plan.search_games) for label in searchers for opponent in ("random", "heuristic")]
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


# --- outcomes ------------------------------------------------------------------------------------


def outcome_key(record: Mapping[str, Any], focal: int = 0) -> str:
    """``"<focal winners>-<other winners>"`` of a tournament game record, or ``"none"`` without a winner."""
    winners = list(record["winners"])
    if record.get("truncated") or not winners:
        return NONE
    mine = sum(record["seats"][seat] == focal for seat in winners)
    return f"{mine}-{len(winners) - mine}"


def outcome_counts(records: Sequence[Mapping[str, Any]], focal: int = 0) -> dict[str, int]:
    counts: dict[str, int] = {}
    for record in records:
        key = outcome_key(record, focal)
        counts[key] = counts.get(key, 0) + 1
    return dict(sorted(counts.items()))


def _parse_key(key: str) -> tuple[int, int]:
    mine, _, theirs = key.partition("-")
    return int(mine), int(theirs)


@dataclass
class Observations:
    """Outcome rows of matches: entry indices, seat counts, winners and counts (games), as arrays."""

    focal: np.ndarray
    other: np.ndarray
    focal_seats: np.ndarray
    other_seats: np.ndarray
    focal_wins: np.ndarray
    other_wins: np.ndarray
    count: np.ndarray
    match: np.ndarray  # which match each row came from (for the bootstrap)

    @classmethod
    def from_matches(cls, matches: Sequence[Mapping[str, Any]], index: Mapping[str, int], num_players: int):
        rows: list[tuple[int, ...]] = []
        for m, match in enumerate(matches):
            for key, count in match["outcomes"].items():
                if key == NONE:
                    continue
                mine, theirs = _parse_key(key)
                rows.append(
                    (index[match["focal"]], index[match["opponent"]], 1, num_players - 1, mine, theirs, count, m)
                )
        columns = np.array(rows, dtype=np.int64).reshape(-1, 8).T
        return cls(*[np.asarray(c) for c in columns])

    def with_counts(self, count: np.ndarray) -> Observations:
        return Observations(
            self.focal,
            self.other,
            self.focal_seats,
            self.other_seats,
            self.focal_wins,
            self.other_wins,
            count,
            self.match,
        )


def _win_shares(theta: np.ndarray, obs: Observations) -> np.ndarray:
    """The focal side's probability of providing each winner, per row."""
    a = np.log(obs.focal_seats) + theta[obs.focal]
    b = np.log(obs.other_seats) + theta[obs.other]
    return 1.0 / (1.0 + np.exp(b - a))


def fit_thetas(
    num_entries: int,
    obs: Observations,
    free: np.ndarray | None = None,
    start: np.ndarray | None = None,
    prior_mean: np.ndarray | None = None,
) -> np.ndarray:
    """Maximum a posteriori θ by Newton's method (the log-likelihood is concave); ``free`` marks the fitted ones."""
    theta = np.zeros(num_entries) if start is None else np.array(start, dtype=float)
    free = np.ones(num_entries, dtype=bool) if free is None else np.asarray(free, dtype=bool)
    prior = np.zeros(num_entries) if prior_mean is None else np.asarray(prior_mean, dtype=float)
    winners = obs.focal_wins + obs.other_wins
    for _ in range(100):
        p = _win_shares(theta, obs)
        g_row = obs.count * (obs.focal_wins - winners * p)  # d loglik / d θ(focal); minus for the other side
        h_row = obs.count * winners * p * (1.0 - p)
        grad = np.bincount(obs.focal, g_row, num_entries) - np.bincount(obs.other, g_row, num_entries)
        grad -= (theta - prior) / PRIOR_SD**2
        hess = np.zeros((num_entries, num_entries))
        np.add.at(hess, (obs.focal, obs.focal), -h_row)
        np.add.at(hess, (obs.other, obs.other), -h_row)
        np.add.at(hess, (obs.focal, obs.other), h_row)
        np.add.at(hess, (obs.other, obs.focal), h_row)
        hess -= np.eye(num_entries) / PRIOR_SD**2
        step = np.zeros(num_entries)
        step[free] = np.linalg.solve(hess[np.ix_(free, free)], grad[free])
        theta -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    return theta


def bootstrap_counts(obs: Observations, matches: Sequence[Mapping[str, Any]], rng: np.random.Generator) -> np.ndarray:
    """One bootstrap draw of every row's count: each match's games redrawn from its own outcome frequencies."""
    count = np.zeros_like(obs.count)
    for m, match in enumerate(matches):
        keys = list(match["outcomes"])
        totals = np.array([match["outcomes"][k] for k in keys], dtype=float)
        drawn = dict(zip(keys, rng.multinomial(int(totals.sum()), totals / totals.sum()), strict=True))
        rows = np.flatnonzero(obs.match == m)
        for row in rows:
            key = f"{obs.focal_wins[row]}-{obs.other_wins[row]}"
            count[row] = drawn[key]
    return count


def to_ratings(theta: np.ndarray, anchor: int) -> np.ndarray:
    return ANCHOR_RATING + SCALE * (theta - theta[anchor])


def fit_ladder(
    labels: Sequence[str],
    matches: Sequence[Mapping[str, Any]],
    num_players: int,
    bootstrap: int = BOOTSTRAP,
    seed: int = 0,
) -> dict[str, dict[str, Any]]:
    """Ratings with 95% bootstrap intervals of ``labels`` from ``matches``: ``{label: {"rating", "ci95"}}``."""
    index = {label: i for i, label in enumerate(labels)}
    if ANCHOR not in index:
        raise ValueError(f"a ladder needs the anchor entry {ANCHOR!r}")
    obs = Observations.from_matches(matches, index, num_players)
    theta = fit_thetas(len(labels), obs)
    ratings = to_ratings(theta, index[ANCHOR])
    rng = np.random.default_rng(seed)
    draws = np.array(
        [
            to_ratings(
                fit_thetas(len(labels), obs.with_counts(bootstrap_counts(obs, matches, rng)), start=theta),
                index[ANCHOR],
            )
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

    Every match has the new policy (``label``) as its focal entry and a reference as the opponent;
    the references keep their ladder ratings. The prior is centred on the anchor's rating.
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
        fit_thetas(len(labels), obs.with_counts(bootstrap_counts(obs, matches, rng)), free, theta, fixed)[0]
        for _ in range(bootstrap)
    ]
    rating = ANCHOR_RATING + SCALE * theta[0]
    low, high = (ANCHOR_RATING + SCALE * np.percentile(draws, [2.5, 97.5])) if bootstrap else (rating, rating)
    return {"rating": round(float(rating), 1), "ci95": [round(float(low), 1), round(float(high), 1)]}


def win_probability(rating: float, other: float, num_players: int = 2) -> float:
    """The probability that one seat rated ``rating`` wins against ``num_players − 1`` seats rated ``other``, by
    the ladder's model: ``1 / (1 + (n − 1) · 10^((other − rating) / 400))`` (two seats: Elo's formula)."""
    return 1.0 / (1.0 + (num_players - 1) * 10.0 ** ((other - rating) / 400.0))


# --- building -------------------------------------------------------------------------------------


def play_match(
    env_id: str, num_players: int, focal: tuple[str, str], opponent: tuple[str, str], games: int, seed: int,
    workers: int = 1, progress: bool = False,
) -> dict[str, Any]:  # fmt: skip
    """Play one match (``(label, spec)`` of each side) and return its stored form."""
    from .tournament import run_tournament

    started, cpu = time.perf_counter(), time.process_time()
    policies = {focal[0]: resolve_entry_spec(focal[1]), opponent[0]: resolve_entry_spec(opponent[1])}
    result = run_tournament(env_id, num_players, policies, games, seed, workers, keep_games=True, progress=progress)
    return {
        "focal": focal[0],
        "opponent": opponent[0],
        "games": games,
        "seed": seed,
        "outcomes": outcome_counts(result["game_records"]),
        "focal_win_rate": result["standings"][focal[0]]["win_rate"],
        "wall_seconds": round(time.perf_counter() - started, 1),
        # with worker processes their CPU time is not this process's
        "cpu_seconds": round(time.process_time() - cpu, 1) if workers == 1 else None,
    }


def load_ladder(env_id: str, path: str | Path | None = None) -> dict[str, Any]:
    """The shipped ladder of ``env_id`` (or the file at ``path``); a missing or broken one is an InputError."""
    path = Path(path) if path is not None else ladder_path(env_id)
    try:
        data = json.loads(path.read_text())
        if not isinstance(data["entries"], dict) or not isinstance(data["matches"], list):
            raise TypeError("entries must be a mapping and matches a list")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(
            f"no usable ladder for {env_id} at {path} ({type(exc).__name__}: {exc}); "
            f"build it with: python -m training.evaluation.ladder --env {env_id}"
        ) from None
    if data.get("env_id") != env_id:
        raise InputError(f"{path} is the ladder of {data.get('env_id')!r}, not of {env_id!r}")
    return data


def build_ladder(
    env_id: str, replay: Sequence[str] = (), refit_only: bool = False, workers: int = 1, progress: bool = False,
    say=print,
) -> dict[str, Any]:  # fmt: skip
    """Play (all, or only the matches of the ``replay`` entries, keeping the rest) and fit a game's ladder."""
    if env_id not in PLANS:
        raise InputError(f"unknown env id {env_id!r}; ladders exist for: {', '.join(PLANS)}")
    plan = PLANS[env_id]
    entries = entries_of(env_id, plan)
    num_players = game_class(env_id)().num_players
    unknown = [label for label in replay if label not in entries]
    if unknown:
        raise InputError(f"--replay: unknown entries {unknown}; the ladder's entries are: {', '.join(entries)}")
    old = {}
    if replay or refit_only:
        previous = load_ladder(env_id)
        old = {(m["focal"], m["opponent"]): m for m in previous["matches"]}
    matches = []
    for k, (focal, opponent, games) in enumerate(schedule_of(env_id, plan)):
        stored = old.get((focal, opponent))
        if stored is not None and (refit_only or not ({focal, opponent} & set(replay))):
            if stored["games"] != games or stored["seed"] != plan.seed + k:
                raise InputError(f"the stored match {focal} vs {opponent} was played with another plan; rebuild it all")
            matches.append(stored)
            continue
        if refit_only:
            raise InputError(f"the stored ladder lacks the match {focal} vs {opponent}; rebuild it all")
        say(f"{env_id}: {focal} vs {num_players - 1} x {opponent}, {games} games (seed {plan.seed + k})")
        match = play_match(
            env_id, num_players, (focal, entries[focal]), (opponent, entries[opponent]), games, plan.seed + k,
            workers, progress,
        )  # fmt: skip
        say(f"  focal win rate {match['focal_win_rate']:.3f}, outcomes {match['outcomes']} ({match['wall_seconds']} s)")
        matches.append(match)
    fitted = fit_ladder(list(entries), matches, num_players, seed=plan.seed)
    table = {}
    for label, spec in entries.items():
        mine = [m for m in matches if label in (m["focal"], m["opponent"])]
        table[label] = {
            "spec": spec,
            **fitted[label],
            "games": sum(m["games"] for m in mine),
            "seeds": sorted({m["seed"] for m in mine}),
        }
    return {
        "version": LADDER_VERSION,
        "env_id": env_id,
        "num_players": num_players,
        "anchor": {"entry": ANCHOR, "rating": ANCHOR_RATING},
        "scale": "first-place Plackett-Luce; two seats: P(win) = 1 / (1 + 10^(-diff/400))",
        "plan": {
            "ismcts": list(plan.ismcts),
            "flatmc": list(plan.flatmc),
            "games": plan.games,
            "search_games": plan.search_games,
            "seed": plan.seed,
        },
        "shipped_sha256": file_sha256(shipped_model(env_id)),
        "bootstrap": BOOTSTRAP,
        "entries": table,
        "matches": matches,
        "wall_seconds": round(sum(m.get("wall_seconds") or 0.0 for m in matches), 1),
        # None when a match was timed by the wall clock only (played with workers, or by the first build)
        "cpu_seconds": (
            round(sum(m["cpu_seconds"] for m in matches), 1)
            if all(m.get("cpu_seconds") is not None for m in matches)
            else None
        ),
    }


def ladder_markdown(ladder: Mapping[str, Any]) -> str:
    lines = [
        f"## Ladder: {ladder['env_id']}, {ladder['num_players']} players (heuristic = 1500)",
        "",
        "| entry | rating | 95% CI | games |",
        "|---|---|---|---|",
    ]
    ranked = sorted(ladder["entries"].items(), key=lambda item: -item[1]["rating"])
    for label, entry in ranked:
        low, high = entry["ci95"]
        lines.append(f"| `{label}` | {entry['rating']:.0f} | [{low:.0f}, {high:.0f}] | {entry['games']} |")
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
