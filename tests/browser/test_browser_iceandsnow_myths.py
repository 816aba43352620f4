"""Inuit Myths in the browser, end to end: a whole 2-player game with the module on the
real server, played through the page only (test_browser_iceandsnow's random players,
who also take a creature card's action — Build an Inukshuk, Visit the Shaman — from
its button on the creature panel when it is offered).

On the way the page shows the creature token on the map, the card in play drawn as a
card, the curse and the held Inuit on the personal boards; the screenshots
``tests/output/iceandsnow-myths-*.png`` are taken at 1366x768 (seat 1) and 390x844
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
MYTHS_JS = """() => {
  const q = (s) => document.querySelector(s);
  const panel = q("[data-testid=myths]");
  return {
    over: !!q("section.endgame"),
    panel: !!panel,
    cards: [...document.querySelectorAll("[data-testid=myths] [data-testid=creature-card]")].map((e) => e.dataset.card),
    take: document.querySelectorAll("[data-testid=creature-take]:not([disabled])").length,
    token: !!q("[data-testid=creature-token]"),
    curse: !!q("[data-testid=curse]"),
    held: !!q("[data-testid=held-inuit]"),
    extra: !!q("[data-testid=creature-extra]"),
    sheet: !!q("[data-testid=placement]"),
  };
}"""


class MythsPlayer(Player):
    """A random player who takes a creature card's action when its button is enabled."""

    def __init__(self, page: Any, seed: int, tag: str = "") -> None:
        super().__init__(page, seed, tag)
        self.creature_takes = 0

    def act(self, seen: Any = None) -> str | None:
        seen = seen or self.look()
        if not seen["decision"] and not seen["sheet"]:
            my = self.page.evaluate(MYTHS_JS)
            if my["take"] and self.rng.random() < 0.7:
                self.page.locator("[data-testid=creature-take]:not([disabled])").first.click(
                    timeout=CLICK_MS
                )
                self.page.locator("[data-testid=placement]").wait_for(timeout=CLICK_MS)
                self.creature_takes += 1
                return "creature"
        return super().act(seen)


shoot = partial(module_shot, "myths")


def test_a_two_player_game_with_inuit_myths_through_the_page(
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
            "game_options": {"modules": ["inuit_myths"]},
            "seed": 2,
        },
    )
    gid = created["id"]
    pages = []
    for i, size in enumerate((LAPTOP, PHONE)):
        page = new_page(f"seat{i + 1}")
        page.set_viewport_size(size)
        pages.append(open_game(page, server.base + created["seats"][i]["url"]))
    players = [MythsPlayer(pages[0], seed=200), MythsPlayer(pages[1], seed=201, tag="phone-")]
    shots: dict[str, Path] = {}
    seen_cards: set[str] = set()
    flags: dict[str, bool] = {}
    deadline = time.monotonic() + GAME_TIMEOUT_S
    acts = 0
    while True:
        looks = [p.look() for p in players]
        if looks[0]["over"]:
            break
        assert time.monotonic() < deadline, f"the game did not end after {acts} clicks"
        acted = False
        for p, seen in zip(players, looks, strict=True):
            my = p.page.evaluate(MYTHS_JS)
            assert my["panel"], "the creature panel is shown in an Inuit Myths game"
            seen_cards |= set(my["cards"])
            for k in ("token", "curse", "held", "extra"):
                flags[k] = flags.get(k, False) or my[k]
            tag = p.tag
            if my["cards"] and f"{tag}card" not in shots:
                shoot(p.page, output_dir, f"{tag}card", shots, "[data-testid=myths]")
            if my["token"] and f"{tag}map" not in shots:
                shoot(p.page, output_dir, f"{tag}map", shots, "[data-testid=creature-token]")
            if my["curse"] and f"{tag}curse" not in shots:
                shoot(p.page, output_dir, f"{tag}curse", shots, "[data-testid=curse]")
            if my["held"] and f"{tag}held" not in shots:
                shoot(p.page, output_dir, f"{tag}held", shots, "[data-testid=held-inuit]")
            if my["extra"] and f"{tag}extra" not in shots:
                shoot(p.page, output_dir, f"{tag}extra", shots, "[data-testid=creature-extra]")
            did = p.act(seen)
            if did == "creature" and f"{tag}take" not in shots:
                shoot(p.page, output_dir, f"{tag}take", shots, "[data-testid=placement]")
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
    # the module showed itself on the way, and a card's action was taken through the page
    assert seen_cards, "no creature card was drawn"
    assert flags["token"], "the creature token was never on the map"
    assert sum(p.creature_takes for p in players) > 0
    assert shots["card"].exists() and shots["phone-card"].exists()
    log = " ".join(pages[0].locator(".log, #log").first.all_inner_texts())
    assert "creature" in log.lower()
    assert not new_page.errors.errors, new_page.errors.errors
    print(
        f"Inuit Myths game: {acts} page actions, creature cards {sorted(seen_cards)}, "
        f"creature actions {[p.creature_takes for p in players]}, seen {flags}, "
        f"shots {sorted(shots)}, {time.monotonic() - t0:.1f}s"
    )
