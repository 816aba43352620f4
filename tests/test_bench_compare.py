"""``erebus bench --compare``: the OpenSpiel comparison and the PettingZoo env table
run, and degrade gracefully.

The figures are timings, so only their shape is checked: every key present,
every rate and ratio positive.  Budgets are tiny (a few seconds in all).
"""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from typer.testing import CliRunner

from erebus.bench import compare as bench_compare
from erebus.bench import envs as bench_envs
from erebus.cli import app

HAVE_PYSPIEL = bench_compare.load_pyspiel() is not None
TINY = bench_compare.Budgets(random_s=0.05, mcts_s=0.1, mcts_moves=1, reps=3)
ENV_TINY = bench_envs.EnvBudgets(seconds=0.05, reps=2)
try:
    import pettingzoo  # noqa: F401  # type: ignore[import-untyped]

    HAVE_PETTINGZOO = True
except ImportError:
    HAVE_PETTINGZOO = False

RATES = (
    "ours_random_moves_per_s",
    "ours_policy_moves_per_s",
    "theirs_random_moves_per_s",
    "ours_mcts_sims_per_s",
    "theirs_mcts_sims_per_s",
)
RATIOS = ("random_moves_ratio", "policy_moves_ratio", "mcts_sims_ratio")


@pytest.mark.skipif(
    not HAVE_PYSPIEL,
    reason="OpenSpiel (pyspiel) is not installed; install it with: pip install -e '.[bench]'",
)
def test_quick_comparison_reports_positive_figures() -> None:
    out = io.StringIO()
    figures = bench_compare.main(console=Console(file=out, width=200), budgets=TINY)
    for key in (*RATES, *RATIOS):
        assert figures[key] > 0, key
    for key in RATES:
        assert figures[key.replace("_per_s", "_spread")] >= 0
    assert figures["reps"] == TINY.reps
    assert figures["random_moves_ratio"] == pytest.approx(
        figures["ours_random_moves_per_s"] / figures["theirs_random_moves_per_s"]
    )
    assert figures["mcts_sims_ratio"] == pytest.approx(
        figures["ours_mcts_sims_per_s"] / figures["theirs_mcts_sims_per_s"]
    )
    text = out.getvalue()
    assert "MCTS simulations/s" in text
    assert "one iteration" in text  # the footnote defines what a simulation is


def test_without_openspiel_prints_the_install_hint_and_exits_0(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bench_compare, "load_pyspiel", lambda: None)
    monkeypatch.setattr(bench_envs, "QUICK", ENV_TINY)
    out = io.StringIO()
    assert bench_compare.main(console=Console(file=out, width=200)) == {}
    assert "pip install -e '.[bench]'" in out.getvalue()

    result = CliRunner().invoke(app, ["bench", "--compare", "--quick"])
    assert result.exit_code == 0, result.output
    assert "pip install -e '.[bench]'" in result.output
    assert "env steps/s" in result.output  # the RL table runs without OpenSpiel


@pytest.mark.skipif(not HAVE_PETTINGZOO, reason="needs the rl extra (pettingzoo)")
def test_env_steps_of_both_games_next_to_pettingzoo() -> None:
    """Both games' environments (2 and 4 players), and PettingZoo's tic-tac-toe and
    chess when their dependencies are here, measured in one run with one loop."""
    out = io.StringIO()
    figures = bench_envs.main(console=Console(file=out, width=200), budgets=ENV_TINY)
    keys = [key for key, _label, _factory in bench_envs.available()]
    assert keys[:4] == ["northwest_2", "northwest_4", "iceandsnow_2", "iceandsnow_4"]
    for key in keys:
        for name in ("steps", "env_steps"):
            assert figures[f"{key}_{name}_per_s"] > 0, key
            assert figures[f"{key}_{name}_spread"] >= 0, key
        assert figures[f"{key}_env_steps_per_s"] >= figures[f"{key}_steps_per_s"]
    text = out.getvalue()
    assert "northwest, 4 players" in text and "iceandsnow, 2 players" in text
    if "tictactoe_v3" in keys:
        assert figures["northwest_4_steps_ratio"] == pytest.approx(
            figures["northwest_4_steps_per_s"] / figures["tictactoe_v3_steps_per_s"]
        )
        assert "PettingZoo tictactoe_v3" in text
    else:
        assert "pygame-ce" in text  # says how to get the reference rows


def test_engine_bench_takes_the_game_options() -> None:
    """`erebus bench --game iceandsnow --options …` measures games with the modules;
    a bad option set is refused with the game's message, before any timing."""
    from erebus.bench.engine import run

    figures = run(
        "iceandsnow",
        3,
        seconds=0.05,
        options={"modules": ["walking_on_ice", "inuit_myths", "legendary_expeditions"]},
    )
    assert figures["random_games_per_s"] > 0 and figures["legal_actions_count"] >= 1
    result = CliRunner().invoke(
        app, ["bench", "--game", "iceandsnow", "--quick", "--options", '{"modules": ["nope"]}']
    )
    assert result.exit_code == 2
    assert "unknown module" in result.output


@pytest.mark.skipif(not HAVE_PETTINGZOO, reason="needs the rl extra (pettingzoo)")
def test_step_parts_add_up_and_put_the_engine_back() -> None:
    """The parts of one of our steps add up to the time in last() and step(), and
    timing them leaves the engine's and the adapter's methods as they were."""
    from erebus.games.northwest.legal import LegalActions
    from erebus.games.northwest.state import State
    from erebus.rl import game_env

    env = game_env("northwest", 2)
    apply = State.apply
    parts = bench_envs.step_parts(env, 0.05)
    assert State.legal_actions is LegalActions.legal_actions and State.apply is apply
    assert not {"legal_indices", "action", "observer"} & set(vars(env.adapter))
    inside = sum(parts[key] for key, _label in bench_envs.PARTS)
    assert inside == pytest.approx(parts["last"] + parts["step"])
    for key in ("engine_legal", "engine_apply", "observation", "indices", "sample"):
        assert parts[key] > 0, key
    assert parts["total"] == pytest.approx(parts["last"] + parts["sample"] + parts["step"])
    assert parts["timing"] >= 0
    figures = bench_envs.run_parts(ENV_TINY)
    out = io.StringIO()
    Console(file=out, width=250).print(bench_envs.parts_table(figures))
    assert "engine legal_actions()" in out.getvalue()
    assert figures["iceandsnow_4_part_observation_us"] > 0


@pytest.mark.skipif(not HAVE_PETTINGZOO, reason="needs the rl extra (pettingzoo)")
def test_step_parts_time_ice_and_snows_cached_legal_list() -> None:
    """Through Ice and Snow's encoding reads the engine's cached legal list
    (``_legal_list``): the engine part times that and puts it back."""
    from erebus.games.iceandsnow.decisions import DecisionRules
    from erebus.rl import game_env

    env = game_env("iceandsnow", 2)
    parts = bench_envs.step_parts(env, 0.05)
    assert parts["engine_legal"] > 0 and parts["indices"] > 0
    cls = type(env.state_)
    assert cls._legal_list is DecisionRules._legal_list
    assert "_legal_list" not in vars(cls)
    from erebus.games.northwest.state import State

    parts = bench_envs.step_parts(game_env("northwest", 2), 0.05)
    assert parts["engine_legal"] > 0  # Northwest's option queries, under its indices
    assert not {"legal_actions", "_placements", "_destinations", "_transfers"} & set(vars(State))
