"""What the hard bot values (``search_heuristic``, issue 14): in multiplayer the
heuristic on a reward scale that does not saturate at one action's points, in solo
also the objectives that a few actions of search can reach or lose.  The medium bot
keeps the one-ply heuristic (its goldens are unchanged)."""

from __future__ import annotations

import pytest

from erebus.bots import make_bot
from erebus.bots.base import BotSpec
from erebus.bots.mcts import MctsBot, greedy_reply
from erebus.games import get_game
from erebus.games import iceandsnow as game
from erebus.games.iceandsnow import heuristics as h
from erebus.games.iceandsnow import search
from erebus.games.iceandsnow.state import State
from support.bots import assert_deterministic


def _play(players: int, options: dict | None = None, until=None, seed: int = 3) -> State:
    state = game.new_game(players, seed=seed, options=options)
    bots = [make_bot("greedy", seed=seed + s) for s in range(players)]
    while not state.is_over and not (until and until(state)):
        state.apply(bots[state.current_player].choose(state))
    return state


def test_the_spec_gives_the_search_its_own_evaluator_and_keeps_greedys() -> None:
    spec = get_game("iceandsnow")
    assert spec.heuristic is h.heuristic  # the medium bot's play is unchanged
    assert spec.search_heuristic is search.value


def test_multiplayer_value_is_the_heuristic() -> None:
    state = _play(3, until=lambda s: s.round >= 3 and s.phase == "action")
    for seat in range(3):
        assert search.value(state, seat) == pytest.approx(h.heuristic(state, seat))


def test_the_search_uses_the_measured_reward_scale() -> None:
    spec = get_game("iceandsnow")
    assert spec.search.reward_scale == h.REWARD_SCALE == 6.0


def test_solo_missing_objectives_cost_the_search_more() -> None:
    state = _play(1, {"scenario": "lost-expedition"}, until=lambda s: s.phase == "action")
    missing = len(state.objectives_missing())
    assert missing == 3
    assert search.value(state, 0) == pytest.approx(
        h.heuristic(state, 0) - search.SEARCH_OBJECTIVE * missing
    )


def test_lost_expedition_found_before_the_cabin_is_unwinnable() -> None:
    state = _play(1, {"scenario": "lost-expedition"}, until=lambda s: s.phase == "action")
    found = state.clone()
    found.le_found = True
    with_cabin = found.clone()
    with_cabin.le_cabin = True
    assert search.objective_plan(found, 0) <= -search.UNWINNABLE
    assert search.objective_plan(with_cabin, 0) > -search.UNWINNABLE


def test_amundsen_haven_round_passed_is_unwinnable() -> None:
    state = _play(1, {"scenario": "amundsens-voyage"}, until=lambda s: s.round >= 3)
    assert not state.am_founded
    base = search.objective_plan(state, 0)
    now = state.clone()
    now.am_haven = state.round  # this round: still possible
    assert search.objective_plan(now, 0) == base
    passed = state.clone()
    passed.am_haven = state.round - 1
    assert search.objective_plan(passed, 0) == base - search.UNWINNABLE


def test_magnetic_pole_round_rewards_its_explore_and_cabin() -> None:
    state = _play(1, {"scenario": "magnetic-north-pole"}, until=lambda s: s.phase == "action")
    base = search.objective_plan(state, 0)
    pole = state.clone()
    pole.pole_dir = "E"
    req = pole.scen()["requirements"]["E"]
    pole.mnp_explore, pole.mnp_cabin = 0, -1
    assert search.objective_plan(pole, 0) == base
    pole.mnp_explore = int(req["explore"])
    assert search.objective_plan(pole, 0) == base + search.POLE_PART
    pole.mnp_cabin = int(req["cabin_food"])
    assert search.objective_plan(pole, 0) == base + 2 * search.POLE_PART


@pytest.mark.parametrize("players", [2, 3])
def test_hard_bot_is_deterministic_with_the_relative_value(players: int) -> None:
    state = _play(players, until=lambda s: s.round >= 2 and s.phase == "action")
    assert_deterministic("mcts", state)


def test_the_search_values_its_action_after_the_rivals_greedy_reply() -> None:
    # Measured 2026-12-04 (docs/iceandsnow-balance.md): the hard bot's own-turn tree
    # values each leaf after the rival's one-ply greedy reply.
    spec = get_game("iceandsnow")
    assert spec.search.own_turn_only and spec.search.rival_reply
    assert spec.search.root_screen == 6


def test_a_leaf_where_the_rival_moves_gets_the_greedy_reply_first() -> None:
    spec = get_game("iceandsnow")
    state = _play(
        2, until=lambda s: s.round >= 2 and s.phase == "action" and len(s.legal_actions()) > 3
    )
    me = state.current_player
    bot = MctsBot(BotSpec("mcts", 1, None, 10))
    bot.choose(state)  # sets the game's hints and the root seat
    assert bot.rival_reply and bot._me == me
    leaf = state.clone()
    while not leaf.is_over and leaf.current_player == me:
        leaf.apply(leaf.legal_actions()[0])
    assert leaf.current_player != me
    expected = leaf.clone()
    expected.apply(greedy_reply(spec, expected))
    replied = leaf.clone()
    bot._reply(replied, spec)
    assert replied.to_json() == expected.to_json()
    assert replied.to_json() != leaf.to_json()
    mine = state.clone()  # the root seat to move: no reply
    bot._reply(mine, spec)
    assert mine.to_json() == state.to_json()


@pytest.mark.parametrize("players", [3, 4])
def test_at_three_or_four_players_every_rival_replies_until_the_bot_moves_again(
    players: int,
) -> None:
    # Measured 2026-12-04 b (docs/iceandsnow-balance.md): the next seat's reply alone
    # lost to no reply; the round of replies, at most one decision fewer than the seats,
    # beat both.
    spec = get_game("iceandsnow")
    state = _play(
        players,
        until=lambda s: s.round >= 2 and s.phase == "action" and len(s.legal_actions()) > 3,
    )
    me = state.current_player
    bot = MctsBot(BotSpec("mcts", 1, None, 10))
    bot.choose(state)
    assert bot._me == me and bot._seats == players
    leaf = state.clone()
    while not leaf.is_over and leaf.current_player == me:
        leaf.apply(leaf.legal_actions()[0])
    expected = leaf.clone()
    replies = 0
    while replies < players - 1 and not expected.is_over and expected.current_player != me:
        expected.apply(greedy_reply(spec, expected))
        replies += 1
    assert replies >= 2  # more than the next seat's reply was played
    replied = leaf.clone()
    bot._reply(replied, spec)
    assert replied.to_json() == expected.to_json()
