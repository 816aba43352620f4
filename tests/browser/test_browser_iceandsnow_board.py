"""Through Ice and Snow's board in the browser: the map of Nunavut, the personal boards,
the log in words and the end screen, for a player and a spectator, on a laptop
(1366x768) and a phone (390x844), and the replay page drawing the same board.

The games are driven over the API with random legal actions to the moment a test
needs (the action phase of a later round, a destination to choose, the end); the
page is then only looked at (and, for the destination, clicked through the map).
Screenshots go to ``tests/output/iceandsnow-board-*.png``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
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

SIZES = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
# What a log line must never show: an i18n key or a placeholder left unfilled.
RAW = re.compile(r"\{\w+\}|\bisev_|\bis_[a-z]+_|\biact_")


def create(server: Any, players: int, options: dict[str, Any] | None = None, seed: int = 1) -> Any:
    body: dict[str, Any] = {
        "game": "iceandsnow",
        "players": players,
        "seats": [{"kind": "human"}] * players,
        "seed": seed,
    }
    if options:
        body["game_options"] = options
    return server.api("POST", "/api/games", body)


def play_until(
    server: Any, game: Any, stop: Callable[[Any], bool], seed: int, limit: int = 3000
) -> Any:
    """Random legal actions (passing only when nothing else is legal) until ``stop``."""
    rng = random.Random(seed)
    gid = game["id"]
    tokens = [s["token"] for s in game["seats"]]
    for _ in range(limit):
        st = server.game(gid, tokens[0])
        if st["is_over"] or stop(st):
            return st
        cur = st["current_player"]
        mine = server.game(gid, tokens[cur])
        legal = mine["legal_actions"]
        acts = [a for a in legal if a["type"] != "pass"] or legal
        action = rng.choice(acts)
        server.api(
            "POST",
            f"/api/games/{gid}/actions?token={tokens[cur]}",
            {"version": mine["version"], "action": action},
        )
    raise AssertionError("the game did not reach the wanted moment")


@pytest.fixture(scope="module")
def games(server: Any) -> dict[str, Any]:
    """Games at the moments the tests look at: {name: (game, final state)}."""
    out: dict[str, Any] = {}
    mid = create(server, 3, seed=11)
    out["mid"] = (
        mid,
        play_until(
            server, mid, lambda s: s["view"]["round"] >= 3 and s["view"]["phase"] == "action", 5
        ),
    )
    dest = create(server, 2, seed=12)
    out["dest"] = (
        dest,
        play_until(
            server,
            dest,
            lambda s: (
                s["view"]["round"] >= 2
                and (s["view"].get("decision") or {}).get("kind") == "destination"
            ),
            6,
        ),
    )
    for seed in range(20, 40):
        end = create(server, 2, seed=seed)
        st = play_until(server, end, lambda s: False, seed)
        if st["view"]["round"] >= 4:
            break
    out["end"] = (end, st)
    solo = create(server, 1, {"scenario": "lost-expedition"}, seed=13)
    out["solo"] = (
        solo,
        play_until(
            server, solo, lambda s: s["view"]["round"] >= 2 and s["view"]["phase"] == "action", 7
        ),
    )
    return out


def open_page(browser: Any, url: str, size: str, lang: str = "en") -> tuple[Any, Any, list[str]]:
    ctx = browser.new_context(viewport=SIZES[size], locale=lang, device_scale_factor=1)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror {exc}"))
    page.on("console", lambda m: errors.append(f"console {m.text}") if m.type == "error" else None)
    page.on(
        "response", lambda r: errors.append(f"HTTP {r.status} {r.url}") if r.status >= 400 else None
    )
    page.set_default_timeout(15_000)
    page.goto(url)
    page.locator("[data-testid=ice-map]").wait_for()
    return ctx, page, errors


def check_board(page: Any, st: Any, seat: int | None) -> None:
    v = st["view"]
    svg = page.locator("svg.icemap")
    assert svg.count() == 1
    # the map: the placed sections named with their side, the fleet, the anchors placed
    assert page.locator(".is-sec-lbl").count() == len(v["map"]["placed"])
    for p in v["map"]["placed"]:
        assert (
            f"· side {p['side']}"
            in page.locator(f".is-sec-lbl[data-section={p['section']}]").text_content()
        )
    if v["map"]["fleet"]:
        assert page.locator(f".is-fleet[data-anchor={v['map']['fleet']}]").count() == 1
    assert page.locator(".is-anchor").count() >= len(v["map"]["ahead"])
    assert page.locator(".is-anchor.sailed").count() == len(set(v["map"]["sailed"]))
    assert page.locator(".is-region.mapped").count() == len(v["map"]["mapped"])
    if not v["over"]:
        assert page.locator(".is-cost").count() == len(v["map"]["routes"])
    assert page.locator(".is-cabin").count() == len(v["map"]["cabins"])
    # the personal boards: one per seat, your own first
    boards = page.locator("#players .is-pboard")
    assert boards.count() == v["players"]
    if seat is not None:
        assert boards.first.get_attribute("data-seat") == str(seat)
        assert "me" in (boards.first.get_attribute("class") or "")
    first = boards.first
    if "folded" not in (first.get_attribute("class") or ""):
        text = first.inner_text()
        for word in ("Food", "Health", "Morale", "Fuel", "Towing", "Sled", "Dogs"):
            assert word in text, word
        assert first.locator(".is-crew").count() == 1
    # the log: sentences, never keys or placeholders
    lines = page.locator("#log li.ev").all_inner_texts()
    assert lines, "the log is empty"
    bad = [x for x in lines if RAW.search(x)]
    assert not bad, bad[:5]
    # the title bar names the game
    assert page.locator(".topbar .title").inner_text() == "Through Ice and Snow"
    assert "Round" in page.locator("#roundinfo").inner_text() or v["round"] == 0


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("who", ["player", "spectator"])
def test_board_renders(
    browser: Any, server: Any, games: Any, output_dir: Path, who: str, size: str
) -> None:
    game, _ = games["mid"]
    seat = 0 if who == "player" else None
    token = game["seats"][0]["token"]
    url = f"{server.base}/game/{game['id']}" + (f"?token={token}" if seat is not None else "")
    ctx, page, errors = open_page(browser, url, size)
    try:
        st = server.game(game["id"], token if seat is not None else None)
        check_board(page, st, seat)
        if seat is None:
            assert "Spectator" in page.locator("#roundinfo").inner_text()
            # a spectator sees nobody's cartography card while the game runs
            assert page.locator("#players").inner_text().count("Cartography") == 0
        else:
            assert page.locator("#players .is-pboard").first.inner_text().count("Cartography") == 1
        page.screenshot(path=str(output_dir / f"iceandsnow-board-{who}-{size}.png"))
        assert not errors, errors
    finally:
        ctx.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_setup_board(browser: Any, server: Any, output_dir: Path, size: str) -> None:
    """At the set-up only the East section lies on the table, the others under fog;
    the fleet is at its start anchor with its routes onward; the boards show the start."""
    game = create(server, 2, seed=21)
    token = game["seats"][0]["token"]
    ctx, page, errors = open_page(browser, f"{server.base}/game/{game['id']}?token={token}", size)
    try:
        v = server.game(game["id"], token)["view"]
        assert v["round"] == 0
        assert page.locator(".is-sec-lbl").count() == 1
        assert page.locator(".is-fog").count() == 3
        assert page.locator(".is-cost").count() == len(v["map"]["routes"]) > 0
        first = page.locator("#players .is-pboard").first
        assert first.get_attribute("data-seat") == "0"
        assert "Setup" in page.locator("#roundinfo").inner_text()
        page.screenshot(path=str(output_dir / f"iceandsnow-board-setup-{size}.png"))
        assert not errors, errors
    finally:
        ctx.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_destination_from_the_map(
    browser: Any, server: Any, games: Any, output_dir: Path, size: str
) -> None:
    """The anchors the leader may sail to are lit on the map; the keyboard reaches them
    ("m") and Enter sends the destination."""
    game, st = games["dest"]
    if size == "phone":  # a fresh game at the same moment (the laptop's test sailed on)
        game = create(server, 2, seed=12)
        st = play_until(
            server,
            game,
            lambda s: (
                s["view"]["round"] >= 2
                and (s["view"].get("decision") or {}).get("kind") == "destination"
            ),
            6,
        )
    seat = st["view"]["decision"]["seat"]
    token = game["seats"][seat]["token"]
    ctx, page, errors = open_page(browser, f"{server.base}/game/{game['id']}?token={token}", size)
    try:
        mine = server.game(game["id"], token)
        dests = sorted(a["to"] for a in mine["legal_actions"] if a["type"] == "destination")
        picks = page.locator(".icemap .is-anchor.pick")
        assert sorted(picks.evaluate_all("els => els.map(e => e.dataset.anchor)")) == dests
        for k in range(picks.count()):
            label = picks.nth(k).get_attribute("aria-label") or ""
            assert label.startswith("Sail to ") and "dynamite" in label
        page.screenshot(path=str(output_dir / f"iceandsnow-board-destination-{size}.png"))
        page.locator("body").press("m")
        focused = page.evaluate("document.activeElement && document.activeElement.dataset.anchor")
        assert focused in dests
        page.keyboard.press("Enter")
        page.wait_for_function("() => !document.querySelector('.icemap .is-anchor.pick')")
        after = server.game(game["id"], token)["view"]
        assert after["map"]["destination"] == focused or after["map"]["fleet"] == focused
        assert not errors, errors
    finally:
        ctx.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_end_screen(browser: Any, server: Any, games: Any, output_dir: Path, size: str) -> None:
    game, st = games["end"]
    token = game["seats"][0]["token"]
    ctx, page, errors = open_page(browser, f"{server.base}/game/{game['id']}?token={token}", size)
    try:
        v = st["view"]
        panel = page.locator("[data-testid=end-panel]")
        panel.wait_for()
        text = panel.inner_text()
        fs = v["final_scoring"]
        if fs["scored"]:
            table = page.locator("[data-testid=final-scoring]")
            for cat in (
                "species majority",
                "cabins",
                "species on board",
                "health",
                "morale",
                "investor",
                "cartography",
            ):
                assert cat in table.inner_text().lower(), cat
        else:
            assert "the whole table lost" in text
            assert page.locator("[data-testid=end-reason]").inner_text().strip()
        assert page.locator("[data-testid=end-panel] svg.chart polyline").count() == v["players"]
        page.locator("[data-testid=end-panel]").scroll_into_view_if_needed()
        page.screenshot(path=str(output_dir / f"iceandsnow-board-end-{size}.png"))
        assert not errors, errors
    finally:
        ctx.close()


def test_solo_scenario_progress(browser: Any, server: Any, games: Any, output_dir: Path) -> None:
    game, st = games["solo"]
    token = game["seats"][0]["token"]
    ctx, page, errors = open_page(
        browser, f"{server.base}/game/{game['id']}?token={token}", "laptop"
    )
    try:
        scen = page.locator("[data-testid=scenario]")
        assert "Lost Expedition" in scen.inner_text()
        sc = st["view"]["map"]["scenario"]
        assert page.locator(".is-pbox").count() == sc["progress_max"]
        assert page.locator(".is-region.priority").count() == len(
            {r for r in sc["priority"]}
            & {
                a
                for a in page.locator(".is-region").evaluate_all(
                    "els => els.map(e => e.dataset.region)"
                )
            }
        )
        check_board(page, st, 0)
        page.screenshot(path=str(output_dir / "iceandsnow-board-solo-laptop.png"))
        assert not errors, errors
    finally:
        ctx.close()


def test_replay_draws_the_board(browser: Any, server: Any, games: Any, output_dir: Path) -> None:
    game, st = games["end"]
    ctx, page, errors = open_page(browser, f"{server.base}/replay/{game['id']}?step=40", "laptop")
    try:
        assert page.locator("#players .is-pboard").count() == st["view"]["players"]
        before = page.locator("#rp-pos").inner_text()
        page.keyboard.press("ArrowRight")
        page.wait_for_function(
            "(b) => document.querySelector('#rp-pos').textContent !== b", arg=before
        )
        page.locator("[data-testid=ice-map]").wait_for()
        page.keyboard.press("End")
        page.wait_for_function("() => document.querySelector('#rp-last').disabled")
        page.screenshot(path=str(output_dir / "iceandsnow-board-replay-laptop.png"))
        assert not errors, errors
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["hu", "ja"])
def test_board_in_other_languages(
    browser: Any, server: Any, games: Any, output_dir: Path, lang: str
) -> None:
    game, _ = games["mid"]
    ctx, page, errors = open_page(browser, f"{server.base}/game/{game['id']}", "laptop", lang)
    try:
        lines = page.locator("#log li.ev").all_inner_texts()
        assert lines and not [x for x in lines if RAW.search(x)]
        assert page.locator(".topbar .title").inner_text() != "Through Ice and Snow"
        page.screenshot(path=str(output_dir / f"iceandsnow-board-{lang}-laptop.png"))
        assert not errors, errors
    finally:
        ctx.close()


def test_northwest_keeps_its_title(browser: Any, server: Any) -> None:
    game = server.create([{"kind": "human"}, {"kind": "bot", "level": "easy"}], seed=3)
    ctx = browser.new_context(viewport=SIZES["laptop"], locale="en")
    page = ctx.new_page()
    try:
        page.goto(f"{server.base}/game/{game['id']}?token={game['seats'][0]['token']}")
        page.locator("svg.board").wait_for(timeout=15_000)
        assert page.locator(".topbar .title").inner_text() == "Expedition: Northwest Passage"
    finally:
        ctx.close()
