"""Ice and Snow's log in the browser speaks every event in words (web/iceandsnow/events.js):
each event type of the engine has its ``isev_`` key(s), and every reason text the
engine gives (tracks, resources, scores, leaders, crew lost) is one the client words
(a key ``is_r_…``, or a pattern: "first <species>", "upgrade <n>", "event <n>", an
event card's or upgrade's own name).  A new event type or reason in the engine fails
here until the client has words for it."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from erebus.games.iceandsnow.events import EVENT_TYPES
from erebus.games.iceandsnow.spec import SPEC

WEB = Path(__file__).resolve().parents[2] / "src" / "erebus" / "web"
EVENTS_JS = (WEB / "iceandsnow" / "events.js").read_text(encoding="utf-8")
EN = json.loads((WEB / "i18n" / "en.json").read_text(encoding="utf-8"))
CONTENT = json.loads((WEB / "iceandsnow-content.json").read_text(encoding="utf-8"))

# Types with one key per variant (the deck, the voyage, the outcome, the progress).
VARIANTS = {
    "VoyageChosen": ("VoyageChosen_coastal", "VoyageChosen_open"),
    "CardsRevealed": ("CardsRevealed_hunting", "CardsRevealed_species"),
    "CardTaken": ("CardTaken_hunting", "CardTaken_species"),
    "GameOver": ("GameOver", "GameOver_won", "GameOver_lost", "GameOver_solo_lost"),
    "ScenarioProgress": (
        "ScenarioProgress_search",
        "ScenarioProgress_cabin",
        "ScenarioProgress_magnetised",
    ),
}


def reason_key(r: str) -> str:
    """events.js's reasonKey."""
    s = re.sub(r"[–-]", "_", r.lower())
    s = re.sub(r"[^a-z0-9_]+", "_", s)
    return "is_r_" + re.sub(r"_+", "_", s).strip("_")


def known_reasons() -> set[str]:
    block = re.search(r"const REASONS = \[(.*?)\];", EVENTS_JS, re.S)
    assert block, "events.js lists the reasons it words"
    return set(re.findall(r'"([^"]+)"', block.group(1)))


def test_every_event_type_has_its_words() -> None:
    missing = []
    for name in EVENT_TYPES:
        for key in VARIANTS.get(name, (name,)):
            if f"isev_{key}" not in EN:
                missing.append(key)
        assert f'case "{name}"' in EVENTS_JS, f"events.js does not word {name}"
    assert not missing, missing


def test_every_listed_reason_has_a_key() -> None:
    assert not [r for r in known_reasons() if reason_key(r) not in EN]


def _worded(reason: str, names: set[str]) -> bool:
    if reason in known_reasons() or reason in names:
        return True
    return bool(re.match(r"^(first .+|upgrade \d+|event \d+|investor .+)$", reason))


def test_the_engine_gives_only_reasons_the_client_words() -> None:
    names = {e["name"] for e in CONTENT["cards"]["events"]} | {
        u["name"] for u in CONTENT["cards"]["upgrades"]
    }
    unknown: set[str] = set()
    setups = [
        (2, {}),
        (3, {"modes": ["survival", "shelters", "dual_species"], "upgrades": "all"}),
        (1, {"scenario": "lost-expedition"}),
        (1, {"scenario": "mysterious-epidemic"}),
        (1, {"scenario": "amundsens-voyage"}),
    ]
    for n, opts in setups:
        for seed in range(3):
            st = SPEC.new_game(n, seed, SPEC.parse_options(n, opts))
            rng = random.Random(seed)
            for _ in range(1500):
                if st.is_over:
                    break
                for e in st.apply(rng.choice(st.legal_actions())):
                    j = e.to_json()
                    r = j.get("reason")
                    if isinstance(r, str) and j["type"] != "GameOver" and not _worded(r, names):
                        unknown.add(f"{j['type']}: {r}")
    assert not unknown, sorted(unknown)
