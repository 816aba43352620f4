"""Rich renderables for Expedition: Northwest Passage: the board, the panels, the scores.

Everything here is a pure function of a :class:`~erebus.games.northwest.state.State`
(and, for the score breakdown, of the events the caller collected): no input, no
printing, so the same pictures serve the interactive ``erebus play``, replays,
logs and tests.

Why the board is drawn the way it is:

* Terrain lives on grid vertices (rules §2), so a square is drawn from its four
  corners the way marching squares does it: every half-block "pixel" inside the
  square takes the bilinear blend of the corners and is land above one half.  A
  saddle's centre is exactly one half and comes out as sea, which is the rule's
  channel.  Coastlines therefore run continuously across tiles, and a player can
  *see* which edges a ship (sea) or a sled (land) may cross.
* Squares are separated by one character of grid line.  Between two squares of
  the same tile the line is drawn as terrain, between different tiles as a box
  line, so a two-square tile reads as one location (vehicles stand on tiles, not
  on squares).  A grid junction sits exactly on a vertex and shows that vertex's
  fixed terrain even next to unexplored squares: what a new tile must match.
* A margin around the board continues the printed border: the Arctic Ocean to the
  north, the mainland to the south, Greenland (with its sea gate) to the east.
* Colours are truecolor hex; Rich downgrades them for 256- or 16-colour terminals.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich.columns import Columns
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.panel import Panel
from rich.style import Style
from rich.table import Table
from rich.text import Text

from erebus.core.events import Event
from erebus.games.northwest.state import State
from erebus.terminal.seats import (
    default_names,
    player_colour,
    player_style,
    points_by_category,
    score_table,
)

# ----------------------------------------------------------------- palette

_PLAYER_INK = ("#ffffff", "#ffffff", "#000000", "#000000")

SEA = "#2f6fab"
LAND = "#a48b58"
ICE = "#bfe4f4"  # frozen sea
SNOW = "#f7fafc"  # frozen land
# Unexplored squares: a little lighter where a token scores more (×3 west, ×1 east).
_EMPTY = {3: "#3e3b36", 2: "#33322f", 1: "#292927"}
_EMPTY_FROZEN = {3: "#3d4d5e", 2: "#334150", 1: "#2a3542"}

SHIP_GLYPH = "▲"
SLED_GLYPH = "◆"

TOKEN_LETTERS = {"inuit": "I", "cairn": "C", "franklin": "F", "strait": "S"}
_TOKEN_STYLE = {
    "inuit": ("#ffffff", "#b0307a"),
    "cairn": ("#000000", "#d2d2d2"),
    "franklin": ("#ffd24a", "#1b1b1b"),
    "strait": ("#000000", "#69f0d2"),
}
_TOKEN_NAMES = {"inuit": "Inuit", "cairn": "Cairn", "franklin": "Franklin", "strait": "Strait"}

ROMAN = ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")

_BOX = {
    (1, 1, 1, 1): "┼",
    (1, 1, 0, 0): "│",
    (0, 0, 1, 1): "─",
    (0, 1, 0, 1): "┌",
    (0, 1, 1, 0): "┐",
    (1, 0, 0, 1): "└",
    (1, 0, 1, 0): "┘",
    (1, 1, 0, 1): "├",
    (1, 1, 1, 0): "┤",
    (0, 1, 1, 1): "┬",
    (1, 0, 1, 1): "┴",
    (1, 0, 0, 0): "╵",
    (0, 1, 0, 0): "╷",
    (0, 0, 1, 0): "╴",
    (0, 0, 0, 1): "╶",
}

# Edge kinds between two squares, weakest first.
_NONE, _GRID, _TILE = 0, 1, 2


def _names(state: State, names: Sequence[str] | None) -> list[str]:
    return list(names) if names else default_names(state.players)


# ----------------------------------------------------------------- colour helpers


def _shade(colour: str, factor: float) -> str:
    """``colour`` darkened (factor < 1) or lightened towards white (factor > 1)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    if factor <= 1:
        r, g, b = (int(c * factor) for c in (r, g, b))
    else:
        t = min(factor - 1, 1.0)
        r, g, b = (int(c + (255 - c) * t) for c in (r, g, b))
    return f"#{r:02x}{g:02x}{b:02x}"


def _terrain_colour(land: bool, frozen: bool) -> str:
    if frozen:
        return SNOW if land else ICE
    return LAND if land else SEA


def _bilinear_land(nw: int, ne: int, se: int, sw: int, u: float, v: float) -> bool:
    """Marching-squares land test inside a square (corners 1 = land, 0 = sea).

    Strictly above one half: a saddle's centre (exactly one half) is sea, the
    channel of rules §2.
    """
    f = nw * (1 - u) * (1 - v) + ne * u * (1 - v) + se * u * v + sw * (1 - u) * v
    return f > 0.5 + 1e-9


