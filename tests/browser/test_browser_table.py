"""The in-game table as BoardGameArena players expect it (issue 10): the real server
and the web client in Chromium at 1366×768 and 390×844 — confirmation before the
return to Greenland, tooltips with the engine's reasons, place names in the log and
its highlights, pieces side by side that glide, the sun legend, the transfer pickers,
chat in the log, turn alerts, the phone layout, and JSON that keeps long numbers.

Screenshots: ``tests/output/table-*.png``.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(
        f"browser tests need Chromium at {CHROMIUM} (Debian: apt-get install chromium)",
        allow_module_level=True,
    )
pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")


def _ship_on_board(g: Any) -> bool:
    """Seat 0's ship is on a tile of the board (the wire view: ``{"at": [x, y], …}``)."""
    return isinstance(g["view"]["seats"][0]["ship"], dict)


DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
EASY = {"kind": "bot", "level": "easy"}

# Pads every player's reserve in the messages the page receives (HTTP and WebSocket)
# with extra tiles, as if the bots hoarded: the layout must hold.
HOARD_SCRIPT = """
(() => {
  const pad = (txt) => {
    try {
      const m = JSON.parse(txt);
      if (m && m.view && Array.isArray(m.view.seats)) {
        const ids = Array.from({ length: 20 }, (_, k) => `L${41 + k}`); // tile indices 40…, as ids
        m.view.seats.forEach((st, i) => { st.reserve = st.reserve.concat(ids.slice(0, 14 + i)); });
      }
      if (m && m.type === "chat_history") m.chat = m.chat.map((c) => ({ ...c, version: 1 }));
      return JSON.stringify(m);
    } catch { return txt; }
  };
  const WS = window.WebSocket;
  window.WebSocket = class extends WS {
    set onmessage(fn) { super.onmessage = (ev) => fn({ data: pad(ev.data) }); }
  };
  const f = window.fetch;
  window.fetch = async (...args) => {
    const r = await f(...args);
    const url = String(args[0] && args[0].url || args[0]);
    if (!/\\/api\\/games\\/[^/]+(\\?|$)/.test(url)) return r;
    const text = await r.text();
    return new Response(pad(text), { status: r.status, headers: r.headers });
  };
})();
"""


class Errors:
    def __init__(self) -> None:
        self.errors: list[str] = []


@pytest.fixture
def open_page(browser: Any) -> Iterator[Any]:
    """``open_page(url, viewport, dialogs="accept", **context options)`` → a page whose
    JavaScript errors and HTTP errors are collected in ``open_page.errors``."""
    contexts: list[Any] = []
    errors = Errors()

    def make(
        url: str,
        viewport: dict[str, int] = DESKTOP,
        dialogs: str = "accept",
        init: str | None = None,
        **opts: Any,
    ) -> Any:
        ctx = browser.new_context(viewport=viewport, device_scale_factor=1, **opts)
        contexts.append(ctx)
        page = ctx.new_page()
        page.dialogs = []  # type: ignore[attr-defined]

        def on_dialog(d: Any) -> None:
            page.dialogs.append(d.message)
            d.accept() if page.dialog_policy == "accept" else d.dismiss()

        page.dialog_policy = dialogs  # type: ignore[attr-defined]
        page.on("dialog", on_dialog)
        page.on("pageerror", lambda exc: errors.errors.append(f"pageerror {exc}"))
        page.on(
            "console",
            lambda m: (
                errors.errors.append(f"console {m.text}")
                if m.type == "error" and not m.text.startswith("Failed to load resource")
                else None
            ),
        )
        page.on(
            "response",
            lambda r: (
                errors.errors.append(f"HTTP {r.status} {r.url.split('?')[0]}")
                if r.status >= 400
                else None
            ),
        )
        page.set_default_timeout(15_000)
        if init:
            page.add_init_script(init)
        page.goto(url)
        page.locator("#boardwrap svg.board").wait_for()
        page.locator("#conn.ok").wait_for()
        return page

    make.errors = errors  # type: ignore[attr-defined]
    try:
        yield make
    finally:
        for ctx in contexts:
            with contextlib.suppress(Exception):
                ctx.close()


