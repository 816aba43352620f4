"""Legendary Expeditions in the browser: a 2-player game with the module on the real
server, played through the page only for a few rounds.

Each seat chooses its explorer in the set-up dialog (seat 1 keeps Henry Kellett,
seat 2 Edward Belcher, out of the two dealt with seed 25); then random players
(test_browser_iceandsnow's) play, and also use the module's own controls when they
are offered: Kellett's free look at a deck's top card, Collinson's chart, Belcher's
forced route.  On the way the page shows the explorer and ship cards on every
personal board and Kellett's look (the card to him alone); the catalog offers the
module and its ``explorers`` option.  Screenshots ``tests/output/iceandsnow-legends-*.png`` at
1366x768 (seat 1) and 390x844 (seat 2, ``phone-``).
"""

from __future__ import annotations

import time
from functools import partial
from pathlib import Path
from typing import Any

from test_browser_iceandsnow import CLICK_MS, LAPTOP, PHONE, Player, module_shot, open_game

SEED = 25  # seat 1 is dealt D (Kellett) and I, seat 2 A and H (Belcher)
WANT = ("D", "H")
ROUNDS = 3
TIME_S = 45.0
LEGENDS_JS = """() => {
  const q = (s) => document.querySelector(s);
  const all = (s) => [...document.querySelectorAll(s)];
  return {
    explorers: all("[data-testid=seat-explorer]").map((e) => e.dataset.set),
    track: all("[data-testid=free-track]").length,
    chart: all("[data-testid=free-chart]").length,
    look: all("[data-testid=kellett-look]").map((e) => e.textContent),
    despot: !!q("[data-testid=despot-left]"),
    note: !!q("[data-testid=legends-note]"),
    kind: (q("[data-testid=decision]") || { dataset: {} }).dataset.kind || null,
  };
}"""


class LegendsPlayer(Player):
    """A random player who keeps a chosen explorer and uses the module's controls."""

    def __init__(self, page: Any, seed: int, want: str, tag: str = "") -> None:
        super().__init__(page, seed, tag)
        self.want = want
        self.used: dict[str, int] = {}

    def _count(self, what: str) -> str:
        self.used[what] = self.used.get(what, 0) + 1
        return what

    def act(self, seen: Any = None) -> str | None:
        seen = seen or self.look()
        page = self.page
        dec = seen["decision"]
        try:
            if dec and dec["kind"] == "explorer":
                pick = page.locator(f"[data-testid=decision] [data-set={self.want}]")
                if not pick.count():
                    pick = page.locator("[data-testid=decision] [data-testid=choice]")
                pick.first.focus(timeout=CLICK_MS)
                page.keyboard.press("Enter")  # the card is a button: the keyboard chooses it
                return self._count("explorer")
            if dec and dec["kind"] == "despot" and self.rng.random() < 0.7:
                page.locator("[data-testid=decision] [data-testid=choice].warn").first.click(
                    timeout=CLICK_MS
                )
                return self._count("despot")
            if not seen["sheet"]:
                for testid in ("free-track", "free-chart"):
                    b = page.locator(f"[data-testid={testid}]")
                    if b.count() and self.rng.random() < 0.6:
                        b.first.click(timeout=CLICK_MS)
                        return self._count(testid)
        except Exception:  # a push redrew the page between the look and the click
            return None
        return super().act(seen)


shoot = partial(module_shot, "legends")


