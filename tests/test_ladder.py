"""The reference ladders' design (training/evaluation/ladder.py): the tables, the two-stage fit, entry kinds and
version-1 files. ``tests/test_rate.py`` covers placing policies and the shipped ladders."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from ladder_fits import assert_fit_recovers

import training.evaluation.ladder as ladder_module
from training.evaluation.ladder import (
    ANCHOR_RATING,
    KINDS,
    NONE,
    LadderPlan,
    entry_kind,
    fit_ladder,
    load_ladder,
    multiset_text,
    outcome_key,
    parse_multiset,
    parse_outcome,
    place,
    play_match,
    table_fit,
    table_lineups,
)
from training.evaluation.rate import rate_policy

DMD = "dead_mans_draw_v0"
V1_FILE = Path(__file__).parent / "data" / "ladder_v1_dead_mans_draw_v0.json"
REFS = ("random", "heuristic")


# --- simulated matches -----------------------------------------------------------------------------


def _tables(focal, refs, num_players):
    """Every ordered filling of a match's tables (one full cycle of table_lineups), as seat labels."""
    if focal is None:
        return [t for t in itertools.product(refs, repeat=num_players) if len(set(t)) > 1]
    return [(focal, *t) for t in itertools.product(refs, repeat=num_players - 1)]


def _pl(seats, truth):
    """Plackett-Luce first place: each seat's probability of winning."""
    strength = np.array([10 ** (truth[label] / 400) for label in seats])
    return strength / strength.sum()


def _crowd(seats, truth):
    """Not Plackett-Luce: a seat facing a crowd of copies of one other policy fares better than the model says
    (as a lone heuristic seat does against three shipped agents in potsm)."""
    weights = []
    for s, label in enumerate(seats):
        others = Counter(seats[:s] + seats[s + 1 :])
        crowd = max(others.values()) if label not in others else 0
        weights.append(10 ** (truth[label] / 400) * (1 + 0.6 * max(crowd - 1, 0)))
    weights = np.array(weights)
    return weights / weights.sum()


def _match(focal, refs, num_players, truth, games_per_table, rng=None, rule=_pl):
    """A match's stored form: expected outcome counts (rng None) or sampled ones."""
    outcomes = Counter()
    for seats in _tables(focal, refs, num_players):
        table = multiset_text(Counter(seats))
        p = rule(seats, truth)
        counts = p * games_per_table if rng is None else rng.multinomial(games_per_table, p)
        for seat, count in enumerate(counts):
            outcomes[f"{table} -> {seats[seat]}"] += count
    return {"focal": focal, "references": list(refs), "games": 0, "seed": 0, "outcomes": dict(outcomes)}


def _ladder_matches(truth, refs, placed, num_players, games_per_table, rng=None, rule=_pl):
    return [_match(None, refs, num_players, truth, games_per_table, rng, rule)] + [
        _match(label, refs, num_players, truth, games_per_table, rng, rule) for label in placed
    ]


# --- the fit ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("num_players", [2, 4, 6])
def test_the_fit_recovers_known_strengths_from_simulated_multi_seat_tables(num_players):
    truth = {"random": 1100.0, "heuristic": 1500.0, "strong": 1700.0, "weak": 1300.0}
    per_table = {2: 1500, 4: 250, 6: 50}[num_players]  # a few thousand games per match
    matches = _ladder_matches(truth, REFS, ["strong", "weak"], num_players, per_table, np.random.default_rng(4))
    fitted = fit_ladder(list(truth), matches, num_players, bootstrap=200, references=REFS)
    assert_fit_recovers(fitted, truth)
    exact = fit_ladder(list(truth), _ladder_matches(truth, REFS, ["strong", "weak"], num_players, 1e4), num_players,
                       bootstrap=0, references=REFS)  # fmt: skip
    assert {k: v["rating"] for k, v in exact.items()} == pytest.approx(truth, abs=0.5)  # expected counts: exact


