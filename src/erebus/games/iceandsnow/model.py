"""The shapes of Through Ice and Snow's game content: one frozen dataclass per
kind of thing the data files describe (regions, anchors, spaces, cards, …).

They live apart from :mod:`~erebus.games.iceandsnow.content` (which loads the
JSON) so that the validator and the engine can name them without importing the
loader: the loader imports the validator, never the other way round.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from erebus.games.iceandsnow.effects import CardEffect

if TYPE_CHECKING:
    from erebus.games.iceandsnow.creatures import CreatureCard
    from erebus.games.iceandsnow.walking_data import WalkingData

ROLES = ("captain", "carpenter", "scientist")
CREW_KINDS = ("captain", "carpenter", "scientist", "sailors", "inuit")
RESOURCES = ("dynamite", "wood", "rifles", "dogs")


@dataclass(frozen=True)
class Region:
    id: str
    name: str
    species: int
    island: bool


@dataclass(frozen=True)
class Anchor:
    id: str
    name: str
    region: str
    x: float
    y: float
    start: bool
    blue: bool
    final_pp: int | None
    edge: bool
    #: Walking on Ice: a final anchor of the module's new final area (no final PP)
    walking_final: bool = False
    #: Walking on Ice: the guilt modifier printed on a final anchor (§9.1)
    guilt: int | None = None

    @property
    def is_final(self) -> bool:
        """A final anchor point: the passage's (``final_pp``) or Walking on Ice's new one."""
        return self.final_pp is not None or self.walking_final


@dataclass(frozen=True)
class Route:
    src: str
    dst: str
    dynamite: int
    #: route type (Walking on Ice's sections): ``sea``, ``broken_ice``, ``ice`` or ``walking``
    kind: str = "sea"


@dataclass(frozen=True)
class Side:
    section: str
    side: str
    anchors: tuple[Anchor, ...]
    routes: tuple[Route, ...]


@dataclass(frozen=True)
class Section:
    id: str
    name: str
    index: int
    sides: dict[str, Side]


@dataclass(frozen=True)
class Space:
    """One action of the action board (it may have several slots)."""

    id: str
    column: str
    slots: dict[int, int | None]  # players -> number of slots (None = unlimited)
    above_warehouse: bool
    final: bool
    need: tuple[str, ...]
    totals: tuple[int, ...]
    wood: int
    fuel: int
    resource: str | None
    #: Walking on Ice action tiles: the base space the tile covers, and its can cost
    replaces: str | None = None
    cans: int = 0


@dataclass(frozen=True)
class Warehouse:
    column: str
    officer: str
    gives: str


@dataclass(frozen=True)
class Track:
    """Health or morale."""

    max: int
    start: int
    effects: dict[int, str]
    end_pp: tuple[int, ...]


@dataclass(frozen=True)
class SpeciesCard:
    id: str
    species: str
    name: str
    pp: int
    food: int
    health: int
    fishing_boat: bool


@dataclass(frozen=True)
class HuntingCard:
    id: str
    name: str
    prey: int
    food: int
    health: int
    walrus: bool
    whale: bool
    species: str | None = None  # dual species cards only


@dataclass(frozen=True)
class CartographyCard:
    id: str
    regions: tuple[str, str, str]


@dataclass(frozen=True)
class EventCard:
    number: int
    name: str
    deck: str
    kind: str
    crew: tuple[int, ...]
    optional: bool
    #: what the card does, in the primitives of :mod:`~erebus.games.iceandsnow.effects`
    effect: CardEffect = field(default_factory=CardEffect)


@dataclass(frozen=True)
class Investor:
    id: str
    name: str
    bonus: dict[str, int]
    objective: str
    params: dict[str, Any]
    reward: int


@dataclass(frozen=True)
class Upgrade:
    number: int
    name: str
    copies: int
    cost: int
    optional: bool
    #: the Myths & Legends module the tile belongs to: in game only with it
    module: str | None = None
    #: event cards whose effects do not touch the tile's owner (Deck Upgrade, #13)
    immune_events: tuple[int, ...] = ()
    #: a module tile that may also join games of the other modules (#12, #13)
    with_other_modules: bool = False


@dataclass(frozen=True)
class Content:
    """Everything loaded from ``data/``; ``raw`` keeps the parsed JSON per file."""

    regions: dict[str, Region]
    sections: tuple[Section, ...]
    spaces: dict[str, Space]
    warehouses: dict[str, Warehouse]  # by column
    health: Track
    morale: Track
    tracks: dict[str, Any]  # fuel, sled, dogs, towing, food, inuit, upgrade_spaces (raw)
    species: dict[str, SpeciesCard]
    hunting: dict[str, HuntingCard]
    whales: dict[str, HuntingCard]
    dual: dict[str, HuntingCard]
    cartography: dict[str, CartographyCard]
    events: dict[int, EventCard]
    investors: dict[str, Investor]
    upgrades: dict[int, Upgrade]
    scenarios: dict[str, Any]
    rules: dict[str, Any]
    raw: dict[str, Any] = field(repr=False, compare=False, default_factory=dict)
    #: Inuit Myths' creature cards 37–44 (``myths.json``), by number
    creatures: dict[int, CreatureCard] = field(default_factory=dict)
    #: Walking on Ice's data (``walking.json``), parsed; None when the file is absent
    walking: WalkingData | None = field(default=None, repr=False, compare=False)

    # -- map queries ---------------------------------------------------------

    def side(self, section: str, side: str) -> Side:
        for s in self.sections:
            if s.id == section:
                return s.sides[side]
        raise KeyError(section)

    def section_index(self, section: str) -> int:
        for s in self.sections:
            if s.id == section:
                return s.index
        raise KeyError(section)
