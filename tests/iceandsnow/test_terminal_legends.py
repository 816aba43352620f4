"""Legendary Expeditions at the terminal (terminal/iceandsnow_screen.py): each seat's
explorer and ship on its board, the dealt pair in its owner's view only, Kellett's
looked card in his view only, and every new decision (the explorer choice, McClure's
trade, Belcher's forced route, Kellett's look, Collinson's chart, Back's upgrade
space) worded in the menu."""

from __future__ import annotations

import random

from erebus.games.iceandsnow import legends
from erebus.games.iceandsnow.state import new_game
from erebus.terminal.iceandsnow_screen import describe, render_text
from iceandsnow.legendskit import legends_on  # noqa: F401

MODULE = "legendary_expeditions"
NAMES = ["Ann", "Bob", "Cy"]


def test_the_choice_shows_the_pair_to_its_owner_only() -> None:
    st = new_game(2, 25, {"modules": [MODULE]})
    mine = st.ex_dealt[0]
    own = render_text(st, seat=0, names=NAMES[:2])
    assert f"choosing: {mine[0]} or {mine[1]}" in own
    for seat in (1, None):
        text = render_text(st, seat=seat, names=NAMES[:2])
        assert "choosing…" in text
        for k in mine:
            assert legends.sets()[k]["explorer"] not in text
    menu = [describe(st, a) for a in st.legal_actions()]
    assert all(m.startswith("keep explorer") for m in menu), menu
    assert any(legends.sets()[mine[0]]["explorer"] in m for m in menu)


def test_every_new_decision_is_worded_and_looks_stay_secret() -> None:
    words: dict[str, str] = {}
    for seed, sets in enumerate((["D", "H", "G"], ["I", "F", "C"])):
        st = new_game(3, seed, {"modules": [MODULE], "explorers": sets})
        rng = random.Random(seed)
        while not st.is_over:
            legal = st.legal_actions()
            for a in legal:
                if a.kind in ("benevolent", "despot", "track", "chart") or a.slot:
                    text = describe(st, a)
                    assert "Action(" not in text and "=" not in text, text
                    words.setdefault(a.kind if not a.slot else "slot", text)
            raw = st.ex_peek[0] if sets[0] == "D" else []
            if raw and raw[1] in (st.sp_deck[:1] + st.hu_deck[:1]):
                label = render_text(st, seat=0, names=NAMES)
                other = render_text(st, seat=1, names=NAMES)
                assert "top " in label and "known to him" in other
            mine = [a for a in legal if a.kind in ("track", "chart", "despot", "benevolent")]
            st.apply(rng.choice(mine) if mine and rng.random() < 0.5 else rng.choice(legal))
        text = render_text(st, seat=None, names=NAMES)
        for k in sets:
            assert legends.sets()[k]["explorer"] in text
    assert {"benevolent", "despot", "track", "chart", "slot"} <= set(words), words
