"""Walking on Ice (Myths & Legends, reference §9.1): the state of a game with the module.

A game with ``"modules": ["walking_on_ice"]`` is a :class:`WalkingState` on the
module's content (``walking_data.walking_content``: its two map sections in
place of Central West and West, the action tiles, the walking events 29–36).
Until the ships are abandoned it plays the base game, with the new route types
(broken-ice and ice routes cost 1 more fuel, ice routes 1 more dynamite,
walking routes closed) and upgrades 12–13.  From the Central West section on,
at the end of each leader check the leader may abandon the ships; when every
player's fuel is below 4 they must.  Then:

* the voyage decks go to the box and the walking deck is shuffled; each round's
  Crossing phase replaces the Voyage phase: the leader picks **Walk** (like
  open sea) or **Forced March** (like coastal: the leader maps, every player
  lowers maintenance), the sled moves, the top walking event is revealed, and
  every player feeds their crew (so the crew eats twice a round);
* each player moves to the sled board: the maintenance level (= sled level)
  caps food and cargo (6 + 2 per level; dogs ride free), fuel becomes wood,
  5 food cans join the cargo, at most 3 upgrade tiles stay, guilt starts at 0
  (voluntary: the leader +3 per player at fuel 8+, +1 per player at 4–7) and
  rises by 1 with each Scurvy or Mutiny applied;
* the action tiles cover Visit the Inuit, Experiment and Recycle Ship's Wood,
  the final-round tile Document Construction Methods and the carpenter's Vow;
* the game may end at the module's new final anchor; at the end each player
  loses guilt × the modifier on the final anchor (``scoring.guilt_penalties``).

The rules of the sled board are functions in :mod:`.walking_rules`; this class
overrides the steps and decisions they change.  A game without the module is a
plain :class:`~erebus.games.iceandsnow.state.State`: nothing here runs.
"""

from __future__ import annotations

from typing import Any

from erebus.core.events import Event
from erebus.games.iceandsnow import legends, legends_explorers
from erebus.games.iceandsnow import walking_rules as wr
from erebus.games.iceandsnow.actions import Action, Crew
from erebus.games.iceandsnow.content import RESOURCES
from erebus.games.iceandsnow.effects import Op
from erebus.games.iceandsnow.events import (
    CanOpened,
    CrewLost,
    FleetMoved,
    RegionMapped,
    ShipsAbandoned,
    SickSailor,
    UpgradeDropped,
    VoyageChosen,
)
from erebus.games.iceandsnow.layout import (
    CANS,
    FOOD,
    FUEL,
    INF,
    MAP_OPEN_SEA,
    RES,
    SAILORS,
    SLED,
    USED,
    F,
)
from erebus.games.iceandsnow.resources import ResourceRules
from erebus.games.iceandsnow.state import State

_OPEN_CAN = Action("open_can")
_RELEASE = Action("release_sailor")
_PASS = Action("pass")
_ABANDON = (Action("abandon", use=True), Action("abandon", use=False))
#: Crossing types (§9.1) and the voyage type each is "like".
LIKE = {"walk": "open", "march": "coastal"}


