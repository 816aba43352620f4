"""The Ice and Snow action board, dialogs and cards name many i18n keys by an id of the
game's data (``iact_space_<space>``, ``iact_why_<reason>``, ``iact_ev_<event>`` …), which
the literal-key check of test_web_i18n.py cannot see: every id the content file and the
wire view can send has its text in English (and so, by key parity, in all six)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from erebus.games.iceandsnow import wire_board, wire_decisions

WEB = Path(__file__).resolve().parents[2] / "src" / "erebus" / "web"
EN = json.loads((WEB / "i18n" / "en.json").read_text(encoding="utf-8"))
CONTENT = json.loads((WEB / "iceandsnow-content.json").read_text(encoding="utf-8"))
ICE = WEB / "iceandsnow"


def _missing(keys: set[str]) -> list[str]:
    return sorted(k for k in keys if k not in EN)


def test_every_space_and_its_effect_has_a_text() -> None:
    board = CONTENT["board"]
    ids = {s["id"] for s in board["spaces"]} | {s["id"] for s in board["extra_spaces"]}
    assert _missing({f"iact_space_{i}" for i in ids}) == []
    # the effect line drops the column of Exchange / Collect / Vow of silence
    bases = {re.sub(r"_(captain|carpenter|scientist)$", "", i) for i in ids}
    assert _missing({f"iact_does_{b}" for b in bases}) == []
    assert _missing({f"iact_col_{c}" for c in board["columns"] if c != "general"}) == []


def test_every_reason_and_missing_option_has_a_text() -> None:
    assert _missing({f"iact_why_{k}" for k in wire_board.REASONS}) == []
    assert _missing({f"iact_miss_{k}" for k in wire_decisions.MISSING}) == []


def test_every_card_and_decision_has_a_text() -> None:
    cards = CONTENT["cards"]
    assert _missing({f"iact_ev_{e['number']}" for e in cards["events"]}) == []
    assert _missing({f"iact_up_{u['number']}" for u in cards["upgrades"]}) == []
    assert _missing({f"iact_obj_{i['objective']}" for i in cards["investors"]}) == []
    kinds = set(wire_decisions._DETAILS) - {"setup"}
    titles = {f"iact_title_{k}" for k in kinds} | {
        "iact_title_setup_investor",
        "iact_title_setup_cartography",
    }
    assert _missing(titles) == []
    assert _missing({f"iact_res_{r}" for r in CONTENT["resources"]}) == []
    assert _missing({f"iact_crew_{k}" for k in CONTENT["crew_kinds"]}) == []
    modifiers = {
        op["modifier"]
        for e in json.loads(
            (
                Path(__file__).resolve().parents[2] / "src/erebus/games/iceandsnow/data/cards.json"
            ).read_text(encoding="utf-8")
        )["events"]
        for op in e["effect"].get("reveal", [])
        if op.get("op") == "round_modifier"
    }
    assert modifiers and _missing({f"iact_mod_{m}" for m in modifiers}) == []


def test_the_dialogs_know_every_decision_kind() -> None:
    # dialogs.js draws each kind of the wire view's decision but "action" (the board)
    src = (ICE / "dialogs.js").read_text(encoding="utf-8")
    bodies = re.search(r"const BODIES = \{([^}]*)\}", src)
    assert bodies
    drawn = set(re.findall(r"(\w+):", bodies.group(1)))
    # the modules' own dialogs, spread in (``...LEGENDS_BODIES``, ``Object.entries(SOLO2_BODIES)``)
    for name in re.findall(r"\b([A-Z0-9_]+_BODIES)\b", bodies.group(1)):
        for js in ICE.glob("*.js"):
            own = re.search(
                rf"export const {name} = \{{([^}}]*)\}}", js.read_text(encoding="utf-8")
            )
            if own:
                drawn |= set(re.findall(r"(\w+):", own.group(1)))
    assert drawn == set(wire_decisions._DETAILS) - {"action"}
