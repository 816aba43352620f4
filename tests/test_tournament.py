"""Tournaments: fair seating, reproducible records, sane statistics, the files and the CLI.

Games are few and played by the cheap bots (random and greedy: mcts costs
seconds a game even at a couple of iterations), so the file runs in seconds.
"""

from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest
from rich.console import Console
from typer.testing import CliRunner

from erebus.cli import app
from erebus.games import get_game
from erebus.tournament import (
    GameRecord,
    balance_summary,
    base_lineup,
    bot_stats,
    bradley_terry_elo,
    game_seed,
    lineup,
    main,
    pairwise_results,
    places_of,
    run_tournament,
    wilson_interval,
)

NORTHWEST = get_game("northwest")
SOURCES = NORTHWEST.score_sources
score_source = NORTHWEST.score_source
assert score_source is not None


def quiet() -> Console:
    return Console(record=True, width=160, file=io.StringIO())


@pytest.mark.parametrize(
    ("bots", "players"),
    [
        (["a", "b"], 2),
        (["a", "b", "c"], 3),
        (["a", "b", "c", "d"], 4),
        (["mcts", "greedy"], 4),
        (["a", "b", "c"], 2),
        (["solo"], 3),
    ],
)
def test_every_bot_sits_in_every_seat_equally_often(bots: list[str], players: int) -> None:
    base = base_lineup(bots, players)
    cycles = 3
    counts = Counter(
        (seat, name)
        for i in range(cycles * len(base))
        for seat, name in enumerate(lineup(bots, players, i))
    )
    for seat in range(players):
        for name in set(base):
            assert counts[seat, name] == cycles * base.count(name)


def test_fewer_bots_than_seats_is_one_challenger_against_the_field() -> None:
    assert base_lineup(["mcts", "greedy"], 4) == ["mcts", "greedy", "greedy", "greedy"]
    assert base_lineup(["mcts", "random", "greedy"], 4) == ["mcts", "greedy", "greedy", "greedy"]
    assert lineup(["mcts", "greedy"], 4, 1) == ["greedy", "greedy", "greedy", "mcts"]


def test_game_seeds_are_distinct_and_depend_on_the_tournament_seed() -> None:
    seeds = {game_seed(1, i) for i in range(1000)}
    assert len(seeds) == 1000
    assert game_seed(1, 0) != game_seed(2, 0)
    assert all(0 <= s < 2**63 for s in seeds)


def test_same_seed_same_records_whatever_the_jobs() -> None:
    def play(jobs: int, seed: int = 5) -> list[GameRecord]:
        bots = ["greedy", "random"]
        return run_tournament(bots=bots, games=4, jobs=jobs, seed=seed, progress=False).records

    one, two = play(jobs=1), play(jobs=2)
    assert [r.to_json() for r in one] == [r.to_json() for r in two]
    assert [r.index for r in two] == [0, 1, 2, 3]
    assert [r.seed for r in play(jobs=1, seed=6)] != [r.seed for r in one]
    assert [r.seats for r in one] == [lineup(["greedy", "random"], 2, i) for i in range(4)]


def test_records_add_up() -> None:
    result = run_tournament(bots=["random", "greedy"], games=2, jobs=1, seed=3, progress=False)
    for r in result.records:
        assert sorted(r.ranking) == [0, 1]
        assert r.winners and all(r.places[s] == 1 for s in r.winners)
        assert r.actions > 0 and r.rounds is not None and 1 <= r.rounds <= 10
        for seat in range(2):
            assert sum(r.points[seat].values()) == r.scores[seat]
            assert set(r.points[seat]) <= set(SOURCES)
        assert set(r.statistics) == {"reached_northwest", "returned", "sled_lost", "few_tiles_left"}
        assert all(isinstance(v, bool) for flags in r.statistics.values() for v in flags)
    stats = result.stats
    assert sum(s.wins for s in stats.values()) == pytest.approx(2)
    assert all(s.games == 2 and s.seats == 2 for s in stats.values())


def test_ties_share_first_place_unless_the_rules_break_them() -> None:
    def fake(scores: list[int], ranking: list[int], returned: set[int]) -> SimpleNamespace:
        return SimpleNamespace(
            scores=lambda: scores, ranking=lambda: ranking, returned=lambda s: s in returned
        )

    assert places_of(fake([5, 5, 1], [0, 1, 2], set()), NORTHWEST.tied) == [1, 1, 3]
    assert places_of(fake([5, 5, 1], [1, 0, 2], {1}), NORTHWEST.tied) == [2, 1, 3]
    assert places_of(fake([1, 5, 5], [1, 2, 0], {1, 2}), NORTHWEST.tied) == [3, 1, 2]


def record(seats: list[str], scores: list[int], places: list[int]) -> GameRecord:
    n = len(seats)
    return GameRecord(
        index=0,
        seed=0,
        seats=seats,
        scores=scores,
        ranking=sorted(range(n), key=lambda s: places[s]),
        places=places,
        winners=[s for s in range(n) if places[s] == 1],
        actions=10,
        rounds=10,
        statistics={
            k: [False] * n for k in ("reached_northwest", "returned", "sled_lost", "few_tiles_left")
        },
        points=[{"tokens": sc} for sc in scores],
    )


def test_wilson_interval_is_sane() -> None:
    lo, hi = wilson_interval(0, 10)
    assert lo == 0 and 0.25 < hi < 0.31
    lo, hi = wilson_interval(10, 10)
    assert hi == pytest.approx(1) and 0.69 < lo < 0.75
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(1 - hi) and 0.39 < lo < 0.41
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(2.5, 5)  # shared wins are fractional
    assert lo < 0.5 < hi


