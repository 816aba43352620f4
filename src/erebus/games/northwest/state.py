"""The game state of Expedition: Northwest Passage and its rules.

A :class:`State` is a compact bag of integers and flat lists so that
``clone()`` is a few list copies and search can afford millions of them.  The
board is three bitboards (fixed land vertices, fixed sea vertices, occupied
squares; see :mod:`erebus.games.northwest.geometry`) plus a square → tile map.

The class is assembled from layers, each in a module named for what it holds:

* :mod:`~erebus.games.northwest.layout`: the codes and offsets of the flat lists;
* :mod:`~erebus.games.northwest.position`: the fields and the read-only queries;
* :mod:`~erebus.games.northwest.legal`: ``legal_actions()``;
* :mod:`~erebus.games.northwest.effects`: the state changes actions share
  (tiles, holes, islands, turns, rounds, final scoring);
* :mod:`~erebus.games.northwest.handlers`: ``apply()`` and one handler per action type;
* this module: setup (rules §5), copying, saving and restoring, what a seat may
  see, and the determinization of search bots.

Every public name stays importable from here.  Section numbers in comments and
error messages refer to ``shared/rules/northwest-passage.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from erebus.core.rng import Rng
from erebus.games.northwest.actions import Action
from erebus.games.northwest.content import (
    ALL_TOKEN_KINDS,
    Content,
    default_content,
    per_content,
)
from erebus.games.northwest.geometry import Geometry
from erebus.games.northwest.handlers import ActionHandlers
from erebus.games.northwest.layout import (
    ARROW_CODE,
    ARROW_NAME,
    CARTOGRAPHY,
    CREW_FIELDS,
    CREW_LOST,
    GREENLAND,
    JOKER,
    LOST,
    N_KINDS,
    NORTHWEST,
    PLAYER_BOARD,
    SHIP,
    SHIP_AV,
    SHIP_REST,
    SLED,
    SLED_AV,
    SLED_REST,
)
from erebus.games.northwest.legal import LegalActions
from erebus.games.northwest.position import ROUTE_CACHE_LIMIT, BoardView

__all__ = [
    "ARROW_CODE",
    "ARROW_NAME",
    "CARTOGRAPHY",
    "CREW_FIELDS",
    "CREW_LOST",
    "FORMAT",
    "GREENLAND",
    "JOKER",
    "LOST",
    "NORTHWEST",
    "N_KINDS",
    "PLAYER_BOARD",
    "ROUTE_CACHE_LIMIT",
    "SHIP",
    "SHIP_AV",
    "SHIP_REST",
    "SLED",
    "SLED_AV",
    "SLED_REST",
    "BoardView",
    "State",
    "geometry_for",
    "new_game",
    "replay",
]

FORMAT = 1  # version of to_json()

_GEOMETRY: dict[int, tuple[Content, Geometry]] = {}

# (JSON key, attribute) of the flat integer lists of the saved state.
_JSON_INT_LISTS = (
    ("supply", "supply"),
    ("nw_left", "nw_left"),
    ("gl_left", "gl_left"),
    ("display", "disp"),
    ("piles", "pile_counts"),
    ("crew", "crews"),
    ("loc", "loc"),
    ("ptok", "ptok"),
    ("returned", "ret_order"),
    ("score", "score"),
    ("order", "order"),
    ("pass_order", "pass_order"),
    ("draft_left", "draft_left"),
    ("bag", "bag"),
)


def geometry_for(content: Content) -> Geometry:
    """The precomputed geometry of ``content``, built once per content object."""
    return per_content(_GEOMETRY, content, Geometry)


class State(ActionHandlers, LegalActions):
    """A position in a game of Expedition: Northwest Passage.

    Build one with :func:`erebus.games.northwest.new_game`.  The public API is
    the one of ``shared/design/engine-api.md``; attributes without a leading
    underscore that are not documented there are internal but stable enough
    for renderers.
    """

    __slots__ = ()

    game = "northwest"
    """Name of the game module, for game-agnostic consumers (``erebus.games.get_game``)."""

    # ------------------------------------------------------------------ setup

    @classmethod
    def new(cls, players: int, seed: int, content: Content | None = None) -> State:
        """Set up a game (rules §5) and stop at the first draft choice."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError("players must be an integer")
        content = content or default_content()
        if players not in content.rules.arrow_tokens:
            raise ValueError(
                f"Northwest Passage is for {min(content.rules.arrow_tokens)}–"
                f"{max(content.rules.arrow_tokens)} players, not {players}"
            )
        geo = geometry_for(content)
        rules = content.rules
        st = cls.__new__(cls)
        st._geo = geo
        st.n = players
        st.seed = seed
        rng = Rng(seed)
        st.round = 0
        st.sun = geo.sun_start
        st.land = geo.initial_land
        st.sea = geo.initial_sea
        st.occ = 0
        n_all = len(geo.all_ids)
        st.sq_tile = [-1] * geo.size
        st.tile_anchor = [-1] * n_all
        st.tile_orient = [-1] * geo.n_tiles
        st.board_tokens = [0] * geo.size
        st.supply = [rules.token_supply[k] for k in ALL_TOKEN_KINDS]
        for p, s in enumerate(geo.printed_square):
            t = geo.n_tiles + p
            st.occ |= 1 << s
            st.sq_tile[s] = t
            st.tile_anchor[t] = s
            kind = geo.printed_symbol[p]
            if kind and st.supply[kind - 1] > 0:
                st.board_tokens[s] = kind
                st.supply[kind - 1] -= 1
        arrows = rules.arrow_tokens[players]
        st.nw_left = sorted(arrows["northwest"], reverse=True)
        st.gl_left = sorted(arrows["greenland"], reverse=True)
        st.bag = sorted(geo.large)
        st.disp = []
        for _ in range(rules.display_size):
            if st.bag:
                st.disp.append(st.bag.pop(rng.below(len(st.bag))))
        st.pile_counts = [len(p) for p in geo.pile_tiles]
        st.reserves = [[] for _ in range(players)]
        st.crews = []
        for _ in range(players):
            st.crews += [rules.crew, 0, 0, 0, 0]
        st.loc = [GREENLAND, PLAYER_BOARD] * players
        st.ptok = [0] * (N_KINDS * players)
        st.nw_reached = [False] * players
        st.nw_value = [None] * players
        st.gl_value = [None] * players
        st.ret_order = [0] * players
        st.score = [0] * players
        st.order = list(range(players))
        rng.shuffle(st.order)
        st.passed = [False] * players
        st.pass_order = []
        st.draft_left = st.order[::-1]
        st.current = st.draft_left[0]
        st.acted = 0
        st.pending = -1
        st.over = False
        st.rng = rng.state
        return st

    def clone(self) -> State:
        """An independent copy; costs a few list copies."""
        c = State.__new__(State)
        c._geo = self._geo
        c.acted = self.acted
        c.bag = self.bag[:]
        c.board_tokens = self.board_tokens[:]
        c.crews = self.crews[:]
        c.current = self.current
        c.disp = self.disp[:]
        c.draft_left = self.draft_left[:]
        c.gl_left = self.gl_left[:]
        c.gl_value = self.gl_value[:]
        c.land = self.land
        c.loc = self.loc[:]
        c.n = self.n
        c.nw_left = self.nw_left[:]
        c.nw_reached = self.nw_reached[:]
        c.nw_value = self.nw_value[:]
        c.occ = self.occ
        c.order = self.order[:]
        c.pass_order = self.pass_order[:]
        c.passed = self.passed[:]
        c.pending = self.pending
        c.pile_counts = self.pile_counts[:]
        c.ptok = self.ptok[:]
        c.reserves = [r[:] for r in self.reserves]
        c.ret_order = self.ret_order[:]
        c.rng = self.rng
        c.round = self.round
        c.score = self.score[:]
        c.sea = self.sea
        c.seed = self.seed
        c.sq_tile = self.sq_tile[:]
        c.sun = self.sun
        c.supply = self.supply[:]
        c.tile_anchor = self.tile_anchor[:]
        c.tile_orient = self.tile_orient[:]
        c.over = self.over
        return c

    __copy__ = clone

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self.clone()

    # ------------------------------------------------------------ JSON / view

    def to_json(self) -> dict[str, Any]:
        """Every field, as JSON types; :meth:`from_json` restores it exactly."""
        return {
            "format": FORMAT,
            "game": "northwest",
            "players": self.n,
            "seed": self.seed,
            "rng": self.rng,
            **self._public_json(),
            "bag": self.bag[:],
        }

    def _public_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "sun": self.sun,
            "current": self.current,
            "acted": self.acted,
            "pending": self.pending,
            "over": self.over,
            "land": self.land,
            "sea": self.sea,
            "tiles": [
                [t, self.tile_anchor[t], self.tile_orient[t] if t < self._geo.n_tiles else -1]
                for t in range(len(self.tile_anchor))
                if self.tile_anchor[t] >= 0
            ],
            "board_tokens": {str(s): k for s, k in enumerate(self.board_tokens) if k},
            "supply": self.supply[:],
            "nw_left": self.nw_left[:],
            "gl_left": self.gl_left[:],
            "display": self.disp[:],
            "piles": self.pile_counts[:],
            "reserve": [r[:] for r in self.reserves],
            "crew": self.crews[:],
            "loc": self.loc[:],
            "ptok": self.ptok[:],
            "nw_reached": self.nw_reached[:],
            "nw_value": self.nw_value[:],
            "gl_value": self.gl_value[:],
            "returned": self.ret_order[:],
            "score": self.score[:],
            "order": self.order[:],
            "passed": self.passed[:],
            "pass_order": self.pass_order[:],
            "draft_left": self.draft_left[:],
        }

    @classmethod
    def from_json(cls, d: Any, content: Content | None = None) -> State:
        """Restore a state saved by :meth:`to_json`; ``ValueError`` if it is corrupt."""
        if not isinstance(d, dict) or d.get("game") != "northwest" or d.get("format") != FORMAT:
            raise ValueError("not a saved Northwest Passage state (format 1)")
        try:
            st = cls.new(int(d["players"]), int(d["seed"]), content)
            geo = st._geo
            st.rng = int(d["rng"])
            st.round = int(d["round"])
            st.sun = int(d["sun"])
            st.current = None if d["current"] is None else int(d["current"])
            st.acted = int(d["acted"])
            st.pending = int(d["pending"])
            st.over = bool(d["over"])
            st.land = int(d["land"])
            st.sea = int(d["sea"])
            st.occ = 0
            st.sq_tile = [-1] * geo.size
            st.tile_anchor = [-1] * len(geo.all_ids)
            st.tile_orient = [-1] * geo.n_tiles
            for t, anchor, orient in d["tiles"]:
                t, anchor, orient = int(t), int(anchor), int(orient)
                if t >= geo.n_tiles:
                    sq = 1 << anchor
                    st.occ |= sq
                    st.sq_tile[anchor] = t
                    st.tile_anchor[t] = anchor
                else:
                    sq = (
                        1 << anchor
                        if orient == JOKER
                        else geo.orientations[orient].square_mask << anchor
                    )
                    st._put_tile(t, orient, anchor, sq)
            st.board_tokens = [0] * geo.size
            for s, k in d["board_tokens"].items():
                st.board_tokens[int(s)] = int(k)
            for key, name in _JSON_INT_LISTS:
                setattr(st, name, [int(x) for x in d[key]])
            st.reserves = [[int(x) for x in r] for r in d["reserve"]]
            st.nw_reached = [bool(x) for x in d["nw_reached"]]
            st.passed = [bool(x) for x in d["passed"]]
            st.nw_value = [None if x is None else int(x) for x in d["nw_value"]]
            st.gl_value = [None if x is None else int(x) for x in d["gl_value"]]
            problem = st._consistency_problem()
        except (KeyError, TypeError, IndexError, AttributeError, ValueError, OverflowError) as exc:
            raise ValueError(f"corrupt saved state: {exc!r}") from exc
        if problem:
            raise ValueError(f"corrupt saved state: {problem}")
        return st

    def _consistency_problem(self) -> str | None:
        """Why this state cannot come from play, or None (checks a loaded save)."""
        geo = self._geo
        n = self.n
        if len(self.crews) != CREW_FIELDS * n or len(self.loc) != 2 * n or len(self.reserves) != n:
            return "per-player arrays do not match the player count"
        crew = geo.content.rules.crew
        for seat in range(n):
            block = self.crews[CREW_FIELDS * seat : CREW_FIELDS * seat + CREW_FIELDS]
            if min(block) < 0 or sum(block) != crew:
                return f"seat {seat} does not have {crew} crewmen"
        n_all = len(geo.all_ids)
        for loc in self.loc:
            if not (-4 <= loc < n_all) or (loc >= 0 and self.tile_anchor[loc] < 0):
                return "a vehicle is on a tile that is not on the board"
        places = self.bag + self.disp + [t for r in self.reserves for t in r]
        places += [t for t in range(geo.n_tiles) if self.tile_anchor[t] >= 0]
        places += [t for c in range(6) for t in geo.pile_tiles[c][: self.pile_counts[c]]]
        if sorted(places) != list(range(geo.n_tiles)):
            return "tiles are missing or in two places at once"
        if self.land & self.sea:
            return "a vertex is both land and sea"
        if not self.over and (self.current is None or not 0 <= self.current < n):
            return "no current player"
        return None

    @classmethod
    def from_view(cls, view: Any, seed: int, content: Content | None = None) -> State:
        """A state consistent with what a seat sees: a *determinization*.

        The hidden information of Northwest Passage is the bag's order (which
        tile the next draw brings); its contents follow from the public tiles.
        The returned state has exactly the public part of ``view`` and a bag
        whose draws come from a fresh generator seeded with ``seed``, so search
        bots can sample worlds without ever seeing the real state.
        """
        if not isinstance(view, dict) or view.get("game") != "northwest":
            raise ValueError("not a Northwest Passage view")
        d = dict(view)
        geo = geometry_for(content or default_content())
        public = set(view["display"]) | {t for r in view["reserve"] for t in r}
        public |= {int(t) for t, _, _ in view["tiles"]}
        d.update(format=FORMAT, seed=seed, rng=Rng(seed).state)
        d["bag"] = [t for t in geo.large if t not in public]
        return cls.from_json(d, content)

    def resample_hidden(self, seed: int) -> None:
        """Draw the hidden information anew (search bots' determinization).

        In Northwest Passage only the bag's order is hidden, and it lives in
        the generator: reseeding it gives another world equally consistent
        with every seat's view.  Cheaper than :meth:`from_view` per sample.
        """
        self.rng = Rng(seed).state

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator): everything but the seed,
        the generator state and the bag's order (only its size is public)."""
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.n):
            raise ValueError(f"no seat {seat!r} in a {self.n}-player game")
        out = {"game": "northwest", "players": self.n, "seat": seat, **self._public_json()}
        out["bag_size"] = len(self.bag)
        return out

    # ---------------------------------------------------------------- dunder

    def _key(self) -> tuple[Any, ...]:
        return tuple(self.to_json().values())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<northwest.State players={self.n} round={self.round} sun={self.sun} "
            f"current={self.current} scores={self.score}>"
        )


def new_game(players: int, seed: int | None = None, content: Content | None = None) -> State:
    """A new game; ``seed`` fixes every random draw (``None``: a fresh random seed)."""
    if seed is None:
        import secrets

        seed = secrets.randbits(63)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError("seed must be an integer")
    return State.new(players, seed, content)


def replay(players: int, seed: int, actions: Sequence[Action | dict[str, Any]]) -> State:
    """The state after ``actions`` from a new game: same inputs, same state."""
    st = new_game(players, seed)
    for a in actions:
        st.apply(a)
    return st
