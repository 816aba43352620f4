"""Which actions a player may take back at the terminal (``u`` in ``erebus play``).

A player may take back their own actions of the current turn, one at a time, but
never past an action that revealed hidden information or moved the game on to
someone else: undoing those would let a player peek and choose again.  This is the
web server's rule (``erebus.server.service.is_barrier``), kept here so terminal play
does not import the server; for Through Ice and Snow it adds the events of that game
that reveal something.

Northwest Passage (as the server):

* ``DisplayRefreshed``, ``DisplayRefilled``, ``TileDrafted`` and a ``TileDrawn`` from
  the display: tiles come out of the bag;
* ``TurnEnded``, ``Passed``, ``RoundStarted``, ``RoundEnded``, ``GameOver``.

Through Ice and Snow:

* ``InvestorRevealed``, ``CartographyRevealed``: the secret setup choices are shown;
* ``EventRevealed``: an event card is turned (a voyage, the mast);
* ``CardsRevealed``: hunting or species cards come off their decks;
* ``CompassDrawn``: a compass card is drawn (Magnetic North Pole);
* ``Passed``, ``RoundStarted``, ``RoundEnded``, ``GameOver``.

Not barriers there: choosing an investor or cartography card (the player already
holds both offers), a map section's side (both sides are printed), a destination,
taking a revealed card.  In both games, whatever the events, an action is a barrier
when the player to act changes, when the game ends, or when the engine's random
generator moved (a draw nobody announced would still be hidden information).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from erebus.core.events import Event

HIDDEN_EVENTS: dict[str, frozenset[str]] = {
    "northwest": frozenset({"DisplayRefreshed", "DisplayRefilled", "TileDrafted"}),
    "iceandsnow": frozenset(
        {
            "InvestorRevealed",
            "CartographyRevealed",
            "EventRevealed",
            "CardsRevealed",
            "CompassDrawn",
        }
    ),
}
TURN_EVENTS = frozenset({"TurnEnded", "Passed", "RoundStarted", "RoundEnded", "GameOver"})


def is_barrier(game: str, seat: int, before: Any, after: Any, events: Sequence[Event]) -> bool:
    """True if the action by ``seat`` that took ``before`` to ``after`` (with ``events``)
    may never be taken back, nor anything before it."""
    if after.current_player != seat or after.is_over:
        return True
    if getattr(before, "rng", None) != getattr(after, "rng", None):
        return True
    hidden = HIDDEN_EVENTS.get(game, frozenset())
    for e in events:
        name = type(e).__name__
        if name in hidden or name in TURN_EVENTS:
            return True
        if name == "TileDrawn" and getattr(e, "source", None) == "display":
            return True  # the display is refilled from the bag
    return False