def test_placements_never_move_the_references():
    truth = {"random": 1100.0, "heuristic": 1500.0, "strong": 1700.0}
    rng = np.random.default_rng(1)
    pool, placement = _ladder_matches(truth, REFS, ["strong"], 4, 200, rng)
    alone = fit_ladder(["random", "heuristic"], [pool], 4, bootstrap=0, references=REFS)
    both = fit_ladder(list(truth), [pool, placement], 4, bootstrap=0, references=REFS)
    assert both["random"] == alone["random"]
    placed = place({"random": both["random"]["rating"], "heuristic": 1500.0}, [placement], 4, bootstrap=0,
                   label="strong")  # fmt: skip
    assert placed["rating"] == pytest.approx(both["strong"]["rating"], abs=0.05)  # stage two is rate's estimator


@pytest.mark.parametrize("num_players", [4, 6])
def test_re_rating_lands_on_the_ladder_where_the_model_misfits(num_players):
    """The design's promise: with the game's outcomes *not* Plackett-Luce, re-rating any entry at the ladder's
    tables (expected counts: no noise) still gives its ladder rating; a version-1 design (each entry alone
    against copies of one other) does not."""
    truth = {"random": 1150.0, "heuristic": 1500.0, "shipped": 1620.0, "searcher": 1400.0}
    refs = ("random", "heuristic", "shipped")
    matches = _ladder_matches(truth, refs, ["searcher"], num_players, 1e3, rule=_crowd)
    fitted = fit_ladder(list(truth), matches, num_players, bootstrap=0, references=refs)
    ratings = {label: fitted[label]["rating"] for label in refs}
    for label in truth:
        again = {"focal": "new", "references": list(refs), "outcomes": _relabel_first(label, refs, num_players, truth)}
        assert place(ratings, [again], num_players, bootstrap=0)["rating"] == pytest.approx(
            fitted[label]["rating"], abs=0.5
        )
    # version 1: shipped against n - 1 heuristic bots, heuristic against n - 1 random ones, and so on
    pairs = [("shipped", "heuristic"), ("heuristic", "random"), ("shipped", "random")]
    v1 = [_v1_match(a, b, num_players, truth) for a, b in pairs]
    old = fit_ladder(list(refs), v1, num_players, bootstrap=0)
    heuristic_again = [_v1_match("new", b, num_players, {**truth, "new": truth["heuristic"]}) for b in refs]
    moved = place({r: old[r]["rating"] for r in refs}, heuristic_again, num_players, bootstrap=0)["rating"]
    assert abs(moved - ANCHOR_RATING) > 15  # the bias the two-stage design removes


def _relabel_first(label, refs, num_players, truth):
    """Expected outcomes of ``label`` re-rated: the policy in the first seat is the new one."""
    outcomes = Counter()
    for seats in _tables(label, refs, num_players):
        p = _crowd(seats, truth)
        named = ("new", *seats[1:])
        table = multiset_text(Counter(named))
        for seat, share in enumerate(p):
            outcomes[f"{table} -> {named[seat]}"] += 1e3 * share
    return dict(outcomes)


def _v1_match(focal, opponent, num_players, truth):
    seats = (focal, *[opponent] * (num_players - 1))
    p = _crowd(seats, truth)
    return {"focal": focal, "opponent": opponent, "games": 1, "seed": 0,
            "outcomes": {"1-0": 1e3 * p[0], "0-1": 1e3 * (1 - p[0])}}  # fmt: skip


def test_table_fit_sets_each_composition_beside_the_model():
    truth = {"random": 1100.0, "heuristic": 1500.0, "strong": 1700.0}
    placement = _match("strong", REFS, 4, truth, 1e3)
    rows = table_fit(placement, "strong", truth, 4)
    assert [row["field"] for row in rows] == ["heuristic + random*2", "heuristic*2 + random", "heuristic*3", "random*3"]
    assert [row["games"] for row in rows] == [3000, 3000, 1000, 1000]  # the proportions of independent draws
    assert all(row["win_rate"] == row["model"] for row in rows)  # Plackett-Luce outcomes: no misfit
    assert rows[2]["model"] == pytest.approx(_pl(("strong", "heuristic", "heuristic", "heuristic"), truth)[0], abs=1e-3)
    pool = table_fit(_match(None, REFS, 4, truth, 1e3), "heuristic", truth, 4)  # several heuristic seats: per seat
    assert all(row["win_rate"] == row["model"] and row["win_rate"] < 1 for row in pool)


