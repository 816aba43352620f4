"""The lobby, seat names and the replay page in Chromium, at a laptop's 1366×768 and a
phone's 390×844: a game made with names and options, the "seeded" badge, the rematch
from the end screen and from "my games", translated default names, and a replay
stepped through by button, key, slider and link.

Needs ``/usr/bin/chromium`` and the ``playwright`` package (skipped without them).
Screenshots: ``tests/output/lobby-*.png`` and ``replay-*.png``.
"""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(f"browser tests need Chromium at {CHROMIUM}", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")

LAPTOP = (1366, 768)
PHONE = (390, 844)
EASY = {"kind": "bot", "level": "easy"}


@pytest.fixture
def at(new_page: Any) -> Any:
    """``at(size, label, lang="en")``: a page of that viewport in its own context (the
    conftest's ``new_page``, resized); ``at.errors`` collects its pages' errors."""

    def make(size: tuple[int, int], label: str, lang: str = "en") -> Any:
        page = new_page(label, lang)
        page.set_viewport_size({"width": size[0], "height": size[1]})
        return page

    make.errors = new_page.errors  # type: ignore[attr-defined]
    return make


def no_hscroll(page: Any, width: int) -> None:
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width


def wait_until(pred: Any, timeout: float = 20.0, what: str = "condition") -> Any:
    end = time.monotonic() + timeout
    while True:
        out = pred()
        if out:
            return out
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.05)


def finish(server: Any, gid: str, token: str | None = None) -> Any:
    """Play the game to its end over the API (the token's seat: random legal moves)."""
    rng = random.Random(4)
    end = time.monotonic() + 90
    while True:
        g = server.game(gid, token)
        if g["is_over"]:
            return server.game(gid)
        assert time.monotonic() < end, "the game did not end"
        if g["legal_actions"]:
            action = rng.choice(g["legal_actions"])
            server.api(
                "POST",
                f"/api/games/{gid}/actions?token={token}",
                {"version": g["version"], "action": action},
            )
        else:
            time.sleep(0.02)


def board_names(page: Any) -> list[str]:
    heads = page.locator("section.pboard header strong").all_inner_texts()
    return [re.sub(r" \((you|te|tu|toi|ви|あなた)\)$", "", x).strip() for x in heads]


def created_links(page: Any) -> dict[str, str]:
    rows = page.locator("#created .linkrow")
    rows.first.wait_for()
    return {r.locator(".lbl").inner_text(): r.locator("input").input_value() for r in rows.all()}


# ------------------------------------------------------------------ lobby


