"""What happens to a Northwest Passage state besides an action's own change.

Scoring a delta, refilling the display, putting a tile down with its holes and
islands (rules §7.C), passing, handing the turn on, ending a round with the sun
and the ice (§4, §6) and final scoring (§8): the changes that several actions
share, or that follow from them, in one layer below the per-action handlers
(:mod:`~erebus.games.northwest.handlers`).
"""

from __future__ import annotations

from erebus.core.errors import IllegalAction
from erebus.core.events import Event
from erebus.core.rng import Rng
from erebus.games.northwest import scoring
from erebus.games.northwest.actions import Action
from erebus.games.northwest.content import (
    TOKEN_KINDS,
)
from erebus.games.northwest.events import (
    GameOver,
    HoleFilled,
    IslandCompleted,
    Passed,
    RoundEnded,
    RoundStarted,
    ScoreChanged,
    SledLost,
    SunMoved,
    TileDrafted,
    TilePlaced,
    TokenPlaced,
)
from erebus.games.northwest.geometry import iter_bits, pattern_class
from erebus.games.northwest.layout import (
    CARTOGRAPHY,
    CREW_FIELDS,
    CREW_LOST,
    JOKER,
    LOST,
    N_KINDS,
    SHIP_AV,
    SHIP_REST,
    SLED,
    SLED_AV,
    SLED_REST,
)
from erebus.games.northwest.position import Position


