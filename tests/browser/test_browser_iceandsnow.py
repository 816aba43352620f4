"""Through Ice and Snow in the browser, end to end: the real server and the web client
in Chromium, played through the page only (clicks and keys on the decision dialogs,
the action board's spaces, the placement sheet and the Pass button).

The players choose at random among what the page offers, so each game takes another
path through the dialogs (setup cards, destinations, section sides, voyages,
discards, the infirmary, food shortage …) and the placement steps (crew, card, tile,
food, resource, deposit).  Screenshots go to ``tests/output/iceandsnow-*.png``.
"""

from __future__ import annotations

import random
import time
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
from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402

GAME_TIMEOUT_S = 240.0
OTHER_DIALOGS = ("section", "discard", "infirmary", "eat", "mast", "boiler", "compass", "start")
CLICK_MS = 4000  # a choice that went away with a push is not waited for long
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
# What a page offers its seat, read in one evaluate: the decision and its choices, the
# placement sheet's step, the spaces that can be taken, Pass; the round and game over.
LOOK_JS = """() => {
  const q = (s, r = document) => r.querySelector(s);
  const dec = q("[data-testid=decision]"), sheet = q("[data-testid=placement]");
  const m = /Round (\\d+)/.exec((q("#roundinfo") || {}).textContent || "");
  const food = sheet && q("[data-testid=food-range]", sheet);
  return {
    over: !!q("section.endgame"), round: m ? Number(m[1]) : 0,
    decision: dec && { kind: dec.dataset.kind || "?",
      choices: [...dec.querySelectorAll("[data-testid=choice]")].map((b) => ({
        cls: b.className || "", action: b.dataset.action || "" })) },
    sheet: sheet && { place: !!q("[data-testid=place-crew]", sheet),
      step: (q(".step", sheet) || { dataset: {} }).dataset.step || null,
      food: food ? [Number(food.min), Number(food.max)] : null,
      options: sheet.querySelectorAll(".step button.popt, .step .ice-card.pick").length },
    spaces: [...document.querySelectorAll(".ice-space.can")].map((e) => e.dataset.space),
    pass: !!q("[data-testid=ice-pass]"),
    final: !!q(".final-group.open"),
  };
}"""
WEIGHTS = {"visit_inuit": 6.0, "experiment": 6.0, "event": 4.0, "hunt": 2.0, "recycle_wood": 0.2}


def open_game(page: Any, url: str) -> Any:
    page.goto(url)
    page.locator("[data-testid=action-board]").wait_for()
    page.locator("#conn.ok").wait_for()  # the WebSocket is up (no HTTP polling fallback)
    return page


def module_shot(
    module: str, page: Any, out: Path, name: str, shots: dict[str, Path], el: str | None = None
) -> None:
    """A screenshot ``iceandsnow-<module>-<name>.png`` of what a player sees now,
    scrolled to ``el`` first if the page has it (the module tests' shared camera)."""
    if el and page.locator(el).count():
        page.locator(el).first.scroll_into_view_if_needed()
    path = out / f"iceandsnow-{module}-{name}.png"
    page.screenshot(path=str(path), full_page=False)
    shots[name] = path


def is_over(server: Any, gid: str) -> bool:
    return bool(server.game(gid)["is_over"])


