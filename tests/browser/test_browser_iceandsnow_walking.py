"""Walking on Ice in the browser, end to end: a whole 2-player game with the module on
the real server, played through the page only (test_browser_iceandsnow's random
players, who here abandon the ships as soon as the leader may, open a food can from the
walking panel now and then and pick Walk or Forced March in the crossing dialog).

On the way the page shows the module's line above the action board, the sled board on
the personal boards (maintenance, food cap, cargo, cans, guilt), the abandon and
crossing dialogs with what each choice costs, and the walking map; the screenshots
``tests/output/iceandsnow-walking-*.png`` are taken at 1366x768 (seat 1) and 390x844
(seat 2, ``phone-``).
"""

from __future__ import annotations

import time
from functools import partial
from pathlib import Path
from typing import Any

from test_browser_iceandsnow import LAPTOP, PHONE, Player, module_shot, open_game

GAME_TIMEOUT_S = 300.0
CLICK_MS = 4000
WALK_JS = """() => {
  const q = (s) => document.querySelector(s);
  const d = q("[data-testid=decision]");
  return {
    panel: !!q("[data-testid=walking-panel]"),
    sled: !!q("[data-testid=sled-board] [data-testid=sled-cargo]"),
    sledText: (q("[data-testid=sled-board]") || {}).innerText || "",
    kind: d ? d.dataset.kind : null,
    crossing: !!(d && d.dataset.kind === "voyage" && d.querySelector("[data-action*=walk]")),
    missing: d ? [...d.querySelectorAll("[data-testid=missing]")].map((e) => e.innerText) : [],
    can: !!q("[data-testid=free-open_can]"),
    logAbandon: /abandons the ships/.test((q(".log, #log") || {}).innerText || ""),
  };
}"""


class WalkingPlayer(Player):
    """A random player who abandons the ships when asked and sometimes opens a can."""

    def __init__(self, page: Any, seed: int, tag: str = "") -> None:
        super().__init__(page, seed, tag)
        self.cans = 0
        self.abandoned = 0

    def act(self, seen: Any = None) -> str | None:
        seen = seen or self.look()
        w = self.page.evaluate(WALK_JS)
        if w["kind"] == "abandon":
            self.page.locator('[data-testid=decision] [data-action*="true"]').first.click(
                timeout=CLICK_MS
            )
            self.abandoned += 1
            return "abandon"
        if w["kind"] == "cargo":
            # a careful walker leaves the dynamite on the sled (the ice still needs it)
            for res in ("rifles", "wood", "cans", "dynamite"):
                loc = self.page.locator(f'[data-testid=decision] [data-action*="{res}"]')
                if loc.count():
                    loc.first.click(timeout=CLICK_MS)
                    return "cargo"
        if not seen["decision"] and not seen["sheet"] and w["can"] and self.rng.random() < 0.2:
            self.page.locator("[data-testid=free-open_can]").first.click(timeout=CLICK_MS)
            self.cans += 1
            return "can"
        return super().act(seen)


shoot = partial(module_shot, "walking")


def test_a_two_player_game_with_walking_on_ice_through_the_page(
    server: Any, new_page: Any, output_dir: Path
) -> None:
    t0 = time.monotonic()
    created = server.api(
        "POST",
        "/api/games",
        {
            "game": "iceandsnow",
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "game_options": {"modules": ["walking_on_ice"]},
            "seed": 3,
        },
    )
    gid = created["id"]
    pages = []
    for i, size in enumerate((LAPTOP, PHONE)):
        page = new_page(f"seat{i + 1}")
        page.set_viewport_size(size)
        pages.append(open_game(page, server.base + created["seats"][i]["url"]))
    players = [WalkingPlayer(pages[0], seed=300), WalkingPlayer(pages[1], seed=301, tag="phone-")]
    shots: dict[str, Path] = {}
    flags: dict[str, bool] = {"sled": False, "crossing": False, "log": False}
    kinds: set[str] = set()
    deadline = time.monotonic() + GAME_TIMEOUT_S
    acts = 0
    while True:
        looks = [p.look() for p in players]
        if looks[0]["over"]:
            break
        assert time.monotonic() < deadline, f"the game did not end after {acts} clicks"
        acted = False
        for p, seen in zip(players, looks, strict=True):
            w = p.page.evaluate(WALK_JS)
            assert w["panel"] or seen["decision"], "the walking panel is shown above the board"
            tag = p.tag
            if w["kind"]:
                kinds.add(w["kind"])
            flags["log"] = flags["log"] or w["logAbandon"]
            if w["kind"] == "abandon" and f"{tag}abandon" not in shots:
                shoot(p.page, output_dir, f"{tag}abandon", shots, "[data-testid=decision]")
            if w["crossing"]:
                flags["crossing"] = True
                if f"{tag}crossing" not in shots:
                    shoot(p.page, output_dir, f"{tag}crossing", shots, "[data-testid=decision]")
            if w["sled"]:
                flags["sled"] = True
                if f"{tag}sled" not in shots:
                    shoot(p.page, output_dir, f"{tag}sled", shots, "[data-testid=sled-board]")
                    shoot(p.page, output_dir, f"{tag}map", shots, "svg")
            if w["kind"] in ("cargo", "drop_upgrade", "cans") and f"{tag}{w['kind']}" not in shots:
                shoot(p.page, output_dir, f"{tag}{w['kind']}", shots, "[data-testid=decision]")
            did = p.act(seen)
            if did:
                acts += 1
                acted = True
        if not acted:
            time.sleep(0.05)
    final = server.game(gid)
    assert final["is_over"]
    for p in players:
        p.page.locator("section.endgame").first.wait_for()
        shoot(p.page, output_dir, f"{p.tag}end", shots, "#boardwrap")
    view = final["view"]
    assert view["walking"]["abandoned"], "the ships were abandoned through the page"
    assert flags["sled"], "the sled board was never shown"
    assert "abandon" in kinds
    assert flags["log"], "the log words the abandonment"
    assert not new_page.errors.errors, new_page.errors.errors
    print(
        f"Walking on Ice game: {acts} page actions, dialogs {sorted(kinds)}, seen {flags}, "
        f"cans opened {[p.cans for p in players]}, shots {sorted(shots)}, "
        f"{time.monotonic() - t0:.1f}s"
    )
