"""Amundsen's Voyage (Myths & Legends solo scenario, reference §9.5, seed l. 1433–1491).

A game with ``"scenario": "amundsens-voyage"`` is an :class:`AmundsenState`; the
options add Legendary Expeditions with set J (Amundsen, the Gjøa, event 53 —
their rules in :mod:`.legends_j`).  The scenario's data is
``scenarios.json["amundsens-voyage"]``; this class adds:

* **the coastal deck** — the 12 open-sea cards and 2 random coastal cards go to
  the box; the other 10, event 53 and event 55 (Gjøa Haven, defined by the
  scenario's ``haven_card``) are the coastal deck;
* **no open sea** — the Voyage step offers coastal only; the final voyage stays
  automatic and open sea, since it is not chosen (AV1, option
  ``"amundsen_final": "coastal"``);
* **the black cylinders** (``am_cyl``: health, morale right, morale left) — health
  at most its maximum − 1 while the health cylinder is there, morale at most its
  maximum − 2 while the right cylinder is there (− 1 with the left one alone); a
  gain they stop is overflow, which gives no PP in a solo scenario (AV2);
* **varied diet** — species cards of 2 different species eaten in food shortages
  over the game remove the health cylinder (AV3);
* **Explore** of 7+ PP removes the right morale cylinder, 10+ PP the left one; one
  Explore of 10+ removes both (AV4, option ``"amundsen_explore": "one"``);
* **Gjøa Haven** — in the round #55 is revealed (``am_haven``), a Build a Cabin
  lowering food by at least the crew count founds it (``am_founded``; AV5).

Objectives: Gjøa Haven founded, and the passage completed.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from erebus.core.events import Event
from erebus.games.iceandsnow import action_phase, legends
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.content import Content, EventCard
from erebus.games.iceandsnow.effects import parse_effect
from erebus.games.iceandsnow.events import ScenarioProgress
from erebus.games.iceandsnow.layout import HEALTH, MORALE
from erebus.games.iceandsnow.state import State

SCENARIO = "amundsens-voyage"
#: Cylinder indexes in ``State.am_cyl``.
HEALTH_CYL, MORALE_RIGHT, MORALE_LEFT = 0, 1, 2

_VARIANTS: dict[int, tuple[Content, Content]] = {}


def amundsen_content(content: Content) -> Content:
    """``content`` with event 55 (the scenario's ``haven_card``) among its event cards
    (cached per content; only this scenario's decks ever hold it)."""
    hit = _VARIANTS.get(id(content))
    if hit is not None and hit[0] is content:
        return hit[1]
    e = content.scenarios[SCENARIO]["haven_card"]
    card = EventCard(
        int(e["number"]),
        str(e["name"]),
        str(e["deck"]),
        str(e["kind"]),
        tuple(int(x) for x in e.get("crew", ())),
        False,
        parse_effect(e["effect"]),
    )
    variant = dataclasses.replace(content, events={**content.events, card.number: card})
    _VARIANTS[id(content)] = (content, variant)
    return variant


class AmundsenState(State):
    """A game of the Amundsen's Voyage scenario (see the module docstring)."""

    __slots__ = ()

    @classmethod
    def _scenario_content(cls, content: Content) -> Content:
        return amundsen_content(content)

    def haven_event(self) -> int:
        return int(self.scen()["haven_card"]["number"])

    # -- set-up -------------------------------------------------------------------

    def _setup(self, ev: list[Event]) -> None:
        self.am_cyl = [1, 1, 1]
        self.am_haven = 0
        self.am_founded = False
        super()._setup(ev)
        # the decks (seed l. 1455): open sea and 2 random coastal cards to the box
        deck = self.scen()["coastal_deck"]
        added = [int(x) for x in deck["add"]]
        base = [
            e
            for e in sorted(self.content.events.values(), key=lambda e: e.number)
            if not e.optional and e.number not in legends.event_numbers() and e.number not in added
        ]
        coastal = [e.number for e in base if e.deck == "coastal"]
        self._shuffle(coastal)
        k = int(deck["remove_random"])
        self.ev_box = sorted([e.number for e in base if e.deck == "open"] + coastal[:k])
        self.ev_open = []
        self.ev_open_disc = []
        self.ev_coastal = coastal[k:] + added
        self._shuffle(self.ev_coastal)

    # -- the black cylinders --------------------------------------------------------

    def track_limit(self, track: str) -> int:
        """The highest value health or morale may reach with the cylinders left."""
        if track == "health":
            return int(self.content.health.max) - self.am_cyl[HEALTH_CYL]
        mx = int(self.content.morale.max)
        if self.am_cyl[MORALE_RIGHT]:
            return mx - 2
        return mx - self.am_cyl[MORALE_LEFT]

    def _raise(self, seat: int, track: str, v: int, reason: str, ev: list[Event]) -> None:
        if track in ("health", "morale"):
            idx = HEALTH if track == "health" else MORALE
            lim = self.track_limit(track)
            old = self.p(seat, idx)
            if old + v > lim:
                keep = max(0, lim - old)
                if keep:
                    super()._raise(seat, track, keep, reason, ev)
                # the rest is overflow (AV2): its PP are not gained in a solo scenario
                ovf = self.rules["overflow"][track]
                if "pp" in ovf:
                    self._score(seat, (v - keep) * int(ovf["pp"]), f"{track} overflow", ev)
                return
        super()._raise(seat, track, v, reason, ev)

    def _remove_cylinder(self, which: int, why: str, ev: list[Event]) -> None:
        if self.am_cyl[which]:
            self.am_cyl[which] = 0
            name = ("health", "right morale", "left morale")[which]
            ev.append(ScenarioProgress(f"the {name} black cylinder is removed ({why})", 1))

    def _eat(self, seat: int, cid: str, ev: list[Event]) -> None:
        super()._eat(seat, cid, ev)
        if self.am_cyl[HEALTH_CYL]:
            eaten = {self.content.species[c].species for c in self.sp_eaten}
            if len(eaten) >= 2:  # a varied diet (AV3): 2 species over the game
                self._remove_cylinder(HEALTH_CYL, "a varied diet", ev)

    # -- the voyage -----------------------------------------------------------------

    def voyage_options(self) -> list[str]:
        """The Gjøa cannot choose open sea (§9.5); coastal is the only choice."""
        if self.final_voyage:
            return ["coastal" if self.options.get("amundsen_final") == "coastal" else "open"]
        return ["coastal"]

    def _step_vtype(self, ev: list[Event]) -> None:
        if self.final_voyage:
            self._voyage_chosen(self.voyage_options()[0], ev)
            return
        if not self.ev_coastal:  # R2: the spent coastal deck reshuffles its discards
            self.ev_coastal, self.ev_coastal_disc = self.ev_coastal_disc, []
            self._shuffle(self.ev_coastal)
        self.phase = "voyage"
        self.current = self.leader

    def _reveal_event(self, num: int, ev: list[Event]) -> None:
        if num == self.haven_event():
            self.am_haven = self.round
            ev.append(ScenarioProgress("Gjøa Haven may be founded this round", 1))
        super()._reveal_event(num, ev)

    # -- actions ----------------------------------------------------------------------

    def _act(self, seat: int, a: Action, ev: list[Event]) -> None:
        if a.kind != "take" or a.space is None:
            super()._act(seat, a, ev)
            return
        kind = self.scen().get("replaced_spaces", {}).get(a.space, a.space)
        pp = action_phase.explore_pp(self, seat) if kind == "explore" else 0
        super()._act(seat, a, ev)
        if self.over:
            return
        if kind == "explore":
            both = self.options.get("amundsen_explore", "both") == "both"
            ex = self.scen()["explore_remove"]
            if pp >= int(ex["left"]) and self.am_cyl[MORALE_LEFT]:
                self._remove_cylinder(MORALE_LEFT, f"an Explore of {pp} PP", ev)
                if not both:
                    return
            if pp >= int(ex["right"]):
                self._remove_cylinder(MORALE_RIGHT, f"an Explore of {pp} PP", ev)
        elif (
            kind == "build_cabin"
            and not self.am_founded
            and self.am_haven == self.round
            and int(a.food or 0) >= self.crew_count(seat)
        ):
            self.am_founded = True
            ev.append(ScenarioProgress("Gjøa Haven is founded", 1))

    def scenario_value(self, seat: int) -> float:
        """Each black cylinder left caps a track: a bot likes removing them."""
        return -3.0 * sum(self.am_cyl)

    def objectives_missing(self) -> list[str]:
        return [] if self.am_founded else ["Gjøa Haven was not founded"]

    # -- hidden information -------------------------------------------------------

    def _deal_hidden(self, pools: dict[str, Any], seat: int | None) -> None:
        """Events 53 and 55 are known to be in the coastal deck until revealed: a
        determinization never boxes them."""
        super()._deal_hidden(pools, seat)
        self.ev_open = []
        added = [int(x) for x in self.scen()["coastal_deck"]["add"]]
        for num in added:
            if num in self.ev_box:
                swap = [i for i, x in enumerate(self.ev_coastal) if x not in added]
                if not swap:
                    continue
                i = swap[self._rand(len(swap))]
                self.ev_box.remove(num)
                self.ev_box.append(self.ev_coastal[i])
                self.ev_coastal[i] = num

    def _consistency_problem(self) -> str | None:
        problem = super()._consistency_problem()
        if problem:
            return problem
        if len(self.am_cyl) != 3 or any(x not in (0, 1) for x in self.am_cyl):
            return "am_cyl must be 3 flags"
        if type(self.am_founded) is not bool or type(self.am_haven) is not int:
            return "am_founded / am_haven have the wrong type"
        return None