# ----------------------------------------------------------------- canvas

# Without colour (NO_COLOR, output piped to a file, a dumb terminal) terrain falls
# back to glyphs: land solid, sea wavy, ice and snow shaded, unexplored blank.
_PLAIN = {SEA: "~", LAND: "█", ICE: "░", SNOW: "▓"}


@dataclass(slots=True)
class _Cell:
    """One character cell: a glyph with its colours, and its glyph without colour."""

    ch: str = " "
    fg: str | None = None
    bg: str | None = None
    bold: bool = False
    plain: str | None = None


def _plain_pair(top: str, bottom: str) -> str:
    """The glyph of a two-pixel cell without colour; land wins as a half block."""
    a, b = _PLAIN.get(top, " "), _PLAIN.get(bottom, " ")
    if a == b:
        return a
    if a == "█":
        return "▀"
    if b == "█":
        return "▄"
    return a if a != " " else b


def _pixel_cell(top: str, bottom: str) -> _Cell:
    """Two vertically stacked pixels in one cell, drawn with the upper half block."""
    plain = _plain_pair(top, bottom)
    if top == bottom:
        return _Cell(" ", None, top, False, plain)
    return _Cell("▀", top, bottom, False, plain)


def _cells_to_text(cells: Iterable[_Cell], plain: bool = False) -> Text:
    """Join cells into a Text, merging runs that share a style (keeps output small)."""
    text = Text(no_wrap=True, overflow="crop")
    run: list[str] = []
    key: tuple[str | None, str | None, bool] | None = None
    for c in cells:
        k = (c.fg, c.bg, c.bold)
        if k != key and run:
            assert key is not None
            text.append("".join(run), Style(color=key[0], bgcolor=key[1], bold=key[2]))
            run = []
        key = k
        run.append(c.plain if plain and c.plain is not None else c.ch)
    if run and key is not None:
        text.append("".join(run), Style(color=key[0], bgcolor=key[1], bold=key[2]))
    return text


Piece = Text | list[_Cell]


class Picture:
    """Lines of text pieces and terrain cells, drawn in colour or, without colour, in glyphs.

    The colour drawing paints terrain with background colours only, which a
    terminal without colour would show as blank; the choice is made when Rich
    renders, from the console's colour system, so callers need not care.
    """

    def __init__(self, lines: list[list[Piece]]) -> None:
        self.lines = lines

    def to_text(self, plain: bool = False) -> Text:
        """One Text of all lines; ``plain`` draws terrain with glyphs instead of colours."""
        out = Text(no_wrap=True, overflow="crop")
        for i, line in enumerate(self.lines):
            if i:
                out.append("\n")
            for piece in line:
                out.append_text(piece if isinstance(piece, Text) else _cells_to_text(piece, plain))
        return out

    @property
    def width(self) -> int:
        """Cells of the widest line, so Rich can lay pictures out in columns."""
        return max(
            (
                sum(p.cell_len if isinstance(p, Text) else len(p) for p in line)
                for line in self.lines
            ),
            default=0,
        )

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.to_text(plain=console.color_system is None)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(self.width, self.width)


# ----------------------------------------------------------------- board model