class WalkingState(State):
    """A game of Through Ice and Snow with Walking on Ice (see the module docstring)."""

    __slots__ = ()

    # -- set-up -------------------------------------------------------------------

    def _setup(self, ev: list[Event]) -> None:
        n = self.n
        self.abandoned = None
        self.walk_deck = []
        self.walk_disc = []
        self.maint = [0] * n
        self.guilt = [0] * n
        self.sick = [0] * n
        self.customs = [0] * n
        super()._setup(ev)

    # -- before the ships are abandoned -----------------------------------------

    def destinations(self) -> list[tuple[str, int]]:
        """Walking routes open only once the ships are abandoned (§9.1 ③)."""
        out = super().destinations()
        if self.abandoned:
            return out
        closed = self._t.walking_routes
        return [(to, dyn) for to, dyn in out if (self.fleet, to) not in closed]

    def may_abandon(self) -> bool:
        """From the moment Central West is placed, until the ships are abandoned."""
        if self.abandoned or self.over:
            return False
        sec = str(wr.data(self).abandon.get("from_section", "central_west"))
        return sec in self._t.section_ids and self._section_placed(self._t.section_ids.index(sec))

    def _step_round(self, ev: list[Event]) -> None:
        super()._step_round(ev)
        if not self.may_abandon():
            return
        below = int(wr.data(self).abandon["forced_below_fuel"])
        short = [self.p(s, FUEL) < below for s in range(self.n)]
        if any(short) if self.options["walking_forced"] == "any" else all(short):
            self._abandon("forced", ev)
        else:
            self.decisions.append(["abandon", self.leader])

    # -- abandoning the ships -----------------------------------------------------

    def _abandon(self, how: str, ev: list[Event]) -> None:
        """The procedure of §9.1 (1)–(5), every player from the leader."""
        w = wr.data(self)
        self.abandoned = how
        ev.append(ShipsAbandoned(self.leader, how))
        # (2) the voyage decks and their discards go to the box; the walking deck
        self.ev_box += self.ev_open + self.ev_coastal + self.ev_open_disc + self.ev_coastal_disc
        self.ev_open, self.ev_coastal, self.ev_open_disc, self.ev_coastal_disc = [], [], [], []
        self.walk_deck = sorted(w.events)
        self._shuffle(self.walk_deck)
        fuel = [self.p(s, FUEL) for s in range(self.n)]
        spaces = self.upgrade_space_limit()
        for s in self.order_from(self.leader):
            b = F * s
            # (4F) at most 3 tiles move to the sled board; no space bonuses
            if len(self.upgrades[s]) > spaces:
                self.decisions.append(["drop_upgrade", s])
            # (4G/H) the maintenance cylinder on the sled level
            wr.set_maintenance(self, s, self.pv[b + SLED], "abandoning ship", ev)
            over = legends.maintenance_over_sled(self, s) if self.explorer else 0
            if over:  # Franklin: maintenance +1 after moving boards (§9.3 set A)
                wr.set_maintenance(self, s, self.maint[s] + over, "John Franklin", ev)
            # (4K) wood equal to the fuel level; the fuel cylinder goes to guilt 0
            ResourceRules._gain(self, s, "wood", fuel[s], "fuel left on the ship", ev)
            self._set(s, FUEL, 0, "fuel", "abandoning ship", ev)
            # (4M) 5 food cans
            cans = min(int(w.abandon["cans"]), wr.cans_in_box(self))
            ResourceRules._gain(self, s, "cans", cans, "abandoning ship", ev)
            # (4I/J, N) food and cargo within the maintenance level
            wr.check_sled(self, s, "abandoning ship", ev)
        if how == "voluntary":
            k = 0
            for f in fuel:
                for band in w.abandon["voluntary_guilt"]:
                    if int(band["from"]) <= f <= int(band["to"]):
                        k += int(band["guilt"])
            wr.raise_guilt(self, self.leader, k, "abandoning the ships", ev)

    def upgrade_space_limit(self) -> int:
        if self.abandoned:
            return len(wr.data(self).sled["upgrade_spaces"])
        return super().upgrade_space_limit()

    def upgrade_space_bonuses(self) -> list[dict[str, int]]:
        if self.abandoned:
            b: list[dict[str, int]] = wr.data(self).sled["upgrade_spaces"]
            return b
        return super().upgrade_space_bonuses()

    def blocked_spaces(self) -> Any:
        """The tiles lie beside the board until the ships are abandoned; then they
        cover their spaces (the final-round tile only in the final round)."""
        base = super().blocked_spaces()
        tiles = wr.data(self).tiles
        if self.abandoned:
            covered = {t["replaces"] for t in tiles.values()}
            return (*base, *sorted(covered))
        return (*base, *sorted(tiles))

    # -- the Crossing phase -------------------------------------------------------

    def voyage_options(self) -> list[str]:
        if not self.abandoned:
            return super().voyage_options()
        if self.final_voyage:
            return [str(wr.data(self).crossing.get("final", "walk"))]
        per = int(wr.data(self).crossing["march_min_maintenance_per_player"])
        if sum(self.maint) >= per * self.n:
            return ["walk", "march"]
        return ["walk"]

    def _step_vtype(self, ev: list[Event]) -> None:
        if not self.abandoned:
            super()._step_vtype(ev)
            return
        if self.final_voyage:
            self._voyage_chosen(self.voyage_options()[0], ev)
            return
        self.phase = "voyage"
        # Belcher chooses after forcing the route (Legendary Expeditions H)
        self.current = legends_explorers.voyage_chooser(self) if self.explorer else self.leader

    def _voyage_chosen(self, voyage: str, ev: list[Event]) -> None:
        if not self.abandoned:
            super()._voyage_chosen(voyage, ev)
            return
        self.voyage = voyage
        chooser = legends_explorers.voyage_chosen(self) if self.explorer else self.leader
        ev.append(VoyageChosen(chooser, voyage))
        self.phase = "flow"
        self.step = "fuel"

    def _step_fuel(self, ev: list[Event]) -> None:
        """The Crossing step: move the sled, reveal the walking event; the crossing
        type's effects follow in the ``mapevent`` step (after the event's
        decisions).  The last crossing reveals no event (like the final voyage)."""
        if not self.abandoned:
            super()._step_fuel(ev)
            return
        assert self.dest is not None and self.voyage is not None
        self.prev_fleet = self.fleet
        self.fleet = self.dest
        ev.append(FleetMoved(self.fleet))
        if self.final_voyage or self._t.anchors[self.fleet].is_final:
            self._crossing_effects(ev)
            if not self.over:
                self.step = "final"
            return
        self.step = "mapevent"
        if self.options["walking_order"] == "event_first":
            self._walking_event(ev)
        else:
            self._crossing_effects(ev)

    def _walking_event(self, ev: list[Event]) -> None:
        num = self._walk_draw()
        self.event = num
        if num is not None:
            self._reveal_event(num, ev)

    def _walk_draw(self) -> int | None:
        """The top walking event; an empty deck reshuffles its discards (R2)."""
        if not self.walk_deck and self.walk_disc:
            self.walk_deck, self.walk_disc = self.walk_disc, []
            self._shuffle(self.walk_deck)
        return self.walk_deck.pop(0) if self.walk_deck else None

    def _step_mapevent(self, ev: list[Event]) -> None:
        if not self.abandoned:
            super()._step_mapevent(ev)
            return
        self.step = "cards"
        if self.options["walking_order"] == "event_first":
            self._crossing_effects(ev)
        else:
            self._walking_event(ev)

    def _step_final(self, ev: list[Event]) -> None:
        """At the module's new final anchor the leader gains no final-anchor PP
        (option ``walking_final_pp``: the lower of the passage's two values)."""
        if self.abandoned and self._t.anchors[self.fleet].walking_final:
            if self.options["walking_final_pp"] == "lowest":
                pp = min(int(x) for x in self.rules["final_pp"])
                self._score(self.leader, pp, "final anchor point", ev)
            if not self.over:
                self._finish(ev)
            return
        super()._step_final(ev)

    def _crossing_effects(self, ev: list[Event]) -> None:
        """Walk: every player feeds their crew.  Forced March: also the leader maps
        the region and every player lowers maintenance by 1 (towing at 1)."""
        assert self.voyage is not None
        kind = wr.data(self).crossing["types"][self.voyage]
        order = self.order_from(self.leader)
        if kind.get("feed"):
            for s in order:
                self._lower_food(s, self.fed_count(s), f"{self.voyage} (feeding)", ev)
                if self.over:
                    return
        leader = self.leader
        can_map = bool(kind.get("map")) or (
            LIKE.get(self.voyage) == "open" and self.p(leader, MAP_OPEN_SEA) > 0
        )
        region = self.region_of(self.fleet)
        if can_map and region not in self.mapped and self.carto_tokens > 0:
            self.mapped.append(region)
            self.carto_tokens -= 1
            ev.append(RegionMapped(leader, region))
            self._score(leader, legends.mapping_pp(self, leader), "mapping", ev)  # Collinson: 3
        if int(kind.get("maintenance", 0)) < 0:
            wr.lower_maintenance(self, order, "forced march", ev)

    def _step_cleanup(self, ev: list[Event]) -> None:
        num = self.event
        if self.abandoned and num is not None and num in wr.data(self).events:
            card = self.content.events[num]
            kept = self.event_taken and card.effect.has("scientist_morale")
            if not kept:
                self.walk_disc.append(num)
            self.event = None
        super()._step_cleanup(ev)

    def _step_board(self, ev: list[Event]) -> None:
        # event 36 is received at the end of the Action phase
        for s in range(self.n):
            if self.customs[s] == 1:
                self.customs[s] = 2
        super()._step_board(ev)

    # -- the sled board: food, cargo, cans, crew ----------------------------------

    def _gain(self, seat: int, what: str, v: int, reason: str, ev: list[Event]) -> None:
        if what == "maintenance":
            if self.abandoned:
                wr.set_maintenance(self, seat, self.maint[seat] + v, reason, ev)
            return
        if not self.abandoned:
            if what != "cans":  # no cans before the ships are abandoned
                super()._gain(seat, what, v, reason, ev)
            return
        if what == "fuel":
            return  # the fuel track no longer exists on the sled (§9.1 K)
        if what == "cans" and v > 0:
            v = min(v, wr.cans_in_box(self))
        super()._gain(seat, what, v, reason, ev)
        if what == "food":
            cap = wr.food_cap(self, seat)
            if self.p(seat, FOOD) > cap:
                self._set(seat, FOOD, cap, "food", "the sled's maintenance", ev)
        elif what in wr.CARGO and v > 0:
            wr.queue_cargo(self, seat)

    def _eat(self, seat: int, cid: str, ev: list[Event]) -> None:
        super()._eat(seat, cid, ev)
        if self.abandoned:
            cap = wr.food_cap(self, seat)
            if self.p(seat, FOOD) > cap:
                self._set(seat, FOOD, cap, "food", "the sled's maintenance", ev)

    def _discard_choice(self, seat: int, reason: str, ev: list[Event]) -> None:
        if not self.abandoned:
            super()._discard_choice(seat, reason, ev)
            return
        kinds = self._discardable(seat)
        if len(kinds) == 1:
            self._gain(seat, kinds[0], -1, reason, ev)
        elif kinds:
            self.decisions.append(["discard", seat, reason])

    def _discardable(self, seat: int, cargo_only: bool = False) -> list[str]:
        """Resources the seat may discard: cans count as resources after abandonment."""
        kinds = wr.CARGO if cargo_only else (*RESOURCES, "cans")
        return [r for r in kinds if self.p(seat, RES[r]) > 0]

    def avail_crew(self, seat: int) -> Crew:
        c = super().avail_crew(seat)
        if not self.sick[seat]:
            return c
        return (c[0], c[1], c[2], c[3] - self.sick[seat], c[4])

    def _lose_sailor(self, seat: int, reason: str, ev: list[Event]) -> bool:
        """The sick sailor (event 32) is the first to die."""
        if self.sick[seat] and self.pv[F * seat + SAILORS] > 0:
            self.sick[seat] = 0
            self.pv[F * seat + SAILORS] -= 1
            ev.append(CrewLost(seat, "sailor", reason))
            ev.append(SickSailor(seat, False))
            return True
        return super()._lose_sailor(seat, reason, ev)

    def _penalty_applied(self, seat: int, kind: str, ev: list[Event]) -> None:
        if self.abandoned:
            wr.raise_guilt(self, seat, 1, kind, ev)

    def _open_can(self, seat: int, reason: str, ev: list[Event]) -> None:
        """Discard a food can: food +5, health −1 with the new space's effect."""
        cans = wr.data(self).cans
        ev.append(CanOpened(seat))
        ResourceRules._gain(self, seat, "cans", -1, reason, ev)
        self._gain(seat, "food", int(cans["open_food"]), "food can", ev)
        self._lower(seat, "health", -int(cans["open_health"]), "food can", ev, effect=True)

    def _release_sailor(self, seat: int, ev: list[Event]) -> None:
        self.sick[seat] = 0
        self.pv[F * seat + SAILORS] -= 1
        ev.append(CrewLost(seat, "sailor", "left to die"))
        ev.append(SickSailor(seat, False))
        self._score(seat, int(wr.data(self).raw["sick_sailor_pp"]), "sick sailor left to die", ev)

    def _shortage(
        self, seat: int, need: int, reason: str, ev: list[Event], front: bool = False
    ) -> None:
        """A food shortage after abandonment: the seat may first open food cans."""
        if self.abandoned and self.p(seat, CANS) > 0 and self.p(seat, FOOD) < need:
            d = ["cans", seat, need, reason]
            if front:
                self.decisions.insert(0, d)
            else:
                self.decisions.append(d)
            return
        super()._shortage(seat, need, reason, ev, front)

    # -- walking event cards --------------------------------------------------------

    def _reveal_op(self, op: Op, reason: str, order: list[int], ev: list[Event]) -> None:
        if op.op == "sick_sailor":
            for s in order:
                self._make_sick(s, ev)
        elif op.op == "each_to_infirmary":
            for s in order:
                self._infirmary(s, int(op["count"]), bool(op["allow_inuit"]), ev)
        else:
            super()._reveal_op(op, reason, order, ev)

    def _make_sick(self, seat: int, ev: list[Event]) -> None:
        """Event 32: one of the seat's sailors rides on the sled for the rest of the
        game (one cargo space, never placed, still fed); none if it has no sailor."""
        b = F * seat
        if self.sick[seat] or self.pv[b + SAILORS] <= 0:
            return
        self.sick[seat] = 1
        free = self.pv[b + SAILORS] - self.pv[b + USED + 3] - self.pv[b + INF + 3] - 1
        if free < 0:  # every sailor is in the infirmary: the sick one leaves it for the sled
            self.pv[b + INF + 3] -= 1
        ev.append(SickSailor(seat, True))
        wr.queue_cargo(self, seat)

    def event_takeable(self, seat: int | None = None) -> bool:
        if not super().event_takeable(seat):
            return False
        assert self.event is not None
        pay = self.content.events[self.event].effect.first("taker_pays")
        if pay is None or seat is None:
            return True
        return all(self.p(seat, RES[r]) >= int(k) for r, k in pay["costs"].items())

    def _take_event(self, seat: int, ev: list[Event]) -> None:
        num = self.event
        assert num is not None
        card = self.content.events[num]
        walking = [o for o in card.effect.take if o.op in ("taker_pays", "scientist_morale")]
        if not walking:
            super()._take_event(seat, ev)
            return
        self.event_taken = True
        for op in card.effect.take:
            if op.op == "taker_pays":
                for r, k in op["costs"].items():
                    self._gain(seat, r, -int(k), card.name, ev)
            elif op.op == "scientist_morale":
                self.customs[seat] = 1
            elif op.op == "taker_gains":
                for what, v in op["gains"].items():
                    self._gain(seat, what, int(v), card.name, ev)

    # -- decisions --------------------------------------------------------------------

    def _compute_legal(self) -> list[Action]:
        out = super()._compute_legal()
        if self.decisions or self.phase != "action" or not self.abandoned or self.over:
            return out
        seat = self.current
        assert seat is not None
        free: list[Action] = []
        if self.p(seat, CANS) > 0:
            free.append(_OPEN_CAN)
        if self.sick[seat]:
            free.append(_RELEASE)
        return [*out, *free]

    def _decision_actions(self, d: list[Any]) -> list[Action]:
        kind, seat = d[0], int(d[1])
        if kind == "abandon":
            return list(_ABANDON)
        if kind == "cargo":
            if not wr.over_cargo(self, seat):
                return []
            return [Action("discard", resource=r) for r in self._discardable(seat, True)]
        if kind == "drop_upgrade":
            if len(self.upgrades[seat]) <= self.upgrade_space_limit():
                return []
            return [Action("drop_upgrade", tile=t) for t in self.upgrades[seat]]
        if kind == "cans":
            if self.p(seat, CANS) <= 0:
                return [_PASS]
            return [_OPEN_CAN, _PASS]
        if kind == "discard" and self.abandoned:
            return [Action("discard", resource=r) for r in self._discardable(seat)]
        return super()._decision_actions(d)

    def _resolve(self, d: list[Any], a: Action, ev: list[Event]) -> None:
        kind, seat = d[0], int(d[1])
        if kind == "abandon":
            if a.use:
                self._abandon("voluntary", ev)
        elif kind == "cargo":
            assert a.resource is not None
            self._gain(seat, a.resource, -1, "over the sled's cargo", ev)
            if wr.over_cargo(self, seat):
                self.decisions.insert(0, ["cargo", seat])
        elif kind == "drop_upgrade":
            assert a.tile is not None
            self.upgrades[seat].remove(a.tile)
            ev.append(UpgradeDropped(seat, a.tile))
        elif kind == "cans":
            need, reason = int(d[2]), str(d[3])
            if a.kind == "open_can":
                self._open_can(seat, "food shortage", ev)
                if not self.over:
                    self._lower_food_after_can(seat, need, reason, ev)
            else:
                ResourceRules._shortage(self, seat, need, reason, ev, front=True)
        else:
            super()._resolve(d, a, ev)

    def _lower_food_after_can(self, seat: int, need: int, reason: str, ev: list[Event]) -> None:
        """After a can opened in a shortage: pay the need if the food now covers it,
        else ask again (another can) or go on with the shortage steps."""
        food = self.p(seat, FOOD)
        if food >= need:
            self._set(seat, FOOD, food - need, "food", reason, ev)
        else:
            self._shortage(seat, need, reason, ev, front=True)

    def _act(self, seat: int, a: Action, ev: list[Event]) -> None:
        if a.kind == "open_can":
            self._open_can(seat, "opened", ev)
            return
        if a.kind == "release_sailor":
            self._release_sailor(seat, ev)
            return
        scientist = (
            a.kind == "take" and a.crew is not None and (a.crew[2] > 0 or a.proxy == "scientist")
        )
        super()._act(seat, a, ev)
        if scientist and self.customs[seat] == 2 and not self.over:
            self._raise(seat, "morale", 1, "Inuit customs (event 36)", ev)

    def expecting(self) -> str:
        return {
            "abandon": "decide whether to abandon the ships",
            "cargo": "choose a resource to leave behind (the sled's cargo is full)",
            "drop_upgrade": "choose the upgrade tile to return to the box",
            "cans": "open a food can or go on with the food shortage",
            "voyage": "choose the crossing type" if self.abandoned else "choose the voyage type",
        }.get(self.pending) or super().expecting()

    # -- what players see ---------------------------------------------------------

    def player(self, seat: int) -> dict[str, Any]:
        d = super().player(seat)
        d["abandoned"] = bool(self.abandoned)
        d["maintenance"] = self.maint[seat]
        d["guilt"] = self.guilt[seat]
        d["sick_sailor"] = self.sick[seat]
        d["inuit_customs"] = int(self.customs[seat] == 2)
        if self.abandoned:
            d["food_cap"] = wr.food_cap(self, seat)
            d["cargo"] = wr.cargo_used(self, seat)
            d["cargo_cap"] = wr.cargo_cap(self, seat)
        return d
