"""The environments' action spaces draw exactly what gymnasium's ``Discrete`` draws.

:class:`erebus.rl.env.MaskedDiscrete` finds a mask's legal indices in one pass
instead of gymnasium's six; seeded alike, it must give the same numbers for every
mask (and without one), and refuse the same bad masks.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from gymnasium import spaces

from erebus.rl import game_env
from erebus.rl.env import MaskedDiscrete


@pytest.mark.parametrize("n", [17_048, 4_096, 9, 1])
def test_masked_sample_draws_what_gymnasium_draws(n: int) -> None:
    ours, theirs = MaskedDiscrete(n, seed=7), spaces.Discrete(n, seed=7)
    rng = np.random.default_rng(n)
    for i in range(2_000):
        mask = np.zeros(n, dtype=np.int8)
        if i % 9:
            mask[rng.integers(0, n, rng.integers(1, 80))] = 1
        if i % 13 == 0:
            assert ours.sample() == theirs.sample()
        a, b = ours.sample(mask), theirs.sample(mask)
        assert a == b and type(a) is type(b)
        assert mask[a] or not mask.any()


def test_masked_sample_refuses_the_masks_gymnasium_refuses() -> None:
    ours = MaskedDiscrete(5, seed=1)
    for bad in (
        np.array([0, 2, 0, 0, 0], dtype=np.int8),
        np.array([0, -1, 1, 0, 0], dtype=np.int8),
        np.ones(5, dtype=np.int16),
        np.ones(4, dtype=np.int8),
        [0, 1, 0, 0, 0],
    ):
        with pytest.raises(AssertionError):
            ours.sample(bad)  # type: ignore[arg-type]
    probability = np.array([0.0, 0.5, 0.5, 0.0, 0.0])
    assert ours.sample(probability=probability) in (1, 2)


@pytest.mark.parametrize("game", ["northwest", "iceandsnow"])
def test_the_environments_spaces_are_masked_discrete(game: str) -> None:
    env = game_env(game, 2)
    space = env.action_space("player_0")
    assert isinstance(space, MaskedDiscrete) and isinstance(space, spaces.Discrete)
    assert space == spaces.Discrete(space.n)