def test_lobby_makes_a_game_with_names_grace_and_clock(
    server: Any, at: Any, output_dir: Path
) -> None:
    page = at(LAPTOP, "lobby")
    page.goto(server.base + "/")
    seats = page.locator(".seats .seat")
    seats.nth(2).wait_for()  # the lobby draws its seats once the catalog has come
    assert seats.count() == 3
    seats.nth(1).locator("select").first.select_option("human")
    seats.nth(2).locator("select").first.select_option("bot")
    seats.nth(2).locator("select").nth(1).select_option("easy")
    names = seats.locator("input.seat-name")
    assert names.count() == 2  # the human seats; bots keep their level instead
    assert names.first.get_attribute("maxlength") == "24"
    names.nth(0).fill("Anna")
    names.nth(1).fill("  Bálint  ")
    # The defaults: the bot takes over after 5 minutes, no move clock, a medium stand-in.
    grace, clock = page.locator("#opt-grace"), page.locator("#opt-clock")
    assert grace.locator("option:checked").inner_text() == "5 min"
    assert clock.locator("option:checked").inner_text() == "none"
    assert grace.locator("option").all_inner_texts() == [
        "1 min",
        "5 min",
        "30 min",
        "1 day",
        "never",
    ]
    for sel in ("#opt-grace-help", "#opt-clock-help", "#opt-autopilot-help"):
        assert page.locator(sel).inner_text().strip()
    grace.select_option(label="30 min")
    clock.select_option(label="15 min")
    page.locator("#opt-autopilot").select_option("hard")
    assert not page.locator("#opt-seed").is_visible()  # behind "Advanced"
    with page.expect_request(
        lambda r: r.url.endswith("/api/games") and r.method == "POST"
    ) as request:
        page.get_by_role("button", name="Create game").click()
    body = json.loads(request.value.post_data)
    assert body["seats"] == [
        {"kind": "human", "name": "Anna"},
        {"kind": "human", "name": "Bálint"},
        EASY,
    ]
    assert body["options"] == {"takeover_grace_s": 1800, "clock_s": 900, "autopilot_level": "hard"}
    assert "seed" not in body
    links = created_links(page)
    assert set(links) == {"Seat 1", "Seat 2", "Spectator"}, links
    assert page.locator("#created .linkrow .who").all_inner_texts() == ["Anna", "Bálint"]
    assert page.locator("#created [data-testid=seeded]").count() == 0
    gid = re.search(r"/game/([^/?#]+)", links["Seat 1"]).group(1)  # type: ignore[union-attr]
    page.locator(f"#mygames li[data-game='{gid}']").wait_for()
    no_hscroll(page, LAPTOP[0])
    page.mouse.move(0, 0)
    page.screenshot(path=str(output_dir / "lobby-1366.png"), full_page=True)

    g = server.game(gid)
    assert g["clock_s"] == 900
    page.goto(links["Seat 1"])
    page.locator("#boardwrap svg.board").wait_for()
    shown = board_names(page)
    if g["players"][0].get("named"):  # the server keeps the names (api.md)
        assert sorted(shown) == sorted(["Anna", "Bálint", "Bot 3 (easy)"])
    else:  # a server without names: the client's own default names
        assert sorted(shown) == sorted(["Player 1", "Player 2", "Bot 3 (easy)"])
    assert page.locator("#seeded-badge").count() == 0
    assert not at.errors.errors, at.errors.errors


def test_lobby_on_a_phone_with_a_seed(server: Any, at: Any, output_dir: Path) -> None:
    page = at(PHONE, "phone")
    page.goto(server.base + "/")
    page.locator("details.advanced summary").click()
    seed = page.locator("#opt-seed")
    seed.wait_for()
    assert "seeded" in page.locator("#opt-seed-help").inner_text()
    seed.fill("12x")
    page.get_by_role("button", name="Create game").click()
    page.locator("#created [role=alert]", has_text="whole number").wait_for()
    seed.fill("9223372036854775807")  # 2^63 - 1: beyond a JS number's exact range
    with page.expect_request(
        lambda r: r.url.endswith("/api/games") and r.method == "POST"
    ) as request:
        page.get_by_role("button", name="Create game").click()
    assert request.value.post_data.endswith(',"seed":9223372036854775807}')
    links = created_links(page)
    badge = page.locator("#created [data-testid=seeded]")
    assert badge.inner_text() == "seeded"
    tip = badge.get_attribute("title")
    assert tip == "the creator chose the seed and could predict the draws"
    gid = re.search(r"/game/([^/?#]+)", links["Seat 1"]).group(1)  # type: ignore[union-attr]
    page.locator(f"#mygames li[data-game='{gid}'] [data-testid=seeded]").wait_for()
    no_hscroll(page, PHONE[0])
    page.mouse.move(0, 0)
    page.screenshot(path=str(output_dir / "lobby-390.png"), full_page=True)

    page.goto(links["Seat 1"])
    page.locator("#boardwrap svg.board").wait_for()
    assert server.game(gid)["seeded"] is True  # the payload's flag
    page.locator("#seeded-badge").wait_for()
    assert page.locator("#seeded-badge").get_attribute("title") == tip
    assert not at.errors.errors, at.errors.errors


# ------------------------------------------------------- Through Ice and Snow


def _ice_lobby(page: Any, server: Any) -> None:
    page.goto(server.base + "/")
    page.locator("#game").select_option("iceandsnow")
    page.locator("#gopt-modes").wait_for()
    assert page.locator("header .title").inner_text() == "Through Ice and Snow"


