"""``erebus bench server`` on a tiny run: a real server and echo in subprocesses."""

from __future__ import annotations

import gc
import math
import random
import weakref

import pytest
from rich.console import Console

from erebus.bench.server import (
    MIN_INTERVAL_S,
    Pacing,
    choose_action,
    collect_between_blocks,
    collector_between_blocks,
    default_time_limit,
    game_of,
    percentile,
    render,
    run,
)

KEYS = {
    "games",
    "actions",
    "p50_ms",
    "p99_ms",
    "actions_per_s",
    "errors",
    "lost_actions",
    "echo_p50_ms",
    "echo_p99_ms",
    "echo_per_s",
    "echo_errors",
    "blocks",
    "ratio_p99",
    "target_ratio",
    "think_ms",
    "think_mean_s",
    "saturation_actions_per_s",
    "saturation_all_actions_per_s",
    "saturation_errors",
    "saturation_lost_actions",
}


def test_percentile_and_policy() -> None:
    assert percentile([3.0, 1.0, 2.0], 50) == 2.0
    assert percentile([float(i) for i in range(1, 101)], 99) == 99.0
    assert math.isnan(percentile([], 50))
    rng = random.Random(0)
    legal = [{"type": "pass"}, {"type": "draw", "index": 0}]
    picks = [choose_action(rng, legal)["type"] for _ in range(200)]
    assert 0 < picks.count("pass") < 60


class _Node:
    self: object | None = None


def test_the_clients_collect_only_between_blocks() -> None:
    """The load generator's collector is off while a phase is timed (its passes held
    back both servers' answers) and collects when told to; afterwards it is as before."""
    assert gc.isenabled()
    with collector_between_blocks():
        assert not gc.isenabled()
        node = _Node()
        node.self = node  # garbage in a cycle: only a collection frees it
        gone = weakref.ref(node)
        del node
        assert gone() is not None
        collect_between_blocks()  # frees it, then freezes the survivors
        assert gone() is None and gc.get_freeze_count() > 0
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_pacing() -> None:
    rng = random.Random(1)
    human = Pacing()  # the default: 0.5–1.5 s
    thinks = [human.think(rng) for _ in range(2000)]
    assert min(thinks) >= 0.5 and max(thinks) <= 1.5
    assert 0.95 < sum(thinks) / len(thinks) < 1.05
    assert "think 0.5–1.5 s" in human.describe()
    flat = Pacing(think_ms=0)
    assert flat.think(rng) == 0.0 and "no think time" in flat.describe()
    assert flat.min_interval == human.min_interval == MIN_INTERVAL_S
    assert default_time_limit(40, 1000) > 40 * 1.5 > default_time_limit(40, 0) - 120


def test_tiny_run() -> None:
    r = run(games=4, actions=10, think_ms=100, time_limit=30.0)
    assert r.keys() >= KEYS
    assert r["games"] == 4
    # a mix of both games: every second one is Through Ice and Snow
    assert {g: b["games"] for g, b in r["by_game"].items()} == {"northwest": 2, "iceandsnow": 2}
    assert all(b["actions"] > 0 for b in r["by_game"].values()), r["by_game"]
    assert sum(b["actions"] for b in r["by_game"].values()) == r["actions"]
    assert r["errors"] == 0, r["error_samples"]
    assert r["echo_errors"] == 0, r["echo_error_samples"]
    assert r["lost_actions"] == 0
    assert r["unexpected_actions"] == 0
    assert r["log_checked"]
    assert 0 < r["actions"] <= 40
    assert r["echo_messages"] == r["actions"]
    # the bot's moves pushed after an answer are replayed by the echo too
    assert r["pushes"] > 0 and r["echo_pushes"] == r["pushes"]
    assert r["blocks"] >= 1  # the games and the echo took turns
    assert 0 < r["p50_ms"] <= r["p99_ms"]
    assert 0 < r["echo_p50_ms"] <= r["echo_p99_ms"]
    assert r["actions_per_s"] > 0 and r["echo_per_s"] > 0
    # the clients thought 50–150 ms before each action, and the echo was paced alike
    assert 0.05 <= r["think_mean_s"] <= 0.15
    assert r["elapsed_s"] >= 0.05 * r["actions"] / 4
    # the saturation phase: new games, no think time, checked like the paced ones
    assert r["saturation"] and r["saturation_actions"] > 0
    assert r["saturation_actions_per_s"] > 0 and r["saturation_all_actions_per_s"] > 0
    assert r["saturation_errors"] == 0 and r["saturation_lost_actions"] == 0
    console = Console(record=True, width=200)
    console.print(render(r))
    text = console.export_text()
    assert "2 Northwest Passage + 2 Ice and Snow" in " ".join(text.split())
    assert "Ice and Snow: p50; p99 (ms)" in text
    assert "saturation: actions / s" in text and "think 0.05–0.15 s per action" in text
    assert "blocks, each followed by the echo's replay" in " ".join(text.split())


