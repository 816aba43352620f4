"""Every module at once, four players, random play: the game never stalls.

Found by `erebus bench --options` with the three modules: (1) Kellett looked at a
deck, opened food cans until his officer went to the infirmary, and had no legal
action left (L12: the binding lapses); (2) a cargo check queued behind a creature's
discard had nothing left to discard when its turn came, during the Action phase,
and stayed queued with no legal action (flow._run drops it).  Seed 127 of this
policy reached (2) when it was found.
"""

from __future__ import annotations

import random

import pytest

from erebus.bench.engine import playout_policy
from erebus.games.iceandsnow import new_game

ALL = {"modules": ["walking_on_ice", "inuit_myths", "legendary_expeditions"]}


@pytest.mark.parametrize("seed", [127, 6, 13, 30])
def test_random_games_with_every_module_always_have_a_legal_action(seed: int) -> None:
    rng = random.Random(seed)
    st = new_game(4, seed, ALL)
    steps = 0
    while not st.is_over:
        legal = st.legal_actions()
        assert legal, f"no legal action at step {steps}: decisions {st.decisions}"
        st.apply(playout_policy(rng, legal))
        steps += 1
    assert st.is_over


@pytest.mark.parametrize(("players", "seed", "policy"), [(4, 127, 1), (3, 41, 2), (2, 7, 3)])
def test_every_module_at_once_keeps_every_invariant(players: int, seed: int, policy: int) -> None:
    """The invariant checker of the module games (conservation, views, determinization,
    replay, illegal actions refused) over whole games with all three modules."""
    from iceandsnow.test_module_legends_games import run

    ch = run(players, seed, {**ALL, "explorers": "random"}, policy)
    assert ch.st.is_over