def test_lobby_makes_an_ice_and_snow_game_with_its_options(
    server: Any, at: Any, output_dir: Path
) -> None:
    page = at(LAPTOP, "ice-lobby")
    page.goto(server.base + "/")
    # the picker shows Northwest at once, and every game once the catalog has come
    page.locator("#game option").nth(1).wait_for(state="attached")
    assert page.locator("#game option").all_inner_texts() == [
        "Expedition: Northwest Passage",
        "Through Ice and Snow",
    ]
    assert page.locator("#game-options").is_hidden()  # Northwest has no options of its own
    _ice_lobby(page, server)
    assert page.locator("#nplayers option").all_inner_texts() == ["1 (solo)", "2", "3", "4"]
    # Every option of the engine (GET /api/catalog) has a row and a line that explains it.
    catalog = server.api("GET", "/api/catalog")["games"]
    ice = next(g for g in catalog if g["game"] == "iceandsnow")
    for o in ice["options"]:
        shown = page.locator(f"#gopt-{o['key']}")
        # the solo scenario is for one seat; a module's readings show once it is picked
        hidden = o["key"] == "scenario" or o["requires"]
        assert shown.count() == (0 if hidden else 1), o["key"]
        if shown.count():
            help_text = page.locator(f"#gopt-{o['key']}-help").inner_text().strip()
            assert help_text and not help_text.startswith("gopt_"), o["key"]
    assert page.locator("#gopt-modes-help li").count() == 3  # a line per mode
    page.locator("#nplayers").select_option("4")
    seats = page.locator(".seats .seat")
    seats.nth(1).locator("select").first.select_option("human")
    seats.nth(1).locator("input.seat-name").fill("Bea")
    seats.nth(3).locator("select").nth(1).select_option("hard")
    page.locator("#gopt-modes input[value=survival]").check()
    page.locator("#gopt-modes input[value=dual_species]").check()
    page.locator("#gopt-upgrades").select_option("all")
    page.locator("#gopt-extra_events").check()
    page.locator("#gopt-towing_pp").select_option("per_fuel")
    page.locator("#gopt-helm_tie").select_option("include_leader")
    page.locator("#gopt-passing").select_option("forced")
    assert "only when no action" in page.locator("#gopt-passing-help").inner_text()
    # Picking a module brings its readings (and keeps the focus on its box).
    assert page.locator("#gopt-curse_check").count() == 0
    page.locator("#gopt-modules input[value=inuit_myths]").check()
    page.locator("#gopt-curse_check").wait_for()
    assert page.evaluate("document.activeElement.value") == "inuit_myths"
    assert page.locator("#gopt-walking_order").count() == 0
    page.locator("#gopt-curse_check").select_option("attrition")
    with page.expect_request(
        lambda r: r.url.endswith("/api/games") and r.method == "POST"
    ) as request:
        page.get_by_role("button", name="Create game").click()
    body = json.loads(request.value.post_data)
    assert body["game"] == "iceandsnow" and body["players"] == 4
    assert body["seats"] == [
        {"kind": "human"},
        {"kind": "human", "name": "Bea"},
        {"kind": "bot", "level": "medium"},
        {"kind": "bot", "level": "hard"},
    ]
    expected = {
        "modes": ["survival", "dual_species"],
        "upgrades": "all",
        "extra_events": True,
        "towing_pp": "per_fuel",
        "helm_tie": "include_leader",
        "passing": "forced",
        "modules": ["inuit_myths"],
        "curse_check": "attrition",
        "creature_officer": "listed",
    }
    assert body["game_options"] == expected
    links = created_links(page)
    assert set(links) == {"Seat 1", "Seat 2", "Spectator"}, links
    gid = re.search(r"/game/([^/?#]+)", links["Seat 1"]).group(1)  # type: ignore[union-attr]
    row = page.locator(f"#mygames li[data-game='{gid}']")
    row.wait_for()
    assert row.locator("[data-testid=game-name]").inner_text() == "Through Ice and Snow"
    g = server.game(gid)
    assert g["game"] == "iceandsnow" and g["game_options"]["scenario"] is None
    assert {k: g["game_options"][k] for k in expected} == expected
    no_hscroll(page, LAPTOP[0])
    page.mouse.move(0, 0)
    page.screenshot(path=str(output_dir / "lobby-ice-1366.png"), full_page=True)
    # The choices are kept for the next game, per game; Northwest's lobby is as it was.
    page.goto(server.base + "/")
    page.locator("#gopt-upgrades").wait_for()
    assert page.locator("#game").input_value() == "iceandsnow"
    assert page.locator("#gopt-upgrades").input_value() == "all"
    page.locator("#game").select_option("northwest")
    assert page.locator("#nplayers option").all_inner_texts() == ["2", "3", "4"]
    assert page.locator("#game-options").is_hidden()
    assert not at.errors.errors, at.errors.errors


