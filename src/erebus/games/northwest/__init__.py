"""Expedition: Northwest Passage (Yves Tourigny, 2010) — the rules engine.

The public API is ``shared/design/engine-api.md``; ``SPEC`` is the game contract
(:class:`erebus.core.game.GameSpec`) every consumer goes through::

    from erebus.games import northwest as game
    state = game.new_game(players=3, seed=42)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
"""

from erebus.core.events import Event
from erebus.games.northwest.actions import Action
from erebus.games.northwest.content import Content, default_content, load_content
from erebus.games.northwest.heuristics import heuristic
from erebus.games.northwest.spec import SPEC
from erebus.games.northwest.state import State, new_game, replay

determinize = State.from_view

NAME = "northwest"
TITLE = "Expedition: Northwest Passage"
PLAYERS = (2, 3, 4)

__all__ = [
    "NAME",
    "PLAYERS",
    "SPEC",
    "TITLE",
    "Action",
    "Content",
    "Event",
    "State",
    "default_content",
    "determinize",
    "heuristic",
    "load_content",
    "new_game",
    "replay",
]
