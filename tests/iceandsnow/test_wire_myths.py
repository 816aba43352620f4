"""Inuit Myths in the wire view (``wire_myths``, docs/iceandsnow-wire.md ``myths``).

Random games with the module are viewed at every step from every seat and the
spectator: the ``myths`` field is plain JSON, agrees with the engine (the token,
the cards in play and in the box, curses, held Inuit, whether the seat to move may
take a card's action), never shows the creature deck's order (a view computed from
a determinization is the same view) and the base game's view has no such field.
Positions set up by hand check the extra requirements shown on spaces, a Ritual
Room's ward and the held Inuit.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from erebus.games.iceandsnow import SPEC
from erebus.games.iceandsnow.content import default_content
from erebus.games.iceandsnow.layout import FOOD, F
from erebus.games.iceandsnow.myths import CREATURE_SPACE, curse_space
from erebus.games.iceandsnow.state import State, new_game
from erebus.games.iceandsnow.wire import wire_view
from erebus.games.iceandsnow.wire_board import REASONS
from erebus.games.iceandsnow.wire_content import content_document
from iceandsnow.rulekit import action_phase

MYTHS = {"modules": ["inuit_myths"]}
WEB = Path(__file__).resolve().parents[2] / "src" / "erebus" / "web"
EN = json.loads((WEB / "i18n" / "en.json").read_text(encoding="utf-8"))
FIELDS = {"creature_at", "in_play", "box", "deck", "seats", "extra_spaces"}
CARD = {"number", "name", "lasts", "takers", "action", "extra"}
SEAT = {"seat", "cursed", "curse_space", "held_inuit", "ritual_room"}


def play(players: int, options: dict[str, Any], seed: int) -> Iterator[State]:
    """Every state of a random game; a creature card's action is taken often, so
    that the cards leave play by their actions too."""
    st = new_game(players, seed, options)
    rng = random.Random(seed * 31 + players)
    yield st
    while not st.is_over:
        legal = st.legal_actions()
        cr = [a for a in legal if a.kind == "take" and a.space == CREATURE_SPACE]
        passes = [a for a in legal if a.kind == "pass"]
        if cr and rng.random() < 0.5:
            a = rng.choice(cr)
        elif passes and rng.random() < 0.15:
            a = passes[0]
        else:
            a = rng.choice(legal)
        st.apply(a)
        yield st


def check_myths(v: dict[str, Any], st: State, seat: int | None) -> None:
    my = v["myths"]
    assert set(my) == FIELDS
    assert my["creature_at"] == st.creature_at
    assert my["deck"] == len(st.cr_deck)
    assert my["box"] == st.cr_box
    assert [e["number"] for e in my["in_play"]] == st.cr_active
    legal = st.legal_actions() if seat is not None and seat == st.current_player else None
    takeable = {a.card for a in legal or () if a.kind == "take" and a.space == CREATURE_SPACE}
    for e in my["in_play"]:
        assert set(e) == CARD
        card = st.content.creatures[e["number"]]
        assert e["name"] == card.name and e["lasts"] == card.lasts
        assert e["takers"] == [s for n, s in st.cr_takers if n == e["number"]]
        if card.action is None:
            assert e["action"] is None
        else:
            want = None if legal is None else str(e["number"]) in takeable
            assert e["action"]["can_take"] == want
        assert (e["extra"] is None) == (card.extra is None)
    assert takeable <= {str(e["number"]) for e in my["in_play"] if e["action"]}
    for s, row in enumerate(my["seats"]):
        assert set(row) == SEAT and row["seat"] == s
        assert row["cursed"] == bool(st.curse[s])
        assert row["curse_space"] == curse_space(st, s)
        assert row["held_inuit"] == st.held_inuit[s]
    if legal is not None and st.pending == "action":
        # every legal take is on the board or is a creature card's action
        takes = {a.space for a in legal if a.kind == "take"} - {CREATURE_SPACE}
        board = v["board"]["spaces"] + v["board"]["extra_spaces"]
        assert {sp["id"] for sp in board if sp["can_take"]} == takes


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (2, 2), (3, 3), (4, 4)])
def test_every_view_of_a_random_game_with_inuit_myths(players: int, seed: int) -> None:
    revealed: set[int] = set()
    for step, st in enumerate(play(players, MYTHS, seed)):
        for seat in [None, *range(players)]:
            v = SPEC.wire_view(st, seat)
            assert json.loads(json.dumps(v)) == v
            check_myths(v, st, seat)
            revealed |= set(st.cr_active)
            if step % 7 == 0:
                # the creature deck dealt anew from what this seat knows: the same view
                det = State.from_view(st.view(seat), seed=step + 1)
                assert wire_view(det, seat) == v
    assert revealed, "no creature card came into play"


def test_the_base_game_view_has_no_myths_field() -> None:
    st = new_game(2, 1, {})
    for seat in (None, 0, 1):
        assert "myths" not in wire_view(st, seat)


def _with_card(num: int, seed: int = 5) -> State:
    """An Action-phase position with creature card ``num`` in play."""
    st = action_phase(2, seed, options=MYTHS)
    for pile in (st.cr_deck, st.cr_box):
        if num in pile:
            pile.remove(num)
    st.cr_active = [num]
    return st


def test_sedna_marks_the_carpenter_spaces_but_not_for_a_ritual_room() -> None:
    st = _with_card(39)
    seat = st.current_player
    v = wire_view(st, seat)
    marked = {sid for sid, cards in v["myths"]["extra_spaces"].items() if 39 in cards}
    carpenter = {sid for sid, sp in st.content.spaces.items() if "carpenter" in sp.need}
    assert marked == carpenter and marked
    (card,) = v["myths"]["in_play"]
    assert card["extra"]["officer"] == "carpenter" and card["extra"]["cost"] == "extra_crew"
    assert card["extra"]["warded_seats"] == [] and card["action"] is None
    st.upgrades[seat].append(14)  # the Inuit Ritual Room spares its owner
    v = wire_view(st, seat)
    assert v["myths"]["extra_spaces"] == {}
    assert v["myths"]["seats"][seat]["ritual_room"]
    assert v["myths"]["in_play"][0]["extra"]["warded_seats"] == [seat]
    # the spectator sees the spaces a seat without the ward pays on
    assert wire_view(st, None)["myths"]["extra_spaces"] != {}


def test_taqriaqsuit_applies_to_every_space() -> None:
    v = wire_view(_with_card(44), 0)
    assert v["myths"]["extra_spaces"] == {"*": [44]}
    assert v["myths"]["in_play"][0]["extra"]["crew_at_most"] == 2


def test_the_shaman_can_be_visited_by_a_cursed_seat_only() -> None:
    st = _with_card(38)
    seat = st.current_player
    st.curse = [0] * st.n
    assert wire_view(st, seat)["myths"]["in_play"][0]["action"]["can_take"] is False
    st = _with_card(38)  # a new position (the legal actions of one are cached)
    st.curse[seat] = 1
    v = wire_view(st, seat)
    assert v["myths"]["in_play"][0]["action"]["can_take"] is True
    assert v["myths"]["seats"][seat]["cursed"]
    assert v["myths"]["seats"][seat]["curse_space"] == max(
        0, v["seats"][seat]["health"]["value"] - 1
    )
    other = (seat + 1) % st.n
    assert wire_view(st, other)["myths"]["in_play"][0]["action"]["can_take"] is None


def test_held_inuit_are_shown_per_seat() -> None:
    st = _with_card(37)
    st.held_inuit = [2] + [0] * (st.n - 1)
    v = wire_view(st, None)
    assert [r["held_inuit"] for r in v["myths"]["seats"]] == st.held_inuit
    assert v["myths"]["in_play"][0]["action"]["crew"] == [2]


def test_the_content_file_carries_the_creature_cards_with_their_texts() -> None:
    doc = content_document(default_content())
    cards = doc["modules"]["inuit_myths"]["creatures"]
    assert [c["number"] for c in cards] == list(range(37, 45))
    for c in cards:
        assert c["name"] and c["text"], c
        assert f"iact_cr_{c['number']}" in EN
        if c["action"]:
            assert c["action"]["text"] and f"iact_cract_{c['number']}" in EN
        else:
            assert f"iact_crx_{c['number']}" in EN
    ritual = [u for u in doc["cards"]["upgrades"] if u["number"] == 14]
    assert ritual and ritual[0]["text"] and "iact_up_14" in EN


def test_a_space_refused_for_the_creature_says_so() -> None:
    st = _with_card(41)  # Amarok: captain spaces lower food by 4
    seat = st.current_player
    st.pv[F * seat + FOOD] = 0
    v = wire_view(st, seat)
    spaces = {sp["id"]: sp for sp in v["board"]["spaces"]}
    assert spaces["visit_inuit"]["can_take"] is False
    assert spaces["visit_inuit"]["why_not"] == "creature"
    assert "creature" in REASONS and "iact_why_creature" in EN


EVENTS_JS = (WEB / "iceandsnow" / "events.js").read_text(encoding="utf-8")


def _js_strings(const: str) -> set[str]:
    block = re.search(rf"const {const} = [\[{{](.*?)[\]}}];", EVENTS_JS, re.S)
    assert block, const
    return set(re.findall(r'"([^"]+)"', block.group(1)))


def test_the_log_words_every_reason_and_penalty_of_an_inuit_myths_game() -> None:
    # as tests/server/test_web_iceandsnow_log.py does for the base game: what the
    # engine gives in a game with the module is a reason or penalty events.js words
    reasons = _js_strings("REASONS")
    penalties = _js_strings("PENALTIES")
    content = content_document(default_content())
    names = {e["name"] for e in content["cards"]["events"]} | {
        u["name"] for u in content["cards"]["upgrades"]
    }
    pattern = re.compile(r"^(first .+|upgrade \d+|event \d+|investor .+)$")
    unknown: set[str] = set()
    for players, seed in ((2, 1), (2, 2), (3, 3), (4, 4)):
        st = new_game(players, seed, MYTHS)
        rng = random.Random(seed)
        while not st.is_over:
            for e in st.apply(rng.choice(st.legal_actions())):
                j = e.to_json()
                r = j.get("reason")
                worded = isinstance(r, str) and (r in reasons or r in names or pattern.match(r))
                if isinstance(r, str) and j["type"] != "GameOver" and not worded:
                    unknown.add(f"{j['type']}: {r}")
                if j["type"] == "AttritionPenalty" and j["penalty"] not in penalties:
                    unknown.add(f"penalty: {j['penalty']}")
    assert not unknown, sorted(unknown)
