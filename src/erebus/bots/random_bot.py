"""The easy level: uniform over legal actions, but not a quitter.

A uniformly random player passes or ends its turn at the first chance and
never gets anywhere, which makes it a useless opponent and a useless
baseline.  This one stops acting only one time in ``stop_every``.
"""

from __future__ import annotations

import random
from typing import Any

from erebus.bots.base import BotSpec

STOP_KINDS = frozenset({"pass", "end_turn"})


def biased_choice(rng: random.Random, legal: list[Any], stop_every: int = 8) -> Any:
    """A random legal action; stopping (pass/end turn) only with odds 1 in ``stop_every``."""
    go = [a for a in legal if a.kind not in STOP_KINDS]
    if go and rng.randrange(stop_every):
        return rng.choice(go)
    stop = [a for a in legal if a.kind in STOP_KINDS]
    if stop:
        ends = [a for a in stop if a.kind == "end_turn"]
        return ends[0] if ends else stop[0]
    return rng.choice(legal)


class RandomBot:
    """Uniform over non-stopping legal actions; reproducible from its seed."""

    def __init__(self, spec: BotSpec) -> None:
        self.spec = spec
        self.rng = random.Random(spec.seed)

    def choose(self, state: Any) -> Any:
        legal = state.legal_actions()  # legal actions are public information
        return biased_choice(self.rng, legal)
