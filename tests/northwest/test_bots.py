"""Bots: legality, reproducibility, information hiding, the process pool, strength."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from erebus.bots import BotSpec, make_bot
from erebus.bots.pool import BotPool
from erebus.games.northwest import new_game
from support.bots import assert_deterministic, assert_same_choice, play_legal


def play(players: int, names: list[str], seed: int, iterations: int = 30) -> list[int]:
    state = new_game(players, seed=seed)
    bots = [make_bot(names[i], seed=seed * 10 + i, iterations=iterations) for i in range(players)]
    return play_legal(state, bots).ranking()


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 10_000))
def test_random_and_greedy_bots_only_choose_legal_actions(players: int, seed: int) -> None:
    play(players, ["random", "greedy", "greedy", "random"], seed)


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_mcts_only_chooses_legal_actions(seed: int) -> None:
    play(2, ["mcts", "greedy"], seed, iterations=10)


def test_levels_map_to_engines() -> None:
    assert type(make_bot("easy")).__name__ == "RandomBot"
    assert type(make_bot("medium")).__name__ == "GreedyBot"
    assert type(make_bot("hard", iterations=5)).__name__ == "MctsBot"
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("alphazero")


def _mid_state():  # type: ignore[no-untyped-def]
    from erebus.bench.engine import mid_game_state

    return mid_game_state("northwest", 3, seed=4, rounds=3)


@pytest.mark.parametrize("name", ["random", "greedy", "mcts"])
def test_bots_are_deterministic_for_a_seed(name: str) -> None:
    state = _mid_state()
    assert_deterministic(name, state)


@pytest.mark.parametrize("name", ["greedy", "mcts"])
def test_bots_see_only_the_view_not_the_hidden_bag_order(name: str) -> None:
    state = _mid_state()
    other = state.clone()
    other.resample_hidden(987654321)  # same public position, different hidden draws
    assert state.view(state.current_player) == other.view(other.current_player)
    assert_same_choice(name, state, other)


def test_mcts_time_budget_runs_iterations() -> None:
    bot = make_bot("mcts", seed=1, time_s=0.2)
    state = _mid_state()
    action = bot.choose(state)
    assert action in state.legal_actions()
    assert bot.last_iterations > 0


def test_bot_pool_chooses_in_another_process() -> None:
    state = _mid_state()
    spec = BotSpec("greedy", seed=2)
    with BotPool(workers=1) as pool:
        action = pool.choose(spec, state)
        assert action in state.legal_actions()

        async def both() -> list[object]:
            return list(
                await asyncio.gather(
                    pool.choose_async(spec, state, salt=1),
                    pool.choose_async(BotSpec("mcts", seed=1, iterations=20), state, salt=2),
                )
            )

        for a in asyncio.run(both()):
            assert a in state.legal_actions()


@pytest.mark.parametrize(
    ("opponent", "needed", "iterations"), [("random", 0.9, 200), ("greedy", 0.6, 200)]
)
def test_mcts_beats_weaker_bots_in_two_player_games(
    opponent: str, needed: float, iterations: int
) -> None:
    """Seeded and deterministic (an iteration budget), 20 games with seats rotated."""
    from erebus.tournament import run_tournament

    result = run_tournament(
        players=2,
        bots=["mcts", opponent],
        games=20,
        jobs=1,
        seed=2026,
        iterations=iterations,
        progress=False,
    )
    rate = result.stats["mcts"].wins / result.stats["mcts"].games
    assert rate >= needed, f"mcts won {rate:.0%} against {opponent}, needs {needed:.0%}"


def test_mcts_time_budget_ends_before_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fake clock that advances 2 ms per reading: the search stops when the next
    iteration would end past ``time_s`` (set-up and the final choice included)."""
    from erebus.bots import mcts

    now = [100.0]

    def clock() -> float:
        now[0] += 0.002
        return now[0]

    monkeypatch.setattr(mcts, "_clock", clock)
    state = _mid_state()
    bot = make_bot("mcts", seed=1, time_s=0.3)
    start = now[0]
    action = bot.choose(state)
    assert action in state.legal_actions()
    assert now[0] - start <= 0.3
    assert bot.last_iterations >= 100  # the budget is used, not given up early
