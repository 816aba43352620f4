"""The race game (tests/support/race) through every consumer that is not the server:
adding a game is one package exporting ``SPEC`` plus one ``register_game`` line
(tests/conftest.py), and the terminal app, tournaments, bots and the RL env play it
without knowing it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from erebus.bots import make_bot
from erebus.games import GAMES, get_game
from erebus.terminal.app import run_play, run_replay
from erebus.tournament import balance_summary, balance_tables, run_tournament
from support.terminal import recording_console


def test_race_is_registered() -> None:
    assert "race" in GAMES and get_game("race").title == "Race"
    with pytest.raises(ValueError, match="unknown game"):
        get_game("chess")


def test_the_terminal_app_plays_and_replays_it(tmp_path: Path) -> None:
    console = recording_console(120)
    save = tmp_path / "race.json"
    asked: list[str] = []

    def answer(prompt: str) -> str:
        asked.append(prompt)
        assert len(asked) < 50, "the race did not end"
        return "1"  # roll

    code = run_play(
        2, 1, 5, str(save), console=console, input_fn=answer, game="race", options={"goal": 4}
    )
    assert code == 0 and asked
    out = console.export_text()
    assert "Final scores" in out and "rolls" in out
    data = json.loads(save.read_text())
    assert data["game"] == "race" and data["options"] == {"goal": 4}
    state = get_game("race").replay(2, data["seed"], data["actions"], data["options"])
    assert state.is_over and max(state.scores()) == 4
    console = recording_console(120)
    assert run_replay(str(save), console=console, input_fn=lambda _: "") == 0
    assert "Final scores" in console.export_text()


def test_a_tournament_of_every_bot() -> None:
    result = run_tournament(
        game="race",
        players=2,
        bots=["mcts", "greedy", "random"],
        games=6,
        jobs=1,
        seed=4,
        iterations=20,
        progress=False,
        options={"goal": 5},
    )
    assert len(result.records) == 6 and result.options == {"goal": 5}
    for r in result.records:
        assert max(r.scores) == 5 and r.winners
        assert r.statistics["finished"].count(True) == 1
        assert sum(sum(p.values()) for p in r.points) == sum(r.scores)
    summary = balance_summary(result)
    assert summary["statistics"]["finished"]["per_expedition"] == pytest.approx(0.5)
    assert len(balance_tables(summary)) == 2


def test_bots_choose_legal_moves() -> None:
    spec = get_game("race")
    for name in ("easy", "medium"):
        state = spec.new_game(2, 3)
        bots = [make_bot(name, seed=s) for s in range(2)]
        while not state.is_over:
            action = bots[state.current_player].choose(state)
            assert action in state.legal_actions()
            state.apply(action)


def test_the_rl_env_passes_the_pettingzoo_api_test() -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test  # type: ignore[import-untyped]

    from erebus.rl import game_env

    api_test(game_env("race", 2), num_cycles=100)
    env = game_env("race", 2, render_mode="ansi")
    env.reset(seed=1)
    assert "Race" in str(env.render())