def test_lobby_solo_scenario_on_a_phone(server: Any, at: Any, output_dir: Path) -> None:
    page = at(PHONE, "ice-solo")
    _ice_lobby(page, server)
    page.locator("#nplayers").select_option("1")
    assert page.locator(".seats .seat").count() == 1
    scenario = page.locator("#gopt-scenario")
    assert scenario.locator("option").all_inner_texts() == [
        "Lost Expedition",
        "Magnetic North Pole",
        "Mysterious Epidemic",
        "Amundsen's Voyage",
    ]
    assert "Lost Expedition: Search three priority regions" in (
        page.locator("#gopt-scenario-help").inner_text()
    )
    # Readings about other players do not apply alone.
    assert page.locator("#gopt-towing_pp").count() == 0
    assert page.locator("#gopt-helm_tie").count() == 0
    scenario.select_option("magnetic-north-pole")
    assert "magnetic north pole turns up" in page.locator("#gopt-scenario-help").inner_text()
    with page.expect_request(
        lambda r: r.url.endswith("/api/games") and r.method == "POST"
    ) as request:
        page.get_by_role("button", name="Create game").click()
    body = json.loads(request.value.post_data)
    assert body["players"] == 1 and body["seats"] == [{"kind": "human"}]
    assert body["game_options"] == {
        "scenario": "magnetic-north-pole",
        "modes": [],
        "upgrades": "base",
        "extra_events": False,
        "passing": "voluntary",
        "modules": [],
    }
    # Walking on Ice is not for a solo scenario: the other two modules are offered.
    assert page.locator("#gopt-modules input").evaluate_all("es => es.map(e => e.value)") == [
        "inuit_myths",
        "legendary_expeditions",
    ]
    links = created_links(page)
    assert set(links) == {"Seat 1", "Spectator"}
    gid = re.search(r"/game/([^/?#]+)", links["Seat 1"]).group(1)  # type: ignore[union-attr]
    stored = server.game(gid)["game_options"]
    assert stored["scenario"] == "magnetic-north-pole" and stored["modes"] == ["survival"]
    page.locator(f"#mygames li[data-game='{gid}']").wait_for()
    no_hscroll(page, PHONE[0])
    page.mouse.move(0, 0)
    page.screenshot(path=str(output_dir / "lobby-ice-390.png"), full_page=True)
    assert not at.errors.errors, at.errors.errors


def test_lobby_shows_the_engines_word_on_a_bad_option(server: Any, at: Any) -> None:
    """The lobby offers what the catalog says and lets the engine judge: a choice the
    engine does not know (a catalog out of step) comes back as the engine's message."""
    page = at(LAPTOP, "ice-bad")

    def doctored(route: Any) -> None:
        games = server.api("GET", "/api/catalog")["games"]
        for g in games:
            for o in g["options"]:
                if o["key"] == "modes":
                    o["choices"].append("blizzard")
        route.fulfill(
            status=200, content_type="application/json", body=json.dumps({"games": games})
        )

    page.route("**/api/catalog", doctored)
    _ice_lobby(page, server)
    page.locator("#gopt-modes input[value=blizzard]").check()
    page.get_by_role("button", name="Create game").click()
    page.locator("#created .warn-text", has_text="unknown mode(s) blizzard").wait_for()
    assert "game_options:" in page.locator("#created .warn-text").inner_text()
    errors = [e for e in at.errors.errors if "HTTP 400" not in e]
    assert not errors, errors


