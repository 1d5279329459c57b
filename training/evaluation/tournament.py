"""Seat-rotated, seeded tournaments between policies on any registered game.

A tournament is prepared once (:func:`prepare_tournament` validates the env id, player count,
rule options and every policy, all specs cheaply before any checkpoint is loaded, raising
:class:`InputError` — a ``ValueError`` — with a clear message) and then run
(:meth:`Tournament.run`), in this process or in ``workers`` spawned processes.
:func:`run_tournament` does both.

Seating. Policy ``i`` of ``P`` policies at ``n`` seats:

- ``P <= n``: a *lineup* holds the first (focal) policy once and fills the other ``n - 1``
  places with the others in turn (``[A, B, B, B]`` for A vs 3 B; ``[A, B, C, D]`` for four
  policies); successive blocks of ``n`` games use the distinct orders of the filled places;
- ``P > n``: the lineups are all ``n``-subsets of the policies;
- or given lineups (``lineups=``, one per block of ``n`` games, cycled): the reference ladders' tables
  (:mod:`training.evaluation.ladder`) fill the seats this way;
- within a block, game ``g`` rotates the lineup by ``g mod n`` seats, so every policy plays
  every seat equally often (exactly so whenever ``games`` is a multiple of ``n``, or of
  ``n × C(P, n)`` when ``P > n``; the result says whether the seating was ``balanced``).

Seeding. Game ``g`` of a tournament with ``seed`` draws everything from
``SeedSequence(seed, spawn_key=(g,))``: the game's own seed and one ``numpy`` generator per
seat for the policies. A game's outcome therefore depends only on ``(seed, g)`` and the
policies, never on ``workers`` or on which process played it.

Replays. With ``replays=DIR`` every game is also written as ``DIR/game-NNNNN.json`` (a
:class:`pirate_envs.core.replay.Replay`: env id, options, the engine seed, the policy of each seat,
the actions and the outcome), which re-simulates exactly through the engine.
"""

from __future__ import annotations

import itertools
import multiprocessing
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pirate_envs.core.errors import IllegalActionError
from pirate_envs.core.replay import Replay, outcome_of, replay_from_dict, save_replay
from pirate_envs.policies.base import choose_action

from ..inputs import InputError, check_policy_spec, load_policy, make_game, policy_label
from .stats import openskill_ratings, placements, wilson_interval

# --- seating and seeding ------------------------------------------------------------------------


def lineups(num_policies: int, num_players: int) -> list[tuple[int, ...]]:
    """The policy lineups the seating cycles through (see the module docstring)."""
    if num_policies > num_players:
        return list(itertools.combinations(range(num_policies), num_players))
    others = max(num_policies - 1, 1)
    fill = [(1 + i % others) if num_policies > 1 else 0 for i in range(num_players - 1)]
    return [(0, *order) for order in sorted(set(itertools.permutations(fill)))]