class Player:
    """One human seat in its own browser context, choosing at random through the page."""

    def __init__(self, page: Any, seed: int, tag: str = "") -> None:
        self.page = page
        self.tag = tag
        self.rng = random.Random(seed)
        self.takes = 0
        self.decisions: dict[str, int] = {}
        self.steps: dict[str, int] = {}
        self.keyboard = 0

    def look(self) -> Any:
        """What the page offers now, read in one go (one round trip to the browser)."""
        return self.page.evaluate(LOOK_JS)

    def act(self, seen: Any = None) -> str | None:
        """One click (or key) if the page offers this seat something; what it was.
        A push may change the page between the look and the click: then nothing."""
        try:
            return self._act(seen or self.look())
        except PlaywrightTimeout:
            return None

    def _act(self, seen: Any) -> str | None:
        page, rng = self.page, self.rng
        dec = seen["decision"]
        if dec:
            kind, choices = dec["kind"], dec["choices"]
            if not choices:
                return None
            self.decisions[kind] = self.decisions.get(kind, 0) + 1
            # a careful player: no choice the dialog warns about (the table cannot pay
            # the dynamite, the towing fails) while another is offered; mostly the
            # open sea, which costs less fuel
            pool = [i for i, c in enumerate(choices) if "warn" not in c["cls"]]
            pool = pool or list(range(len(choices)))
            if kind == "voyage" and rng.random() < 0.8:
                pool = [i for i in pool if "open" in choices[i]["action"]] or pool
            page.locator("[data-testid=decision] [data-testid=choice]").nth(rng.choice(pool)).click(
                timeout=CLICK_MS
            )
            return f"decision {kind}"
        sheet = seen["sheet"]
        if sheet:
            loc = page.locator("[data-testid=placement]")
            if sheet["place"]:
                self.takes += 1
                if rng.random() < 0.3:  # the keyboard: the button has the focus
                    page.keyboard.press("Enter")
                    self.keyboard += 1
                else:
                    loc.locator("[data-testid=place-crew]").click(timeout=CLICK_MS)
                return "place"
            what = sheet["step"] or "?"
            self.steps[what] = self.steps.get(what, 0) + 1
            if sheet["food"]:
                lo, hi = sheet["food"]
                loc.locator("[data-testid=food-range]").fill(
                    str(rng.randint(lo, hi)), timeout=CLICK_MS
                )
                loc.locator("[data-testid=food-ok]").click(timeout=CLICK_MS)
                return "food"
            if not sheet["options"]:
                return None
            opts = loc.locator(".step button.popt, .step .ice-card.pick")
            opts.nth(rng.randrange(sheet["options"])).click(timeout=CLICK_MS)
            return f"step {what}"
        ids = seen["spaces"]
        if ids and (not seen["pass"] or rng.random() < 0.85):
            # a little sense: the expedition needs fuel (Visit the Inuit, Experiment,
            # the event cards), Recycling wood burns it
            weights = [WEIGHTS.get(str(sid), 1.0) for sid in ids]
            target = page.locator(".ice-space.can").nth(rng.choices(range(len(ids)), weights)[0])
            if rng.random() < 0.3:
                target.focus(timeout=CLICK_MS)
                page.keyboard.press("Enter")
                self.keyboard += 1
            else:
                target.click(timeout=CLICK_MS)
            return "space"
        if seen["pass"]:
            page.locator("[data-testid=ice-pass]").click(timeout=CLICK_MS)
            return "pass"
        return None


def shoot(page: Any, out: Path, name: str, shots: dict[str, Path]) -> None:
    path = out / f"iceandsnow-{name}.png"
    page.screenshot(path=str(path), full_page=False)
    shots[name] = path


def play(server: Any, gid: str, players: list[Player], out: Path, shots: dict[str, Path]) -> int:
    """Everybody acts through the page until the game is over; screenshots on the way
    (each player's ``tag``: "" for the laptop, "phone-" for the phone)."""
    deadline = time.monotonic() + GAME_TIMEOUT_S
    acts = 0
    while True:
        looks = [p.look() for p in players]
        if looks[0]["over"]:
            break
        if time.monotonic() > deadline:
            v = server.game(gid)["view"]
            raise AssertionError(
                f"the game did not end after {acts} clicks: round {v['round']}, "
                f"waiting for {v['pending']} of seat {v['current']}"
            )
        acted = False
        rnd = looks[0]["round"]
        for p, seen in zip(players, looks, strict=True):
            page, tag = p.page, p.tag
            kind = seen["decision"]["kind"] if seen["decision"] else None
            if kind == "setup" and f"{tag}setup" not in shots:
                shoot(page, out, f"{tag}setup", shots)
            if kind == "destination" and rnd >= 2 and f"{tag}boarding" not in shots:
                # the round's Boarding (crew home, feeding, the next leader) ends the log
                shoot(page, out, f"{tag}boarding", shots)
            if kind == "voyage" and rnd >= 2 and f"{tag}voyage" not in shots:
                shoot(page, out, f"{tag}voyage", shots)
            if seen["final"] and seen["spaces"] and not tag and "final-round" not in shots:
                page.locator(".final-group.open").first.scroll_into_view_if_needed()
                shoot(page, out, "final-round", shots)
            if kind in OTHER_DIALOGS and not tag and f"dialog-{kind}" not in shots:
                shoot(page, out, f"dialog-{kind}", shots)
            did = p.act(seen)
            if did == "space" and f"{tag}action" not in shots:
                page.locator(
                    "[data-testid=placement] .step, [data-testid=place-crew]"
                ).first.wait_for()
                shoot(page, out, f"{tag}action", shots)
            if did:
                acts += 1
                acted = True
        if not acted:
            time.sleep(0.05)
    return acts