def wait_until(pred: Any, timeout: float = 15.0, what: str = "condition") -> Any:
    end = time.monotonic() + timeout
    while True:
        out = pred()
        if out:
            return out
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def post(server: Any, path: str, body: Any) -> Any:
    req = urllib.request.Request(
        server.base + path,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read().decode())


def to_round_one(server: Any, gid: str, token: str) -> Any:
    """Draft through the API (the first display tile) until seat 0 acts in round 1."""

    def step() -> Any:
        g = server.game(gid, token)
        if g["view"]["round"] >= 1 and g["current_player"] == 0:
            return g
        if g["current_player"] == 0:
            post(
                server,
                f"/api/games/{gid}/actions?token={token}",
                {"version": g["version"], "action": g["legal_actions"][0]},
            )
        return None

    return wait_until(step, 30, "round 1")


def new_table(server: Any, bots: int = 1, seed: int = 2) -> tuple[str, str, str]:
    created = server.create([{"kind": "human"}] + [EASY] * bots, seed=seed)
    gid, token = created["id"], created["seats"][0]["token"]
    to_round_one(server, gid, token)
    return gid, token, server.base + created["seats"][0]["url"]


def square_point(page: Any, x: float, y: float) -> tuple[float, float]:
    """Page coordinates of board point (x, y) in board units (squares)."""
    pt = page.evaluate(
        """([x, y]) => { const svg = document.querySelector('svg.board');
            const p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());
            return [p.x, p.y]; }""",
        [x, y],
    )
    return float(pt[0]), float(pt[1])


def boxes_overlap(a: dict[str, float], b: dict[str, float], slack: float = 1.0) -> bool:
    return (
        a["x"] + slack < b["x"] + b["width"]
        and b["x"] + slack < a["x"] + a["width"]
        and a["y"] + slack < b["y"] + b["height"]
        and b["y"] + slack < a["y"] + a["height"]
    )


def log_texts(page: Any) -> list[str]:
    return [str(x) for x in page.locator("#log li").all_inner_texts()]


def alerts(page: Any) -> int:
    return int(page.evaluate("document.documentElement.dataset.turnAlerts || '0'"))


def play_until_our_turn_comes_again(page: Any) -> None:
    """Draw and end the turn (or pass) until a turn alert says the turn came back."""
    before = alerts(page)
    deadline = time.monotonic() + 40
    while alerts(page) <= before:
        assert time.monotonic() < deadline, "our turn never came again"
        if page.locator(".actions .turn.mine").count():
            end = page.locator(".actions button", has_text="End turn")
            draw = page.locator(".supply button.disp-tile:enabled")
            with contextlib.suppress(Exception):  # the page may re-render under the click
                if end.count():
                    end.click(timeout=2000)
                elif draw.count():
                    draw.first.click(timeout=2000)
                else:
                    page.locator(".actions button.warn", has_text="Pass").click(timeout=2000)
        time.sleep(0.3)


def settled_box(locator: Any) -> Any:
    """The locator's bounding box once it has one: the table re-renders as the bots
    move, and an element replaced at that moment has no box for an instant."""
    deadline = time.monotonic() + 5
    while True:
        box = locator.bounding_box()
        if box is not None or time.monotonic() > deadline:
            return box
        time.sleep(0.05)


# ------------------------------------------------------------------ desktop