def test_explorers_chosen_and_used_through_the_page(
    server: Any, new_page: Any, output_dir: Path
) -> None:
    t0 = time.monotonic()
    catalog = server.api("GET", "/api/catalog")
    ice = next(g for g in catalog["games"] if g["game"] == "iceandsnow")
    keys = {o["key"]: o for o in ice["options"]}
    assert "legendary_expeditions" in keys["modules"]["choices"] and "explorers" in keys
    created = server.api(
        "POST",
        "/api/games",
        {
            "game": "iceandsnow",
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "game_options": {"modules": ["legendary_expeditions"], "explorers": "random"},
            "seed": SEED,
        },
    )
    gid = created["id"]
    pages = []
    for i, size in enumerate((LAPTOP, PHONE)):
        page = new_page(f"seat{i + 1}")
        page.set_viewport_size(size)
        pages.append(open_game(page, server.base + created["seats"][i]["url"]))
    players = [
        LegendsPlayer(pages[0], 300, WANT[0]),
        LegendsPlayer(pages[1], 301, WANT[1], tag="phone-"),
    ]
    shots: dict[str, Path] = {}
    looks: list[str] = []
    deadline = t0 + TIME_S
    acts = 0
    while time.monotonic() < deadline:
        state = server.game(gid)
        if state.get("is_over") or int(state["view"]["round"]) > ROUNDS:
            break
        acted = False
        for p in players:
            seen = p.look()
            lg = p.page.evaluate(LEGENDS_JS)
            tag = p.tag
            if lg["kind"] == "explorer" and f"{tag}choose" not in shots:
                shoot(p.page, output_dir, f"{tag}choose", shots, "[data-testid=decision]")
            if len(lg["explorers"]) == 2 and f"{tag}boards" not in shots:
                shoot(p.page, output_dir, f"{tag}boards", shots, "[data-testid=seat-explorer]")
            if lg["look"]:
                looks += lg["look"]
                if f"{tag}look" not in shots:
                    shoot(p.page, output_dir, f"{tag}look", shots, "[data-testid=kellett-look]")
            if lg["kind"] == "despot" and f"{tag}despot" not in shots:
                shoot(p.page, output_dir, f"{tag}despot", shots, "[data-testid=decision]")
            if lg["note"] and f"{tag}note" not in shots:
                shoot(p.page, output_dir, f"{tag}note", shots, "[data-testid=decision]")
            if p.act(seen):
                acts += 1
                acted = True
        if not acted:
            time.sleep(0.05)
    final = server.game(gid)
    shoot(pages[1], output_dir, "phone-boards", shots, ".is-pboard.folded")
    assert int(final["view"]["round"]) >= 2, (
        f"only round {final['view']['round']} after {acts} clicks"
    )
    # both seats chose through the dialog, the chosen sets are on both pages' boards
    assert all(p.used.get("explorer") == 1 for p in players), [p.used for p in players]
    # the laptop shows both boards unfolded; the phone folds the other seat's board
    assert sorted(pages[0].evaluate(LEGENDS_JS)["explorers"]) == sorted(WANT)
    assert WANT[1] in pages[1].evaluate(LEGENDS_JS)["explorers"]
    assert players[0].used.get("free-track"), "Kellett never looked at a deck"
    # the looked-at card is named on its owner's page only
    mine = pages[0].evaluate(LEGENDS_JS)["look"]
    unfold = pages[1].locator(".is-unfold")
    if unfold.count():  # the phone: open Kellett's folded board
        unfold.first.click(timeout=CLICK_MS)
    theirs = pages[1].evaluate(LEGENDS_JS)["look"]
    assert all("knows the top card" in x for x in theirs), theirs
    assert all("top of the" in x for x in mine), mine
    if theirs:
        shoot(pages[1], output_dir, "phone-look", shots, "[data-testid=kellett-look]")
    log = " ".join(pages[0].locator(".log, #log").first.all_inner_texts())
    assert "leads the expedition of Henry Kellett" in log
    assert "looks at the top card" in log
    assert shots["choose"].exists() and shots["phone-choose"].exists()
    assert not new_page.errors.errors, new_page.errors.errors
    print(
        f"Legendary Expeditions: {acts} page actions, module controls "
        f"{[p.used for p in players]}, looks {mine} / {theirs} / {len(looks)}, "
        f"catalog options {[o['key'] for o in ice['options']]}, shots {sorted(shots)}, "
        f"{time.monotonic() - t0:.1f}s"
    )
