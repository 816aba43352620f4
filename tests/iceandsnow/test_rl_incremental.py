"""Through Ice and Snow's incremental observation and kept mask equal the from-scratch ones.

The environment observes through ``observer.Observer`` (the last observation kept as a
template, a block rebuilt only when what it is made of changed) and keeps one mask
across steps; along random games of the base game, the modules and the solo scenarios,
every observation of every agent must equal ``encoding.observe(state, seat)`` (built
from ``state.view(seat)``, so no hidden information can slip in), bit for bit, and
every mask ``encoding.legal_mask(state)``.  The observer is also driven directly: seats
observing in random order (repeats, every seat, several times a step), Walking on Ice
past the ships' abandonment, Inuit Myths' curses, and one observer moved from game to
game (another content, another player count) and back.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from erebus.core.errors import IllegalAction
from erebus.games.iceandsnow import encoding as enc
from erebus.games.iceandsnow import new_game
from erebus.games.iceandsnow.observer import Observer
from erebus.rl import game_env

CASES = [
    (1, {"scenario": "lost-expedition"}),
    (1, {"modules": ["inuit_myths"], "scenario": "mysterious-epidemic"}),
    (2, None),
    (3, {"modules": ["inuit_myths", "walking_on_ice", "legendary_expeditions"]}),
    (4, {"modes": ["survival", "shelters", "dual_species"], "upgrades": "all"}),
]


@pytest.mark.parametrize(("players", "options"), CASES)
def test_fast_observation_and_kept_mask_equal_scratch(
    players: int, options: dict[str, object] | None
) -> None:
    env = game_env("iceandsnow", players, options)
    rng = random.Random(players)
    for seed in (1, 2):
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            st = env.state_
            for other in env.possible_agents:
                seat = env._seat[other]
                obs = env.observe(other)
                assert obs["observation"].tobytes() == enc.observe(st, seat).tobytes()
                if not st.is_over and st.current_player == seat:
                    assert np.array_equal(obs["action_mask"], enc.legal_mask(st))
                else:
                    assert not obs["action_mask"].any()
            _obs, _r, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.randrange(len(st.legal_actions())))
        assert env.state_.is_over


def test_observe_fast_checks_the_seat() -> None:
    env = game_env("iceandsnow", 2)
    env.reset(seed=1)
    for bad in (2, -1, "0"):
        with pytest.raises(ValueError):
            enc.observe_fast(env.state_, bad)  # type: ignore[arg-type]


def test_illegal_indices_raise_and_change_nothing_mid_game() -> None:
    env = game_env("iceandsnow", 3)
    env.reset(seed=8)
    rng = random.Random(1)
    for _ in range(30):
        env.step(rng.randrange(len(env.state_.legal_actions())))
    agent = env.agent_selection
    before = env.state_.to_json()
    obs = env.observe(agent)
    n = int(obs["action_mask"].sum())
    for bad in (n, n + 1, enc.MAX_ACTIONS - 1):
        with pytest.raises(ValueError):
            env.step(bad)
        with pytest.raises(IllegalAction):
            env.step(bad)
    assert env.state_.to_json() == before
    assert env.agent_selection == agent
    after = env.observe(agent)
    assert np.array_equal(after["observation"], obs["observation"])
    assert np.array_equal(after["action_mask"], obs["action_mask"])
    env.step(n - 1)


def test_the_encoding_reads_the_cached_legal_list_without_changing_it() -> None:
    """``legal_actions()`` hands out copies of the engine's cached list, which the
    encoding (and ``apply``) read as it is: changing a copy changes nothing."""
    from erebus.games.iceandsnow import new_game

    st = new_game(3, 4)
    rng = random.Random(2)
    for _ in range(40):
        legal = st.legal_actions()
        assert st._legal_list() == legal and st._legal_list() is not legal
        assert list(enc.legal_indices(st)) == list(range(len(legal)))
        assert [enc.index_to_action(st, i) for i in range(len(legal))] == legal
        legal.clear()
        assert st.legal_actions() and st._legal_list() == st.legal_actions()
        st.apply(st.legal_actions()[rng.randrange(len(st.legal_actions()))])


def _same(got: np.ndarray, st: object, seat: int) -> None:
    want = enc.observe(st, seat)
    assert got.dtype == np.float32 and got.shape == want.shape
    assert got.tobytes() == want.tobytes(), np.flatnonzero(got != want)


WALKING = {"modules": ["walking_on_ice"]}
ALL = {"modules": ["inuit_myths", "walking_on_ice", "legendary_expeditions"]}
DIRECT = [
    *CASES,
    (1, {"scenario": "magnetic-north-pole"}),
    (1, {"scenario": "amundsens-voyage"}),
    (2, WALKING),
    (4, WALKING),
    (2, {"modules": ["inuit_myths"], "modes": ["dual_species"]}),
    (3, ALL),
]


@pytest.mark.parametrize(("players", "options"), DIRECT)
def test_observer_equals_scratch_for_seats_in_any_order(
    players: int, options: dict[str, object] | None
) -> None:
    """Several observations a step, of seats in random order (the same seat twice,
    a seat not to move), each equal to the view's encoding; the returned arrays are
    the observer's no longer (changing one changes nothing)."""
    rng = random.Random(10 + players)
    for seed in (3, 4):
        st = new_game(players, seed, options)
        ob = Observer()
        while True:
            for _ in range(rng.randrange(1, 2 * players + 1)):
                seat = rng.randrange(players)
                got = ob(st, seat)
                _same(got, st, seat)
                got[:] = 7.0
            if st.is_over:
                break
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])