def test_a_bot_that_always_wins_has_the_higher_elo() -> None:
    results = [("strong", "weak", 1.0)] * 20
    elo = bradley_terry_elo(results, ["strong", "weak"])
    assert elo["strong"] > elo["weak"] + 200
    assert (elo["strong"] + elo["weak"]) / 2 == pytest.approx(1500)
    even = bradley_terry_elo([("a", "b", 1.0), ("a", "b", 0.0), ("a", "b", 0.5)], ["a", "b"])
    assert even["a"] == pytest.approx(even["b"])
    chain = bradley_terry_elo(
        [("a", "b", 1.0)] * 10 + [("b", "c", 1.0)] * 10 + [("a", "c", 0.75)] * 4, ["a", "b", "c"]
    )
    assert chain["a"] > chain["b"] > chain["c"]


def test_bot_stats_split_shared_wins_and_skip_mirror_pairs() -> None:
    recs = [
        record(["a", "b"], [10, 0], [1, 2]),
        record(["b", "a"], [3, 3], [1, 1]),  # shared win: half each
        record(["a", "b", "b"], [2, 2, 2], [1, 1, 1]),  # three-way tie: a 1/3, b 2/3
    ]
    stats = bot_stats(recs, ["a", "b"])
    assert stats["a"].wins == pytest.approx(1 + 0.5 + 1 / 3)
    assert stats["b"].wins == pytest.approx(0.5 + 2 / 3)
    assert stats["a"].games == 3 and stats["b"].seats == 4
    assert stats["a"].elo > stats["b"].elo
    assert len(pairwise_results(recs)) == 1 + 1 + 2  # the b–b pair of game 3 is skipped


def test_score_sources() -> None:
    assert score_source("inuit ×2") == "tokens"
    assert score_source("strait ×1") == "tokens"
    assert score_source("island of 3 tiles") == "islands"
    assert score_source("northwest") == "northwest"
    assert score_source("greenland") == "greenland"
    assert score_source("franklin majority") == "majorities"
    assert score_source("cartography majority") == "majorities"
    assert score_source("2 sets") == "sets"
    assert score_source("ship abandoned with 3 crew") == "abandonment"
    assert score_source("sled abandoned with 1 crew") == "abandonment"
    assert score_source("something new") == "other"


def test_json_png_and_balance(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    console = quiet()
    code = main(
        bots="greedy,random", games=2, jobs=1, seed=2, out=str(out), console=console, progress=False
    )
    assert code == 0
    data = json.loads(out.read_text())
    assert set(data) == {"tournament", "summary", "games"}
    assert data["tournament"]["seed"] == 2 and data["tournament"]["bots"] == ["greedy", "random"]
    assert len(data["games"]) == 2
    game = data["games"][0]
    for key in ("seats", "scores", "ranking", "winners", "actions", "rounds", "points"):
        assert key in game
    for key in ("reached_northwest", "returned", "sled_lost"):
        assert len(game["statistics"][key]) == 2
    bots = data["summary"]["bots"]
    assert set(bots) == {"greedy", "random"}
    for s in bots.values():
        assert s["win_ci"][0] <= s["win_rate"] <= s["win_ci"][1]
        assert {"games", "wins", "score_mean", "score_std", "length_mean", "elo"} <= set(s)
    balance = data["summary"]["balance"]
    assert balance["games"] == 2 and balance["expeditions"] == 4
    assert set(balance["per_bot"]) == {"greedy", "random"}
    assert sum(balance["seat_win_rate"]) == pytest.approx(1)
    png = tmp_path / "results.png"  # the plot goes next to --out by default
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = console.export_text()
    assert "Elo" in text and "Balance" in text


def test_balance_summary_counts() -> None:
    result = run_tournament(bots=["random"], players=3, games=1, jobs=1, progress=False)
    summary = balance_summary(result)
    assert summary["expeditions"] == 3
    r = result.records[0]
    figures = summary["statistics"]
    assert figures["sled_lost"]["count_per_game"] == sum(r.statistics["sled_lost"])
    assert figures["returned"]["per_expedition"] == pytest.approx(sum(r.statistics["returned"]) / 3)
    assert summary["points_by_source"]["tokens"] == pytest.approx(
        sum(p.get("tokens", 0) for p in r.points) / 3
    )


def test_cli_tournament(tmp_path: Path) -> None:
    plot = tmp_path / "scores.png"
    runner = CliRunner()
    res = runner.invoke(
        app,
        [
            "tournament",
            "--bots",
            "random,greedy",
            "--games",
            "2",
            "--jobs",
            "1",
            "--seed",
            "4",
            "--plot",
            str(plot),
        ],
    )
    assert res.exit_code == 0, res.output
    assert "random" in res.output and "greedy" in res.output and "Elo" in res.output
    assert plot.exists()


@pytest.mark.parametrize(
    "args",
    [
        ["--bots", "random,nobody"],
        ["--time", "1", "--iterations", "5"],
        ["--players", "7"],
        ["--games", "0"],
    ],
)
def test_cli_tournament_rejects_bad_options(args: list[str]) -> None:
    res = CliRunner().invoke(app, ["tournament", "--games", "1", "--jobs", "1", *args])
    assert res.exit_code == 2
    assert "error" in res.output


def test_a_lost_solo_scenario_is_no_win() -> None:
    """A solo seat is both first and last; when the scenario is lost it has not won."""
    result = run_tournament(
        game="iceandsnow",
        players=1,
        bots=["random"],
        games=3,
        jobs=1,
        progress=False,
        options={"scenario": "mysterious-epidemic"},
    )
    for record in result.records:
        assert record.everyone_lost is not None
        assert record.winners == ([] if record.everyone_lost else [0])
    lost = sum(bool(r.everyone_lost) for r in result.records)
    assert result.stats["random"].wins == len(result.records) - lost
