"""The Myths & Legends solo scenarios in the browser, end to end: Mysterious Epidemic and
Amundsen's Voyage each played to its end on the real server through the page only
(test_browser_iceandsnow's random player, who also treats the ill crew from the
treatment buttons when they are offered, and answers the scenarios' own dialogs: the
free upgrade at set-up, who falls ill).

On the way the page shows the Epidemic's Inuk pawns on the map, the disease and
treatment cards beside the action board, the ill crew on the personal board, and
Amundsen's black cylinders on the tracks with what removes them; the end screen says
won or lost and why.  Screenshots ``tests/output/iceandsnow-solo2-*.png`` at 1366x768
and at phone size.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from test_browser_iceandsnow import LAPTOP, PHONE, Player, open_game

GAME_TIMEOUT_S = 90.0
CLICK_MS = 4000
SOLO_JS = """() => {
  const q = (s) => document.querySelector(s), all = (s) => [...document.querySelectorAll(s)];
  return {
    over: !!q("section.endgame"),
    scenario: !!q("[data-testid=scenario]"),
    objectives: all("[data-testid=objectives] [data-objective]").map((e) => e.dataset.objective),
    epidemic: !!q("[data-testid=epidemic-panel]"),
    amundsen: !!q("[data-testid=amundsen-panel]"),
    diseases: all("[data-testid=disease-card]").length,
    treatments: all("[data-testid=treatment-card]").length,
    treat: all("[data-testid=free-treat]").length,
    inuit: all("[data-testid=inuk-pawn]").length,
    cylinders: all(".is2-cyl-cell").length,
    ill_row: !!q(".is-crew .row-ill"),
    haven: (q("[data-testid=haven]") || {}).textContent || "",
    decision: (q("[data-testid=decision]") || { dataset: {} }).dataset.kind || null,
    missing: all("[data-testid=decision] [data-testid=missing]").map((e) => e.textContent),
    end_reason: (q("[data-testid=end-reason]") || {}).textContent || "",
    end_text: (q("[data-testid=end-panel]") || {}).textContent || "",
    end_objectives: all("[data-testid=end-objectives] li").length,
    inuk_anchors: all("[data-testid=inuk-pawn]").map((e) => e.dataset.anchor),
  };
}"""


class SoloPlayer(Player):
    """A random player who treats the ill crew when a treatment is offered."""

    def __init__(self, page: Any, seed: int, tag: str = "") -> None:
        super().__init__(page, seed, tag)
        self.treats = 0
        self.seen: dict[str, Any] = {}

    def act(self, seen: Any = None) -> str | None:
        seen = seen or self.look()
        solo = self.page.evaluate(SOLO_JS)
        for k, v in solo.items():
            if isinstance(v, bool) and v:
                self.seen[k] = True
            elif isinstance(v, int) and not isinstance(v, bool):
                self.seen[k] = max(self.seen.get(k, 0), v)
            elif isinstance(v, list) and v and k != "inuk_anchors":
                self.seen[k] = sorted(set(self.seen.get(k, [])) | set(v))
        if solo["treat"] and not seen["decision"] and not seen["sheet"]:
            self.page.locator("[data-testid=free-treat]").first.click(timeout=CLICK_MS)
            self.treats += 1
            return "treat"
        dec = seen["decision"]
        if dec and dec["kind"] in ("choose_upgrade", "fall_ill") and dec["choices"]:
            # the keyboard: focus a choice (Tab order), then Enter
            self.page.locator("[data-testid=decision] [data-testid=choice]").nth(
                self.rng.randrange(len(dec["choices"]))
            ).focus(timeout=CLICK_MS)
            self.page.keyboard.press("Enter")
            self.keyboard += 1
            self.decisions[dec["kind"]] = self.decisions.get(dec["kind"], 0) + 1
            return f"decision {dec['kind']}"
        if dec and dec["kind"] in ("destination", "voyage") and self.rng.random() < 0.9:
            # a player who seeks the Inuit settlements (Epidemic): towards an Inuk pawn,
            # then the coastal voyage that maps its region
            want = [f'"to":"{a}"' for a in solo["inuk_anchors"]] + ['"voyage":"coastal"']
            hits = [i for i, c in enumerate(dec["choices"]) if any(w in c["action"] for w in want)]
            if hits:
                self.decisions[dec["kind"]] = self.decisions.get(dec["kind"], 0) + 1
                self.page.locator("[data-testid=decision] [data-testid=choice]").nth(
                    self.rng.choice(hits)
                ).click(timeout=CLICK_MS)
                return f"decision {dec['kind']}"
        return super().act(seen)


def shoot(page: Any, out: Path, name: str, shots: dict[str, Path]) -> None:
    path = out / f"iceandsnow-solo2-{name}.png"
    page.screenshot(path=str(path), full_page=False)
    shots[name] = path


@pytest.mark.parametrize(
    ("scenario", "seed", "size"),
    [
        ("mysterious-epidemic", 4, "laptop"),
        ("amundsens-voyage", 2, "laptop"),
        ("mysterious-epidemic", 9, "phone"),
        ("amundsens-voyage", 6, "phone"),
    ],
)
def test_a_new_solo_scenario_played_to_its_end(
    server: Any, new_page: Any, output_dir: Path, scenario: str, seed: int, size: str
) -> None:
    t0 = time.monotonic()
    created = server.api(
        "POST",
        "/api/games",
        {
            "game": "iceandsnow",
            "players": 1,
            "seats": [{"kind": "human"}],
            "game_options": {"scenario": scenario},
            "seed": seed,
        },
    )
    gid = created["id"]
    page = new_page(f"solo2-{scenario}-{size}")
    page.set_viewport_size(LAPTOP if size == "laptop" else PHONE)
    open_game(page, server.base + created["seats"][0]["url"])
    tag = f"{scenario}-{size}"
    shots: dict[str, Path] = {}
    player = SoloPlayer(page, seed=seed + 1)
    acts = 0
    deadline = time.monotonic() + GAME_TIMEOUT_S
    while not server.game(gid)["is_over"]:
        assert time.monotonic() < deadline, f"the solo game did not end after {acts} clicks"
        seen = player.look()
        kind = seen["decision"]["kind"] if seen["decision"] else None
        if (
            kind
            and f"dialog-{kind}" not in shots
            and kind in ("choose_upgrade", "fall_ill", "voyage")
        ):
            shoot(page, output_dir, f"{tag}-dialog-{kind}", shots)
            shots[f"dialog-{kind}"] = shots[f"{tag}-dialog-{kind}"]
        if seen["spaces"] and "board" not in shots and seen["round"] >= 2:
            page.locator("[data-testid=action-board]").scroll_into_view_if_needed()
            shoot(page, output_dir, f"{tag}-board", shots)
            shots["board"] = shots[f"{tag}-board"]
        if page.locator("[data-testid=treatment-card]").count() and "treatment" not in shots:
            page.locator("[data-testid=epidemic-panel]").scroll_into_view_if_needed()
            shoot(page, output_dir, f"{tag}-treatment", shots)
            shots["treatment"] = shots[f"{tag}-treatment"]
        if player.act(seen):
            acts += 1
        else:
            time.sleep(0.05)
    page.locator("section.endgame").first.wait_for()
    page.wait_for_timeout(300)
    page.locator("section.endgame").first.scroll_into_view_if_needed()
    shoot(page, output_dir, f"{tag}-end", shots)
    final = server.game(gid)
    assert final["is_over"]
    solo = page.evaluate(SOLO_JS)
    seen = player.seen
    # the scenario's panel and objectives were on the page all game
    assert seen.get("scenario"), seen
    if scenario == "mysterious-epidemic":
        assert seen.get("epidemic"), seen
        assert set(seen.get("objectives", [])) == {"healthy_crew", "passage"}, seen
        assert player.decisions.get("choose_upgrade") == 1, player.decisions
        assert seen.get("inuit", 0) >= 1, seen  # the settlement card's pawns on the map
    else:
        assert seen.get("amundsen"), seen
        assert set(seen.get("objectives", [])) == {"haven", "passage"}, seen
        assert seen.get("cylinders", 0) >= 1, seen  # black cylinders on the tracks
        # the open sea is never offered; the dialog says why
        assert any("coast" in m for m in seen.get("missing", [])), seen
    assert solo["end_objectives"] == 2, solo  # each objective, met or not
    # the end says won or lost, and why
    won = final["view"]["won"]
    assert ("the expedition failed" in solo["end_text"]) != bool(won), solo["end_text"]
    if not won:
        assert solo["end_reason"].strip() or "Gjøa Haven" in solo["end_text"], solo
    assert not new_page.errors.errors, new_page.errors.errors
    print(
        f"solo {scenario} ({size}): {acts} page actions, {player.treats} treatments, "
        f"{seen.get('treatments', 0)} treatment cards seen, decisions {player.decisions}, "
        f"{time.monotonic() - t0:.1f}s"
    )


@pytest.mark.parametrize(
    ("size", "scenario"), [("laptop", "mysterious-epidemic"), ("phone", "amundsens-voyage")]
)
def test_the_lobby_offers_both_for_one_seat(
    server: Any, new_page: Any, output_dir: Path, size: str, scenario: str
) -> None:
    from test_browser_lobby import created_links, no_hscroll

    page = new_page(f"solo2-lobby-{size}")
    page.set_viewport_size(LAPTOP if size == "laptop" else PHONE)
    page.goto(server.base + "/")
    page.locator("#game").select_option("iceandsnow")
    page.locator("#gopt-modes").wait_for()
    page.locator("#nplayers").select_option("1")
    sel = page.locator("#gopt-scenario")
    names = sel.locator("option").all_inner_texts()
    assert {"Mysterious Epidemic", "Amundsen's Voyage"} <= set(names), names
    sel.select_option(scenario)
    help_text = page.locator("#gopt-scenario-help").inner_text()
    want = "Disease strikes the crew" if scenario == "mysterious-epidemic" else "Gjøa sails"
    assert want in help_text, help_text
    page.locator("#gopt-scenario").focus()  # keyboard: the select is reachable
    page.keyboard.press("Tab")
    no_hscroll(page, (LAPTOP if size == "laptop" else PHONE)["width"])
    page.screenshot(path=str(output_dir / f"iceandsnow-solo2-lobby-{size}.png"), full_page=True)
    page.get_by_role("button", name="Create game").click()
    links = created_links(page)
    gid = links["Seat 1"].rsplit("/game/", 1)[1].split("?")[0].split("#")[0]
    assert server.game(gid)["game_options"]["scenario"] == scenario
    assert not new_page.errors.errors, new_page.errors.errors


@pytest.mark.parametrize(
    ("lang", "scenario"), [("ja", "mysterious-epidemic"), ("hu", "amundsens-voyage")]
)
def test_the_scenarios_speak_the_page_language(
    server: Any, new_page: Any, output_dir: Path, lang: str, scenario: str
) -> None:
    """No key shows through as text: the panels, dialogs and log lines have words in
    every language (a few rounds are enough to see them)."""
    created = server.api(
        "POST",
        "/api/games",
        {
            "game": "iceandsnow",
            "players": 1,
            "seats": [{"kind": "human"}],
            "game_options": {"scenario": scenario},
            "seed": 4,
        },
    )
    page = new_page(f"solo2-{lang}", lang)
    page.set_viewport_size(LAPTOP)
    page.goto(server.base + created["seats"][0]["url"])
    page.locator("[data-testid=action-board]").wait_for()
    player = SoloPlayer(page, seed=5)
    deadline = time.monotonic() + 40
    acts = 0
    while acts < 40 and not server.game(created["id"])["is_over"]:
        assert time.monotonic() < deadline
        if player.act():
            acts += 1
        else:
            time.sleep(0.05)
        text = page.locator("body").inner_text()
        raw = re.findall(r"\b(?:is2|iact|isev|is)_[a-z0-9_]+\b", text)
        assert not raw, raw
    page.screenshot(path=str(output_dir / f"iceandsnow-solo2-{lang}.png"), full_page=False)
    assert not new_page.errors.errors, new_page.errors.errors