def test_default_seat_names_follow_the_language(server: Any, at: Any) -> None:
    created = server.create([{"kind": "human"}, {"kind": "bot", "level": "hard"}], seed=2)
    page = at(LAPTOP, "names")
    page.goto(server.base + created["seats"][0]["url"])
    page.locator("#boardwrap svg.board").wait_for()
    assert sorted(board_names(page)) == ["Bot 2 (hard)", "Player 1"]
    page.locator("header select.lang").select_option("hu")
    page.locator(".logbox h3", has_text="Napló").wait_for()
    assert sorted(board_names(page)) == ["1. játékos", "2. gép (nehéz)"]
    page.locator("header select.lang").select_option("ja")
    page.locator(".logbox h3", has_text="ログ").wait_for()
    assert sorted(board_names(page)) == sorted(["プレイヤー1", "ボット2（むずかしい）"])
    assert not at.errors.errors, at.errors.errors


# ------------------------------------------------------------------ rematch


def test_rematch_from_the_end_screen_and_from_my_games(
    server: Any, at: Any, output_dir: Path
) -> None:
    created = server.create([{"kind": "human"}, EASY], seed=2)
    gid, token = created["id"], created["seats"][0]["token"]
    finish(server, gid, token)
    page = at(LAPTOP, "rematch")
    page.goto(server.base + created["seats"][0]["url"])
    page.locator("section.endgame").wait_for()
    page.screenshot(path=str(output_dir / "lobby-end-1366.png"), full_page=True)
    assert page.locator("section.endgame [data-testid=replay-link]").get_attribute("href") == (
        f"/replay/{gid}"
    )
    page.locator("section.endgame [data-testid=rematch]").click()
    page.wait_for_url(re.compile(r"/game/(?!" + re.escape(gid) + r")[^/?#]+\?token="))
    new_id = re.search(r"/game/([^/?#]+)", page.url).group(1)  # type: ignore[union-attr]
    assert page.url.endswith(f"?token={token}")
    page.locator("#boardwrap svg.board").wait_for()
    again = server.game(new_id, token)
    assert again["seat"] == 0 and not again["is_over"]
    assert server.game(gid)["rematch"] == new_id

    # "My games": the finished game has its replay link and a rematch (the same one).
    page.goto(server.base + "/")
    row = page.locator(f"#mygames li[data-game='{gid}']")
    row.locator("[data-testid=rematch]").wait_for()
    assert row.locator(".badge.status-over").count() == 1
    assert row.locator("[data-testid=replay-link]").get_attribute("href") == f"/replay/{gid}"
    assert page.locator(f"#mygames li[data-game='{new_id}'] [data-testid=rematch]").count() == 0
    row.locator("[data-testid=rematch]").click()
    page.wait_for_url(re.compile(re.escape(f"/game/{new_id}?token={token}")))

    # The server's refusal (409 before the game is over) is shown as it says it.
    page.goto(server.base + "/")
    page.route(
        "**/api/games/*/rematch*",
        lambda route: route.fulfill(
            status=409,
            content_type="application/json",
            body=json.dumps({"detail": "the game is not over yet"}),
        ),
    )
    page.locator(f"#mygames li[data-game='{gid}'] [data-testid=rematch]").click()
    page.locator("#toast.show", has_text="No rematch: the game is not over yet").wait_for()
    assert page.url.rstrip("/") == server.base
    errors = [e for e in at.errors.errors if "/rematch" not in e]
    assert not errors, errors


# ------------------------------------------------------------------ replay


def _pos(page: Any) -> int:
    return int(page.locator(".replay-step").get_attribute("data-step"))


def _at_step(page: Any, k: int, n: int) -> None:
    page.locator(f".replay-step[data-step='{k}']").wait_for()
    assert page.locator("#rp-pos").inner_text() == f"Step {k} of {n}"
    assert page.url.endswith(f"?step={k}"), page.url
    assert page.locator("#rp-slider").input_value() == str(k)