# ------------------------------------------------------------------ tests


def test_two_humans_and_a_bot_play_a_whole_game(
    server: Any, new_page: Any, output_dir: Path
) -> None:
    t0 = time.monotonic()
    created = server.api(
        "POST",
        "/api/games",
        {
            "game": "iceandsnow",
            "players": 3,
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}],
            # every upgrade (the Mast, the Boiler) and the extra events (the Damaged
            # Compass, the bear): more kinds of dialog on the way
            "game_options": {"upgrades": "all", "extra_events": True},
            "seed": 11,
        },
    )
    gid = created["id"]
    # seat 1 on a laptop, seat 2 on a phone
    pages = []
    for i, size in enumerate((LAPTOP, PHONE)):
        page = new_page(f"seat{i + 1}")
        page.set_viewport_size(size)
        pages.append(open_game(page, server.base + created["seats"][i]["url"]))
    shots: dict[str, Path] = {}
    players = [Player(pages[0], seed=100), Player(pages[1], seed=101, tag="phone-")]
    acts = play(server, gid, players, output_dir, shots)
    final = server.game(gid)
    assert final["is_over"]
    for p in players:
        p.page.locator("section.endgame").first.wait_for()
        p.page.locator("#boardwrap").scroll_into_view_if_needed()
        shoot(p.page, output_dir, f"{p.tag}end", shots)
    takes = sum(p.takes for p in players)
    kinds = set().union(*(p.decisions for p in players))
    # the whole game went through the page: placements, setup and voyage dialogs
    assert takes >= 4, takes
    assert {"setup", "destination", "voyage"} <= kinds, kinds
    assert sum(p.keyboard for p in players) > 0
    for name in ("setup", "action", "end", "phone-setup", "phone-end"):
        assert shots[name].exists(), name
    assert not new_page.errors.errors, new_page.errors.errors
    print(
        f"3-player game: {acts} page actions, {takes} placements, decisions {sorted(kinds)}, "
        f"steps {players[0].steps}, {time.monotonic() - t0:.1f}s"
    )


@pytest.mark.parametrize("scenario", ["lost-expedition", "magnetic-north-pole"])
def test_a_solo_scenario_played_to_its_end(
    server: Any, new_page: Any, output_dir: Path, scenario: str
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
            "seed": 5,
        },
    )
    gid = created["id"]
    page = new_page("solo")
    page.set_viewport_size(LAPTOP)
    open_game(page, server.base + created["seats"][0]["url"])
    shots: dict[str, Path] = {}
    player = Player(page, seed=7)
    acts = 0
    deadline = time.monotonic() + GAME_TIMEOUT_S
    while not is_over(server, gid):
        assert time.monotonic() < deadline, f"the solo game did not end after {acts} clicks"
        if player.act():
            acts += 1
        else:
            time.sleep(0.05)
    page.wait_for_timeout(500)
    shoot(page, output_dir, f"solo-{scenario}-end", shots)
    final = server.game(gid)
    assert final["is_over"]
    assert player.takes >= 2
    assert not new_page.errors.errors, new_page.errors.errors
    print(f"solo {scenario}: {acts} page actions, {time.monotonic() - t0:.1f}s")


