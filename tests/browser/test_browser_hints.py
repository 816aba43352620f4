"""The Hint button (both boards) and the replay's review view in Chromium, at a laptop's
1366×768 and a phone's 390×844.

Needs ``/usr/bin/chromium`` and the ``playwright`` package (skipped without them).
Screenshots: ``tests/output/hint-*.png`` and ``review-*.png``.
"""

from __future__ import annotations

import json
import time
import urllib.error
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(f"browser tests need Chromium at {CHROMIUM}", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")

LAPTOP = (1366, 768)
PHONE = (390, 844)
HUMAN = {"kind": "human"}
EASY = {"kind": "bot", "level": "easy"}


def _page(new_page: Any, size: tuple[int, int], label: str, lang: str = "en") -> Any:
    page = new_page(label, lang)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    return page


def _create(server: Any, game: str, seats: list[dict[str, Any]], seed: int, **body: Any) -> Any:
    return server.api(
        "POST",
        "/api/games",
        {"game": game, "players": len(seats), "seats": seats, "seed": seed, **body},
    )


def _wait(pred: Any, timeout: float = 60.0, what: str = "condition") -> Any:
    end = time.monotonic() + timeout
    while True:
        out = pred()
        if out:
            return out
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.1)


@pytest.mark.parametrize(("game", "players"), [("northwest", 3), ("iceandsnow", 2)])
def test_the_hint_button_shows_a_legal_action_in_words_and_on_the_board(
    server: Any, new_page: Any, output_dir: Path, game: str, players: int
) -> None:
    created = _create(server, game, [HUMAN] + [EASY] * (players - 1), seed=11)
    gid, tok = created["id"], created["seats"][0]["token"]
    g = _wait(lambda: (lambda x: x if x["legal_actions"] else None)(server.game(gid, tok)))

    # Into the game far enough that the hint means something: Northwest past the draft,
    # Ice and Snow to the action phase (past the setup choices and the voyage).
    def into_play(x: Any) -> bool:
        if game == "northwest":
            return bool(x["view"]["round"] >= 1)
        return any(a["type"] == "take" for a in x["legal_actions"])

    for _ in range(40):
        if g["is_over"] or into_play(g):
            break
        server.api(
            "POST",
            f"/api/games/{gid}/actions?token={tok}",
            {"version": g["version"], "action": g["legal_actions"][0]},
        )
        g = _wait(
            lambda: (lambda x: x if x["legal_actions"] or x["is_over"] else None)(
                server.game(gid, tok)
            )
        )
    assert into_play(g)
    for size, tag in ((LAPTOP, "laptop"), (PHONE, "phone")):
        page = _page(new_page, size, f"{game}-{tag}")
        page.goto(f"{server.base}/game/{gid}?token={tok}")
        btn = page.locator("#hintbtn")
        btn.wait_for(state="visible")
        assert btn.is_enabled()
        assert page.locator("#hintbox").count() == 0
        if tag == "laptop":
            btn.focus()
            page.keyboard.press("Enter")  # keyboard-operable
        else:
            btn.click()
        box = page.locator("[data-testid=hint]")
        box.wait_for(state="visible", timeout=60_000)
        text = box.inner_text()
        assert "Hint" in text
        assert "hard bot" in text.lower() or "only legal" in text.lower()
        hint = server.api("GET", f"/api/games/{gid}/hint?token={tok}")
        legal = server.game(gid, tok)["legal_actions"]
        assert hint["action"] in legal
        words = page.locator(".hint-action").inner_text()
        assert words == hint["text"]  # the game's words (describe_action), in English
        if game == "northwest" or hint["action"]["type"] in ("take", "pass"):
            # ... and shown on the table: squares, a destination, a button, a space
            assert page.locator(".hinted, svg.board .log-hl").count() >= 1
        page.wait_for_timeout(300)
        page.screenshot(path=str(output_dir / f"hint-{game}-{tag}.png"), full_page=tag == "phone")
    # In another language the board's own words (Northwest has them for every kind):
    # the server's English words would mix two languages on one page.
    page = _page(new_page, LAPTOP, f"{game}-fr", lang="fr")
    page.goto(f"{server.base}/game/{gid}?token={tok}")
    page.locator("#hintbtn").click()
    page.locator("[data-testid=hint]").wait_for(state="visible", timeout=60_000)
    words = page.locator(".hint-action").inner_text()
    assert words and "{" not in words
    if game == "northwest":
        assert words != hint["text"]
    assert not new_page.errors.errors, new_page.errors.errors


