"""The rules engine of Through Ice and Snow: the game state.

A :class:`State` is a flat bag of ints, strings and lists (cheap to clone,
exact to serialise).  The round of §4 is a chain of *steps* (``State.step``)
run until a player must decide something:

* a **phase decision** of the flow — ``setup`` (investor / cartography),
  ``section``, ``start`` (Magnetic North Pole start anchor), ``destination``,
  ``voyage`` and ``action`` (the Action phase, one ``take`` or ``pass`` per
  turn);
* a **queued decision** (``State.decisions``) raised by a rule in the middle
  of a step — ``discard`` (fuel 0–3, Great Storm), ``infirmary`` (Scurvy, Bear
  Attacks the Crew), ``eat`` (food shortage with a choice of species),
  ``compass`` (Damaged Compass), ``mast`` (upgrade 9), ``boiler`` (upgrade 8).
  Queued decisions are answered first; then the flow goes on from
  ``State.step``.

``State`` is assembled from layers, one concern each, every layer calling only
the ones below it:

* :mod:`.position` — the fields, small accessors and public queries;
* :mod:`.resources` — food, health, morale, fuel, resources, PP and their zones;
* :mod:`.events_cards` — event cards, interpreted from their ``effect`` data;
* :mod:`.setup` — a new game, scenario and mode set-up;
* :mod:`.flow` — the step machine of a round (Voyage, Action, Boarding);
* :mod:`.decisions` — the legal actions and what each does;
* :mod:`.serialization` — ``to_json``/``from_json`` and ``clone``;
* :mod:`.hidden` — ``view``, ``from_view`` and ``resample_hidden``.

The Action phase (its legal ``take`` actions and their effects) lives in
:mod:`erebus.games.iceandsnow.action_phase`; final scoring in
:mod:`~erebus.games.iceandsnow.scoring`; towing in
:mod:`~erebus.games.iceandsnow.towing`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self, cast

from erebus.core.events import Event
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.content import Content, default_content
from erebus.games.iceandsnow.flow import DIRECTIONS, ICEBREAK_DYNAMITE
from erebus.games.iceandsnow.hidden import HiddenInfo
from erebus.games.iceandsnow.options import normalize
from erebus.games.iceandsnow.position import POLE, WAITING
from erebus.games.iceandsnow.resources import infirmary_options
from erebus.games.iceandsnow.serialization import FORMAT

__all__ = [
    "DIRECTIONS",
    "FORMAT",
    "ICEBREAK_DYNAMITE",
    "POLE",
    "WAITING",
    "State",
    "infirmary_options",
    "new_game",
    "replay",
]


class State(HiddenInfo):
    """A position in a game of Through Ice and Snow.

    Build one with :func:`new_game`.  The public API is the one of
    ``shared/design/engine-api.md``; the attributes are internal but stable
    enough for renderers and the test kit (:mod:`erebus.games.iceandsnow.kit`).
    """

    __slots__ = ()

    @classmethod
    def new(
        cls,
        players: int,
        seed: int,
        options: dict[str, Any] | None = None,
        content: Content | None = None,
    ) -> State:
        """Set up a game (§2) and run it to the first decision."""
        if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 4:
            raise ValueError(f"Through Ice and Snow is for 1–4 players, not {players!r}")
        opts = normalize(options, players)
        st = cls._blank(players, seed, opts, content or default_content())
        events: list[Event] = []
        st._setup(events)
        st._run(events)
        st.setup_events = events
        return st

    @classmethod
    def _variant(cls, opts: dict[str, Any], content: Content) -> tuple[type[Self], Content]:
        """Walking on Ice plays as :class:`~.walking.WalkingState` on the module's map;
        Legendary Expeditions adds its explorer events to the event cards."""
        klass: type[Self] = cls
        if "walking_on_ice" in opts["modules"]:
            from erebus.games.iceandsnow.walking_data import walking_content

            walking = _walking_class()
            klass = cls if issubclass(cls, walking) else cast("type[Self]", walking)
            content = walking_content(content)
        if "legendary_expeditions" in opts["modules"]:
            from erebus.games.iceandsnow.legends import legends_content

            content = legends_content(content)
        scenario = _scenario_class(opts["scenario"])  # Myths & Legends' solo scenarios
        if scenario is not None and not issubclass(klass, scenario):
            klass = cast("type[Self]", scenario)
        return klass, klass._scenario_content(content)

    @classmethod
    def _scenario_content(cls, content: Content) -> Content:
        """The content a scenario's state class plays on (Amundsen's Voyage adds event 55)."""
        return content

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<iceandsnow.State players={self.n} round={self.round} phase={self.pending} "
            f"current={self.current_player} scores={self.scores()}>"
        )


def _scenario_class(scenario: str | None) -> type[State] | None:
    """The state class of a scenario with rules of its own (§9.4, §9.5), or ``None``."""
    if scenario == "mysterious-epidemic":
        from erebus.games.iceandsnow.epidemic import EpidemicState

        return EpidemicState
    if scenario == "amundsens-voyage":
        from erebus.games.iceandsnow.amundsen import AmundsenState

        return AmundsenState
    return None


def _walking_class() -> type[State]:
    from erebus.games.iceandsnow.walking import WalkingState

    return WalkingState


def new_game(
    players: int,
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    content: Content | None = None,
) -> State:
    """A new game; ``seed`` fixes every random draw (``None``: a fresh random seed).

    The starting 10 PP of each seat are ``ScoreChanged(reason="start")`` events
    kept in ``state.setup_events``.
    """
    if seed is None:
        import secrets

        seed = secrets.randbits(63)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError("seed must be an integer")
    return State.new(players, seed, options, content)


def replay(
    players: int,
    seed: int,
    actions: Sequence[Action | dict[str, Any]],
    options: dict[str, Any] | None = None,
) -> State:
    """The state after ``actions`` from a new game: same inputs, same state."""
    st = new_game(players, seed, options)
    for a in actions:
        st.apply(a)
    return st
