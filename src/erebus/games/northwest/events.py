"""Events of Expedition: Northwest Passage: what ``State.apply`` reports.

Every change of score is a :class:`ScoreChanged`, so the sum of a seat's
deltas always equals its score; the others describe the board for logs,
renderers and the web client.  ``text()`` turns each into a sentence, with
the tokens by their names (Inuit, Franklin) and the final scores by player.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from erebus.core import events as core
from erebus.core.events import Event

#: Token kinds as the rulebook names them (the ids are lower case).
TOKEN_NAMES = {"inuit": "Inuit", "franklin": "Franklin"}


def _token(kind: str) -> str:
    return TOKEN_NAMES.get(kind, kind)


def _names_in(reason: str) -> str:
    """A score reason with the token names capitalised: "inuit ×2" → "Inuit ×2"."""
    return " ".join(_token(word) for word in reason.split(" "))


def _who(seat: int, names: list[str] | None) -> str:
    return names[seat] if names and 0 <= seat < len(names) else f"Player {seat + 1}"


@dataclass(frozen=True, slots=True)
class TileDrafted(Event):
    seat: int
    tile: str
    template: ClassVar[str] = "{player} drafts tile {tile}."


@dataclass(frozen=True, slots=True)
class CrewSpent(Event):
    seat: int
    vehicle: str
    count: int
    template: ClassVar[str] = "{player} rests {count} crew in the {vehicle} column."


@dataclass(frozen=True, slots=True)
class TileDrawn(Event):
    seat: int
    tile: str
    source: str
    template: ClassVar[str] = "{player} draws tile {tile} from the {source}."


@dataclass(frozen=True, slots=True)
class DisplayRefreshed(Event):
    seat: int
    tiles: tuple[str, ...]
    template: ClassVar[str] = "{player} refreshes the display: {tiles}."


@dataclass(frozen=True, slots=True)
class DisplayRefilled(Event):
    tile: str | None
    seat: int | None = None
    template: ClassVar[str] = "The display is refilled from the bag."


@dataclass(frozen=True, slots=True)
class TilePlaced(Event):
    seat: int
    tile: str
    x: int
    y: int
    rotation: int
    side: str
    template: ClassVar[str] = (
        "{player} places tile {tile} (side {side}, rotation {rotation}) at {x},{y}."
    )


@dataclass(frozen=True, slots=True)
class HoleFilled(Event):
    tile: str
    x: int
    y: int
    rotation: int
    joker: bool
    seat: int | None = None
    template: ClassVar[str] = "A hole at {x},{y} is filled with small tile {tile}."


@dataclass(frozen=True, slots=True)
class TokenPlaced(Event):
    token: str
    x: int
    y: int
    seat: int | None = None
    template: ClassVar[str] = "A {token} token is placed at {x},{y}."

    def text(self, names: list[str] | None = None) -> str:
        word = _token(self.token)
        article = "An" if word[:1].lower() in "aeiou" else "A"
        return f"{article} {word} token is placed at {self.x},{self.y}."


@dataclass(frozen=True, slots=True)
class IslandCompleted(Event):
    seat: int
    size: int
    cartography: bool
    template: ClassVar[str] = "{player} completes an island of {size} tiles."


@dataclass(frozen=True, slots=True)
class TokenTaken(Event):
    seat: int
    token: str
    x: int
    y: int
    template: ClassVar[str] = "{player} takes the {token} token at {x},{y}."

    def text(self, names: list[str] | None = None) -> str:
        who = _who(self.seat, names)
        return f"{who} takes the {_token(self.token)} token at {self.x},{self.y}."


@dataclass(frozen=True, slots=True)
class VehicleMoved(Event):
    seat: int
    vehicle: str
    to: str
    template: ClassVar[str] = "{player}'s {vehicle} moves to {to}."


@dataclass(frozen=True, slots=True)
class CrewTransferred(Event):
    seat: int
    ship_available: int
    ship_resting: int
    sled_available: int
    sled_resting: int
    template: ClassVar[str] = (
        "{player} transfers crew: ship {ship_available}+{ship_resting}, "
        "sled {sled_available}+{sled_resting} (available+resting)."
    )


@dataclass(frozen=True, slots=True)
class SledDeployed(Event):
    seat: int
    at: str
    template: ClassVar[str] = "{player}'s sled is deployed at {at}."


@dataclass(frozen=True, slots=True)
class SledRecalled(Event):
    seat: int
    template: ClassVar[str] = "{player}'s sled returns to the player board."


@dataclass(frozen=True, slots=True)
class ReachedNorthwest(Event):
    seat: int
    value: int | None
    template: ClassVar[str] = "{player} reaches the Northwest Passage."


@dataclass(frozen=True, slots=True)
class ReturnedToGreenland(Event):
    seat: int
    value: int | None
    template: ClassVar[str] = "{player}'s expedition returns to Greenland."


@dataclass(frozen=True, slots=True)
class ScoreChanged(core.ScoreChanged):
    seat: int
    delta: int
    reason: str
    template: ClassVar[str] = "{player} scores {delta:+d} ({reason})."

    def text(self, names: list[str] | None = None) -> str:
        return f"{_who(self.seat, names)} scores {self.delta:+d} ({_names_in(self.reason)})."


@dataclass(frozen=True, slots=True)
class TurnEnded(core.TurnEnded):
    seat: int
    template: ClassVar[str] = "{player} ends the turn."


@dataclass(frozen=True, slots=True)
class Passed(core.Passed):
    seat: int
    automatic: bool
    template: ClassVar[str] = "{player} passes."


@dataclass(frozen=True, slots=True)
class RoundStarted(core.RoundStarted):
    round: int
    order: tuple[int, ...]
    seat: int | None = None
    template: ClassVar[str] = "Round {round} begins."


@dataclass(frozen=True, slots=True)
class RoundEnded(core.RoundEnded):
    round: int
    seat: int | None = None
    template: ClassVar[str] = "Round {round} ends."


@dataclass(frozen=True, slots=True)
class SunMoved(Event):
    sun: int
    frozen_rows: int
    seat: int | None = None
    template: ClassVar[str] = "The sun moves to position {sun}; {frozen_rows} rows are frozen."


@dataclass(frozen=True, slots=True)
class SledLost(Event):
    seat: int
    crew: int
    template: ClassVar[str] = "{player}'s sled falls through the thawing ice with {crew} crew."


@dataclass(frozen=True, slots=True)
class GameOver(core.GameOver):
    scores: tuple[int, ...]
    ranking: tuple[int, ...]
    seat: int | None = None
    template: ClassVar[str] = "The game is over. Final scores: {scores}."

    def text(self, names: list[str] | None = None) -> str:
        scores = ", ".join(f"{_who(s, names)} {v}" for s, v in enumerate(self.scores))
        return f"The game is over. Final scores: {scores}."


EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (
        TileDrafted,
        CrewSpent,
        TileDrawn,
        DisplayRefreshed,
        DisplayRefilled,
        TilePlaced,
        HoleFilled,
        TokenPlaced,
        IslandCompleted,
        TokenTaken,
        VehicleMoved,
        CrewTransferred,
        SledDeployed,
        SledRecalled,
        ReachedNorthwest,
        ReturnedToGreenland,
        ScoreChanged,
        TurnEnded,
        Passed,
        RoundStarted,
        RoundEnded,
        SunMoved,
        SledLost,
        GameOver,
    )
}
