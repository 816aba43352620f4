"""Through Ice and Snow (2Tomatoes Games, 2023) — the rules engine.

The public API is ``shared/design/engine-api.md``; ``SPEC`` is the game contract
(:class:`erebus.core.game.GameSpec`) every consumer goes through::

    from erebus.games import iceandsnow as game
    state = game.new_game(players=3, seed=42, options={"modes": ["survival"]})
    while not state.is_over:
        state.apply(state.legal_actions()[0])
"""

from erebus.core.events import Event
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.botmoves import bot_actions
from erebus.games.iceandsnow.content import Content, default_content
from erebus.games.iceandsnow.heuristics import REWARD_SCALE, heuristic, terminal_value
from erebus.games.iceandsnow.sources import SOURCE_LABELS, SOURCES, score_source
from erebus.games.iceandsnow.spec import SPEC
from erebus.games.iceandsnow.state import State, new_game, replay

determinize = State.from_view

NAME = "iceandsnow"
TITLE = "Through Ice and Snow"
PLAYERS = (1, 2, 3, 4)

__all__ = [
    "NAME",
    "PLAYERS",
    "REWARD_SCALE",
    "SOURCES",
    "SOURCE_LABELS",
    "SPEC",
    "TITLE",
    "Action",
    "Content",
    "Event",
    "State",
    "bot_actions",
    "default_content",
    "determinize",
    "heuristic",
    "new_game",
    "replay",
    "score_source",
    "terminal_value",
]
