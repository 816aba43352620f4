"""Golden playthroughs of Northwest Passage (OpenSpiel style).

Each ``tests/golden/*.json`` holds a whole game played by a seeded policy:
the actions, the number of legal actions before each one, the final scores,
the ranking and the count of each event type.  Replaying it must give exactly
the same numbers.  A failure
means the engine (or its data) now plays differently: if that change of rules
is intended, regenerate the files with ``.venv/bin/python tools/make_golden.py``
and review their diff; otherwise it is a regression to fix.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from erebus.games import northwest as game
from support.golden import GoldenFiles, data_note

GOLDEN = GoldenFiles(Path(__file__).resolve().parents[1] / "golden", "tools/make_golden.py")
FILES, REGENERATE = GOLDEN.files, GOLDEN.regenerate


def test_golden_files_exist() -> None:
    assert len(FILES) >= 4, f"expected at least 4 golden files in {GOLDEN.directory}. {REGENERATE}"
    players = sorted(GOLDEN.load(p)["players"] for p in FILES)
    assert {2, 3, 4} <= set(players)


@pytest.mark.parametrize("path", FILES, ids=GOLDEN.ids)
def test_golden_playthrough(path: Path) -> None:
    record = GOLDEN.load(path)
    actions = record["actions"]
    counts = record["legal_counts"]
    assert len(actions) == len(counts)
    note = data_note(record, "erebus.games.northwest", unrecorded_ok=True)
    state = game.new_game(record["players"], record["seed"])
    events: Counter[str] = Counter()
    for i, (a, count) in enumerate(zip(actions, counts, strict=True)):
        assert not state.is_over, f"{path.name}: game over before action {i}.{note} {REGENERATE}"
        legal = state.legal_actions()
        assert len(legal) == count, (
            f"{path.name}: action {i} (round {state.round}, seat {state.current_player}) has "
            f"{len(legal)} legal actions, the golden file says {count}.{note} {REGENERATE}"
        )
        legal_json = [x.to_json() for x in legal]
        assert a in legal_json, f"{path.name}: action {i} {a} is not legal.{note} {REGENERATE}"
        events.update(type(e).__name__ for e in state.apply(a))
    assert state.is_over, f"{path.name}: the game is not over after its actions.{note} {REGENERATE}"
    assert state.scores() == record["scores"], (
        f"{path.name}: final scores differ.{note} {REGENERATE}"
    )
    assert state.ranking() == record["ranking"], f"{path.name}: ranking differs.{note} {REGENERATE}"
    if "event_counts" in record:
        assert dict(sorted(events.items())) == record["event_counts"], (
            f"{path.name}: the events differ.{note} {REGENERATE}"
        )
    if "rounds" in record:
        assert state.round == record["rounds"], f"{path.name}: last round differs. {REGENERATE}"
    # The whole record is also what replay() gives.
    again = game.replay(record["players"], record["seed"], actions)
    assert again == state
