"""The environment's fast path equals the from-scratch encoding, step by step.

The env keeps one mask across steps (it clears the previous legal indices and sets
the new ones) and observes through :class:`erebus.games.northwest.observer.Observer`,
which recomputes a block only when its inputs changed.  Along random games — with a
policy that favours placing and moving, so tiles, tokens and vehicles all change —
every observation of every agent and every mask must equal
``encoding.observe(state, seat)`` and ``encoding.legal_mask(state)``; an illegal index
must raise ``ValueError`` and change nothing, the caches included.  The observer
alone is checked bit for bit with seats observing in any order (several times a step,
some steps not at all), moved between games of 2-4 players, along greedy games, with
another content, and its seat check against the encoding's.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from erebus.core.errors import IllegalAction
from erebus.games.northwest import encoding as enc
from erebus.games.northwest import new_game
from erebus.games.northwest.observer import Observer
from erebus.rl import northwest_env

from .test_rl import _explorer


def _check_env_against_scratch(env: object, st: object) -> None:
    for agent in env.possible_agents:  # type: ignore[attr-defined]
        seat = env._seat[agent]  # type: ignore[attr-defined]
        obs = env.observe(agent)  # type: ignore[attr-defined]
        assert np.array_equal(obs["observation"], enc.observe(st, seat)), (agent, seat)
        if not st.is_over and st.current_player == seat:  # type: ignore[attr-defined]
            assert np.array_equal(obs["action_mask"], enc.legal_mask(st))
        else:
            assert not obs["action_mask"].any()


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (4, 4)])
def test_incremental_observation_and_mask_equal_scratch_along_random_games(
    players: int, seed: int
) -> None:
    env = northwest_env(players=players)
    rng = random.Random(seed)
    for game in range(2):  # a second reset: the observer starts over
        env.reset(seed=seed + 100 * game)
        steps = 0
        for _agent in env.agent_iter():
            st = env.state_
            _check_env_against_scratch(env, st)
            _obs, _r, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            action = _explorer(rng, st.legal_actions())
            env.step(enc.action_to_index(action, st))
            steps += 1
        assert env.state_.is_over and steps > 30


def test_returned_arrays_are_fresh() -> None:
    """Keeping an observation (a replay buffer does) never sees it change later."""
    env = northwest_env(players=2)
    env.reset(seed=9)
    first = env.observe(env.agent_selection)
    kept = {k: v.copy() for k, v in first.items()}
    env.step(int(np.flatnonzero(first["action_mask"])[0]))
    env.observe(env.agent_selection)
    for k, v in first.items():
        assert np.array_equal(v, kept[k])
    again = env.observe(env.agent_selection)
    assert again["observation"] is not env.observe(env.agent_selection)["observation"]


def test_illegal_indices_raise_value_error_and_change_nothing_mid_game() -> None:
    env = northwest_env(players=3)
    env.reset(seed=21)
    rng = random.Random(0)
    for _ in range(60):  # into the game: tiles placed, vehicles out, caches warm
        st = env.state_
        env.step(enc.action_to_index(_explorer(rng, st.legal_actions()), st))
    agent = env.agent_selection
    before = env.state_.to_json()
    obs = env.observe(agent)
    illegal = np.flatnonzero(obs["action_mask"] == 0)
    for index in (*illegal[:: len(illegal) // 25][:25].tolist(), 0, 1):
        if obs["action_mask"][index]:
            continue
        with pytest.raises(ValueError):
            env.step(int(index))
        with pytest.raises(IllegalAction):
            env.step(int(index))
    assert env.state_.to_json() == before
    assert env.agent_selection == agent
    after = env.observe(agent)
    assert np.array_equal(after["observation"], obs["observation"])
    assert np.array_equal(after["action_mask"], obs["action_mask"])
    _check_env_against_scratch(env, env.state_)
    env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    _check_env_against_scratch(env, env.state_)


def test_observer_follows_another_state_object() -> None:
    """One observer over two games in turn (or a state swapped under it) starts over."""
    observer = Observer(enc.observation_encoder())
    a, b = new_game(2, 1), new_game(4, 2)
    rng = random.Random(3)
    for _ in range(40):
        for st in (a, b):
            if not st.is_over:
                st.apply(_explorer(rng, st.legal_actions()))
            for seat in range(st.n):
                assert np.array_equal(observer(st, seat), enc.observe(st, seat))
    with pytest.raises(ValueError):
        observer(a, 2)


def test_legal_indices_by_identity_equal_by_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """The identity table gives the indices the action's value gives, also when it
    starts over (a tiny limit) and for equal actions that are other objects."""
    monkeypatch.setattr(enc, "IDENTITY_MEMO_LIMIT", 7)
    space = enc.ActionSpace(enc.default_content())
    st = new_game(4, 5)
    rng = random.Random(4)
    while not st.is_over:
        legal = st.legal_actions()
        copies = [type(a)(*a) for a in legal]  # equal, not identical
        expected = [space._compute_index(a, space.refs(st)) for a in legal]
        assert space.indices(legal, st) == expected
        assert space.indices(copies, st) == expected
        assert [space.action(i, st) for i in expected] == legal
        st.apply(_explorer(rng, legal))
    assert len(space._alive) <= 7


@pytest.mark.parametrize(
    ("players", "seed", "small"), [(2, 11, False), (3, 12, False), (4, 13, True)]
)
def test_legal_indices_from_the_engine_queries_equal_the_listed_actions(
    players: int, seed: int, small: bool
) -> None:
    """:meth:`ActionSpace.legal_indices` numbers the engine's option queries without
    the action objects; along random games (and a content with a display of 3 and a
    tile less) it gives the indices of ``legal_actions()`` in their order."""
    import dataclasses

    content = enc.default_content()
    if small:
        content = dataclasses.replace(
            content,
            tiles=tuple(t for t in content.tiles if t.id != "L07"),
            rules=dataclasses.replace(content.rules, display_size=3),
        )
    space = enc.ActionSpace(content)
    st = new_game(players, seed, content)
    rng = random.Random(seed)
    checked = 0
    while not st.is_over:
        legal = st.legal_actions()
        expected = [space._compute_index(a, space.refs(st)) for a in legal]
        assert space.legal_indices(st) == expected
        checked += 1
        st.apply(_explorer(rng, legal))
    assert space.legal_indices(st) == [] and checked > 50


def _same(got: np.ndarray, st: object, seat: int) -> None:
    """Bit for bit (``array_equal`` would take -0.0 for 0.0), and a fresh array."""
    want = enc.observe(st, seat)  # type: ignore[arg-type]
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes(), (seat, np.flatnonzero(got != want)[:10])


@pytest.mark.parametrize(("players", "seed"), [(2, 31), (3, 32), (4, 33), (4, 34)])
def test_observer_seats_in_random_order_several_times_a_step(players: int, seed: int) -> None:
    """The observing seat changes in any order, the same seat twice running, some steps
    not observed at all: the seat blocks turn with the seat, nothing is left behind."""
    st = new_game(players, seed)
    observer = Observer(enc.observation_encoder())
    rng = random.Random(seed)
    kept = []
    while True:
        if rng.random() < 0.8:
            for _ in range(rng.randint(1, 2 * players)):
                seat = rng.randrange(players)
                got = observer(st, seat)
                _same(got, st, seat)
                if rng.random() < 0.05:
                    kept.append((got.copy(), got))
        if st.is_over:
            break
        st.apply(_explorer(rng, st.legal_actions()))
    for seat in range(players):
        _same(observer(st, seat), st, seat)
    assert all(np.array_equal(a, b) for a, b in kept)  # returned arrays never change


def test_observer_moved_between_games_of_other_player_counts() -> None:
    """One observer over games of 2, 3 and 4 players in turn, one of them over: each
    switch starts over (the seat blocks of a larger game are cleared)."""
    observer = Observer(enc.observation_encoder())
    games = [new_game(4, 41), new_game(2, 42), new_game(3, 43), new_game(4, 44)]
    rng = random.Random(5)
    for step in range(150):
        for i, st in enumerate(games):
            if st.is_over or (i == 3 and step > 20):
                continue
            st.apply(_explorer(rng, st.legal_actions()))
            seat = rng.randrange(st.n)
            _same(observer(st, seat), st, seat)
    for st in games:
        for seat in range(st.n):
            _same(observer(st, seat), st, seat)


def test_observer_seat_check() -> None:
    """The same ``ValueError`` the encoding raises, and numpy integers are seats."""
    st = new_game(3, 8)
    observer = Observer(enc.observation_encoder())
    for bad in (3, -1, True, False, 1.0, "1", None, np.int64(3), np.int32(-1)):
        with pytest.raises(ValueError):
            observer(st, bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            enc.observe(st, bad)  # type: ignore[arg-type]
    for seat in (np.int64(2), np.int32(1), np.uint8(0), 2):
        _same(observer(st, seat), st, int(seat))  # type: ignore[arg-type]


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_observer_along_greedy_games(players: int, seed: int) -> None:
    """Games the greedy bot plays last longer and go further than random ones (more
    tiles, tokens, returns, points): every seat observing at every step."""
    from erebus.bots import make_bot

    st = new_game(players, 50 + seed)
    observer = Observer(enc.observation_encoder())
    bot = make_bot("greedy", seed=seed)
    steps = 0
    while not st.is_over:
        for seat in range(players):
            _same(observer(st, seat), st, seat)
        st.apply(bot.choose(st))
        steps += 1
    for seat in reversed(range(players)):
        _same(observer(st, seat), st, seat)
    assert steps > 60


def test_observer_of_another_content() -> None:
    """A content with a display of 3 and a tile less: the display's and reserves'
    rows follow the content's sizes."""
    import dataclasses

    content = enc.default_content()
    content = dataclasses.replace(
        content,
        tiles=tuple(t for t in content.tiles if t.id != "L07"),
        rules=dataclasses.replace(content.rules, display_size=3),
    )
    encoder = enc.ObservationEncoder(content)
    observer = Observer(encoder)
    for players, seed in ((2, 61), (4, 62)):
        st = new_game(players, seed, content)
        rng = random.Random(seed)
        while not st.is_over:
            seat = rng.randrange(players)
            got = observer(st, seat)
            want = encoder.encode(st, seat)
            assert got.tobytes() == want.tobytes()
            st.apply(_explorer(rng, st.legal_actions()))