class Effects(Position):
    """The shared state changes: score, display, tiles, holes, islands, turns, rounds."""

    __slots__ = ()

    def _score(self, seat: int, delta: int, reason: str, events: list[Event]) -> None:
        if delta:
            self.score[seat] += delta
            events.append(ScoreChanged(seat, delta, reason))

    def _refill_slot(self, i: int) -> None:
        if self.bag:
            rng = Rng.from_state(self.rng)
            self.disp[i] = self.bag.pop(rng.below(len(self.bag)))
            self.rng = rng.state
        else:
            del self.disp[i]

    def _apply_draft(self, seat: int, a: Action, events: list[Event]) -> None:
        i = a.slot
        if not isinstance(i, int) or not 0 <= i < len(self.disp):
            raise IllegalAction(f"there is no display tile #{i}; the display has {len(self.disp)}")
        t = self.disp[i]
        self.reserves[seat].append(t)
        self._refill_slot(i)
        events.append(TileDrafted(seat, self._geo.all_ids[t]))
        self.draft_left.pop(0)
        if self.draft_left:
            self.current = self.draft_left[0]
            return
        self.round = 1
        events.append(RoundStarted(1, tuple(self.order)))
        self.current = self.order[0]
        self.acted = 0

    def _put_tile(self, t: int, orient: int, anchor: int, squares: int) -> None:
        self.occ |= squares
        for s in iter_bits(squares):
            self.sq_tile[s] = t
        self.tile_anchor[t] = anchor
        self.tile_orient[t] = orient

    def _place(
        self, seat: int, t: int, oi: int, anchor: int, a: Action, events: list[Event]
    ) -> None:
        geo = self._geo
        o = geo.orientations[oi]
        self.reserves[seat].remove(t)
        squares = o.square_mask << anchor
        self.land |= o.land << anchor
        self.sea |= o.sea << anchor
        self._put_tile(t, oi, anchor, squares)
        x, y = geo.xy(anchor)
        events.append(TilePlaced(seat, geo.all_ids[t], x, y, o.rotation, o.side))
        if o.symbol and self.supply[o.symbol - 1] > 0:
            s = o.symbol_at + anchor
            self.supply[o.symbol - 1] -= 1
            self.board_tokens[s] = o.symbol
            sx, sy = geo.xy(s)
            events.append(TokenPlaced(TOKEN_KINDS[o.symbol - 1], sx, sy))
        covered = squares | self._fill_holes(events)
        self._score_islands(seat, covered, events)

    def _fill_holes(self, events: list[Event]) -> int:
        """Fill every hole from the small piles, Jokers when a class is out (§7.C)."""
        geo = self._geo
        filled = 0
        stuck = 0
        while True:
            holes = geo.holes(self.occ) & ~stuck
            if not holes:
                return filled
            s = (holes & -holes).bit_length() - 1
            pattern = geo.pattern_at(self.land, s)
            c = pattern_class(pattern)
            joker = False
            if self.pile_counts[c]:
                pile = c
            elif any(self.pile_counts):
                # [design] a Joker comes from the largest pile (lowest class on ties).
                pile = max(range(6), key=lambda p: (self.pile_counts[p], -p))
                joker = True
            else:
                stuck |= 1 << s
                continue
            self.pile_counts[pile] -= 1
            t = geo.pile_tiles[pile][self.pile_counts[pile]]
            if joker:
                orient, rot = JOKER, 0
            else:
                rot = geo.small_rotation[(t, pattern)]
                orient = geo.orients_of[t][rot]
            self._put_tile(t, orient, s, 1 << s)
            filled |= 1 << s
            x, y = geo.xy(s)
            events.append(HoleFilled(geo.all_ids[t], x, y, rot, joker))

    def _score_islands(self, seat: int, covered: int, events: list[Event]) -> None:
        """Score islands completed by this placement (§7.C): they touch a new square."""
        geo = self._geo
        land = self.land
        cand = geo.corners(covered) & land & ~geo.border_vertices
        if not cand:
            return
        touch_empty = geo.corners(geo.squares_mask & ~self.occ)
        rules = geo.content.rules
        seen = 0
        for v in iter_bits(cand):
            if seen >> v & 1:
                continue
            region = geo.land_region(land, v)
            seen |= region
            if region & geo.border_vertices or region & touch_empty:
                continue
            tiles = {self.sq_tile[s] for s in iter_bits(geo.squares_touching(region))}
            size = len(tiles)
            if size < 2:
                continue
            got = self.supply[CARTOGRAPHY] > 0
            if got:
                self.supply[CARTOGRAPHY] -= 1
                self.ptok[N_KINDS * seat + CARTOGRAPHY] += 1
            events.append(IslandCompleted(seat, size, got))
            self._score(seat, rules.island_value(size), f"island of {size} tiles", events)

    def _pass(self, seat: int, automatic: bool, events: list[Event]) -> None:
        b = CREW_FIELDS * seat
        c = self.crews
        c[b + SHIP_REST] += c[b + SHIP_AV]
        c[b + SLED_REST] += c[b + SLED_AV]
        c[b + SHIP_AV] = c[b + SLED_AV] = 0
        self.passed[seat] = True
        self.pass_order.append(seat)
        self.pending = -1
        events.append(Passed(seat, automatic))

    def _advance(self, events: list[Event]) -> None:
        """Hand the turn to the next player who has not passed (§6)."""
        seat = self.current
        while True:
            order = self.order
            nxt = None
            start = order.index(seat) if seat in order else -1
            for k in range(1, len(order) + 1):
                cand = order[(start + k) % len(order)]
                if not self.passed[cand]:
                    nxt = cand
                    break
            if nxt is None:
                if not self._end_round(events):
                    return
                nxt = self.order[0]
            self.current = nxt
            self.acted = 0
            self.pending = -1
            if self.available(nxt) > 0:
                return
            self._pass(nxt, True, events)
            seat = nxt

    def _end_round(self, events: list[Event]) -> bool:
        """End of round (§6): sun, thaw, rest; or the end of the game.  True if play goes on."""
        geo = self._geo
        events.append(RoundEnded(self.round))
        if self.round >= geo.rounds or all(self.ret_order):
            self._final_scoring(events)
            return False
        self.sun = self.sun % geo.sun_positions + 1
        events.append(SunMoved(self.sun, geo.frozen_rows[self.sun]))
        frozen = self._frozen()
        for seat in range(self.n):
            sled = self.loc[2 * seat + SLED]
            if sled >= 0:
                sq = self._tile_squares(sled)
                if not (geo.corners(sq) & self.land) and not (sq & frozen):
                    b = CREW_FIELDS * seat
                    lost = self.crews[b + SLED_AV] + self.crews[b + SLED_REST]
                    self.crews[b + CREW_LOST] += lost
                    self.crews[b + SLED_AV] = self.crews[b + SLED_REST] = 0
                    self.loc[2 * seat + SLED] = LOST
                    events.append(SledLost(seat, lost))
        for seat in range(self.n):
            b = CREW_FIELDS * seat
            c = self.crews
            c[b + SHIP_AV] += c[b + SHIP_REST]
            c[b + SLED_AV] += c[b + SLED_REST]
            c[b + SHIP_REST] = c[b + SLED_REST] = 0
        self.order = [s for s in self.pass_order if not self.ret_order[s]]
        self.passed = [False] * self.n
        self.pass_order = []
        self.round += 1
        events.append(RoundStarted(self.round, tuple(self.order)))
        return True

    def _final_scoring(self, events: list[Event]) -> None:
        awards = scoring.final_scores(self.ptok, self.crews, self.loc, self.n, self.content.rules)
        for seat, delta, reason in awards:
            self._score(seat, delta, reason, events)
        self.over = True
        self.current = None
        events.append(GameOver(tuple(self.score), tuple(self.ranking())))
