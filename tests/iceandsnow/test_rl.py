"""The RL adapter on Through Ice and Snow: PettingZoo API, masks, observations without hidden information."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]

from erebus.core.errors import IllegalAction
from erebus.games.iceandsnow import State, new_game
from erebus.games.iceandsnow import encoding as enc
from erebus.rl import game_env
from erebus.rl.env import adapter_for

BENIGN = [
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be:UserWarning",
]
CASES = [
    (1, {"scenario": "lost-expedition"}),
    (1, {"scenario": "magnetic-north-pole"}),
    (2, None),
    (3, {"modes": ["survival", "shelters"], "upgrades": "all"}),
    (4, {"modes": ["dual_species"], "extra_events": True}),
]


@pytest.mark.filterwarnings(*BENIGN)
@pytest.mark.parametrize(("players", "options"), CASES)
def test_pettingzoo_api_and_seeding(players: int, options: dict[str, object] | None) -> None:
    api_test(game_env("iceandsnow", players, options), num_cycles=400)
    seed_test(lambda: game_env("iceandsnow", players, options), num_cycles=200)


def random_states(players: int, seed: int, options: dict[str, object] | None) -> list[State]:
    rng = random.Random(seed)
    st = new_game(players, seed, options)
    out = [st.clone()]
    while not st.is_over:
        st.apply(rng.choice(st.legal_actions()))
        out.append(st.clone())
    return out


@pytest.mark.parametrize(("players", "options"), CASES)
def test_mask_indices_and_observations(players: int, options: dict[str, object] | None) -> None:
    e = enc.encoder()
    low, high = adapter_for("iceandsnow", players, options).bounds()
    for k, st in enumerate(random_states(players, 11 + players, options)):
        if st.is_over:
            continue
        legal = st.legal_actions()
        mask = enc.legal_mask(st)
        assert mask.shape == (enc.MAX_ACTIONS,) and int(mask.sum()) == len(legal)
        for i in (0, len(legal) - 1):
            assert enc.index_to_action(st, i) == legal[i]
            assert enc.action_to_index(st, legal[i]) == i
        for seat in range(players):
            obs = e.encode(st, seat)
            assert obs.shape == (e.size,) and obs.dtype == np.float32
            assert np.all(obs >= low) and np.all(obs <= high)
            if k % 7:
                continue
            # Hidden information resampled, or rebuilt from the view alone: same observation.
            other = st.clone()
            other.resample_hidden(999 + k, seat=seat)
            assert np.array_equal(e.encode(other, seat), obs)
            det = State.from_view(st.view(seat), 4242 + k)
            assert np.array_equal(e.encode(det, seat), obs)


def test_other_seats_cartography_is_not_observed() -> None:
    st = new_game(3, 5)
    while st.round == 0:  # setup choices
        st.apply(st.legal_actions()[0])
    e = enc.encoder()
    o0 = e.encode(st, 0)
    swapped = st.clone()
    swapped.resample_hidden(77, seat=0)
    assert np.array_equal(e.encode(swapped, 0), o0)


def test_bad_indices_raise_and_change_nothing() -> None:
    env = game_env("iceandsnow", 2)
    env.reset(seed=3)
    before = env.state_.to_json()
    n = len(env.state_.legal_actions())
    for bad in (n, enc.MAX_ACTIONS, -1):
        with pytest.raises(ValueError):
            env.step(bad)
    with pytest.raises(ValueError):
        env.step(1.5)
    assert env.state_.to_json() == before
    assert not isinstance(IllegalAction("x"), KeyError)


def test_legal_lists_fit_the_action_space() -> None:
    """The busiest options (all upgrades, shelters, survival, 4 players) stay under MAX_ACTIONS."""
    rng = random.Random(2)
    most = 0
    for seed in range(15):
        st = new_game(4, seed, {"modes": ["survival", "shelters"], "upgrades": "all"})
        while not st.is_over:
            legal = st.legal_actions()
            most = max(most, len(legal))
            st.apply(rng.choice(legal))
    assert 0 < most < enc.MAX_ACTIONS


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, None),
        (2, {"modules": ["walking_on_ice"]}),
        (3, {"modules": ["legendary_expeditions"]}),
        (2, {"modules": ["walking_on_ice", "inuit_myths", "legendary_expeditions"]}),
        (1, {"scenario": "lost-expedition"}),
        (1, {"scenario": "amundsens-voyage"}),
    ],
)
def test_the_observation_space_fits_the_games_options(
    players: int, options: dict[str, object] | None
) -> None:
    """Modules and solo scenarios change the content (sections, spaces, event cards),
    and with it the observation's length: the declared space follows the options."""
    env = game_env("iceandsnow", players, options=options)
    env.reset(seed=3)
    for _ in range(40):
        agent = env.agent_selection
        obs, _, term, trunc, _ = env.last()
        space = env.observation_space(agent)["observation"]
        assert obs["observation"].shape == space.shape
        assert space.contains(obs["observation"])
        if term or trunc:
            break
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
