"""The players' decisions: the legal actions of the current player and what
each one does (phase decisions of the flow and the queued decisions).
"""

from __future__ import annotations

from typing import Any

from erebus.core.errors import IllegalAction
from erebus.core.events import Event
from erebus.games.iceandsnow import action_phase, legends, legends_explorers
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.events import (
    CartographyChosen,
    FleetMoved,
    InvestorChosen,
    LeaderChanged,
    Passed,
    SectionPlaced,
)
from erebus.games.iceandsnow.flow import FlowRules
from erebus.games.iceandsnow.layout import (
    BOILER,
    PASSED,
    TURNS,
    F,
)

_PASS = Action("pass")


class DecisionRules(FlowRules):
    """The current player's legal actions and what each one does."""

    __slots__ = ()

    def legal_actions(self) -> list[Action]:
        """Every action the current player may take, in a fixed order."""
        return list(self._legal_list())

    def _legal_list(self) -> list[Action]:
        """The cached list of :meth:`legal_actions` itself, not a copy (read it, never
        change it: clones share it)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def _compute_legal(self) -> list[Action]:
        if self.over:
            return []
        if self.decisions:
            return self._decision_actions(self.decisions[0])
        seat = self.current
        assert seat is not None
        ph = self.phase
        if ph == "setup":
            if self.setup_stage == 0:
                return [Action("choose_investor", card=c) for c in self.inv_opts[seat]]
            return [Action("choose_cartography", card=c) for c in self.carto_opts[seat]]
        if ph == "section":
            sec = self.content.sections[self.next_section()]
            return [Action("section", side=s) for s in sorted(sec.sides)]
        if ph == "start":
            side = str(self.placed[0][1])
            return [
                Action("destination", to=a.id)
                for a in self.content.sections[0].sides[side].anchors
                if a.start
            ]
        if ph == "destination":
            # Belcher may have forbidden the leader's first choice (Legendary Expeditions H)
            dests = [
                Action("destination", to=to)
                for to, _ in self.destinations()
                if to != self.ex_forbid
            ]
            if self.explorer:  # Collinson's mapping at any of his decisions (G)
                dests += legends_explorers.chart_actions(self, seat)
            return dests
        if ph == "voyage":
            voyages = [Action("voyage", voyage=v) for v in self.voyage_options()]
            if self.explorer:
                voyages += legends_explorers.chart_actions(self, seat)
            return voyages
        if ph == "action":
            # a new list (take_actions' own), extended in place: takes, free actions, pass
            takes = action_phase.take_actions(self, seat)
            forced = bool(takes) and self.options["passing"] == "forced"
            if self.explorer:  # Kellett's bound take after a look (D); free looks, charts
                bound = legends_explorers.filter_committed(self, seat, takes)
                if bound is not None:
                    return bound
                takes += legends_explorers.free_actions(self, seat)
            if not forced:
                takes.append(_PASS)
            return takes
        raise AssertionError(f"no decision in phase {ph!r}")  # pragma: no cover

    def apply(self, action: Action | dict[str, Any]) -> list[Event]:
        """Carry out ``action`` for the current player and return what happened.

        Raises :class:`IllegalAction` if it is not one of ``legal_actions()``;
        the state is then exactly as before.
        """
        if isinstance(action, dict):
            try:
                action = Action.from_json(action)
            except ValueError as exc:
                raise IllegalAction(str(exc)) from exc
        if not isinstance(action, Action):
            raise IllegalAction(f"not an action: {action!r}")
        if self.over:
            raise IllegalAction("the game is over")
        legal = self._legal_list()
        if action not in legal:
            raise IllegalAction(self._why_illegal(action, legal))
        seat = self.current_player
        assert seat is not None
        self._legal = None
        ev: list[Event] = []
        if self.decisions:
            self._resolve(self.decisions.pop(0), action, ev)
        else:
            self._act(seat, action, ev)
        self._run(ev)
        return ev

    def _why_illegal(self, a: Action, legal: list[Action]) -> str:
        want = self.expecting()
        if not any(x.kind == a.kind for x in legal):
            return f"{a} is not possible now: you must {want}"
        if a.kind == "take":
            return action_phase.why_not(self, a)
        return f"{a} is not allowed here; you must {want}"

    def _resolve(self, d: list[Any], a: Action, ev: list[Event]) -> None:
        kind, seat = d[0], int(d[1])
        if kind == "discard":
            assert a.resource is not None
            self._gain(seat, a.resource, -1, str(d[2]), ev)
        elif kind == "infirmary":
            assert a.crew is not None
            self._to_infirmary(seat, a.crew, ev)
        elif kind == "eat":
            assert a.card is not None
            self._eat(seat, a.card, ev)
            self._shortage(seat, int(d[2]), str(d[3]), ev, front=True)
        elif kind == "compass":
            if a.to is not None:
                old = self.fleet
                if old in self.dyn_anchors and self.dyn_anchors[-1] == old:
                    self.dyn_anchors.pop()
                if a.to not in self.dyn_anchors:
                    self.dyn_anchors.append(a.to)
                self.fleet = a.to
                self.dest = a.to
                ev.append(FleetMoved(a.to, seat))
        elif kind == "mast":
            assert a.card is not None
            num = int(a.card)
            other = int(d[3]) if a.card == d[2] else int(d[2])
            deck = self.ev_open if self.voyage == "open" else self.ev_coastal
            if other in deck:
                deck.remove(other)
                deck.append(other)
            self.event_pending = num
        elif kind == "boiler":
            self.pv[F * seat + BOILER] = int(bool(a.use))
        elif kind in legends.DECISIONS:  # the explorer choice, McClure's trade
            legends.resolve(self, d, a, ev)
        elif kind == "despot":
            legends_explorers.resolve_despot(self, seat, str(d[2]), bool(a.use), ev)

    def _act(self, seat: int, a: Action, ev: list[Event]) -> None:
        k = a.kind
        if k == "take":  # first: most decisions are takes
            action_phase.apply_take(self, seat, a, ev)
            if not self.over:
                self.pv[F * seat + TURNS] += 1
                self._advance_turn(ev)
        elif k == "choose_investor":
            self.investor[seat] = a.card
            ev.append(InvestorChosen(seat))
            self.setup_stage = 1
            self.phase = "flow"
        elif k == "choose_cartography":
            self.carto[seat] = a.card
            ev.append(CartographyChosen(seat))
            self.setup_stage = 0
            self.setup_seat += 1
            self.phase = "flow"
            if self.setup_seat >= self.n:
                self._begin(ev)
        elif k == "section":
            assert a.side is not None
            idx = self.next_section()
            self.placed.append([idx, a.side])
            ev.append(SectionPlaced(self.content.sections[idx].id, a.side))
            self.phase = "flow"
            self.step = "mnp_start" if self.dest is None and self.round == 0 else "ice"
        elif k == "destination":
            assert a.to is not None
            if self.phase == "start":
                self.fleet = a.to
                ev.append(FleetMoved(a.to))
                self.phase = "flow"
                self.step = "round"
                ev.append(LeaderChanged(self.leader, "solo expedition"))
            elif not (self.explorer and legends_explorers.offer_despot(self, a.to)):
                dyn = dict(self.destinations())[a.to]
                self._choose_destination(a.to, dyn, ev)
        elif k == "track":
            assert a.space is not None
            legends_explorers.look(self, seat, a.space, ev)
        elif k == "chart":
            assert a.to is not None
            legends_explorers.chart(self, seat, a.to, ev)
        elif k == "voyage":
            assert a.voyage is not None
            self._voyage_chosen(a.voyage, ev)
        elif k == "pass":
            self.pv[F * seat + PASSED] = 1
            ev.append(Passed(seat))
            self._advance_turn(ev)