def seating(
    game_index: int, num_policies: int, num_players: int, cycle: Sequence[tuple[int, ...]] | None = None
) -> tuple[int, ...]:
    """Policy index per seat for game ``game_index`` (``cycle``: the lineups, by default :func:`lineups`)."""
    cycle = cycle or lineups(num_policies, num_players)
    lineup = cycle[(game_index // num_players) % len(cycle)]
    shift = game_index % num_players
    return tuple(lineup[(seat - shift) % num_players] for seat in range(num_players))


def game_seeds(seed: int, game_index: int, num_players: int) -> tuple[int, list[np.random.Generator]]:
    """The engine seed of game ``game_index`` and one policy RNG per seat."""
    children = np.random.SeedSequence(seed, spawn_key=(game_index,)).spawn(num_players + 1)
    engine_seed = int(children[0].generate_state(1, np.uint64)[0])
    return engine_seed, [np.random.default_rng(child) for child in children[1:]]


# --- playing -------------------------------------------------------------------------------------


def play_seated_game(
    game: Any,
    policies: Sequence[Any],
    labels: Sequence[str],
    seats: Sequence[int],
    seed: int,
    game_index: int,
    record_actions: bool = False,
) -> dict:
    """Play game ``game_index`` of a tournament, policy ``seats[s]`` at seat ``s``; return its JSON-safe record
    (with ``record_actions``, also the game's ``replay``: see :mod:`pirate_envs.core.replay`)."""
    engine_seed, rngs = game_seeds(seed, game_index, game.num_players)
    state = game.new_initial_state(engine_seed)
    actions: list[int] = []
    while not state.is_terminal():
        seat = state.current_player()
        policy = policies[seats[seat]]
        action = choose_action(policy, state, seat, rngs[seat])
        try:
            state.apply_action(int(action))
        except IllegalActionError as exc:
            who = labels[seats[seat]]
            raise IllegalActionError(f"policy {who} (seat {seat}) chose an illegal action: {exc}") from exc
        if record_actions:
            actions.append(int(action))
    returns = [float(r) for r in state.returns()]
    scores = [float(s) for s in state.scores()]
    winners = state.winners()
    record = {
        "game": game_index,
        "seats": list(seats),
        "returns": returns,
        "scores": scores,
        "winners": winners,
        "places": placements(returns, scores, winners),
        "truncated": bool(state.is_truncated()),
        "decisions": int(state.decisions),
    }
    if record_actions:
        record["replay"] = Replay(
            env_id=game.game_id,
            options={"num_players": game.num_players, **game.options},
            seed=engine_seed,
            policies=[labels[p] for p in seats],
            actions=actions,
            outcome=outcome_of(state),
            source={"tournament_seed": seed, "game": game_index},
        ).to_dict()
    return record


def write_replays(directory: str | Path, records: list[dict]) -> None:
    """Move each record's ``replay`` into ``directory/game-NNNNN.json`` (the summary keeps no actions)."""
    for record in records:
        data = record.pop("replay", None)
        if data is not None:
            save_replay(replay_from_dict(data), Path(directory) / f"game-{record['game']:05d}.json")


# Per-process state of a worker: (game, policies) per tournament, built once by _init_worker.
_worker: list[tuple[Any, list[Any]]] = []


def _init_worker(setups: list[tuple[str, int, dict, list[Any]]]) -> None:
    """Build each tournament's game and policies, from (env_id, num_players, options, specs)."""
    for env_id, num_players, options, specs in setups:
        game = make_game(env_id, num_players, options)
        _worker.append((game, [load_policy(spec, game) for spec in specs]))
    torch = sys.modules.get("torch")  # loaded by a checkpoint policy, if any
    if torch is not None:
        torch.set_num_threads(1)  # one thread per worker: the processes are the parallelism


def _play_chunk(task: tuple[int, int, list[tuple[int, tuple[int, ...]]], list[str], bool]) -> tuple[int, list[dict]]:
    which, seed, games, labels, record_actions = task
    game, policies = _worker[which]
    return which, [play_seated_game(game, policies, labels, seats, seed, g, record_actions) for g, seats in games]


# --- preparing and running -----------------------------------------------------------------------


def _unique(labels: list[str]) -> list[str]:
    """``labels`` with repeats numbered (``random``, ``random#2``) so each policy keeps its own line."""
    out: list[str] = []
    for label in labels:
        candidate, k = label, 2
        while candidate in out:
            candidate, k = f"{label}#{k}", k + 1
        out.append(candidate)
    return out


@dataclass
class Tournament:
    """A validated tournament, ready to :meth:`run` (build it with :func:`prepare_tournament`)."""

    game: Any
    labels: list[str]
    specs: list[Any]
    policies: list[Any]
    games: int
    seed: int
    workers: int = 1
    keep_games: bool = False
    progress: bool = False
    replays: str | None = None  # a folder: one replay file per game
    lineups: list[tuple[int, ...]] | None = None  # one per block of num_players games (default: lineups())

    @property
    def env_id(self) -> str:
        return self.game.game_id

    @property
    def num_players(self) -> int:
        return self.game.num_players

    def schedule(self) -> list[tuple[int, tuple[int, ...]]]:
        cycle = self.lineups or lineups(len(self.policies), self.num_players)
        return [(g, seating(g, len(self.policies), self.num_players, cycle)) for g in range(self.games)]

    def run(self) -> dict:
        """Play every game and return the result dict (see :func:`summarize`)."""
        return run_prepared([self])[0]


def run_prepared(tournaments: Sequence[Tournament]) -> list[dict]:
    """Run prepared tournaments, sharing one pool of ``max(workers)`` processes; one result each."""
    started = time.perf_counter()
    schedules = [t.schedule() for t in tournaments]
    workers = max(t.workers for t in tournaments)
    show = any(t.progress for t in tournaments)
    if workers <= 1:
        records = [
            [
                play_seated_game(t.game, t.policies, t.labels, seats, t.seed, g, t.replays is not None)
                for g, seats in _progress(schedule, show)
            ]
            for t, schedule in zip(tournaments, schedules, strict=True)
        ]
    else:
        records = _run_parallel(tournaments, schedules, workers, show)
    elapsed = round(time.perf_counter() - started, 3)
    results = []
    for tournament, played in zip(tournaments, records, strict=True):
        played.sort(key=lambda r: r["game"])
        if tournament.replays is not None:
            write_replays(tournament.replays, played)
        result = summarize(tournament, played)
        result["run"] = {"workers": workers, "wall_seconds": elapsed}
        results.append(result)
    return results


def _run_parallel(tournaments: Sequence[Tournament], schedules: list, workers: int, show: bool) -> list[list[dict]]:
    total = sum(len(schedule) for schedule in schedules)
    chunk = max(1, min(50, total // (workers * 4)))
    tasks = [
        (which, t.seed, schedule[i : i + chunk], t.labels, t.replays is not None)
        for which, (t, schedule) in enumerate(zip(tournaments, schedules, strict=True))
        for i in range(0, len(schedule), chunk)
    ]
    setups = [(t.env_id, t.num_players, dict(t.game.options), t.specs) for t in tournaments]
    context = multiprocessing.get_context("spawn")  # safe with torch and threads in the parent
    records: list[list[dict]] = [[] for _ in tournaments]
    with context.Pool(workers, initializer=_init_worker, initargs=(setups,)) as pool:
        for which, part in _progress(pool.imap_unordered(_play_chunk, tasks), show, total=len(tasks)):
            records[which].extend(part)
    return records


def _progress(items, show: bool, total: int | None = None):
    if not show:
        return items
    from tqdm import tqdm

    return tqdm(items, total=total, unit="game" if total is None else "chunk")


def prepare_tournament(
    env_id: str,
    num_players: int | None,
    policies: Sequence[Any] | Mapping[str, Any],
    games: int = 1000,
    seed: int = 0,
    workers: int = 1,
    options: Mapping[str, Any] | None = None,
    keep_games: bool = False,
    progress: bool = False,
    replays: str | Path | None = None,
    lineups: Sequence[Sequence[int]] | None = None,
) -> Tournament:
    """Validate a tournament's inputs and load its policies (see :func:`run_tournament`)."""
    options = dict(options or {})
    game = make_game(env_id, num_players, options)
    if isinstance(policies, Mapping):
        labels, specs = [str(k) for k in policies], list(policies.values())
    else:
        specs = list(policies)
        labels = _unique([policy_label(s) for s in specs])
    if not specs:
        raise InputError("no policies given; name at least one (random, heuristic, a checkpoint .zip)")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InputError(f"games must be a positive integer; got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InputError(f"seed must be a non-negative integer; got {seed!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InputError(f"workers must be a positive integer; got {workers!r}")
    if lineups is not None:
        lineups = [tuple(int(p) for p in lineup) for lineup in lineups]
        if not lineups or any(len(x) != game.num_players or not set(x) <= set(range(len(specs))) for x in lineups):
            raise InputError(f"lineups must be {game.num_players} policy indices below {len(specs)} each")
    for spec in specs:  # every spec, cheaply, before loading any checkpoint
        check_policy_spec(spec, game)
    if replays is not None:  # before any game: replays that cannot be written are lost
        try:
            Path(replays).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot create the replays folder {replays}: {exc.strerror or exc}") from None
    loaded = [load_policy(spec, game) for spec in specs]
    return Tournament(
        game=game,
        labels=labels,
        specs=[str(s) if isinstance(s, Path) else s for s in specs],
        policies=loaded,
        games=games,
        seed=seed,
        workers=min(workers, games),
        keep_games=keep_games,
        progress=progress,
        replays=None if replays is None else str(replays),
        lineups=lineups,
    )


def run_tournament(
    env_id: str,
    num_players: int | None,
    policies: Sequence[Any] | Mapping[str, Any],
    games: int = 1000,
    seed: int = 0,
    workers: int = 1,
    options: Mapping[str, Any] | None = None,
    keep_games: bool = False,
    progress: bool = False,
    replays: str | Path | None = None,
    lineups: Sequence[Sequence[int]] | None = None,
) -> dict:
    """Play ``games`` seat-rotated games between ``policies`` and return the result dict.

    ``policies``: policy specs (any form of :mod:`pirate_envs.policies.spec`: ``"random"``, a checkpoint
    path, ``"module:callable"``, a Policy, a callable...) labelled by their text, or a ``{label: spec}``
    mapping. The first one is the focal policy when there are fewer policies than seats. ``workers > 1``
    plays in spawned processes (the specs must then be picklable; strings always are, and each process
    resolves them itself); the result does not depend on it.
    ``replays``: a folder that receives one replay file per game (see the module docstring).
    ``lineups``: the policy index of each seat, one lineup per block of ``num_players`` games (rotated within
    the block, cycled), instead of the default seating.
    """
    return prepare_tournament(
        env_id, num_players, policies, games, seed, workers, options, keep_games, progress, replays, lineups
    ).run()


# --- summarising ---------------------------------------------------------------------------------


def summarize(tournament: Tournament, records: list[dict]) -> dict:
    """The JSON-safe result of a tournament from its game records (in game order)."""
    n, labels = tournament.num_players, tournament.labels
    seat_counts = [[0] * n for _ in labels]
    wins_by_seat = [[0] * n for _ in labels]
    score_sum = [0.0] * len(labels)
    return_sum = [0.0] * len(labels)
    for record in records:
        for seat, p in enumerate(record["seats"]):
            seat_counts[p][seat] += 1
            wins_by_seat[p][seat] += seat in record["winners"]
            score_sum[p] += record["scores"][seat]
            return_sum[p] += record["returns"][seat]
    rated = [(r["seats"], r["places"]) for r in records if not r["truncated"]]
    ratings = openskill_ratings(labels, rated)
    standings = {}
    for p, label in enumerate(labels):
        played, wins = sum(seat_counts[p]), sum(wins_by_seat[p])
        low, high = wilson_interval(wins, played)
        standings[label] = {
            "spec": policy_label(tournament.specs[p]),
            "seat_games": played,
            "wins": wins,
            "win_rate": wins / played if played else 0.0,
            "win_rate_ci95": [low, high],
            "mean_score": score_sum[p] / played if played else 0.0,
            "mean_return": return_sum[p] / played if played else 0.0,
            "seat_counts": seat_counts[p],
            "wins_by_seat": wins_by_seat[p],
            "rating": ratings[label],
        }
    result = {
        "env_id": tournament.env_id,
        "num_players": n,
        "options": dict(tournament.game.options),
        "games": len(records),
        "seed": tournament.seed,
        "policies": list(labels),
        "fair_win_rate": 1.0 / tournament.game.num_sides,
        "truncated_games": sum(r["truncated"] for r in records),
        "balanced": all(len(set(counts)) == 1 for counts in seat_counts if sum(counts)),
        "standings": standings,
    }
    if tournament.keep_games:
        result["game_records"] = records
    return result