def test_replay_steps_by_move_round_key_slider_and_link(
    server: Any, at: Any, output_dir: Path
) -> None:
    live = server.create([{"kind": "human"}, EASY], seed=2)
    gid = server.create([EASY, EASY, EASY], seed=9)["id"]
    final = wait_until(lambda: (g := server.game(gid))["is_over"] and g, 60, "the bots to finish")
    index = server.api("GET", f"/api/games/{gid}/replay")
    n, rounds = index["steps"], index["rounds"]
    assert len(rounds) >= 4

    page = at(LAPTOP, "replay")
    page.goto(f"{server.base}/replay/{gid}")
    _at_step(page, 0, n)
    assert page.locator("#rp-first").is_disabled() and page.locator("#rp-prev").is_disabled()
    assert page.locator("#boardwrap svg.board").count() == 1
    assert page.locator("#roundinfo").inner_text() == "Setup draft"
    for sel in (".supply button:enabled", "svg.board .vehicle.movable", "svg.board rect.dest"):
        assert page.locator(sel).count() == 0, sel
    page.locator("#rp-next").click()
    _at_step(page, 1, n)
    step1 = server.api("GET", f"/api/games/{gid}/replay/1")
    shown = page.locator(".replay-step .step-events li").all_inner_texts()
    assert shown and len(shown) <= len(step1["events"])
    page.keyboard.press("ArrowRight")
    _at_step(page, 2, n)
    page.keyboard.press("ArrowLeft")
    _at_step(page, 1, n)
    page.locator("#rp-next-round").click()
    _at_step(page, rounds[1]["step"], n)
    assert page.locator("#roundinfo").inner_text().startswith("Round 1/10")
    page.keyboard.press("Shift+ArrowRight")
    _at_step(page, rounds[2]["step"], n)
    page.locator("#rp-next").click()
    _at_step(page, rounds[2]["step"] + 1, n)
    page.locator("#rp-prev-round").click()  # back to the start of this round
    _at_step(page, rounds[2]["step"], n)
    page.keyboard.press("Shift+ArrowLeft")  # and to the one before
    _at_step(page, rounds[1]["step"], n)
    page.locator("#rp-slider").evaluate(
        "(el, k) => { el.value = String(k); el.dispatchEvent(new Event('input')); }",
        rounds[3]["step"],
    )
    _at_step(page, rounds[3]["step"], n)
    page.locator("#rp-last").click()
    _at_step(page, n, n)
    assert page.locator("#rp-next").is_disabled() and page.locator("#rp-last").is_disabled()
    assert page.locator(".replay-step .turn").inner_text().startswith("Game over")
    scores = [int(x) for x in page.locator("section.pboard header .score").all_inner_texts()]
    assert sorted(scores) == sorted(final["scores"])
    page.keyboard.press("Home")
    _at_step(page, 0, n)

    # A shared link opens that step; the screenshots show one in the middle of the game.
    k = rounds[3]["step"] + 2
    expected = server.api("GET", f"/api/games/{gid}/replay/{k}")
    for size, name in ((LAPTOP, "replay-1366.png"), (PHONE, "replay-390.png")):
        shot = at(size, f"replay-{size[0]}")
        shot.goto(f"{server.base}/replay/{gid}?step={k}")
        _at_step(shot, k, n)
        assert (
            shot.locator("#roundinfo")
            .inner_text()
            .startswith(f"Round {expected['view']['round']}/10")
        )
        no_hscroll(shot, size[0])
        shot.screenshot(path=str(output_dir / name), full_page=True)
    # Out of range: the nearest step.
    page.goto(f"{server.base}/replay/{gid}?step={n + 50}")
    _at_step(page, n, n)

    # A game in progress has no replay yet: the page says so and links to the table.
    page.goto(f"{server.base}/replay/{live['id']}")
    page.locator("[data-testid=replay-error]", has_text="still in progress").wait_for()
    assert page.get_by_role("link", name="Watch it live").get_attribute("href") == (
        f"/game/{live['id']}"
    )
    errors = [e for e in at.errors.errors if f"/api/games/{live['id']}/replay" not in e]
    assert not errors, errors