def test_placement_steps_card_tile_food_and_escape(
    server: Any, new_page: Any, output_dir: Path
) -> None:
    """The steps after the crew: an upgrade tile, a hunting card, the food of a cabin;
    Escape closes the sheet; the cabin is built with the food chosen."""
    created = server.api(
        "POST",
        "/api/games",
        {
            "game": "iceandsnow",
            # alone at the table (a solo scenario): the first space of round 1 is ours
            "players": 1,
            "seats": [{"kind": "human"}],
            "game_options": {"scenario": "lost-expedition"},
            "seed": 3,
        },
    )
    gid, token = created["id"], created["seats"][0]["token"]
    page = new_page("steps")
    page.set_viewport_size(LAPTOP)
    open_game(page, server.base + created["seats"][0]["url"])
    player = Player(page, seed=1)
    deadline = time.monotonic() + 60

    def my_action_turn() -> bool:
        g = server.game(gid, token)
        return (
            g["view"]["pending"] == "action"
            and g["current_player"] == 0
            and bool(g["legal_actions"])
        )

    while not my_action_turn():  # the set-up and the first voyage, through the dialogs
        assert time.monotonic() < deadline
        if page.locator("[data-testid=decision]").count():
            player.act()
        else:
            time.sleep(0.05)
    legal = server.game(gid, token)["legal_actions"]
    spaces = {a.get("space") for a in legal}
    sheet = page.locator("[data-testid=placement]")

    def open_space(sid: str) -> None:
        page.locator(f".ice-space.can[data-space={sid}]").click()
        sheet.wait_for()
        crew = sheet.locator("button.crew-opt")
        if crew.count():
            crew.first.click()

    if "upgrade_ship" in spaces:
        open_space("upgrade_ship")
        sheet.locator("[data-step=tile] .ice-card.pick").first.wait_for()
        shoot(page, output_dir, "step-tile", {})
        page.keyboard.press("Escape")
        sheet.wait_for(state="detached")
    if "hunt" in spaces:
        open_space("hunt")
        page.locator("[data-step=card] .ice-card.pick, [data-testid=place-crew]").first.wait_for()
        shoot(page, output_dir, "step-card", {})
        sheet.locator("[data-testid=placement-cancel]").click()
        sheet.wait_for(state="detached")
    assert "build_cabin" in spaces, spaces
    # the crews offered are exactly the legal ones for that space, each once
    kinds = ("captain", "carpenter", "scientist", "sailors", "inuit")
    legal_crews = {
        ",".join(str(a["crew"].get(k, 0)) for k in kinds)
        for a in legal
        if a.get("space") == "build_cabin"
    }
    page.locator(".ice-space.can[data-space=build_cabin]").click()
    sheet.wait_for()
    offered = [b.get_attribute("data-crew") for b in sheet.locator("button.crew-opt").all()]
    assert len(offered) == len(set(offered)) and set(offered) == legal_crews, (offered, legal_crews)
    page.keyboard.press("Escape")
    sheet.wait_for(state="detached")
    open_space("build_cabin")
    food = sheet.locator("[data-testid=food-range]")
    food.wait_for()
    hi = int(food.get_attribute("max"))
    food.fill(str(min(4, hi)))
    shoot(page, output_dir, "step-food", {})
    sheet.locator("[data-testid=food-ok]").click()
    before = server.game(gid, token)["view"]["seats"][0]
    # the scenario plays Survival: the column's deposit is the next step; then Place crew
    sheet.locator("[data-step=deposit]").wait_for()
    sheet.locator("[data-testid=place-crew], .step button.popt").first.wait_for()
    while not sheet.locator("[data-testid=place-crew]").count():
        sheet.locator(".step button.popt").first.click()
    sheet.locator("[data-testid=place-crew]").click()
    wait_until = time.monotonic() + 10
    while server.game(gid, token)["view"]["seats"][0]["cabins"] == before["cabins"]:
        assert time.monotonic() < wait_until, "no cabin was built"
        time.sleep(0.05)
    after = server.game(gid, token)["view"]["seats"][0]
    assert after["cabins"] == before["cabins"] + 1
    assert before["food"] - after["food"] == min(4, hi)
    # our crew stands on the space (seat 1's colour, a pawn per crew member), after a
    # reload too
    for _ in range(2):
        slot = page.locator(".ice-space[data-space=build_cabin] .slot.filled[data-seat='0']")
        slot.wait_for()
        assert slot.locator(".pawn").count() == 2
        page.reload()
        page.locator("[data-testid=action-board]").wait_for()
    assert not new_page.errors.errors, new_page.errors.errors
