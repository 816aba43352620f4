"""The analysis behind hints and reviews (``erebus.bots.analysis``, ``MctsBot.analyse``):
deterministic for a seed, every rating a legal action, a move played is rated even
when the root screen would drop it, and winning chances are probabilities."""

from __future__ import annotations

import random

import pytest

from erebus.bots import analysis, make_bot
from erebus.games import get_game


def _mid_game(game: str, players: int, seed: int, moves: int) -> object:
    spec = get_game(game)
    state = spec.new_game(players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("game", "players"), [("northwest", 3), ("iceandsnow", 2)])
def test_analyse_returns_root_statistics_most_visited_first(game: str, players: int) -> None:
    state = _mid_game(game, players, 3, 30)
    bot = make_bot("mcts", seed=4, iterations=60)
    stats = bot.analyse(state)
    legal = state.legal_actions()  # type: ignore[attr-defined]
    assert stats and all(a in legal for a, _, _ in stats)
    visits = [n for _, _, n in stats]
    assert visits == sorted(visits, reverse=True)
    assert all(-1.0 <= v <= 1.0 for _, v, _ in stats)
    assert make_bot("mcts", seed=4, iterations=60).analyse(state) == stats


def test_a_kept_action_survives_the_root_screen() -> None:
    # Ice and Snow screens the root down to 6 candidates: the move played is kept.
    spec = get_game("iceandsnow")
    wide = (
        s
        for seed in range(1, 40)
        for moves in (10, 15, 20, 25)
        if not (s := _mid_game("iceandsnow", 2, seed, moves)).is_over  # type: ignore[attr-defined]
        and len(s.legal_actions()) > 3 * spec.search.root_screen  # type: ignore[attr-defined]
    )
    state = next(wide)
    legal = state.legal_actions()  # type: ignore[attr-defined]
    assert len(legal) > spec.search.root_screen
    worst = legal[-1]
    pos = analysis.rate(state, 9, 30, keep=[worst])
    assert pos.rating_of(worst) is not None
    assert pos.loss(worst) >= 0.0
    assert pos.loss(pos.best.action) == 0.0


@pytest.mark.parametrize(("game", "players"), [("northwest", 4), ("iceandsnow", 3)])
def test_winning_chances_are_probabilities(game: str, players: int) -> None:
    state = _mid_game(game, players, 5, 40)
    chances = analysis.win_chances(state)
    assert len(chances) == players and all(0.0 <= c <= 1.0 for c in chances)
    assert abs(sum(chances) - 1.0) < 1e-9
    pos = analysis.rate(state, 1, 20)
    assert all(0.0 <= r.result <= 1.0 for r in pos.ratings)


def test_public_seeds_are_stable_and_differ() -> None:
    assert analysis.public_seed("g", 1) == analysis.public_seed("g", 1)
    assert analysis.public_seed("g", 1) != analysis.public_seed("g", 2)
    assert 0 <= analysis.public_seed("x") < 2**63
