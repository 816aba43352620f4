"""Set J of Legendary Expeditions (§9.3, seed l. 1335–1340): Roald Amundsen, the
Gjøa and explorer event 53, in any game with the module (multiplayer, or the
Amundsen's Voyage scenario, which plays set J).

* **Excellent Explorer** (``excellent_explorer``; params ``sled_wood``, ``dogs_as``):
  Improve the Sled costs ``sled_wood`` wood (0: the 1-wood requirement is ignored;
  ignoring it is never worse, so it is always ignored); the dog track counts as
  filled up to space ``dogs_as`` for Explore, and the seat never places dogs —
  its starting dogs are not placed, every dog gained is lost, and it has no dog to
  pay with (food shortage, Survival deposit, Exchange): decision AV6.
* **The Gjøa** — its reward on Upgrade the Ship is ``legends.json`` data
  (``legends.ship_reward``).
* **Event 53, Inuit Sled Master** — the kept card's power ``sled_master`` (granted
  at Boarding with its Inuk, ``legends.grant_powers``): an Improve the Sled by
  exactly 1 Inuk, without the second crew member.

Every function takes the state and does nothing unless the seat has the ability
or the power (so the base game never pays for it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from erebus.core.events import Event
from erebus.games.iceandsnow.events import ResourceChanged
from erebus.games.iceandsnow.layout import DOGS, F

if TYPE_CHECKING:
    from erebus.games.iceandsnow.events_cards import EventCardRules as State

ABILITY = "excellent_explorer"
POWER = "sled_master"
#: Improve the Sled by 1 Inuk alone (the crew of the ``sled_master`` power).
INUK_ALONE = (0, 0, 0, 0, 1)


def amundsen(st: State, seat: int) -> bool:
    """Is ``seat``'s explorer Amundsen (the Excellent Explorer ability)?"""
    if not st.explorer:  # no explorers (the import below costs a call each time)
        return False
    from erebus.games.iceandsnow import legends

    return bool(st.module(legends.MODULE) and st.explorer) and legends.has(st, seat, ABILITY)


def virtual_dogs(st: State, seat: int) -> int | None:
    """The dogs Amundsen's track counts as (``dogs_as``), or ``None`` for anyone else."""
    if not amundsen(st, seat):
        return None
    from erebus.games.iceandsnow import legends

    return int(legends.params(st, seat)["dogs_as"])


def assigned(st: State, seat: int, ev: list[Event]) -> None:
    """Set J joins ``seat``: the starting dogs are not placed (AV6), and say so."""
    if amundsen(st, seat) and st.pv[F * seat + DOGS]:
        ev.append(ResourceChanged(seat, "dogs", -st.pv[F * seat + DOGS], "Roald Amundsen"))
        st.pv[F * seat + DOGS] = 0


def places_no_dogs(st: State, seat: int) -> bool:
    """Does a dog gained by ``seat`` stay unplaced (lost)?"""
    return amundsen(st, seat)


def sled_wood(st: State, seat: int, wood: int) -> int:
    """The wood Improve the Sled costs ``seat`` (printed: ``wood``)."""
    if amundsen(st, seat):
        from erebus.games.iceandsnow import legends

        return min(wood, int(legends.params(st, seat)["sled_wood"]))
    return wood


def sled_master(st: State, seat: int) -> bool:
    """Does ``seat`` hold event 53's power (Improve the Sled by 1 Inuk alone)?"""
    from erebus.games.iceandsnow import legends

    return legends.holds_power(st, seat, POWER)
