"""The step machine of a round (§4): Voyage, Action and Boarding phases.

``State.step`` names the next step; :meth:`FlowRules._run` runs steps until a
player must decide.  Steps of a round: ``round`` (leader check) → ``dest`` →
[``section``] → ``ice`` → ``attrition`` → ``vtype`` → ``fuel`` → ``mapevent``
→ ``cards`` → ``action`` → ``board`` → ``cleanup`` → ``round`` …; after the
final round the final voyage runs ``round`` → … → ``fuel`` → ``final``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from erebus.core.events import Event
from erebus.games.iceandsnow import legends, legends_explorers, myths, scoring
from erebus.games.iceandsnow.actions import Action, Crew
from erebus.games.iceandsnow.content import RESOURCES
from erebus.games.iceandsnow.events import (
    CardsRevealed,
    CartographyRevealed,
    CompassDrawn,
    DestinationChosen,
    DynamitePlaced,
    EventCardsSeen,
    FleetMoved,
    GameOver,
    LeaderChanged,
    RegionMapped,
    RoundEnded,
    RoundStarted,
    ScenarioProgress,
    VoyageChosen,
)
from erebus.games.iceandsnow.layout import (
    BOILER,
    BOILER_TILE,
    DYN,
    FUEL,
    GALLEY,
    HIRED,
    INF,
    LEADS,
    MAP_OPEN_SEA,
    MAST,
    PASSED,
    PAWNS,
    PROXY,
    RES,
    STOREROOM,
    TURNS,
    USED,
    WOOD,
    F,
)
from erebus.games.iceandsnow.position import POLE, WAITING
from erebus.games.iceandsnow.resources import infirmary_tuple
from erebus.games.iceandsnow.setup import SetupRules

#: Dynamite of the icebreaking itself (§4.1 step 3), before a route's extra dynamite.
ICEBREAK_DYNAMITE = 1
#: Compass directions as unit vectors on the map's (x east, y north) grid.
DIRECTIONS = {"N": (0.0, 1.0), "S": (0.0, -1.0), "E": (1.0, 0.0), "W": (-1.0, 0.0)}
_DECLINE = Action("compass", to=None)
_BOILER_YES = Action("boiler", use=True)
_BOILER_NO = Action("boiler", use=False)
_DISCARD = {r: Action("discard", resource=r) for r in RESOURCES}


@cache
def _infirmary_actions(avail: Crew, count: int, allow_inuit: bool) -> tuple[Action, ...]:
    """The answers of an infirmary decision (asked at every step while it waits)."""
    return tuple(Action("infirmary", crew=c) for c in infirmary_tuple(avail, count, allow_inuit))


class FlowRules(SetupRules):
    """The steps of a round and the queued decisions' legal answers."""

    __slots__ = ()

    def _run(self, ev: list[Event]) -> None:
        """Run steps until a player must decide (or the game ends)."""
        guard = 0
        while not self.over and self.phase not in WAITING:
            # a queued decision whose options vanished (nothing left to choose) is skipped
            while self.decisions and not self._decision_actions(self.decisions[0]):
                self.decisions.pop(0)
            if self.decisions:
                break
            guard += 1
            if guard > 10_000:  # pragma: no cover - a flow bug, not a rule
                raise RuntimeError(f"the game flow does not progress at step {self.step!r}")
            getattr(self, "_step_" + self.step)(ev)
        # The same in a phase that waits for a player (the Action phase): a decision
        # queued behind another one may have nothing left to choose when its turn
        # comes (Walking on Ice's cargo check after a creature's discard already made
        # room); left queued, it would leave the game without a legal action.
        while not self.over and self.decisions and not self._decision_actions(self.decisions[0]):
            self.decisions.pop(0)
        if self.over:
            self.current = None
            self.decisions = []

    def _step_choose(self, ev: list[Event]) -> None:
        self.phase = "setup"
        self.current = self.setup_seat

    def _step_mnp_section(self, ev: list[Event]) -> None:
        self.phase = "section"
        self.current = self.leader
        self.dest = None

    def _step_mnp_start(self, ev: list[Event]) -> None:
        self.phase = "start"
        self.current = self.leader

    def _step_round(self, ev: list[Event]) -> None:
        self.round += 1
        self.event = None
        self.event_pending = None
        self.event_taken = False
        self.event_draw = None
        self.round_mods = ()
        self.voyage = None
        self.dest = None
        self.dest_dyn = 0
        self.mnp_explore = 0
        self.mnp_cabin = -1
        for s in range(self.n):
            self.pv[F * s + BOILER] = 0
        self.pv[F * self.leader + LEADS] += 1
        ev.append(RoundStarted(self.round, self.leader))
        if self.scenario == "magnetic-north-pole" and not self.pole_found and not self.magnetised:
            sec = self.scen().get("magnetise_section", "central_west")
            idx = self._t.section_ids.index(sec) if sec in self._t.section_ids else 2
            if idx in self._t.sections_of[self.fleet] and self._section_placed(idx):
                self.magnetised = True
                ev.append(ScenarioProgress("the compass is magnetised", 1))
        self.step = "dest"

    def destinations(self) -> list[tuple[str, int]]:
        return list(self._t.routes_from(self.placed_key(), self.fleet))

    def _step_dest(self, ev: list[Event]) -> None:
        if self.magnetised:
            self._compass_destination(ev)
            return
        if not self.destinations():
            self._lose("no route leads on from here", ev)
            return
        self.phase = "destination"
        self.current = self.leader

    def _compass_destination(self, ev: list[Event]) -> None:
        """Magnetised compass (§7.2): the card decides; no destination costs 1 fuel."""
        routes = self._t.routes_from(self.placed_key(), self.fleet, both_ways=True)
        here = self._t.anchors[self.fleet]
        for _ in range(1000):
            if not self.compass:
                self.compass = self.compass_disc
                self.compass_disc = []
                self._shuffle(self.compass)
                if not self.compass:
                    self._lose("the compass deck is empty", ev)
                    return
            card = self.compass.pop(0)
            ev.append(CompassDrawn(card))
            if card == POLE:
                direction = self.compass_disc[-1] if self.compass_disc else None
            else:
                self.compass_disc.append(card)
                direction = card
            best: tuple[float, str, int] | None = None
            if direction is not None:
                dx, dy = DIRECTIONS[direction]
                for to, dyn in routes:
                    a = self._t.anchors[to]
                    d = (a.x - here.x) * dx + (a.y - here.y) * dy
                    if d > 0 and (best is None or d > best[0]):
                        best = (d, to, dyn)
            if best is None:
                if card == POLE:
                    self.compass.insert(self._rand(len(self.compass) + 1), POLE)
                else:
                    self.compass_disc.pop()
                    self.compass.insert(self._rand(len(self.compass) + 1), card)
                self._fuel_cost_solo(1, "the compass points nowhere", ev)
                if self.over:
                    return
                continue
            if card == POLE:
                self.pole_dir = direction
                ev.append(ScenarioProgress(f"the pole lies {direction}", 1))
            self._choose_destination(best[1], best[2], ev)
            return
        self._lose("the compass never settles", ev)

    def _choose_destination(self, to: str, dyn: int, ev: list[Event]) -> None:
        self.dest = to
        self.dest_dyn = dyn
        ev.append(DestinationChosen(self.leader, to))
        if not all(self._section_placed(i) for i in self._t.sections_of[to]):
            self.phase = "section"
            self.current = self.leader
        else:
            self.phase = "flow"
            self.step = "ice"

    def next_section(self) -> int:
        """Index of the map section a ``section`` action places now."""
        if self.dest is None:
            return 1  # Magnetic North Pole setup: Central East
        return max(i for i in self._t.sections_of[self.dest] if not self._section_placed(i))

    def _step_ice(self, ev: list[Event]) -> None:
        assert self.dest is not None
        cost = ICEBREAK_DYNAMITE + self.dest_dyn
        if sum(self.p(s, DYN) for s in range(self.n)) < cost:
            self._lose("nobody can pay the icebreaking dynamite", ev)
            return
        left = cost
        for s in self.order_from(self.leader):
            pay = min(left, self.p(s, DYN))
            if pay:
                self.pv[F * s + DYN] -= pay
                left -= pay
                ev.append(DynamitePlaced(s, self.dest, pay))
            if not left:
                break
        if self.dest not in self.dyn_anchors:
            self.dyn_anchors.append(self.dest)
        self.step = "attrition"

    def _step_attrition(self, ev: list[Event]) -> None:
        att = self.rules["attrition"]
        for s in self.order_from(self.leader):
            self._lower(s, "health", int(att["health"]), "attrition", ev, effect=True)
            if self.over:
                return
            self._lower(s, "morale", int(att["morale"]), "attrition", ev, effect=True)
            if self.over:
                return
        self.step = "vtype"

    def voyage_options(self) -> list[str]:
        if self.final_voyage:
            return ["open"]
        opts = []
        solo = self.n == 1
        need = int(self.rules["coastal_min_fuel_per_player"]) * self.n
        fuel_ok = sum(self.p(s, FUEL) for s in range(self.n)) >= need
        if fuel_ok and (not solo or self.ev_coastal):
            opts.append("coastal")
        if not solo or self.ev_open:
            opts.append("open")
        return opts

    def _step_vtype(self, ev: list[Event]) -> None:
        if self.n == 1 and not self.ev_open and not self.ev_coastal:
            # R2: in solo both decks exhausted -> both reshuffle their discards
            self.ev_open, self.ev_open_disc = self.ev_open_disc, []
            self.ev_coastal, self.ev_coastal_disc = self.ev_coastal_disc, []
            self._shuffle(self.ev_open)
            self._shuffle(self.ev_coastal)
        if not self.voyage_options():
            self.ev_open, self.ev_open_disc = self.ev_open + self.ev_open_disc, []
            self._shuffle(self.ev_open)
        if self.final_voyage:
            self._voyage_chosen("open", ev)
            return
        self.phase = "voyage"
        # Belcher chooses after forcing the route (Legendary Expeditions H)
        self.current = legends_explorers.voyage_chooser(self) if self.explorer else self.leader

    def _voyage_chosen(self, voyage: str, ev: list[Event]) -> None:
        self.voyage = voyage
        chooser = legends_explorers.voyage_chosen(self) if self.explorer else self.leader
        ev.append(VoyageChosen(chooser, voyage))
        self.phase = "flow"
        self.step = "fuel"
        if not self.final_voyage and self.has_upgrade(self.leader, MAST):
            deck = self._event_deck(voyage)
            if len(deck) >= 2:
                self.decisions.append(["mast", self.leader, str(deck[0]), str(deck[1])])
                ev.append(EventCardsSeen(self.leader, 2))
        for s in self.order_from(self.leader):
            if self.has_upgrade(s, BOILER_TILE) and self.p(s, WOOD) > 0:
                self.decisions.append(["boiler", s])

    def _event_deck(self, voyage: str) -> list[int]:
        """The deck of ``voyage``; an empty multiplayer deck reshuffles its discards (R2)."""
        if voyage == "open":
            if not self.ev_open and self.n > 1:
                self.ev_open, self.ev_open_disc = self.ev_open_disc, []
                self._shuffle(self.ev_open)
            return self.ev_open
        if not self.ev_coastal and self.n > 1:
            self.ev_coastal, self.ev_coastal_disc = self.ev_coastal_disc, []
            self._shuffle(self.ev_coastal)
        return self.ev_coastal

    def _step_fuel(self, ev: list[Event]) -> None:
        assert self.dest is not None and self.voyage is not None
        self.prev_fleet = self.fleet
        self.fleet = self.dest
        ev.append(FleetMoved(self.fleet))
        # Walking on Ice's broken-ice and ice routes: every player 1 fuel more (§9.1)
        extra = self._t.route_fuel.get((self.prev_fleet, self.fleet), 0)
        cost = int(self.rules["voyage_fuel"][self.voyage]) + extra
        missing = [0] * self.n
        bands = self.content.tracks["fuel"]["bands"]
        for s in self.order_from(self.leader):
            c = cost
            own = legends.fuel_bands(self, s, bands) if self.explorer else bands  # Franklin
            if self.pv[F * s + BOILER] and c > 0 and self.p(s, WOOD) > 0:
                self._gain(s, "wood", -1, "boiler", ev)
                c -= 1
            old = self.p(s, FUEL)
            missing[s] = max(0, c - old)
            self._lower(s, "fuel", c, f"{self.voyage} voyage", ev, effect=False)
            if c == 0 < cost:
                # the Boiler paid the whole cost: fuel was not lowered, so no band
                # effect (seed l. 308: the effect follows lowering fuel; l. 909: the
                # wood is paid instead of lowering it)
                continue
            new = self.p(s, FUEL)
            for band in own:
                if int(band["from"]) <= new <= int(band["to"]):
                    why = "fuel 8–10" if own is bands else f"fuel {band['from']}–{band['to']}"
                    if band["effect"] == "morale":
                        self._raise(s, "morale", 1, why, ev)
                    elif band["effect"] == "discard" and not self.has_upgrade(s, STOREROOM):
                        self._discard_choice(s, "fuel 0–3" if own is bands else why, ev)
                    break
            if self.over:
                return
        if any(missing):
            self._towing(missing, ev)
            if self.over:
                return
        # a final anchor point ends the passage even if the map reaches it without
        # a blue anchor before it (the shipped map never does)
        final = self.final_voyage or self._t.anchors[self.fleet].final_pp is not None
        self.step = "final" if final else "mapevent"

    def _step_final(self, ev: list[Event]) -> None:
        pp = self._t.anchors[self.fleet].final_pp or 0
        self._score(self.leader, int(pp), "final anchor point", ev)
        if not self.over:
            self._finish(ev)

    def _step_mapevent(self, ev: list[Event]) -> None:
        assert self.voyage is not None
        region = self.region_of(self.fleet)
        leader = self.leader
        can_map = self.voyage == "coastal" or self.p(leader, MAP_OPEN_SEA) > 0
        if can_map and region not in self.mapped and self.carto_tokens > 0:
            self.mapped.append(region)
            self.carto_tokens -= 1
            ev.append(RegionMapped(leader, region))
            self._score(leader, legends.mapping_pp(self, leader), "mapping", ev)  # Collinson: 3
            if self.over:
                return
        if self.magnetised and self.voyage == "open" and region not in self.mapped:
            self.compass += self.compass_disc
            self.compass_disc = []
            self._shuffle(self.compass)
        if self.event_pending is not None:
            num: int | None = self.event_pending
            self.event_pending = None
            deck = self._event_deck(self.voyage)
            if num in deck:
                deck.remove(num)
        else:
            deck = self._event_deck(self.voyage)
            num = deck.pop(0) if deck else None
        self.event = num
        self.step = "cards"
        if num is not None:
            self._reveal_event(num, ev)

    def _step_cards(self, ev: list[Event]) -> None:
        if self.curse:  # Inuit Myths: the creature token and its card (§9.2)
            myths.card_setup(self, ev)
        k = int(self.rules["hunting_cards_per_round"][str(self.n)])
        self.hu_rev = []
        for _ in range(k):
            if not self.hu_deck and self.hu_disc:
                self.hu_deck, self.hu_disc = self.hu_disc, []
                self._shuffle(self.hu_deck)
            if self.hu_deck:
                self.hu_rev.append(self.hu_deck.pop(0))
        if "no_walrus" in self.round_mods:
            walrus = [h for h in self.hu_rev if self._t.hunting_all[h].walrus]
            self.hu_rev = [h for h in self.hu_rev if h not in walrus]
            self.hu_disc += walrus
        self.sp_rev = []
        if self.scen().get("species_deck", True) is not False:
            for _ in range(self.content.regions[self.region_of(self.fleet)].species):
                if self.sp_deck_draw() is not None:
                    self.sp_rev.append(self.sp_deck.pop(0))
        if self.hu_rev:
            ev.append(CardsRevealed("hunting", tuple(self.hu_rev)))
        if self.sp_rev:
            ev.append(CardsRevealed("species", tuple(self.sp_rev)))
        self.final_round = self._t.anchors[self.fleet].blue
        self.step = "action"

    def _step_action(self, ev: list[Event]) -> None:
        self.occ = [0] * len(self._t.spaces)
        self.col_paid = [0] * len(self._t.columns)
        for s in range(self.n):
            b = F * s
            self.pv[b + PASSED] = 0
            self.pv[b + TURNS] = 0
            self.pv[b + PROXY] = 0
        self.lead_taker = -1
        self.phase = "action"
        self.current = self.leader

    def _advance_turn(self, ev: list[Event]) -> None:
        """Next player clockwise who has not passed; the phase ends when all passed."""
        assert self.current is not None
        for i in range(1, self.n + 1):
            s = (self.current + i) % self.n
            if not self.pv[F * s + PASSED]:
                self.current = s
                return
        self.phase = "flow"
        self.step = "board"

    def _step_board(self, ev: list[Event]) -> None:
        n = self.n
        self.stands = []
        for s in range(n):
            b = F * s
            for i in range(5):
                self.pv[b + USED + i] = 0
                self.pv[b + INF + i] = 0
            if self.has_upgrade(s, GALLEY):
                self._gain(s, "food", int(self.rules["galley_food"]), "galley", ev)
            if self.pv[b + HIRED]:
                if not myths.receive_pawns(self, s, self.pv[b + HIRED], ev):
                    self.pv[b + PAWNS] += self.pv[b + HIRED]
                self.pv[b + HIRED] = 0
            self._grant_powers(s, ev)
        if self.pole_dir is not None:
            self._check_pole(ev)
        # next leader (§4.7 step 2)
        dyn = [self.p(s, DYN) for s in range(n)]
        if max(dyn) <= 0:
            self._lose("nobody has any dynamite to lead the expedition", ev)
            return
        old = self.leader
        if self.lead_taker >= 0 and dyn[self.lead_taker] > 0:
            new, why = self.lead_taker, "took Lead"
        else:
            top = max(dyn)
            tied = [s for s in range(n) if dyn[s] == top]
            if len(tied) == 1:
                new = tied[0]
            elif self.options["helm_tie"] == "include_leader" and old in tied:
                new = old
            else:
                cands = [s for s in self.order_from(old)[1:] if s in tied]
                new = cands[0] if cands else old
            why = "most dynamite"
        self.leader = new
        if new != old or why == "took Lead":
            ev.append(LeaderChanged(new, why))
        # feeding
        for s in self.order_from(self.leader):
            self._lower_food(s, self.fed_count(s), "feeding", ev)
            if self.over:
                return
        if self.explorer:  # Legendary Expeditions: McClure's food for morale
            legends.boarding(self)
        self.step = "cleanup"

    def _check_pole(self, ev: list[Event]) -> None:
        req = self.scen().get("requirements", {}).get(self.pole_dir, {})
        ok = self.mnp_explore >= int(req.get("explore", 0)) and self.mnp_cabin >= int(
            req.get("cabin_food", 0)
        )
        if ok:
            self.pole_found = True
            self.magnetised = False
            ev.append(ScenarioProgress("the magnetic north pole is discovered", 1))
        else:
            self.compass.insert(self._rand(len(self.compass) + 1), POLE)
            ev.append(ScenarioProgress("the search for the pole fails", 0))
        self.pole_dir = None

    def _step_cleanup(self, ev: list[Event]) -> None:
        self.hu_disc += self.hu_rev
        self.hu_rev = []
        self.sp_disc += self.sp_rev
        self.sp_rev = []
        if self.event_draw is not None:
            self.sp_disc.append(self.event_draw)
            self.event_draw = None
        if self.event is not None and not self._event_kept():
            deck = self.content.events[self.event].deck
            (self.ev_open_disc if deck == "open" else self.ev_coastal_disc).append(self.event)
        self.event = None
        if self.curse:
            myths.cleanup(self, ev)
        ev.append(RoundEnded(self.round))
        if self.final_round:
            self.final_voyage = True
        self.step = "round"

    def _finish(self, ev: list[Event]) -> None:
        """The passage is complete: final scoring (§5.2) or the solo objectives (§7)."""
        self.over = True
        self.current = None
        self.phase = "over"
        self.step = "over"
        if self.scenario is None:
            for seat, delta, reason in scoring.final_scores(self):
                self._score(seat, delta, reason, ev)
            for s in range(self.n):
                cid = self.carto[s]
                if cid is not None:
                    ev.append(CartographyRevealed(s, cid, self.content.cartography[cid].regions))
            self.reason = (
                "the expedition survived on foot"
                if self.abandoned
                else "the expedition completed the Northwest Passage"
            )
            ev.append(GameOver("finished", self.reason, tuple(self.scores())))
            return
        missing = self.objectives_missing()
        self.won = not missing
        self.lost = bool(missing)
        self.reason = (
            "all objectives met" if not missing else "objectives not met: " + "; ".join(missing)
        )
        ev.append(GameOver("won" if self.won else "lost", self.reason, tuple(self.scores())))

    def _decision_actions(self, d: list[Any]) -> list[Action]:
        kind, seat = d[0], d[1]
        if kind == "discard":
            b = F * seat
            pv = self.pv
            return [_DISCARD[r] for r in RESOURCES if pv[b + RES[r]] > 0]
        if kind == "infirmary":
            return list(_infirmary_actions(self.avail_crew(seat), int(d[2]), bool(d[3])))
        if kind == "eat":
            return [Action("eat", card=c) for c in self.eat_options(seat)]
        if kind == "compass":
            return [*(Action("compass", to=a) for a in self.compass_options()), _DECLINE]
        if kind == "mast":
            return [Action("mast", card=d[2]), Action("mast", card=d[3])]
        if kind == "boiler":
            return [_BOILER_YES, _BOILER_NO]
        if kind in legends.DECISIONS:  # the explorer choice, McClure's trade
            return legends.decision_actions(self, d)
        if kind == "despot":  # Legendary Expeditions H: Belcher forces another route
            return list(legends_explorers.DESPOT_ANSWERS)
        raise AssertionError(kind)  # pragma: no cover