class _Board:
    """The board as plain lists, read once through the public queries."""

    def __init__(self, state: State) -> None:
        b = state.board
        self.W = W = b.width
        self.H = H = b.height
        self.vert: list[list[int]] = []  # 1 land, 0 sea, -1 open
        for y in range(H + 1):
            row = []
            for x in range(W + 1):
                v = b.vertex(x, y)
                row.append(1 if v == "land" else 0 if v == "sea" else -1)
            self.vert.append(row)
        self.tile: list[list[str | None]] = [[b.tile_at(x, y) for x in range(W)] for y in range(H)]
        self.zone = [b.zone(x, 0) for x in range(W)]
        self.frozen = [b.frozen(0, y) for y in range(H)]

    def square_colour(self, sx: int, sy: int, u: float, v: float) -> str:
        """Colour at (u, v) in [0, 1]² inside square (sx, sy): terrain, or unexplored shading."""
        if self.tile[sy][sx] is None:
            table = _EMPTY_FROZEN if self.frozen[sy] else _EMPTY
            return table[self.zone[sx]]
        vv = self.vert
        nw, ne = max(vv[sy][sx], 0), max(vv[sy][sx + 1], 0)
        se, sw = max(vv[sy + 1][sx + 1], 0), max(vv[sy + 1][sx], 0)
        return _terrain_colour(_bilinear_land(nw, ne, se, sw, u, v), self.frozen[sy])

    def colour_at(self, X: float, Y: float) -> str:
        """The colour of the board (or of the margin around it) at a continuous point."""
        W, H = self.W, self.H
        if X < 0 or X > W or Y < 0 or Y > H:
            return self._margin(X, Y)
        sx = min(int(X), W - 1)
        sy = min(int(Y), H - 1)
        # On a grid line, take the placed side: the line belongs to both squares.
        if sx == X and sx > 0 and self.tile[sy][sx] is None and self.tile[sy][sx - 1] is not None:
            sx -= 1
        if sy == Y and sy > 0 and self.tile[sy][sx] is None and self.tile[sy - 1][sx] is not None:
            sy -= 1
        return self.square_colour(sx, sy, X - sx, Y - sy)

    def border_colour(self, X: float, Y: float) -> str:
        """The printed border's terrain at a point of the board's outline."""
        return self._margin(X, Y)

    def _margin(self, X: float, Y: float) -> str:
        """Outside the board: the printed border continued outwards (ocean, mainland, Greenland)."""
        W, H = self.W, self.H
        cx = min(max(X, 0.0), float(W))
        cy = min(max(Y, 0.0), float(H))
        if cy in (0.0, float(H)):
            row = self.vert[int(cy)]
            i = min(int(cx), W - 1)
            t = cx - i
            f = max(row[i], 0) * (1 - t) + max(row[i + 1], 0) * t
        else:
            col = int(cx)
            j = min(int(cy), H - 1)
            t = cy - j
            f = max(self.vert[j][col], 0) * (1 - t) + max(self.vert[j + 1][col], 0) * t
        row_index = min(max(int(Y), 0), H - 1)
        frozen = self.frozen[row_index] if Y <= H else False
        return _terrain_colour(f > 0.5 + 1e-9, frozen)

    def vertex_colour(self, x: int, y: int) -> str:
        """A junction's colour: the fixed vertex value, or unexplored shading if open."""
        v = self.vert[y][x]
        frozen = y < self.H and self.frozen[y]
        if v >= 0:
            return _terrain_colour(v == 1, frozen)
        sx = min(x, self.W - 1)
        return (_EMPTY_FROZEN if frozen else _EMPTY)[self.zone[sx]]

    def vedge(self, x: int, y: int) -> int:
        """Kind of the vertical grid edge at column line ``x`` beside row ``y``."""
        if x <= 0 or x >= self.W:
            return _TILE
        a, b = self.tile[y][x - 1], self.tile[y][x]
        if a == b:
            return _GRID if a is None else _NONE
        return _TILE

    def hedge(self, x: int, y: int) -> int:
        """Kind of the horizontal grid edge at row line ``y`` above column ``x``."""
        if y <= 0 or y >= self.H:
            return _TILE
        a, b = self.tile[y - 1][x], self.tile[y][x]
        if a == b:
            return _GRID if a is None else _NONE
        return _TILE


def _line_colour(kind: int, bg: str) -> str:
    """Tile edges are a darker shade of what they cross; the unexplored grid is faint."""
    return _shade(bg, 1.18) if kind == _GRID else _shade(bg, 0.42)


# ----------------------------------------------------------------- the board


@dataclass(frozen=True, slots=True)
class CellSize:
    """Characters per square (without the one-character grid line).

    Keep ``cols + 1 == 2 * (rows + 1)`` so that squares come out square on a
    terminal, whose cells are about twice as tall as wide.
    """

    rows: int = 2
    cols: int = 5


COMPACT = CellSize(2, 5)
LARGE = CellSize(3, 7)


def _badge(text: str, fg: str, bg: str) -> list[_Cell]:
    return [_Cell(ch, fg, bg, True) for ch in text]


def vehicle_badge(seat: int, vehicle: str, wide: bool = True) -> Text:
    """A ship or sled as a coloured badge, e.g. ``▲2`` for seat 2's ship."""
    glyph = SHIP_GLYPH if vehicle == "ship" else SLED_GLYPH
    return _cells_to_text(_vehicle_cells(seat, glyph, wide))


def _vehicle_cells(seat: int, glyph: str, wide: bool) -> list[_Cell]:
    fg, bg = _PLAYER_INK[seat % 4], player_colour(seat)
    return _badge(glyph + (str(seat + 1) if wide else ""), fg, bg)


def token_badge(kind: str) -> Text:
    """A board token's letter in its colours (I, C, F, S)."""
    fg, bg = _TOKEN_STYLE[kind]
    return Text(f" {TOKEN_LETTERS[kind]} ", Style(color=fg, bgcolor=bg, bold=True))


def _tile_squares(bm: _Board, x: int, y: int) -> list[tuple[int, int]]:
    """The squares of the tile whose top-left square is (x, y)."""
    tid = bm.tile[y][x]
    out = [(x, y)]
    for dx, dy in ((1, 0), (0, 1)):
        nx, ny = x + dx, y + dy
        if nx < bm.W and ny < bm.H and tid is not None and bm.tile[ny][nx] == tid:
            out.append((nx, ny))
    return out


