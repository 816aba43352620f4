"""Events of Through Ice and Snow: what ``State.apply`` reports.

Every change of prestige is a :class:`ScoreChanged`, the starting 10 PP
included (reason ``"start"``, emitted by ``new_game``'s setup and kept in
``State.setup_events``), so the sum of a seat's deltas always equals
``scores()[seat]``.  The other events describe the expedition for logs,
renderers and the web client; ``text()`` turns each into a sentence that names
places, cards and crews in words (:mod:`erebus.games.iceandsnow.wording`), never
by their ids.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from erebus.core import events as core
from erebus.core.events import Event
from erebus.games.iceandsnow import wording as w


def _who(seat: int | None, names: list[str] | None) -> str:
    if seat is None:
        return ""
    return names[seat] if names and 0 <= seat < len(names) else f"Player {seat + 1}"


@dataclass(frozen=True, slots=True)
class ScoreChanged(core.ScoreChanged):
    seat: int
    delta: int
    reason: str
    template: ClassVar[str] = "{player} scores {delta:+d} PP ({reason})."


@dataclass(frozen=True, slots=True)
class InvestorChosen(Event):
    seat: int
    template: ClassVar[str] = "{player} chooses an investor."


@dataclass(frozen=True, slots=True)
class CartographyChosen(Event):
    seat: int
    template: ClassVar[str] = "{player} chooses a cartography card."


@dataclass(frozen=True, slots=True)
class InvestorRevealed(Event):
    seat: int
    card: str
    template: ClassVar[str] = "{player} reveals investor {card}."

    def text(self, names: list[str] | None = None) -> str:
        return f"{_who(self.seat, names)} reveals investor {w.investor(self.card)}."


@dataclass(frozen=True, slots=True)
class CartographyRevealed(Event):
    seat: int
    card: str
    regions: tuple[str, ...]
    template: ClassVar[str] = "{player} reveals cartography card {card}: {regions}."

    def text(self, names: list[str] | None = None) -> str:
        return f"{_who(self.seat, names)} reveals a cartography card: {w.regions(self.regions)}."


@dataclass(frozen=True, slots=True)
class RoundStarted(core.RoundStarted):
    round: int
    leader: int
    seat: int | None = None
    template: ClassVar[str] = "Round {round} begins."


@dataclass(frozen=True, slots=True)
class RoundEnded(core.RoundEnded):
    round: int
    seat: int | None = None
    template: ClassVar[str] = "Round {round} ends."


@dataclass(frozen=True, slots=True)
class LeaderChanged(Event):
    seat: int
    reason: str
    template: ClassVar[str] = "{player} takes the helm ({reason})."


@dataclass(frozen=True, slots=True)
class SectionPlaced(Event):
    section: str
    side: str
    seat: int | None = None
    template: ClassVar[str] = "Map section {section} is placed on side {side}."

    def text(self, names: list[str] | None = None) -> str:
        return f"The {w.section(self.section)} map section is placed on side {self.side}."


@dataclass(frozen=True, slots=True)
class DestinationChosen(Event):
    seat: int
    to: str
    template: ClassVar[str] = "{player} sets course for {to}."

    def text(self, names: list[str] | None = None) -> str:
        return f"{_who(self.seat, names)} sets course for {w.anchor(self.to)}."


@dataclass(frozen=True, slots=True)
class DynamitePlaced(Event):
    seat: int
    anchor: str
    count: int
    template: ClassVar[str] = "{player} pays {count} dynamite to break the ice towards {anchor}."

    def text(self, names: list[str] | None = None) -> str:
        return (
            f"{_who(self.seat, names)} pays {self.count} dynamite to break the ice towards "
            f"{w.anchor(self.anchor)}."
        )


@dataclass(frozen=True, slots=True)
class TrackChanged(Event):
    seat: int
    track: str
    old: int
    new: int
    reason: str
    template: ClassVar[str] = "{player}'s {track} goes from {old} to {new} ({reason})."

    def text(self, names: list[str] | None = None) -> str:
        return (
            f"{_who(self.seat, names)}'s {w.track(self.track)} goes from {self.old} to {self.new} "
            f"({self.reason})."
        )


@dataclass(frozen=True, slots=True)
class ResourceChanged(Event):
    seat: int
    resource: str
    delta: int
    reason: str
    template: ClassVar[str] = "{player}: {resource} {delta:+d} ({reason})."


@dataclass(frozen=True, slots=True)
class AttritionPenalty(Event):
    seat: int
    penalty: str
    template: ClassVar[str] = "{player} suffers {penalty}."


@dataclass(frozen=True, slots=True)
class CrewToInfirmary(Event):
    seat: int
    crew: tuple[int, int, int, int, int]
    template: ClassVar[str] = "{player} puts crew {crew} in the infirmary."

    def text(self, names: list[str] | None = None) -> str:
        return f"{_who(self.seat, names)} puts {w.crew(self.crew)} in the infirmary."


@dataclass(frozen=True, slots=True)
class CrewLost(Event):
    seat: int
    kind: str
    reason: str
    template: ClassVar[str] = "{player} loses a {kind} ({reason})."


@dataclass(frozen=True, slots=True)
class VoyageChosen(Event):
    seat: int
    voyage: str
    template: ClassVar[str] = "{player} chooses a {voyage} voyage."

    def text(self, names: list[str] | None = None) -> str:
        return f"{_who(self.seat, names)} chooses {w.article(self.voyage)} {self.voyage} voyage."


@dataclass(frozen=True, slots=True)
class FleetMoved(Event):
    to: str
    seat: int | None = None
    template: ClassVar[str] = "The fleet moves to {to}."

    def text(self, names: list[str] | None = None) -> str:
        return f"The fleet sails to {w.anchor(self.to)}."


@dataclass(frozen=True, slots=True)
class Towing(Event):
    towed: tuple[int, ...]
    towing: tuple[int, ...]
    missing: int
    seat: int | None = None
    template: ClassVar[str] = "Towing: {missing} missing fuel."

    def text(self, names: list[str] | None = None) -> str:
        towed = ", ".join(_who(s, names) for s in self.towed) or "nobody"
        towing = ", ".join(_who(s, names) for s in self.towing) or "nobody"
        return f"Towing: {towed} short of {self.missing} fuel in all; towing: {towing}."


@dataclass(frozen=True, slots=True)
class RegionMapped(Event):
    seat: int
    region: str
    template: ClassVar[str] = "{player} maps {region}."

    def text(self, names: list[str] | None = None) -> str:
        return f"{_who(self.seat, names)} maps {w.region(self.region)}."


@dataclass(frozen=True, slots=True)
class EventRevealed(Event):
    number: int
    name: str
    kind: str
    seat: int | None = None
    template: ClassVar[str] = "Event {number} ({name}) is revealed."


@dataclass(frozen=True, slots=True)
class CardsRevealed(Event):
    deck: str
    cards: tuple[str, ...]
    seat: int | None = None
    template: ClassVar[str] = "Revealed {deck} cards: {cards}."

    def text(self, names: list[str] | None = None) -> str:
        return f"Revealed {self.deck} cards: {', '.join(w.card(c) for c in self.cards)}."


@dataclass(frozen=True, slots=True)
class CrewPlaced(Event):
    seat: int
    space: str
    crew: tuple[int, int, int, int, int]
    template: ClassVar[str] = "{player} takes {space} with crew {crew}."

    def text(self, names: list[str] | None = None) -> str:
        return f"{_who(self.seat, names)}: {w.space(self.space)} with {w.crew(self.crew)}."


@dataclass(frozen=True, slots=True)
class CardTaken(Event):
    seat: int
    card: str
    deck: str
    template: ClassVar[str] = "{player} takes {deck} card {card}."

    def text(self, names: list[str] | None = None) -> str:
        return f"{_who(self.seat, names)} takes the {self.deck} card {w.card(self.card)}."


@dataclass(frozen=True, slots=True)
class SpeciesDiscovered(Event):
    seat: int
    species: str
    template: ClassVar[str] = "{player} is the first to discover {species}."

    def text(self, names: list[str] | None = None) -> str:
        return f"{_who(self.seat, names)} is the first to discover the {w.species(self.species)}."


@dataclass(frozen=True, slots=True)
class UpgradeBuilt(Event):
    seat: int
    tile: int
    space: int
    template: ClassVar[str] = "{player} builds upgrade {tile} on space {space}."

    def text(self, names: list[str] | None = None) -> str:
        return (
            f"{_who(self.seat, names)} builds the {w.upgrade(self.tile)} upgrade "
            f"(upgrade space {self.space})."
        )


@dataclass(frozen=True, slots=True)
class CabinBuilt(Event):
    seat: int
    anchor: str
    food: int
    template: ClassVar[str] = "{player} builds a cabin at {anchor}, lowering food by {food}."

    def text(self, names: list[str] | None = None) -> str:
        return (
            f"{_who(self.seat, names)} builds a cabin at {w.anchor(self.anchor)}, "
            f"lowering food by {self.food}."
        )


@dataclass(frozen=True, slots=True)
class ShelterBuilt(Event):
    seat: int
    anchor: str
    template: ClassVar[str] = "{player} builds an Inuit shelter at {anchor}."

    def text(self, names: list[str] | None = None) -> str:
        return f"{_who(self.seat, names)} builds an Inuit shelter at {w.anchor(self.anchor)}."


@dataclass(frozen=True, slots=True)
class FoodShortage(Event):
    seat: int
    missing: int
    template: ClassVar[str] = "{player} is {missing} food short."


@dataclass(frozen=True, slots=True)
class SpeciesEaten(Event):
    seat: int
    card: str
    template: ClassVar[str] = "{player} eats species card {card}."

    def text(self, names: list[str] | None = None) -> str:
        return f"{_who(self.seat, names)} eats the species card {w.card(self.card)}."


@dataclass(frozen=True, slots=True)
class Passed(core.Passed):
    seat: int
    template: ClassVar[str] = "{player} passes."


@dataclass(frozen=True, slots=True)
class CompassDrawn(Event):
    card: str
    seat: int | None = None
    template: ClassVar[str] = "Compass card: {card}."

    def text(self, names: list[str] | None = None) -> str:
        return f"Compass card: {w.compass(self.card)}."


@dataclass(frozen=True, slots=True)
class EventCardsSeen(Event):
    """The leader looks at the top ``count`` cards of the voyage's event deck (the Mast,
    upgrade 9) before choosing which to reveal: they alone learn them, so this is a
    reveal (an undo barrier) although the event names no card."""

    seat: int
    count: int
    template: ClassVar[str] = "{player} looks at the top {count} event cards (Mast)."


@dataclass(frozen=True, slots=True)
class ScenarioProgress(Event):
    what: str
    value: int
    seat: int | None = None
    template: ClassVar[str] = "{what}: {value}."


@dataclass(frozen=True, slots=True)
class GameOver(core.GameOver):
    outcome: str
    reason: str
    scores: tuple[int, ...]
    seat: int | None = None
    template: ClassVar[str] = "The game is over ({outcome}): {reason}."


# -- Inuit Myths (§9.2) ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CreatureMoved(Event):
    region: str
    seat: int | None = None
    template: ClassVar[str] = "The Inuit creature token moves to {region}."

    def text(self, names: list[str] | None = None) -> str:
        return f"The Inuit creature token moves to {w.region(self.region)}."


@dataclass(frozen=True, slots=True)
class CreatureRevealed(Event):
    number: int
    name: str
    seat: int | None = None
    template: ClassVar[str] = "Creature {number} ({name}) is revealed."


@dataclass(frozen=True, slots=True)
class CreatureGone(Event):
    number: int
    name: str
    seat: int | None = None
    template: ClassVar[str] = "Creature {number} ({name}) goes back to the box."


@dataclass(frozen=True, slots=True)
class InuitHeld(Event):
    seat: int
    count: int
    held: bool
    template: ClassVar[str] = "{player}: {count} Inuit held by the creature ({held})."

    def text(self, names: list[str] | None = None) -> str:
        what = "are held by the creature" if self.held else "come back to the infirmary"
        return f"{_who(self.seat, names)}: {self.count} Inuit {what}."


@dataclass(frozen=True, slots=True)
class CurseChanged(Event):
    seat: int
    cursed: bool
    template: ClassVar[str] = "{player}: curse {cursed}."

    def text(self, names: list[str] | None = None) -> str:
        what = "takes a curse cylinder" if self.cursed else "is freed from the curse"
        return f"{_who(self.seat, names)} {what}."


# -- Walking on Ice (§9.1) ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShipsAbandoned(Event):
    seat: int  # the leader
    how: str  # "voluntary" or "forced"
    template: ClassVar[str] = "The ships are abandoned ({how}); the expedition goes on foot."

    def text(self, names: list[str] | None = None) -> str:
        if self.how == "forced":
            return "Every ship is short of fuel: the ships must be abandoned; the crews go on foot."
        return f"{_who(self.seat, names)} abandons the ships; the expedition goes on foot."


@dataclass(frozen=True, slots=True)
class UpgradeDropped(Event):
    seat: int
    tile: int
    template: ClassVar[str] = "{player} returns upgrade {tile} to the box."

    def text(self, names: list[str] | None = None) -> str:
        return f"{_who(self.seat, names)} returns the {w.upgrade(self.tile)} to the box."


@dataclass(frozen=True, slots=True)
class CanOpened(Event):
    seat: int
    template: ClassVar[str] = "{player} opens a food can."


@dataclass(frozen=True, slots=True)
class SickSailor(Event):
    seat: int
    carried: bool
    template: ClassVar[str] = "{player}'s sick sailor: {carried}."

    def text(self, names: list[str] | None = None) -> str:
        what = "carries a sick sailor on the sled" if self.carried else "lets the sick sailor die"
        return f"{_who(self.seat, names)} {what}."


# -- Mysterious Epidemic (§9.4) -------------------------------------------------


@dataclass(frozen=True, slots=True)
class DiseaseRevealed(Event):
    """The top disease card is turned (a reveal: nobody knew the deck's order)."""

    card: str
    officer: str
    seat: int | None = None
    template: ClassVar[str] = "Disease card {card}: the {officer} falls ill."


@dataclass(frozen=True, slots=True)
class TreatmentRevealed(Event):
    """The Inuit teach a treatment: the top treatment card is turned (a reveal)."""

    card: str
    seat: int | None = None
    template: ClassVar[str] = "The Inuit teach treatment {card}."


@dataclass(frozen=True, slots=True)
class CrewIll(Event):
    """Crew go onto a disease card (``ill``) or are healed off it by a treatment."""

    seat: int
    crew: tuple[int, int, int, int, int]
    card: str
    ill: bool
    template: ClassVar[str] = "{player}: crew {crew} ill {ill} ({card})."

    def text(self, names: list[str] | None = None) -> str:
        what = "fall ill" if self.ill else "are healed"
        return f"{_who(self.seat, names)}: {w.crew(self.crew)} {what} ({self.card})."


@dataclass(frozen=True, slots=True)
class InuitSettled(Event):
    """Inuk pawns wait on these anchor points of a new map section (settlement card)."""

    anchors: tuple[str, ...]
    seat: int | None = None
    template: ClassVar[str] = "Inuit settlements: {anchors}."

    def text(self, names: list[str] | None = None) -> str:
        return "Inuit settle at " + ", ".join(w.anchor(a) for a in self.anchors) + "."


@dataclass(frozen=True, slots=True)
class TopCardLooked(Event):
    """Kellett (Legendary Expeditions, set D) looks at the top card of the species or
    hunting deck: he alone learns it, so this is a reveal although it names no card."""

    seat: int
    deck: str
    template: ClassVar[str] = "{player} looks at the top card of the {deck} deck."


@dataclass(frozen=True, slots=True)
class RouteForced(Event):
    """Belcher (Legendary Expeditions, set H) forces the leader to choose a route other
    than the one to ``to``; he will choose this round's voyage type."""

    seat: int
    to: str
    template: ClassVar[str] = "{player} forces the leader to choose a route other than to {to}."

    def text(self, names: list[str] | None = None) -> str:
        return (
            f"{_who(self.seat, names)} forces the leader to choose a route other than "
            f"to {w.anchor(self.to)}."
        )


@dataclass(frozen=True, slots=True)
class ExplorerChosen(Event):
    """A seat keeps explorer ``set`` of its two dealt cards (Legendary Expeditions): its
    explorer, ship and explorer event come into play; the other card goes to the box."""

    seat: int
    set: str
    explorer: str
    template: ClassVar[str] = "{player} leads the expedition of {explorer}."

    def text(self, names: list[str] | None = None) -> str:
        return f"{_who(self.seat, names)} leads the expedition of {self.explorer}."


@dataclass(frozen=True, slots=True)
class SailorGained(Event):
    """A seat gains a sailor pawn (event 51: the one set aside, into its infirmary)."""

    seat: int
    reason: str
    template: ClassVar[str] = "{player} gains a sailor ({reason})."


EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (
        ScoreChanged,
        InvestorChosen,
        CartographyChosen,
        InvestorRevealed,
        CartographyRevealed,
        RoundStarted,
        RoundEnded,
        LeaderChanged,
        SectionPlaced,
        DestinationChosen,
        DynamitePlaced,
        TrackChanged,
        ResourceChanged,
        AttritionPenalty,
        CrewToInfirmary,
        CrewLost,
        VoyageChosen,
        EventCardsSeen,
        FleetMoved,
        Towing,
        RegionMapped,
        EventRevealed,
        CardsRevealed,
        CrewPlaced,
        CardTaken,
        SpeciesDiscovered,
        UpgradeBuilt,
        CabinBuilt,
        ShelterBuilt,
        FoodShortage,
        SpeciesEaten,
        Passed,
        CompassDrawn,
        ScenarioProgress,
        GameOver,
        CreatureMoved,
        CreatureRevealed,
        CreatureGone,
        InuitHeld,
        CurseChanged,
        ShipsAbandoned,
        UpgradeDropped,
        CanOpened,
        SickSailor,
        TopCardLooked,
        RouteForced,
        ExplorerChosen,
        SailorGained,
        DiseaseRevealed,
        TreatmentRevealed,
        CrewIll,
        InuitSettled,
    )
}
