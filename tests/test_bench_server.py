"""``erebus bench server`` on a tiny run: a real server and echo in subprocesses."""

from __future__ import annotations

import math
import random

from erebus.bench_server import choose_action, percentile, run

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
    "ratio_p99",
    "target_ratio",
}


def test_percentile_and_policy() -> None:
    assert percentile([3.0, 1.0, 2.0], 50) == 2.0
    assert percentile([float(i) for i in range(1, 101)], 99) == 99.0
    assert math.isnan(percentile([], 50))
    rng = random.Random(0)
    legal = [{"type": "pass"}, {"type": "draw", "index": 0}]
    picks = [choose_action(rng, legal)["type"] for _ in range(200)]
    assert 0 < picks.count("pass") < 60


def test_tiny_run() -> None:
    r = run(games=4, actions=10, time_limit=30.0)
    assert r.keys() >= KEYS
    assert r["games"] == 4
    assert r["errors"] == 0, r["error_samples"]
    assert r["echo_errors"] == 0, r["echo_error_samples"]
    assert r["lost_actions"] == 0
    assert r["unexpected_actions"] == 0
    assert r["log_checked"]
    assert 0 < r["actions"] <= 40
    assert r["echo_messages"] == r["actions"]
    assert 0 < r["p50_ms"] <= r["p99_ms"]
    assert 0 < r["echo_p50_ms"] <= r["echo_p99_ms"]
    assert r["actions_per_s"] > 0 and r["echo_per_s"] > 0