def test_observer_reaches_the_modules_blocks() -> None:
    """Walking on Ice's block after the ships are abandoned and Inuit Myths' curses,
    every seat observing each step."""
    seen = {"abandoned": 0, "curse": 0, "unrevealed": 0}
    for players, seed in ((2, 1), (3, 2), (3, 5), (4, 3)):
        st = new_game(players, seed, ALL)
        ob = Observer()
        rng = random.Random(seed)
        while not st.is_over:
            seen["abandoned"] += bool(st.abandoned)
            seen["curse"] += any(st.curse)
            seen["unrevealed"] += not st.revealed
            for seat in rng.sample(range(players), players):
                _same(ob(st, seat), st, seat)
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
        _same(ob(st, 0), st, 0)
    assert all(seen.values()), seen


def test_one_observer_moves_from_game_to_game() -> None:
    """An observer handed another state starts over (another content and size, another
    player count), and again when handed the first one back."""
    games = [
        new_game(2, 1),
        new_game(3, 2, ALL),
        new_game(1, 3, {"scenario": "lost-expedition"}),
        new_game(4, 4, {"modes": ["survival", "shelters"]}),
    ]
    ob = Observer()
    rng = random.Random(5)
    for _ in range(120):
        st = rng.choice(games)
        if st.is_over:
            continue
        seat = rng.randrange(st.n)
        _same(ob(st, seat), st, seat)
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
        _same(ob(st, seat), st, seat)


def test_observer_checks_the_seat() -> None:
    st = new_game(2, 1)
    ob = Observer()
    for bad in (2, -1, "0", None):
        with pytest.raises(ValueError):
            ob(st, bad)  # type: ignore[arg-type]
    _same(ob(st, 1), st, 1)


def test_the_env_observes_through_an_observer_made_at_each_reset() -> None:
    env = game_env("iceandsnow", 2)
    env.reset(seed=1)
    first = env._observe
    assert isinstance(first, Observer)
    env.reset(seed=2)
    assert isinstance(env._observe, Observer) and env._observe is not first


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, None), (3, ALL), (4, {"modes": ["survival", "shelters", "dual_species"]})],
)
def test_observer_along_greedy_games(players: int, options: dict[str, object] | None) -> None:
    """Games a greedy bot plays last longer than random ones (later rounds, more
    points, upgrades, species): every seat observing at every step."""
    from erebus.bots import make_bot

    st = new_game(players, 7, options)
    ob = Observer()
    bot = make_bot("greedy", seed=1)
    while not st.is_over:
        for seat in range(players):
            _same(ob(st, seat), st, seat)
        st.apply(bot.choose(st))
    assert st.round >= 7
    _same(ob(st, 1), st, 1)