def test_desktop_table_hoarded_reserves_pieces_sun_and_hover(
    server: Any, open_page: Any, output_dir: Path
) -> None:
    _gid, _token, url = new_table(server, bots=3)
    page = open_page(url, init=HOARD_SCRIPT)
    page.locator(".pboard.me .res-strip").wait_for()
    # Your board and reserve stay in view however many tiles everyone holds.
    me = settled_box(page.locator(".pboard.me"))
    assert me and me["y"] >= 0 and me["y"] + me["height"] <= DESKTOP["height"], me
    strip = page.locator(".pboard.me .res-strip")
    sbox = settled_box(strip)
    assert sbox and sbox["height"] <= 70, sbox
    assert sbox["y"] + sbox["height"] <= DESKTOP["height"]
    assert page.locator(".pboard.me .res-tile").count() >= 15
    assert strip.evaluate("el => el.scrollWidth > el.clientWidth")  # scrolls, does not grow
    # The others' reserves are a count with a toggle.
    others = page.locator(".pboard:not(.me)")
    assert others.count() == 3
    assert others.locator(".res-tile").count() == 0
    toggle = page.locator("[data-testid=reserve-toggle-1]")
    assert re.search(r"Reserve: 1[5-9]", toggle.inner_text()), toggle.inner_text()
    toggle.click()
    wait_until(lambda: page.locator(".pboard:not(.me) .res-tile").count() >= 15, 5, "unfolded")
    page.locator("[data-testid=reserve-toggle-1]").click()
    wait_until(lambda: page.locator(".pboard:not(.me) .res-tile").count() == 0, 5, "folded")

    # Four ships (and the sleds deployed so far) on the Greenland arrow, side by side.
    pieces = page.locator("svg.board g.vehicle")
    n = pieces.count()
    assert n >= 4
    boxes = [pieces.nth(i).locator("g").last.bounding_box() for i in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            assert not boxes_overlap(boxes[i], boxes[j]), (i, j, boxes)

    # The sun track and its legend (sun III freezes the top 2 rows).
    assert page.locator(".sun-pos.now").get_attribute("data-pos") == "3"
    legend = page.locator("[data-testid=sun-legend]").inner_text()
    assert "III, V: top 2 rows frozen" in legend and "IV: no ice" in legend, legend
    assert "I, VII: top 6 rows frozen" in legend

    # Tooltips: named printed squares (never raw ids), the zone, a token's worth.
    page.mouse.move(*square_point(page, 9.5, 6.5))
    tip = page.locator("#tip.show")
    tip.wait_for()
    assert tip.locator("strong").inner_text() == "cairn (east)"
    text = tip.inner_text()
    assert "Zone ×2" in text and "Discover (2 crew)" in text and "Here (×2): 4 points" in text, text
    page.mouse.move(*square_point(page, 13.5, 3.5))
    wait_until(lambda: "Greenland entrance" in page.locator("#tip").inner_text(), 5, "tip")
    page.mouse.move(*square_point(page, 0.5, 4.5))
    wait_until(lambda: "Northwest exit" in page.locator("#tip").inner_text(), 5, "tip")
    page.mouse.move(*square_point(page, 14.6, 3.5))  # the Greenland arrow
    wait_until(lambda: "sit out every later round" in page.locator("#tip").inner_text(), 5, "arrow")
    assert "board:" not in page.content()
    # The cost of each action is explained on hover.
    cost = page.locator(".costs .cost-item").first.get_attribute("title")
    assert cost and "crew" in cost and "+1" in cost, cost
    page.screenshot(path=str(output_dir / "table-1366-hoard.png"))
    assert not open_page.errors.errors, open_page.errors.errors


def test_greenland_return_asks_first_and_the_log_speaks_in_places(
    server: Any, open_page: Any, output_dir: Path
) -> None:
    gid, token, url = new_table(server, bots=1)
    page = open_page(url, dialogs="dismiss")
    v0 = server.game(gid, token)["version"]
    # Off the arrow onto the board: the Greenland entrance square.
    page.locator(".actions button", has_text="Move ship").click()
    dest = page.locator("svg.board rect.dest").first
    assert dest.get_attribute("data-to") == "13,3"
    dest.click()
    wait_until(lambda: _ship_on_board(server.game(gid, token)), 10, "the ship on the board")
    # The piece glides to its new square (no reduced motion asked for here).
    wait_until(lambda: page.evaluate("document.documentElement.dataset.glides"), 5, "a glide")
    # The log says where, in words; hovering the line lights the square and the piece.
    line = page.locator("#log li.ev-VehicleMoved").last
    line.wait_for()
    assert line.inner_text() == "Player 1's ship moves to Greenland entrance."
    line.hover()
    page.locator("svg.board rect.log-hl").first.wait_for()
    assert page.locator("svg.board .log-hl-piece").count() == 1
    page.screenshot(path=str(output_dir / "table-1366-log-hover.png"))
    page.mouse.move(5, 5)
    wait_until(lambda: page.locator("svg.board rect.log-hl").count() == 0, 5, "highlight gone")
    for text in log_texts(page):
        assert not re.search(r"\d+,\d+", text), text  # no coordinates
        assert "board:" not in text, text

    # Back to Greenland would end the expedition: a confirmation first; "Cancel" sends nothing.
    version = server.game(gid, token)["version"]
    assert version > v0
    page.locator(".actions button", has_text="Move ship").click()
    # A tile out of reach says why (the engine's rule), the lit arrow says it is allowed.
    page.mouse.move(*square_point(page, 3.5, 5.5), steps=2)  # the cairn (west)
    why = page.locator("#tip.show [data-testid=tip-why]")
    why.wait_for()
    wait_until(lambda: "cannot move" in why.inner_text(), 10, "the reason")
    assert "§7.D" in why.inner_text(), why.inner_text()
    home = page.locator("svg.board rect.dest[data-to=greenland]")
    home.click()
    wait_until(lambda: page.dialogs, 5, "the confirmation")
    assert "Greenland" in page.dialogs[0] and "later round" in page.dialogs[0], page.dialogs
    time.sleep(0.4)
    assert server.game(gid, token)["version"] == version
    # Confirmed: the expedition returns.
    page.dialog_policy = "accept"
    page.locator("svg.board rect.dest[data-to=greenland]").click()
    wait_until(lambda: server.game(gid, token)["view"]["seats"][0]["returned"], 10, "the return")
    assert len(page.dialogs) == 2
    page.locator("#log li.ev-ReturnedToGreenland").first.wait_for()
    # Moves elsewhere on the board never ask.
    assert not open_page.errors.errors, open_page.errors.errors


def test_reduced_motion_skips_the_glide(server: Any, open_page: Any) -> None:
    gid, token, url = new_table(server, bots=1)
    page = open_page(url, reduced_motion="reduce")
    page.locator(".actions button", has_text="Move ship").click()
    page.locator("svg.board rect.dest").first.click()
    wait_until(lambda: _ship_on_board(server.game(gid, token)), 10, "the move")
    page.locator("#log li.ev-VehicleMoved").first.wait_for()  # (the bot may have moved too)
    time.sleep(0.3)
    assert page.evaluate("document.documentElement.dataset.glides") is None
    assert not open_page.errors.errors, open_page.errors.errors


def test_why_not_here_asks_the_engine_while_placing(
    server: Any, open_page: Any, output_dir: Path
) -> None:
    _gid, _token, url = new_table(server, bots=1)
    page = open_page(url)
    checks: list[str] = []
    page.on("request", lambda r: checks.append(r.url) if "/check" in r.url else None)
    page.locator(".pboard.me button.res-tile:enabled").first.click()
    page.locator(".actions .place-ctl").wait_for()
    # The primary "Place here" button keeps its label readable on hover.
    place = page.locator(".place-ctl .btn.primary")
    place.hover()
    colors = place.evaluate(
        "el => { const c = getComputedStyle(el); return [c.color, c.backgroundColor]; }"
    )
    assert colors[0] == "rgb(255, 255, 255)" and colors[1] not in (
        "rgb(255, 255, 255)",
        "rgba(0, 0, 0, 0)",
    ), colors
    # A far square is not lit: the tooltip gives the engine's reason.
    page.mouse.move(*square_point(page, 1.5, 6.5))
    why = page.locator("#tip.show [data-testid=tip-why]")
    why.wait_for()
    wait_until(lambda: why.inner_text().startswith("Not here:"), 10, "the engine's reason")
    assert "must share an edge" in why.inner_text(), why.inner_text()
    page.screenshot(path=str(output_dir / "table-1366-why-not.png"))
    n = len(checks)
    assert n >= 1
    # Cached per spot and version: back on the same square asks nothing new.
    page.mouse.move(*square_point(page, 4.5, 6.5))
    wait_until(lambda: "Not here:" in page.locator("#tip").inner_text(), 10, "second reason")
    n2 = len(checks)
    page.mouse.move(*square_point(page, 1.5, 6.5))
    wait_until(lambda: "must share an edge" in page.locator("#tip").inner_text(), 10, "cached")
    time.sleep(0.4)
    assert len(checks) == n2
    # A lit square says so.
    hit = page.locator("svg.board rect.hit").first
    hx, hy = float(hit.get_attribute("x")), float(hit.get_attribute("y"))
    page.mouse.move(*square_point(page, hx + 0.5, hy + 0.5), steps=3)
    wait_until(lambda: "Allowed" in page.locator("#tip").inner_text(), 5, "allowed")
    assert not open_page.errors.errors, open_page.errors.errors


def test_transfer_dialog_has_column_steppers(server: Any, open_page: Any, output_dir: Path) -> None:
    gid, token, url = new_table(server, bots=1)
    page = open_page(url)
    page.locator(".actions button", has_text="Transfer crew").click()
    dlg = page.locator("dialog.transfer")
    dlg.wait_for()
    assert dlg.locator(".tr-col").count() == 2
    assert dlg.locator("select").count() == 0  # no list of every transfer

    def count(col: str, row: str) -> int:
        return int(dlg.locator(f".tr-col[data-col={col}] .tr-row[data-row={row}] .n").inner_text())

    total = sum(count(c, r) for c in ("ship", "sled") for r in ("available", "resting"))
    assert total == 7
    start = count("sled", "available")
    dlg.locator("[data-testid=tr-sled-sa-plus]").click()
    dlg.locator("[data-testid=tr-sled-sa-plus]").click()
    assert count("sled", "available") == start + 2
    assert count("ship", "available") + count("sled", "available") == 6  # one pays, resting
    sled_av, sled_rest = count("sled", "available"), count("sled", "resting")
    assert not dlg.locator("[data-testid=tr-ok]").is_disabled()
    page.screenshot(path=str(output_dir / "table-1366-transfer.png"))
    dlg.locator("[data-testid=tr-ok]").click()

    def transferred() -> Any:
        g = server.game(gid, token)
        return g if g["view"]["seats"][0]["crew"]["sled"]["available"] == sled_av else None

    g = wait_until(transferred, 10, "the transfer")
    assert g["view"]["seats"][0]["crew"]["sled"]["resting"] == sled_rest
    assert not open_page.errors.errors, open_page.errors.errors


def test_chat_in_the_log_with_long_numbers_and_a_filter(server: Any, open_page: Any) -> None:
    _gid, _token, url = new_table(server, bots=1)
    page = open_page(url)
    page.locator("#chatin").fill("call me at 12345678901234567890")
    page.locator(".chatform button").click()
    page.locator("#log li.chat", has_text="12345678901234567890").wait_for()
    page.reload()
    page.locator("#conn.ok").wait_for()
    # JSON.parse keeps the digits (the old regex quoted them and broke the message).
    page.locator("#log li.chat", has_text="call me at 12345678901234567890").wait_for()
    items = page.locator("#log li")
    assert "chat" in (items.last.get_attribute("class") or "")  # no version: at the end
    page.locator(".logfilter [data-filter=chat]").click()
    wait_until(lambda: page.locator("#log li.ev").count() == 0, 5, "chat only")
    assert page.locator("#log li.chat").count() == 1
    page.locator(".logfilter [data-filter=events]").click()
    wait_until(lambda: page.locator("#log li.chat").count() == 0, 5, "events only")
    assert page.locator("#log li.ev").count() > 0
    page.locator(".logfilter [data-filter=all]").click()
    wait_until(lambda: page.locator("#log li.chat").count() == 1, 5, "all")
    # A line that carries its version (the seats branch adds it) sits among the events.
    other = open_page(url, init=HOARD_SCRIPT)
    other.locator("#log li.chat").wait_for()
    classes = [
        c or "" for c in other.locator("#log li").evaluate_all("ls => ls.map(l => l.className)")
    ]
    k = next(i for i, c in enumerate(classes) if "chat" in c)
    assert any("ev" in c for c in classes[k + 1 :]), classes
    assert not open_page.errors.errors, open_page.errors.errors


def test_turn_alerts_title_sound_and_mute(server: Any, open_page: Any) -> None:
    _gid, _token, url = new_table(server, bots=1)
    page = open_page(url)
    assert page.title() == "● Your turn — erebus"
    # Muted: the alert still counts, no sound; the choice is kept in localStorage.
    page.locator("#soundbtn").click()
    assert page.evaluate("localStorage.getItem('erebus.sound')") == "off"
    page.reload()
    page.locator("#conn.ok").wait_for()
    assert page.locator("#soundbtn").get_attribute("aria-pressed") == "false"

    play_until_our_turn_comes_again(page)
    assert page.evaluate("document.documentElement.dataset.beeps") is None
    assert page.title() == "● Your turn — erebus"
    page.locator("#soundbtn").click()
    assert page.evaluate("localStorage.getItem('erebus.sound')") == "on"
    play_until_our_turn_comes_again(page)
    assert page.evaluate("document.documentElement.dataset.beeps") == "1"
    # Asking for notifications is a button (a user gesture), never automatic.
    assert page.locator("#notifybtn").count() == 1
    assert page.evaluate("Notification.permission") == "default"
    assert not open_page.errors.errors, open_page.errors.errors


def test_languages_ukrainian_labels_japanese_fonts_italian_rounds(
    server: Any, open_page: Any, output_dir: Path
) -> None:
    _gid, _token, url = new_table(server, bots=1)
    page = open_page(url)
    family = page.evaluate("getComputedStyle(document.body).fontFamily")
    for name in ("Noto Sans CJK JP", "Hiragino Sans", "Yu Gothic", "Source Han Sans"):
        assert name in family, family
    page.locator("header select.lang").select_option("uk")
    page.locator(".logbox h3", has_text="Журнал").wait_for()
    rows = page.locator(".pboard .crew-row")
    assert rows.count() >= 4
    for i in range(rows.count()):
        lbl = rows.nth(i).locator(".lbl").bounding_box()
        dots = rows.nth(i).locator("svg.dots").bounding_box()
        assert lbl and dots and lbl["x"] + lbl["width"] <= dots["x"] + 0.5, (i, lbl, dots)
    page.screenshot(path=str(output_dir / "table-1366-uk.png"))
    page.locator("header select.lang").select_option("it")
    wait_until(lambda: "Round 1/10" in page.locator("#roundinfo").inner_text(), 5, "Italian")
    page.locator("header select.lang").select_option("ja")
    wait_until(lambda: "ラウンド" in page.locator("#roundinfo").inner_text(), 5, "Japanese")
    page.screenshot(path=str(output_dir / "table-1366-ja.png"))
    page.locator("header select.lang").select_option("en")
    assert not open_page.errors.errors, open_page.errors.errors


# ------------------------------------------------------------------ phone


def test_phone_layout(server: Any, open_page: Any, output_dir: Path) -> None:
    _gid, _token, url = new_table(server, bots=3)
    page = open_page(url, viewport=PHONE, init=HOARD_SCRIPT, has_touch=True)
    page.locator(".pboard.me .res-strip").wait_for()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    # The board is full width, on top of the panels.
    board = page.locator("svg.board").bounding_box()
    actions = page.locator("section.actions").bounding_box()
    assert board and actions and board["width"] >= PHONE["width"] - 20, board
    assert board["y"] + board["height"] <= actions["y"]
    # Touch targets of 40 px at least.
    buttons = page.locator(
        ".actions button:visible, .supply button:visible, .pboard button:visible, "
        ".topbar button:visible, .logfilter button:visible, .chatform button:visible, "
        ".pboard summary:visible"
    )
    assert buttons.count() > 10
    for i in range(buttons.count()):
        b = buttons.nth(i).bounding_box()
        assert b and b["width"] >= 40 and b["height"] >= 40, (i, buttons.nth(i).inner_text(), b)
    # Readable sun track and arrows.
    sun = page.locator(".sun-pos").first.bounding_box()
    assert sun and sun["width"] >= 30 and sun["height"] >= 24, sun
    size = page.locator(".sun-roman").first.evaluate(
        "el => parseFloat(getComputedStyle(el).fontSize)"
    )
    assert size >= 13
    for label in page.locator("svg.board .arrow-label").all():
        box = label.bounding_box()
        assert box and box["height"] >= 8, box
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    arrow_tok = page.locator("svg.board .arrow .token circle").first.bounding_box()
    assert arrow_tok and arrow_tok["width"] >= 8, arrow_tok
    page.screenshot(path=str(output_dir / "table-390-top.png"))
    page.screenshot(path=str(output_dir / "table-390-full.png"), full_page=True)
    # Still no sideways scroll after opening a reserve and the transfer dialog.
    page.locator("[data-testid=reserve-toggle-1]").click()
    page.locator(".actions button", has_text="Transfer crew").click()
    page.locator("dialog.transfer").wait_for()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    # The two columns fit the dialog: nothing spills out of either.
    for col in page.locator("dialog.transfer .tr-col").all():
        assert col.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), col.inner_text()
    assert page.locator("dialog.transfer").evaluate("el => el.scrollWidth <= el.clientWidth + 1")
    for b in page.locator("dialog.transfer button").all():
        box = b.bounding_box()
        assert box and box["width"] >= 40 and box["height"] >= 40, box
    page.screenshot(path=str(output_dir / "table-390-transfer.png"))
    assert not open_page.errors.errors, open_page.errors.errors


NOTIFY_STUB = """
(() => {
  window.__notes = []; window.__asked = 0;
  class FakeNotification {
    constructor(title, opts) { window.__notes.push([title, opts && opts.body]); }
    static permission = "default";
    static requestPermission() { window.__asked++; FakeNotification.permission = "granted"; return Promise.resolve("granted"); }
  }
  window.Notification = FakeNotification;
  Object.defineProperty(document, "hidden", { get: () => window.__hidden === true });
})();
"""


def test_notification_only_after_a_click_and_only_when_hidden(server: Any, open_page: Any) -> None:
    _gid, _token, url = new_table(server, bots=1)
    page = open_page(url, init=NOTIFY_STUB)
    assert page.evaluate("window.__asked") == 0  # never asked without a gesture
    page.locator("#notifybtn").click()
    wait_until(lambda: page.evaluate("window.__asked") == 1, 5, "the permission request")
    wait_until(lambda: page.locator("#notifybtn").count() == 0, 5, "the button gone once granted")
    page.evaluate("window.__hidden = true")
    play_until_our_turn_comes_again(page)
    notes = page.evaluate("window.__notes")
    assert notes and notes[-1][0] == "Your turn", notes
    assert not open_page.errors.errors, open_page.errors.errors