def _vehicles(state: State) -> dict[object, list[tuple[int, str]]]:
    """Vehicles by location: (x, y) of a tile's top-left square, or an arrow name."""
    out: dict[object, list[tuple[int, str]]] = {}
    for seat in range(state.players):
        for vehicle in ("ship", "sled"):
            pos = state.position(seat, vehicle)
            if pos is None or pos == "lost":
                continue
            out.setdefault(pos, []).append((seat, vehicle))
    return out


def board(
    state: State,
    names: Sequence[str] | None = None,
    cell: CellSize = COMPACT,
) -> Picture:
    """The board with its margins, coordinates, zone labels and both arrows.

    About 125 columns wide in the compact cell size and 150 in the large one.
    """
    del names  # vehicles are told apart by colour and seat number
    bm = _Board(state)
    W, H = bm.W, bm.H
    ch, cw = cell.rows, cell.cols
    sy_step, sx_step = ch + 1, cw + 1
    mx, my = 2, 1  # margin in characters / rows
    n_cols = W * sx_step + 1 + 2 * mx
    n_rows = H * sy_step + 1 + 2 * my
    grid = [_board_row(bm, r - my, mx, n_cols, sx_step, sy_step) for r in range(n_rows)]

    def put(rb: int, cb: int, cells: list[_Cell]) -> None:
        r, c = rb + my, cb + mx
        for i, cc in enumerate(cells):
            if 0 <= r < n_rows and 0 <= c + i < n_cols:
                grid[r][c + i] = cc

    # Tokens in the middle of their square.
    token_rows: set[tuple[int, int]] = set()
    for y in range(H):
        for x in range(W):
            kind = state.board.token_at(x, y)
            if kind:
                fg, bg = _TOKEN_STYLE[kind]
                rb = y * sy_step + 1 + (ch - 1) // 2
                put(rb, x * sx_step + 1 + (cw - 3) // 2, _badge(f" {TOKEN_LETTERS[kind]} ", fg, bg))
                token_rows.add((x, rb))

    # Vehicles on their tile, in the rows the token leaves free.
    arrows: dict[str, list[tuple[int, str]]] = {}
    for pos, vs in _vehicles(state).items():
        if isinstance(pos, str):
            arrows[pos] = vs
            continue
        assert isinstance(pos, tuple)
        rows: list[tuple[int, int]] = []  # (rb, first column) of each free character row
        for sx, sy in _tile_squares(bm, *pos):
            for k in range(ch):
                rb = sy * sy_step + 1 + k
                if (sx, rb) not in token_rows:
                    rows.append((rb, sx * sx_step + 1))
        # Two-character badges with a gap when they fit, else bare glyphs.
        wide_slots = [(rb, c0 + k) for rb, c0 in rows for k in range(0, cw - 1, 3)]
        wide = len(vs) <= len(wide_slots)
        slots = wide_slots if wide else [(rb, c0 + k) for rb, c0 in rows for k in range(cw)]
        for (seat, vehicle), (rb, cb) in zip(vs, slots, strict=False):
            glyph = SHIP_GLYPH if vehicle == "ship" else SLED_GLYPH
            put(rb, cb, _vehicle_cells(seat, glyph, wide))

    # Gutters: row numbers with ice markers on the left, the two arrows beside
    # their printed squares (Northwest Passage west, Greenland east).
    info_w, label_w = 14, 4
    labels: list[Text] = [Text(" " * label_w) for _ in range(n_rows)]
    left: list[Text] = [Text() for _ in range(n_rows)]
    right: list[Text] = [Text() for _ in range(n_rows)]
    frozen = state.frozen_rows()
    for y in range(H):
        label = Text()
        label.append("❄" if y in frozen else " ", Style(color=ICE, bold=True))
        label.append(f"{y:>2} ", Style(color="#9a9a9a"))
        labels[y * sy_step + 1 + (ch - 1) // 2 + my] = label
    view = state.view(None)
    for name, title, values, side in (
        ("northwest", "NW Passage ◀", view["nw_left"], left),
        ("greenland", "▶ Greenland", view["gl_left"], right),
    ):
        lines: list[Text] = [Text(title, Style(color="#ffffff", bold=True))]
        vals = "·".join(str(v) for v in values) if values else "none left"
        lines.append(Text(f"tokens {vals}", Style(color="#e8d27a")))
        vs = arrows.get(name, [])
        for i in range(0, len(vs), 4):
            t = Text()
            for seat, vehicle in vs[i : i + 4]:
                if t:
                    t.append(" ")
                t.append_text(vehicle_badge(seat, vehicle))
            lines.append(t)
        start = state.content.board.arrows[name][1] * sy_step + my
        for i, line in enumerate(lines):
            if 0 <= start + i < n_rows:
                side[start + i] = line

    info_w = max([info_w, *(t.cell_len for t in left)])
    indent = " " * (info_w + label_w + mx)
    out: list[list[Piece]] = [
        [Text(indent), _zone_header(bm, sx_step)],
        [Text(indent), _column_numbers(W, sx_step, cw)],
    ]
    for r in range(n_rows):
        pad = Text(" " * max(info_w - left[r].cell_len, 0))
        out.append([pad, left[r], labels[r], grid[r], Text(" "), right[r]])
    return Picture(out)


def _board_row(
    bm: _Board, rb: int, mx: int, n_cols: int, sx_step: int, sy_step: int
) -> list[_Cell]:
    """One character row of the board (``rb`` counts from the top grid line)."""
    W, H = bm.W, bm.H
    row: list[_Cell] = []
    y_top = (rb - 0.25) / sy_step
    y_bot = (rb + 0.25) / sy_step
    on_hline = rb % sy_step == 0 and 0 <= rb <= H * sy_step
    inside_y = 0 <= rb <= H * sy_step
    gy = rb // sy_step
    for c in range(n_cols):
        cb = c - mx
        X = cb / sx_step
        on_vline = cb % sx_step == 0 and 0 <= cb <= W * sx_step
        if inside_y and 0 <= cb <= W * sx_step and (on_vline or on_hline):
            gx = cb // sx_step
            if on_vline and on_hline:
                arms = (
                    bm.vedge(gx, gy - 1) if gy > 0 else _NONE,
                    bm.vedge(gx, gy) if gy < H else _NONE,
                    bm.hedge(gx - 1, gy) if gx > 0 else _NONE,
                    bm.hedge(gx, gy) if gx < W else _NONE,
                )
                if any(arms):
                    bg = bm.vertex_colour(gx, gy)
                    glyph = _BOX[
                        (min(arms[0], 1), min(arms[1], 1), min(arms[2], 1), min(arms[3], 1))
                    ]
                    row.append(_Cell(glyph, _line_colour(max(arms), bg), bg))
                    continue
            elif on_vline:
                kind = bm.vedge(gx, min(int(y_bot), H - 1))
                if kind:
                    Y = rb / sy_step
                    bg = bm.border_colour(X, Y) if gx in (0, W) else bm.colour_at(X, Y)
                    row.append(_Cell("│", _line_colour(kind, bg), bg))
                    continue
            else:
                kind = bm.hedge(min(gx, W - 1), gy)
                if kind:
                    bg = bm.border_colour(X, gy) if gy in (0, H) else bm.colour_at(X, gy)
                    row.append(_Cell("─", _line_colour(kind, bg), bg))
                    continue
        row.append(_pixel_cell(bm.colour_at(X, y_top), bm.colour_at(X, y_bot)))
    return row


def _zone_header(bm: _Board, sx_step: int) -> Text:
    """``┌── ×3 ──┬── ×2 ──┬── ×1 ──┐`` over the columns of each scoring zone."""
    W = bm.W
    line = [" "] * (W * sx_step + 1)
    start = 0
    for x in range(1, W + 1):
        if x == W or bm.zone[x] != bm.zone[start]:
            a, e = start * sx_step, x * sx_step
            for i in range(a + 1, e):
                line[i] = "─"
            line[a] = "┬" if a else "┌"
            line[e] = "┬" if e < W * sx_step else "┐"
            label = f" ×{bm.zone[start]} "
            mid = (a + e - len(label)) // 2
            line[mid : mid + len(label)] = list(label)
            start = x
    return Text("".join(line), Style(color="#e8d27a", bold=True))


def _column_numbers(W: int, sx_step: int, cw: int) -> Text:
    cols = [" "] * (W * sx_step + 1)
    for x in range(W):
        label = str(x)
        mid = x * sx_step + 1 + (cw - len(label)) // 2
        cols[mid : mid + len(label)] = list(label)
    return Text("".join(cols), Style(color="#9a9a9a"))


def sun_track(state: State) -> Text:
    """The sun track I..VII with the current position lit and what each brings."""
    positions = state.content.board.sun_positions
    frozen_by = state.content.board.frozen_rows
    t = Text()
    t.append("☼ Sun ", Style(color="#ffd24a", bold=True))
    for p in range(1, positions + 1):
        rows = frozen_by.get(p, 0)
        bg = "#f2c14e" if rows == 0 else _shade(ICE, 1 - 0.09 * rows)
        label = f" {ROMAN[p]} "
        if p == state.sun:
            t.append("▶", Style(color="#ffd24a", bold=True))
            t.append(label, Style(color="#000000", bgcolor="#ffd24a", bold=True, underline=True))
            t.append("◀", Style(color="#ffd24a", bold=True))
        else:
            t.append(" ")
            t.append(label, Style(color="#303030", bgcolor=bg))
            t.append(" ")
    rows = len(state.frozen_rows())
    t.append("  ")
    if rows:
        t.append(f"❄ rows 0–{rows - 1} frozen", Style(color=ICE, bold=True))
    else:
        t.append("no ice", Style(color="#f2c14e", bold=True))
    if not state.is_over and state.round >= 1:
        nxt = state.sun % positions + 1
        nrows = frozen_by.get(nxt, 0)
        after = f"rows 0–{nrows - 1} frozen" if nrows else "no ice"
        t.append(f"   next round: {ROMAN[nxt]} ({after})", Style(color="#9a9a9a"))
    return t


def status_line(state: State, names: Sequence[str] | None = None) -> Text:
    """Round, turn order (passed players struck through) and who is to act."""
    names = _names(state, names)
    view = state.view(None)
    t = Text()
    rounds = state.content.board.rounds
    if state.round == 0:
        t.append("Setup draft", Style(bold=True))
    else:
        t.append(f"Round {state.round}/{rounds}", Style(bold=True))
    if state.is_over:
        t.append(" · game over", Style(bold=True, color="#ffd24a"))
        return t
    order = view["draft_left"] if state.round == 0 else view["order"]
    t.append("   order: ")
    for i, seat in enumerate(order):
        if i:
            t.append(" › ", Style(color="#777777"))
        st = player_style(seat)
        if view["passed"][seat]:
            st = st + Style(strike=True, dim=True)
        t.append(names[seat], st)
    cur = state.current_player
    if cur is not None:
        t.append("   to act: ")
        t.append(f"{names[cur]}", player_style(cur))
    return t


def legend() -> Picture:
    """One line naming every colour and glyph of the board."""
    pieces: list[Piece] = []
    for label, colour in (("sea", SEA), ("land", LAND), ("ice", ICE), ("snow", SNOW)):
        pieces.append([_Cell(" ", None, colour, False, _PLAIN[colour]) for _ in range(2)])
        pieces.append(Text(f" {label}  "))
    pieces.append([_Cell(" ", None, _EMPTY[3]), _Cell(" ", None, _EMPTY[1])])
    pieces.append(Text(" unexplored ×3…×1   "))
    pieces += [vehicle_badge(0, "ship"), Text(" ship  "), vehicle_badge(0, "sled")]
    pieces.append(Text(" sled (colour + seat)   "))
    for kind in ("inuit", "cairn", "franklin", "strait"):
        pieces += [token_badge(kind), Text(f" {_TOKEN_NAMES[kind]} ")]
    return Picture([pieces])


# ----------------------------------------------------------------- tile previews


def _preview_cells(
    rows: Sequence[str], symbol: str | None, symbol_square: int, cols: int = 4
) -> list[list[_Cell]]:
    """A tile side at ``cols`` × 2 characters per square (4×4 pixels), no grid lines."""
    n_sq = len(rows[0]) - 1
    vert = [[1 if c == "l" else 0 for c in r] for r in rows]
    out: list[list[_Cell]] = []
    for r in range(2):
        line: list[_Cell] = []
        for s in range(n_sq):
            corners = (vert[0][s], vert[0][s + 1], vert[1][s + 1], vert[1][s])
            for i in range(cols):
                u = (i + 0.5) / cols
                top, bottom = (
                    _terrain_colour(_bilinear_land(*corners, u, (2 * r + k + 0.5) / 4), False)
                    for k in (0, 1)
                )
                line.append(_pixel_cell(top, bottom))
        out.append(line)
    if symbol:
        fg, bg = _TOKEN_STYLE[symbol]
        out[0][symbol_square * cols + (cols - 1) // 2] = _Cell(TOKEN_LETTERS[symbol], fg, bg, True)
    return out


def _preview_lines(
    state: State, tile_id: str, sides: Sequence[str] | None = None
) -> list[list[Piece]]:
    geo = state.geometry
    tdef = geo.tiles[geo.tile_index[tile_id]]
    chosen = list(sides) if sides else sorted(tdef.sides)
    lines: list[list[Piece]] = [[], []]
    for i, side in enumerate(chosen):
        face = tdef.sides[side]
        cells = _preview_cells(face.terrain, face.symbol, face.symbol_square or 0)
        for r in range(2):
            if i:
                lines[r].append(Text(" "))
            if len(chosen) > 1:
                lines[r].append(Text(side if r == 0 else " ", Style(color="#9a9a9a")))
            lines[r].append(cells[r])
    return lines


def tile_preview(state: State, tile_id: str, sides: Sequence[str] | None = None) -> Picture:
    """A tile's terrain drawn small (two text lines); both sides of a large tile.

    Side ``a`` then ``b``, each unrotated (lying horizontally, as in the data);
    a symbol shows as its token letter on its square.
    """
    return Picture(_preview_lines(state, tile_id, sides))


def _labelled_preview(
    state: State, tile_id: str, label: str | None = None, width: int = 4
) -> Picture:
    lines = _preview_lines(state, tile_id)
    head = Text(f"{label or tile_id:<{width}} ", Style(bold=True))
    return Picture([[head, *lines[0]], [Text(" " * head.cell_len), *lines[1]]])


# ----------------------------------------------------------------- panels


def _crew_dots(available: int, resting: int) -> Text:
    t = Text()
    t.append("●" * available, Style(color="#7ee07e", bold=True))
    t.append("○" * resting, Style(color="#8a8a8a"))
    if not available and not resting:
        t.append("—", Style(color="#666666"))
    return t


def _where(pos: tuple[int, int] | str | None, vehicle: str) -> str:
    if pos is None:
        return "on the player board" if vehicle == "sled" else "—"
    if pos == "lost":
        return "lost in the thaw"
    if pos == "greenland":
        return "in Greenland"
    if pos == "northwest":
        return "at the NW Passage"
    assert isinstance(pos, tuple)
    return f"at {pos[0]},{pos[1]}"


def player_panel(
    state: State,
    seat: int,
    names: Sequence[str] | None = None,
    bots: Sequence[bool] | None = None,
    max_previews: int = 4,
) -> Panel:
    """One seat: score, crew columns, vehicles, tokens, reserve (with previews), status.

    Crew shows as ● available and ○ resting, per column, because that is what
    limits the next action (each action rests crew of the acting vehicle).
    """
    names = _names(state, names)
    view = state.view(None)
    crew = state.crew(seat)
    tokens = state.tokens(seat)
    colour = player_colour(seat)
    g = Table.grid(padding=(0, 1))
    g.add_column(style="#9a9a9a", no_wrap=True, min_width=7)
    g.add_column(overflow="fold")

    g.add_row("score", Text(str(state.scores()[seat]), Style(bold=True, color="#ffd24a")))
    for vehicle in ("ship", "sled"):
        c = crew[vehicle]
        line = Text()
        line.append_text(vehicle_badge(seat, vehicle))
        line.append(" ")
        line.append_text(_crew_dots(c["available"], c["resting"]))
        line.append(f"  {_where(state.position(seat, vehicle), vehicle)}", Style(color="#cfcfcf"))
        g.add_row(vehicle, line)
    if crew["lost"]:
        g.add_row("lost", Text(f"✝ {crew['lost']} crew", Style(color="#e06666")))
    tok = Text()
    for kind in ("inuit", "cairn", "franklin", "strait"):
        fg, bg = _TOKEN_STYLE[kind]
        tok.append(TOKEN_LETTERS[kind], Style(color=fg, bgcolor=bg, bold=True))
        tok.append(f"{tokens[kind]} ")
    tok.append("✎", Style(color="#ffffff", bgcolor="#5a5a9a", bold=True))
    tok.append(f"{tokens['cartography']}")
    g.add_row("tokens", tok)
    nw, gl = tokens["northwest"], tokens["greenland"]
    arrows = Text()
    arrows.append(
        f"NW {nw if nw is not None else '—'}", Style(color="#e8d27a" if nw else "#777777")
    )
    arrows.append("  ")
    arrows.append(
        f"Greenland {gl if gl is not None else '—'}", Style(color="#e8d27a" if gl else "#777777")
    )
    g.add_row("arrows", arrows)
    reserve = state.reserve(seat)
    g.add_row("reserve", Text(" ".join(reserve) if reserve else "—", Style(bold=True)))
    rows: list[RenderableType] = [g]
    if reserve:
        shown = [_labelled_preview(state, tid) for tid in reserve[:max_previews]]
        rows.append(Columns(shown, padding=(1, 2)))
    if len(reserve) > max_previews:
        rows.append(Text(f"… {len(reserve) - max_previews} more", Style(color="#9a9a9a")))

    status = []
    if state.returned(seat):
        status.append("returned to Greenland")
    elif view["passed"][seat] and not state.is_over and state.round >= 1:
        status.append("passed")
    if state.current_player == seat:
        status.append("▶ to act")
    title = Text()
    title.append(f" {names[seat]} ", Style(color=_PLAYER_INK[seat % 4], bgcolor=colour, bold=True))
    if bots is not None and seat < len(bots) and bots[seat]:
        title.append(" bot", Style(color="#9a9a9a"))
    subtitle = Text(" · ".join(status), Style(color="#ffd24a", bold=True)) if status else None
    return Panel(
        Group(*rows),
        title=title,
        title_align="left",
        subtitle=subtitle,
        subtitle_align="right",
        border_style=Style(color=colour, bold=state.current_player == seat),
        padding=(0, 1),
    )


def players_row(
    state: State, names: Sequence[str] | None = None, bots: Sequence[bool] | None = None
) -> Table:
    """All seats' panels side by side."""
    g = Table.grid(expand=True, padding=(0, 1))
    for _ in range(state.players):
        g.add_column(ratio=1)
    g.add_row(*(player_panel(state, s, names, bots) for s in range(state.players)))
    return g


_PILE_NAMES = ("all sea", "1 land", "2 adjacent", "2 opposite", "3 land", "all land")


def supply_panel(state: State) -> Panel:
    """The display (both sides of each tile), the six small piles and the bag."""
    geo = state.geometry
    shown: list[RenderableType] = [
        _labelled_preview(state, tid, f"#{i} {tid}") for i, tid in enumerate(state.display)
    ]
    disp = (
        Columns(shown, padding=(1, 3))
        if shown
        else Text("the display is empty", Style(color="#9a9a9a"))
    )
    piles: list[RenderableType] = []
    for c, count in enumerate(state.piles):
        lines: list[list[Piece]] = [[Text(f"{c} ", Style(bold=True))], [Text("  ")]]
        if geo.pile_tiles[c]:
            prev = _preview_lines(state, geo.tile_ids[geo.pile_tiles[c][0]])
            lines[0] += prev[0]
            lines[1] += prev[1]
        lines[0].append(
            Text(f" ×{count}", Style(bold=True, color="#ffffff" if count else "#666666"))
        )
        lines[1].append(Text(f" {_PILE_NAMES[c]}", Style(color="#9a9a9a")))
        piles.append(Picture(lines))
    pile_grid = Columns(piles, padding=(1, 3))
    bag = state.view(None)["bag_size"]
    body = Group(
        Text.assemble(
            ("Display", Style(bold=True)), (f"   (bag: {bag} tiles)", Style(color="#9a9a9a"))
        ),
        disp,
        Text("Small piles (rotation classes)", Style(bold=True)),
        pile_grid,
    )
    return Panel(body, title="Supply", title_align="left", border_style="#777777", padding=(0, 1))


def game_view(
    state: State,
    names: Sequence[str] | None = None,
    bots: Sequence[bool] | None = None,
    cell: CellSize = COMPACT,
) -> Group:
    """Everything a player needs to decide: status, sun, board, legend, panels, supply."""
    return Group(
        status_line(state, names),
        sun_track(state),
        Text(""),
        board(state, names, cell),
        legend(),
        players_row(state, names, bots),
        supply_panel(state),
    )


# ----------------------------------------------------------------- final scores

_CATEGORY_ORDER = (
    "Islands",
    "Inuit",
    "Cairn",
    "Franklin",
    "Strait",
    "Northwest Passage",
    "Greenland",
    "Franklin majority",
    "Strait majority",
    "Cartography majority",
    "Sets",
    "Abandonment",
)


def score_category(reason: str) -> str:
    """Group a ScoreChanged reason: "island of 3 tiles" → Islands, "inuit ×2" → Inuit."""
    r = reason.strip().lower()
    if r.startswith("island"):
        return "Islands"
    m = re.match(r"(inuit|cairn|franklin|strait)\b\s*(×|x)?\s*\d*$", r)
    if m:
        return m.group(1).capitalize()
    if r.startswith("northwest"):
        return "Northwest Passage"
    if r.startswith("greenland"):
        return "Greenland"
    if r.endswith("majority"):
        return r[: -len("majority")].strip().capitalize() + " majority"
    if re.match(r"\d+ sets?$", r):
        return "Sets"
    if "abandon" in r:
        return "Abandonment"
    return reason


def score_breakdown(events: Iterable[Event], players: int) -> dict[str, list[int]]:
    """Points per category and seat, summed from the ScoreChanged events."""
    return points_by_category(events, players, score_category, _CATEGORY_ORDER)


def final_table(
    state: State,
    events: Iterable[Event] | None = None,
    names: Sequence[str] | None = None,
) -> Table:
    """Score breakdown per seat by reason, the totals and the ranking.

    ``events`` are every event of the game (only the ``ScoreChanged`` ones are
    used); without them only totals and ranks are shown.  A breakdown that does
    not add up to ``scores()`` gets a warning row, since the engine promises it does.
    """
    title = "Final scores" if state.is_over else f"Scores after round {state.round}"
    breakdown = None if events is None else score_breakdown(events, state.players)
    return score_table(title, _names(state, names), state.scores(), state.ranking(), breakdown)