def test_the_mix_of_games() -> None:
    assert [game_of(i, 0.5) for i in range(4)] == ["northwest", "iceandsnow"] * 2
    assert {game_of(i, 0.0) for i in range(10)} == {"northwest"}
    assert {game_of(i, 1.0) for i in range(10)} == {"iceandsnow"}
    assert sum(game_of(i, 0.25) == "iceandsnow" for i in range(200)) == 50


def test_run_checks_its_arguments() -> None:
    with pytest.raises(ValueError):
        run(games=0)
    with pytest.raises(ValueError):
        run(games=1, think_ms=-1)
    with pytest.raises(ValueError):
        run(games=1, ice_share=1.5)


def test_two_processes_on_postgres_and_redis() -> None:
    """``--processes 2``: the clients spread over two servers on PostgreSQL + a private
    Redis, pushes crossing processes; nothing lost, no errors, 1 vs 2 saturated."""
    import os
    import shutil

    from erebus.bench.cluster_setup import render_cluster, run_cluster

    pg = os.environ.get("EREBUS_TEST_POSTGRES_URL")
    if not pg:
        pytest.skip("needs EREBUS_TEST_POSTGRES_URL (a PostgreSQL for a fresh schema)")
    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server on the PATH")
    pytest.importorskip("redis")
    r = run_cluster(2, games=4, actions=8, db=pg, think_ms=100, time_limit=60.0)
    assert r["processes"] == 2 and r["routing"] == "game"
    assert r["errors"] == 0, r["error_samples"]
    assert r["echo_errors"] == 0, r["echo_error_samples"]
    assert r["lost_actions"] == 0 and r["unexpected_actions"] == 0
    assert r["log_checked"]  # read against the PostgreSQL log
    assert 0 < r["actions"] <= 32 and r["echo_messages"] == r["actions"]
    assert r["saturation_actions"] > 0 and r["saturation_1_actions_per_s"] > 0
    assert r["saturation_errors"] == r["saturation_1_errors"] == 0
    assert r["saturation_lost_actions"] == r["saturation_1_lost_actions"] == 0
    assert r["scaling"] > 0
    assert {"servers", "postgres", "redis", "clients"} <= r["saturation_cpu"].keys()
    console = Console(record=True, width=220)
    console.print(render_cluster(r))
    text = " ".join(console.export_text().split())
    assert "2 server processes" in text and "2 / 1 processes" in text
    assert "routed by game" in text


def test_seats_routed_by_game_or_across() -> None:
    """``--routing game``: a game's seat goes where its id points, whoever created it
    (as the proxy configurations route); ``cross``: never to the creator."""
    from erebus.bench.cluster_setup import seat_process

    ids = [f"game-{i}" for i in range(200)]
    by_id = [seat_process(g, 0, 2, "game") for g in ids]
    assert by_id == [seat_process(g, 1, 2, "game") for g in ids]  # the creator plays no part
    assert set(by_id) == {0, 1} and 60 < sum(by_id) < 140  # spread over both
    assert all(seat_process(g, c, 3, "cross") == (c + 1) % 3 for g in ids for c in range(3))
    assert all(seat_process(g, 0, 1, r) == 0 for g in ids[:5] for r in ("game", "cross"))
    with pytest.raises(ValueError, match="routing"):
        seat_process("g", 0, 2, "sticky")


def test_processes_need_postgres() -> None:
    from erebus.bench.cluster_setup import ClusterUnavailable, run_cluster
    from erebus.bench.server import main

    with pytest.raises(ClusterUnavailable, match="PostgreSQL"):
        run_cluster(2, games=1, db="sqlite:///nowhere.db")
    with pytest.raises(ValueError):
        run_cluster(1, games=1)
    with pytest.raises(ValueError, match="routing"):
        run_cluster(2, games=1, routing="sticky")
    console = Console(record=True, width=200)
    assert main(games=1, processes=2, db="sqlite:///nowhere.db", console=console) == 2
    assert "needs a PostgreSQL --db" in console.export_text()


def test_the_schema_joins_the_urls_options() -> None:
    from erebus.bench.cluster_setup import with_search_path

    base = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
    assert with_search_path(base, "s1") == f"{base}?options=-csearch_path%3Ds1"
    off = f"{base}?options=-csynchronous_commit%3Doff"
    assert with_search_path(off, "s1") == f"{off}%20-csearch_path%3Ds1"
