"""The environment's fast path equals the from-scratch encoding, step by step.

The env keeps one mask across steps (it clears the previous legal indices and sets
the new ones) and observes through :class:`erebus.games.northwest.observer.Observer`,
which recomputes a block only when its inputs changed.  Along random games — with a
policy that favours placing and moving, so tiles, tokens and vehicles all change —
every observation of every agent and every mask must equal
``encoding.observe(state, seat)`` and ``encoding.legal_mask(state)``; an illegal index
must raise ``ValueError`` and change nothing, the caches included.
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