def test_ties_and_teams_count_as_draws_from_the_same_table():
    """Breslow's rule: two winners are two draws; a table of only ties rates both sides equal."""
    match = {"focal": "a", "references": ["heuristic"], "games": 50, "seed": 0,
             "outcomes": {"a + heuristic -> a + heuristic": 50}}  # fmt: skip
    assert place({"heuristic": 1500.0}, [match], 2, bootstrap=0, label="a")["rating"] == pytest.approx(1500, abs=0.01)
    mixed = {**match, "outcomes": {"a + heuristic -> a": 30, "a + heuristic -> heuristic": 10,
                                   "a + heuristic -> a + heuristic": 20, f"a + heuristic -> {NONE}": 7}}  # fmt: skip
    assert place({"heuristic": 1500.0}, [mixed], 2, bootstrap=0, label="a")["rating"] == pytest.approx(
        1500 + 400 * np.log10(50 / 30), abs=0.5
    )


# --- tables and outcomes ---------------------------------------------------------------------------


@pytest.mark.parametrize("num_players, refs", [(2, 2), (4, 2), (4, 3), (6, 2)])
def test_tables_come_in_full_cycles_of_every_filling(num_players, refs):
    for focal in (True, False):
        width = num_players - 1 if focal else num_players
        every = [t for t in itertools.product(range(refs), repeat=width) if focal or len(set(t)) > 1]
        cycle = table_lineups(refs, num_players, 2 * len(every), seed=3, focal=focal)
        if focal:
            assert all(lineup[0] == 0 for lineup in cycle)
            fillings = [tuple(p - 1 for p in lineup[1:]) for lineup in cycle]
        else:
            fillings = cycle
        assert sorted(fillings[: len(every)]) == sorted(every) == sorted(fillings[len(every) :])
        if len(every) > 6:
            assert fillings[: len(every)] != fillings[len(every) :]  # each cycle shuffled anew
        assert table_lineups(refs, num_players, 3, seed=3, focal=focal) == cycle[:3]  # seeded


def test_the_pool_seen_from_one_reference_is_the_tables_rate_deals_it():
    """Seat for seat, the pool's tables holding the heuristic bot are those rate deals a policy: every
    composition of the other seats in the proportion of independent uniform draws."""
    n, refs = 4, 3
    pool = table_lineups(refs, n, 3**n - refs, seed=0, focal=False)
    seen = Counter()
    for lineup in pool:
        for seat, ref in enumerate(lineup):
            if ref == 1:
                seen[tuple(sorted(lineup[:seat] + lineup[seat + 1 :]))] += 1
    dealt = Counter(tuple(sorted(p - 1 for p in x[1:])) for x in table_lineups(refs, n, 3 ** (n - 1), 0, True))
    # n seats of each pool table; the pool leaves out the table of heuristic bots alone (it says nothing)
    assert seen == Counter({field: n * count for field, count in dealt.items() if field != (1, 1, 1)})


def test_outcome_keys_name_the_table_and_its_winners():
    labels = ["shipped", "random", "heuristic"]
    record = {"seats": [0, 2, 2, 1], "winners": [1, 2]}
    assert outcome_key(record, labels) == "heuristic*2 + random + shipped -> heuristic*2"
    assert outcome_key({"seats": [0, 1], "winners": [], "truncated": True}, labels) == f"random + shipped -> {NONE}"
    table, winners = parse_outcome({}, "heuristic*2 + random + shipped -> heuristic*2", 4)
    assert table == {"heuristic": 2, "random": 1, "shipped": 1} and winners == {"heuristic": 2}
    v1 = {"focal": "shipped", "opponent": "heuristic"}
    assert parse_outcome(v1, "0-2", 6) == ({"shipped": 1, "heuristic": 5}, {"shipped": 0, "heuristic": 2})
    assert parse_outcome(v1, NONE, 2) == ({"shipped": 1, "heuristic": 1}, {})