def test_no_hint_button_when_hints_are_off(server: Any, new_page: Any) -> None:
    created = _create(server, "northwest", [HUMAN, HUMAN], seed=2)  # two people: off
    gid, tok = created["id"], created["seats"][0]["token"]
    page = _page(new_page, LAPTOP, "off")
    page.goto(f"{server.base}/game/{gid}?token={tok}")
    page.locator("#boardwrap svg").first.wait_for()
    assert page.locator("#hintbtn").is_hidden()
    with pytest.raises(urllib.error.HTTPError) as err:
        server.api("GET", f"/api/games/{gid}/hint?token={tok}")
    assert err.value.code == 403


def test_the_lobby_hints_option(server: Any, new_page: Any, output_dir: Path) -> None:
    page = _page(new_page, LAPTOP, "lobby")
    page.goto(f"{server.base}/")
    sel = page.locator("#opt-hints")
    assert sel.locator("option:checked").inner_text() == "Automatic"
    assert page.locator("#opt-hints-help").inner_text().strip()
    sel.select_option("off")
    with page.expect_request(
        lambda r: r.url.endswith("/api/games") and r.method == "POST"
    ) as request:
        page.get_by_role("button", name="Create game").click()
    body = json.loads(request.value.post_data)
    assert body["options"]["hints"] is False
    page.locator("#created .linkrow").first.wait_for()
    page.screenshot(path=str(output_dir / "hint-lobby-laptop.png"), full_page=True)
    assert not new_page.errors.errors, new_page.errors.errors


@pytest.mark.parametrize(("game", "players"), [("northwest", 3), ("iceandsnow", 2)])
def test_the_replay_review_plots_chances_and_marks_mistakes(
    server: Any, new_page: Any, output_dir: Path, game: str, players: int
) -> None:
    gid = _create(server, game, [EASY] * players, seed=5)["id"]
    _wait(lambda: server.game(gid)["is_over"], 120, "the bots to finish")
    for size, tag in ((LAPTOP, "laptop"), (PHONE, "phone")):
        page = _page(new_page, size, f"review-{game}-{tag}")
        page.goto(f"{server.base}/replay/{gid}?step=12")
        page.locator("#rp-review").click()
        plot = page.locator("[data-testid=review-plot]")
        plot.wait_for(state="visible", timeout=120_000)
        assert page.locator("#rp-review").get_attribute("aria-pressed") == "true"
        assert plot.locator("polyline").count() == players
        review = server.api("GET", f"/api/games/{gid}/review")
        move = review["moves"][11]
        line = page.locator("#review .rv-move").inner_text()
        assert "12" in line
        if move["mistake"]:
            assert move["best_text"] in line
        assert move["text"] in line  # what was played, in the game's words
        # The plot's axes: the move number below, the winning chance 0-100 % beside.
        assert plot.locator("[data-testid=review-axis-x]").text_content() == "Move"
        assert plot.locator("[data-testid=review-axis-y]").text_content() == "Winning chance"
        ticks = plot.locator(".rv-tick").all_text_contents()
        assert {"0%", "50%", "100%", "0"} <= set(ticks)
        # Stepping moves the review's cursor and its line with the replay.
        page.keyboard.press("ArrowRight")
        page.wait_for_function(
            "document.querySelector('#review .rv-move').innerText.includes('13')"
        )
        worst = page.locator("#review .rv-worst button")
        if worst.count():
            first = worst.first
            step = first.inner_text().split(" · ")[0]
            first.click()
            page.wait_for_url(f"**step={step}")
        page.wait_for_timeout(300)
        page.screenshot(path=str(output_dir / f"review-{game}-{tag}.png"), full_page=tag == "phone")
        page.locator("#rp-review").click()  # off again
        assert page.locator("#review").count() == 0
    assert not new_page.errors.errors, new_page.errors.errors
