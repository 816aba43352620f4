"""Through Ice and Snow's fast observation and kept mask equal the from-scratch ones.

The environment observes through ``encoding.observe_fast`` (the view's fields read
straight from the state) and keeps one mask across steps; along random games of the
base game, the modules and the solo scenarios, every observation of every agent must
equal ``encoding.observe(state, seat)`` (built from ``state.view(seat)``, so no
hidden information can slip in) and every mask ``encoding.legal_mask(state)``.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from erebus.core.errors import IllegalAction
from erebus.games.iceandsnow import encoding as enc
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
                assert np.array_equal(obs["observation"], enc.observe(st, seat))
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