# --- kinds, files, building --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec, kind",
    [
        ("random", "random"),
        ("heuristic", "heuristic"),
        ("ismcts:iterations=40", "search"),
        ("flatmc:rollouts=8,rollout=heuristic", "search"),
        ("flatmc:rollouts=8,rollout=shipped", "agent+search"),
        ("ismcts:iterations=40,rollout=checkpoints/potsm_v0/model.zip", "agent+search"),
        ("puct:iterations=200", "agent+search"),
        ("puct:iterations=200,prior=checkpoints/potsm_v0/model.zip,rollout=heuristic", "agent+search"),
        ("checkpoints/potsm_v0/model.zip", "agent"),
        ("shipped", "agent"),
    ],
)
def test_entry_kinds(spec, kind):
    assert entry_kind(spec) == kind and kind in KINDS


def test_older_plans_load_as_search_specs():
    old = {"ismcts": [10, 40], "flatmc": [1], "games": 1200, "search_games": 600, "seed": 0,
           "references": ["random", "heuristic"], "reference_games": 12000}  # fmt: skip
    plan = LadderPlan.from_json(old)
    assert plan.searches == ("ismcts:iterations=10", "ismcts:iterations=40", "flatmc:rollouts=1,rollout=random")
    assert LadderPlan.from_json(plan.to_json()) == plan


def test_search_budgets_cover_both_algorithms_rollouts_and_budgets():
    specs = ladder_module.search_budgets((1, 2), (3, 4), (5, 6), (7, 8), 9)
    assert [entry_kind(spec) for spec in specs] == ["search"] * 8 + ["agent+search"]
    assert specs[2] == "ismcts:iterations=3,rollout=random" and specs[-1] == "puct:iterations=9"


def test_version_1_files_load_refit_and_rate():
    old = load_ladder(DMD, V1_FILE)
    assert "references" not in old and all(entry["kind"] in KINDS for entry in old["entries"].values())
    assert old["entries"]["shipped"]["kind"] == "agent" and old["entries"]["ismcts:iterations=40"]["kind"] == "search"
    refit = fit_ladder(list(old["entries"]), old["matches"], old["num_players"], seed=old["plan"]["seed"])
    assert refit == {label: {"rating": e["rating"], "ci95": e["ci95"]} for label, e in old["entries"].items()}
    report = rate_policy(DMD, "heuristic", games=8, references=["random", "heuristic"], ladder=V1_FILE)
    assert report["games"] == 8 and not report["ladder_tables"] and report["ladder_entry"] == "heuristic"


TINY_SEARCHES = (
    "ismcts:iterations=2,rollout=heuristic",
    "ismcts:iterations=3",
    "flatmc:rollouts=1,rollout=random",
    "puct:iterations=2",
)
TINY = LadderPlan(searches=TINY_SEARCHES, games=2, search_games=6, reference_games=20)


@pytest.fixture(scope="module")
def tiny_ladder(tmp_path_factory):
    """A ladder of Dead Man's Draw played for real at a tiny plan."""
    ladder = ladder_module.build_ladder(DMD, plan=TINY, say=lambda text: None)
    path = tmp_path_factory.mktemp("ladder") / "ladder.json"
    ladder_module.write_ladder(ladder, path)
    return ladder, path


