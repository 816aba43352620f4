"""Golden playthroughs of Through Ice and Snow.

Each ``tests/golden/iceandsnow/*.json`` holds a whole game played by a seeded
policy (``tools/make_golden_iceandsnow.py``): the setup, the action log and a
checkpoint per action (legal-action count, round, pending decision and seat
before it; scores and event texts after it; a hash of ``to_json()`` every ten
actions), the final outcome, the event counts and the final state's
``to_json()``.  Replaying a file must give exactly the same game.

REGENERATE ONLY FOR AN INTENDED CHANGE OF RULES OR DATA:
``.venv/bin/python tools/make_golden_iceandsnow.py``, then review the diff of
``tests/golden/iceandsnow/`` like code.  Any other failure here is a regression.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from erebus.core.fingerprint import state_hash
from erebus.games import iceandsnow as game
from erebus.games.iceandsnow.state import State
from support.golden import GoldenFiles, data_note

GOLDEN = GoldenFiles(
    Path(__file__).resolve().parents[1] / "golden" / "iceandsnow", "tools/make_golden_iceandsnow.py"
)
FILES, REGENERATE = GOLDEN.files, GOLDEN.regenerate


def test_golden_files_exist() -> None:
    assert len(FILES) >= 4, f"expected at least 4 golden files in {GOLDEN.directory}. {REGENERATE}"
    records = [GOLDEN.load(p) for p in FILES]
    players = {r["players"] for r in records}
    assert {1, 2, 4} <= players
    scenarios = {r["options"].get("scenario") for r in records}
    assert {"lost-expedition", "magnetic-north-pole", None} <= scenarios
    assert any(r["options"].get("modes") for r in records), "one game must use the modes"
    modules = {m for r in records for m in r["options"].get("modules", [])}
    assert "inuit_myths" in modules, "one game must play the Inuit Myths module"
    assert "legendary_expeditions" in modules, "one game must play Legendary Expeditions"


@pytest.mark.parametrize("path", FILES, ids=GOLDEN.ids)
def test_golden_playthrough(path: Path) -> None:
    record = GOLDEN.load(path)
    note = data_note(record, "erebus.games.iceandsnow")
    where = f"{path.name}: "
    players, seed, options = record["players"], record["seed"], record["options"]
    st = game.new_game(players, seed, options)
    assert [e.text() for e in st.setup_events] == record["setup_events"], (
        f"{where}setup events differ.{note} {REGENERATE}"
    )
    counts: Counter[str] = Counter(type(e).__name__ for e in st.setup_events)
    actions = []
    for i, step in enumerate(record["steps"]):
        at = f"{where}action {i} (round {st.round}, seat {st.current_player}, {st.pending})"
        assert not st.is_over, f"{at}: the game is already over.{note} {REGENERATE}"
        legal = st.legal_actions()
        before = {
            "legal": len(legal),
            "round": st.round,
            "pending": st.pending,
            "seat": st.current_player,
        }
        want = {k: step[k] for k in before}
        assert before == want, f"{at}: {before} != golden {want}.{note} {REGENERATE}"
        a = step["action"]
        assert a in [x.to_json() for x in legal], f"{at}: {a} is not legal.{note} {REGENERATE}"
        events = st.apply(a)
        actions.append(a)
        counts.update(type(e).__name__ for e in events)
        texts = [e.text() for e in events]
        assert texts == step["events"], (
            f"{at}: the events of {a} differ:\n  now    {texts}\n  golden {step['events']}"
            f"\n{note} {REGENERATE}"
        )
        assert st.scores() == step["scores"], f"{at}: scores differ.{note} {REGENERATE}"
        if "hash" in step:
            assert state_hash(st) == step["hash"], f"{at}: the state differs.{note} {REGENERATE}"
    assert st.is_over, f"{where}the game is not over after its actions.{note} {REGENERATE}"
    assert st.outcome == record["outcome"] and st.reason == record["reason"], (
        f"{where}the ending differs: {st.outcome} ({st.reason}).{note} {REGENERATE}"
    )
    assert st.round == record["rounds"], f"{where}last round differs.{note} {REGENERATE}"
    assert st.scores() == record["scores"], f"{where}final scores differ.{note} {REGENERATE}"
    assert st.ranking() == record["ranking"], f"{where}ranking differs.{note} {REGENERATE}"
    assert dict(sorted(counts.items())) == record["event_counts"], (
        f"{where}the event counts differ.{note} {REGENERATE}"
    )
    assert state_hash(st) == record["final_hash"], f"{where}final state differs.{note} {REGENERATE}"
    assert st.to_json() == record["final_state"], (
        f"{where}final to_json differs.{note} {REGENERATE}"
    )
    # replay() gives the same game, and the saved final state loads back to it
    again = game.replay(players, seed, actions, options)
    assert again == st
    assert State.from_json(record["final_state"]) == st