def test_every_entry_records_its_kind_and_role(tiny_ladder):
    ladder, path = tiny_ladder
    assert load_ladder(DMD, path) == json.loads(path.read_text())  # a version-2 file loads as written
    kinds = {label: entry["kind"] for label, entry in ladder["entries"].items()}
    assert kinds == {"random": "random", "heuristic": "heuristic", "ismcts:iterations=2,rollout=heuristic": "search",
                     "ismcts:iterations=3": "search", "flatmc:rollouts=1,rollout=random": "search",
                     "puct:iterations=2": "agent+search", "shipped": "agent"}  # fmt: skip
    assert ladder["references"] == ["random", "heuristic"] and ladder["version"] == 2
    roles = {label: entry["role"] for label, entry in ladder["entries"].items()}
    assert [label for label, role in roles.items() if role == "reference"] == ["random", "heuristic"]
    assert [m["focal"] for m in ladder["matches"]] == [None, *[label for label in roles if roles[label] == "placed"]]
    assert LadderPlan.from_json(ladder["plan"]) == TINY


def test_rate_plays_the_tables_the_ladder_fitted(tiny_ladder):
    """rate's tables are the ladder's: re-rating a placed entry at its match's seed and games replays that match
    game for game, and gives its rating."""
    ladder, path = tiny_ladder
    for match in ladder["matches"][1:]:
        label = match["focal"]
        report = rate_policy(DMD, ladder["entries"][label]["spec"], match["games"], match["seed"], ladder=path)
        assert report["ladder_tables"] and report["ladder_entry"] == label
        assert _relabel(report["outcomes"], "candidate", label) == match["outcomes"]
        assert report["rating"] == pytest.approx(ladder["entries"][label]["rating"], abs=0.2)


def _relabel(outcomes, old, new):
    out = {}
    for key, count in outcomes.items():
        table, winners = (parse_multiset(part) for part in key.split(" -> "))
        rename = lambda counts: multiset_text({new if k == old else k: v for k, v in counts.items()})  # noqa: E731
        out[f"{rename(table)} -> {rename(winners) if winners != {NONE: 1} else NONE}"] = count
    return dict(sorted(out.items()))


def test_play_match_with_a_focal_policy_holds_one_seat_of_every_table():
    match = play_match(DMD, 2, ("me", "heuristic"), {"random": "random", "heuristic": "heuristic"}, 7, seed=1)
    assert match["games"] == 8 and match["focal"] == "me"
    for key in match["outcomes"]:
        table, _ = parse_outcome(match, key, 2)
        assert table["me"] == 1 and sum(table.values()) == 2


def test_replay_shipped_replays_only_its_match_and_refits(monkeypatch, tmp_path):
    target = tmp_path / "ladder.json"
    played = []

    def fake_match(env_id, num_players, focal, references, games, seed, workers=1, progress=False):
        played.append((focal and focal[0], seed))
        label = focal[0] if focal else "random"
        return {"focal": focal and focal[0], "references": list(references), "games": games, "seed": seed,
                "outcomes": {f"{multiset_text(Counter([label, 'heuristic']))} -> {label}": games},
                "focal_win_rate": 1.0, "wall_seconds": 0.0, "cpu_seconds": 0.0}  # fmt: skip

    monkeypatch.setattr(ladder_module, "ladder_path", lambda env_id: target)
    monkeypatch.setattr(ladder_module, "play_match", fake_match)
    first = ladder_module.build_ladder(DMD, plan=TINY, say=lambda text: None)
    ladder_module.write_ladder(first, target)
    assert played == [(None, 0), *((label, k) for k, label in enumerate(TINY_SEARCHES, 1)), ("shipped", 5)]
    played.clear()
    again = ladder_module.build_ladder(DMD, replay=["shipped"], plan=TINY, say=lambda text: None)
    assert played == [("shipped", 5)] and again["entries"] == first["entries"]
    played.clear()
    ladder_module.build_ladder(DMD, replay=["heuristic"], plan=TINY, say=lambda text: None)
    assert len(played) == 6  # a reference sits at every table: everything is replayed
    played.clear()
    refit = ladder_module.build_ladder(DMD, refit_only=True, plan=TINY, say=lambda text: None)
    assert refit["entries"] == first["entries"]
    assert not played  # --refit plays nothing
