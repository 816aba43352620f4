"""Through Ice and Snow at the terminal: the pictures, the play loop, saves, replays, the CLI.

As in ``tests/northwest/test_play.py`` the loop is driven through ``input_fn`` and
printed to a recording console, so the tests read what a player would see.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from erebus.bots import make_bot
from erebus.cli import app
from erebus.core.events import Event
from erebus.games import iceandsnow as ice
from erebus.games.iceandsnow.state import State
from erebus.terminal import iceandsnow_screen as render
from erebus.terminal.app import load_save, run_play, run_replay
from support.terminal import assert_replay_refuses, recording_console, scripted_input


def plain(
    state: State, seat: int | None = 0, log: list[Event] | None = None, width: int = 160
) -> str:
    return render.render_text(state, seat=seat, width=width, log=log)


def bot_game(
    players: int = 3,
    seed: int = 4,
    options: dict[str, Any] | None = None,
    until: Callable[[State], bool] = lambda s: False,
    steps: int = 10_000,
) -> tuple[State, list[Event]]:
    """A game of medium bots, stopped when ``until`` holds (or after ``steps`` actions)."""
    state = ice.new_game(players, seed, options)
    log = list(state.setup_events)
    bots = [make_bot("medium", seed=s) for s in range(players)]
    for _ in range(steps):
        if state.is_over or until(state):
            break
        seat = state.current_player
        assert seat is not None
        log += state.apply(bots[seat].choose(state))
    return state, log


def in_action_with_crew_placed(state: State) -> bool:
    return state.pending == "action" and state.round >= 2 and bool(state.spaces_occupancy())


PASS = "pass (out"  # a filter that matches the pass action alone, so it plays it


def answers(head: Iterable[str], limit: int = 5000) -> Callable[[str], str]:
    """Answer ``head`` first, then alternately "pass (out" and "1" (a human who passes at
    once and otherwise takes the first choice); end of input after ``limit`` answers.
    "pass (out" is a filter matching only the pass action: the group key "pass" would only
    list it."""
    return scripted_input(
        itertools.islice(itertools.chain(head, itertools.cycle([PASS, "1"])), limit)
    )


def at_first_action_turn(console: Console, then: list[str]) -> Callable[[str], str]:
    """Answer "1" until Red's menu asks for an action of the Action phase, then ``then``
    (then end of input): the prompt tests do not depend on how the bots play."""
    script = scripted_input(then)
    started = False

    def ask(prompt: str) -> str:
        nonlocal started
        if not started:
            heads = re.findall(r"^Red — [^\n]*", console.export_text(clear=False), re.M)
            started = bool(heads) and "take an action or pass" in heads[-1]
            if not started:
                return "1"
        return script(prompt)

    return ask


def total_row(text: str) -> str:
    m = re.search(r"│ Total\s+│([^\n]*)", text)
    assert m, "no final table printed"
    return " ".join(m.group(1).replace("│", " ").split())


# --------------------------------------------------------------------- rendering


def test_mid_game_screen_shows_map_board_cards_and_boards() -> None:
    state, log = bot_game(until=in_action_with_crew_placed)
    assert in_action_with_crew_placed(state)
    text = plain(state, 0, log)
    assert "\x1b" not in text  # no colour codes without a colour system
    assert max(len(line) for line in text.splitlines()) <= 160
    assert f"Round {state.round}" in text and "action phase" in text and "helm ⎈" in text
    # the map: fleet, route with dynamite, routes onward, mapped regions, sections
    fleet = render.anchor_name(state.content, state.fleet)
    assert f"Fleet ▶ {fleet}" in text
    assert re.search(r"Route: .*✸", text) and "Onward:" in text and "Regions mapped" in text
    for section, side in state.sections:
        name = next(s.name for s in state.content.sections if s.id == section)
        assert f"{name} side {side}:" in text
    # the action board: columns, spaces, slots with the seats on them, warehouses
    for column in ("Captain", "Carpenter", "Scientist", "General"):
        assert column in text
    for label in ("Lead", "Explore", "Build a cabin", "Hunt", "Ice fishing", "warehouse:"):
        assert label in text
    seats_on_board = {s for seats in render.occupants(log).values() for s in seats}
    assert seats_on_board
    for s in seats_on_board:
        assert f"[{s + 1}]" in text
    # revealed cards and personal boards
    assert "Event:" in text and "Hunting:" in text and "Species:" in text
    for card in state.hunting_cards:
        assert render.card_label(state, card) in text
    assert "Red [1] (you)" in text and "Blue [2]" in text and "Ochre [3]" in text
    for label in ("PP ", "food ", "health ", "morale ", "fuel ", "sled ", "dogs ", "crew "):
        assert text.count(label) >= 3
    assert "/10 (" in text  # the fuel band
    assert "Log" in text


def test_view_shows_only_the_viewers_cartography_card() -> None:
    state, log = bot_game(until=lambda s: s.round >= 2)
    for seat in range(3):
        text = plain(state, seat, log)
        assert len(re.findall(r"\bcarto\b", text)) == 1
        card = state.view(seat)["carto"][seat]
        regions = state.content.cartography[card].regions
        first = render.region_name(state.content, regions[0])
        assert first in text
    # a spectator sees no cartography card at all
    assert not re.search(r"\bcarto\b", plain(state, None, log))


def test_survival_board_shows_deposits_and_warehouses() -> None:
    state, log = bot_game(
        options={"modes": ["survival"]},
        until=lambda s: s.pending == "action" and s.round >= 2,
    )
    text = plain(state, 0, log)
    assert "survival" in text and "⇩" in text
    assert "deposit paid ✓" in text or "deposit due at next ⇩" in text


def test_final_round_spaces_appear_in_the_final_round() -> None:
    for seed in range(1, 12):  # a bot game that lasts until the final round
        state, log = bot_game(seed=seed, until=lambda s: s.is_final_round and s.pending == "action")
        if state.is_final_round:
            break
    else:
        pytest.skip("no bot game reached the final round")
    text = plain(state, 0, log)
    assert "FINAL ROUND" in text
    for label in ("Trace the map", "Document methods", "Lab research", "Vow of silence"):
        assert label in text
    early, _ = bot_game(until=lambda s: s.pending == "action")
    assert "Trace the map" not in plain(early, 0)


SOLO_LABELS = {
    "lost-expedition": "Lost Expedition:",
    "magnetic-north-pole": "Magnetic North Pole:",
    "mysterious-epidemic": "Mysterious Epidemic:",
    "amundsens-voyage": "Amundsen's Voyage:",
}


@pytest.mark.parametrize("scenario", list(SOLO_LABELS))
def test_solo_screens_show_the_scenario(scenario: str) -> None:
    state, log = bot_game(1, 3, {"scenario": scenario}, until=lambda s: s.round >= 2)
    text = plain(state, 0, log)
    assert SOLO_LABELS[scenario] in text
    assert scenario.replace("-", " ") in text
    assert all(render.describe(state, a) for a in state.legal_actions())


def test_describe_names_spaces_cards_and_crews() -> None:
    state, _ = bot_game(until=lambda s: s.pending == "action")
    texts = [render.describe(state, a) for a in state.legal_actions()]
    assert any(t.startswith("Hunt — ") and "prey" in t for t in texts)
    assert any(t.startswith("Ice fishing") and "sailor" in t for t in texts)
    assert texts[-1].startswith("pass")
    assert render.crew_words((1, 0, 1, 2, 1)) == "captain + scientist + 2 sailors + Inuk"
    assert render.crew_words((1, 1, 0, 0, 0), short=True) == "capt+carp"


def test_final_table_adds_up() -> None:
    state, log = bot_game(seed=7)
    assert state.is_over
    breakdown = render.score_breakdown(log, 3)
    assert [sum(v[s] for v in breakdown.values()) for s in range(3)] == state.scores()
    console = recording_console()
    console.print(render.final_table(state, log))
    out = console.export_text()
    assert "Final scores" in out and "Total" in out and "Rank" in out and "Outcome:" in out
    assert "unexplained" not in out


# --------------------------------------------------------------------- play and replay


def test_human_plays_a_whole_three_player_game(tmp_path: Path) -> None:
    save = tmp_path / "ice.json"
    console = recording_console()
    code = run_play(
        3, 1, 5, str(save), console=console, input_fn=answers(["1", "1"]), game="iceandsnow"
    )
    assert code == 0
    out = console.export_text()
    assert "Through Ice and Snow — 3 players" in out and "Red (you)" in out
    assert "choose your investor" in out and "Number to play" in out
    assert "Final scores" in out and "Outcome:" in out
    data = json.loads(save.read_text())
    assert data["game"] == "iceandsnow" and data["players"] == 3 and data["seed"] == 5
    assert data["options"]["scenario"] is None and data["options"]["modes"] == []
    state = ice.replay(3, 5, data["actions"], data["options"])
    assert state.is_over
    assert total_row(out) == " ".join(map(str, state.scores()))

    replayed = recording_console()
    assert run_replay(str(save), step=False, console=replayed) == 0
    assert total_row(replayed.export_text()) == total_row(out)


@pytest.mark.parametrize("scenario", ["lost-expedition", "magnetic-north-pole"])
def test_human_plays_each_solo_scenario(tmp_path: Path, scenario: str) -> None:
    save = tmp_path / f"{scenario}.json"
    console = recording_console()
    code = run_play(
        None,
        None,
        8,
        str(save),
        console=console,
        input_fn=answers([]),
        game="iceandsnow",
        scenario=scenario,
    )
    assert code == 0
    out = console.export_text()
    assert f"1 player, scenario {scenario}" in out and "Red (you)" in out
    assert "Outcome: won" in out or "Outcome: lost" in out
    game = load_save(save)
    assert game.game == "iceandsnow" and game.players == 1
    assert game.options["scenario"] == scenario and "survival" in game.options["modes"]
    replayed = recording_console()
    assert run_replay(str(save), step=False, console=replayed) == 0
    assert total_row(replayed.export_text()) == total_row(out)


def test_options_reach_the_game_and_the_save(tmp_path: Path) -> None:
    save = tmp_path / "survival.json"
    code = run_play(
        3,
        0,
        2,
        str(save),
        console=recording_console(),
        game="iceandsnow",
        options='{"modes": ["survival", "shelters"]}',
    )
    assert code == 0
    game = load_save(save)
    assert game.options["modes"] == ["survival", "shelters"]


def test_quit_and_step_replay(tmp_path: Path) -> None:
    save = tmp_path / "quit.json"
    console = recording_console()
    ask = answers(["1", "1", PASS, "1", "q"], limit=5)
    assert run_play(3, 1, 6, str(save), console=console, input_fn=ask, game="iceandsnow") == 0
    assert "Game saved to" in console.export_text()
    game = load_save(save)
    assert len(game.actions) >= 3 and not ice.replay(3, 6, game.actions).is_over

    steps = recording_console()
    ask2 = answers(["", "", "q"], limit=3)
    assert run_replay(str(save), step=True, console=steps, input_fn=ask2) == 0
    out = steps.export_text()
    assert re.search(r"^#2 ", out, re.M) and not re.search(r"^#3 ", out, re.M)
    assert "Stopped in" in out and "Through Ice and Snow" in out


def test_prompt_groups_filters_and_preview(tmp_path: Path) -> None:
    script = ["?", "trace", "fish", "fish sailors3", "zzz", "v 1", "999", "b", "q"]
    script.append(str(tmp_path / "left.json"))
    console = recording_console()
    ask = at_first_action_turn(console, script)
    assert run_play(3, 1, 5, None, console=console, input_fn=ask, game="iceandsnow") == 0
    out = console.export_text()
    assert "How to choose an action" in out and "cabin food=3" in out
    assert re.search(r"^Red — round \d+: take an action or pass", out, re.M)
    assert "No trace action is possible now" in out  # a final-round space
    # "fish" lists the group briefly (crews only), the filter lists matching actions
    assert re.search(r"^Ice fishing$", out, re.M)
    assert re.search(r"\d+\) capt\+carp\+sci\+3 sailors", out)
    assert re.search(r"\d+\) Ice fishing · crew scientist \+ 3 sailors", out)
    assert 'Nothing matches "zzz"' in out
    assert "Preview of:" in out and "(not played)" in out and "drawn at random" in out
    assert "There is no action 999" in out
    assert "Game saved to" in out
    assert load_save(tmp_path / "left.json").game == "iceandsnow"


def test_big_groups_are_summarised_until_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    import erebus.terminal.app

    monkeypatch.setattr(erebus.terminal.app, "_LIST_MAX", 10)  # Ice fishing offers ~31 crews
    console = recording_console()
    ask = at_first_action_turn(console, ["fish", "fish all", "trace all", "q", ""])
    assert run_play(3, 1, 5, None, console=console, input_fn=ask, game="iceandsnow") == 0
    out = console.export_text()
    assert 'type "fish all" to list them all' in out
    assert re.search(r"\d+ options, \d+–\d+: \d+ crews", out)
    assert re.search(r"\d+\) capt\+carp\+sci\+3 sailors", out)  # "fish all"
    assert "No trace action is possible now" in out


# --------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"options": "{bad"}, "not valid JSON"),
        ({"options": "[1, 2]"}, "JSON object"),
        ({"options": '{"modes": ["flying"]}'}, "unknown mode"),
        ({"options": '{"colour": 1}'}, "unknown option"),
        ({"scenario": "atlantis"}, "unknown scenario"),
        ({"scenario": "lost-expedition", "players": 3}, "for 1 player"),
        ({"players": 1}, "solo play needs a scenario"),
        ({"players": 5}, "1–4 players"),
        ({"humans": 4}, "--humans"),
        ({"game": "northwest", "scenario": "lost-expedition"}, "no scenarios"),
        ({"game": "northwest", "options": '{"modes": []}'}, "no options"),
        ({"game": "chess"}, "unknown game"),
    ],
)
def test_bad_arguments_are_clear_errors(kwargs: dict[str, Any], message: str) -> None:
    args: dict[str, Any] = {"players": 3, "humans": 0, "game": "iceandsnow"} | kwargs
    players, humans = args.pop("players"), args.pop("humans")
    console = recording_console()
    assert run_play(players, humans, 1, None, console=console, **args) == 2
    out = console.export_text()
    assert out.startswith("error:") and message in out, out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            '{"game": "iceandsnow", "players": 3, "seed": 1, "options": [], "actions": []}',
            "'options'",
        ),
        (
            '{"game": "iceandsnow", "players": 3, "seed": 1, "options": {"modes": ["x"]}, '
            '"actions": []}',
            "bad 'options'",
        ),
        ('{"game": "iceandsnow", "players": 1, "seed": 1, "actions": []}', "bad 'options'"),
        (
            '{"game": "iceandsnow", "players": 3, "seed": 1, "actions": [{"type": "pass"}]}',
            "not legal",
        ),
    ],
)
def test_malformed_ice_save_is_a_clear_error(tmp_path: Path, content: str, message: str) -> None:
    assert_replay_refuses(tmp_path, content, message)


# --------------------------------------------------------------------- the CLI


def test_cli_plays_and_replays_through_ice_and_snow(tmp_path: Path) -> None:
    runner = CliRunner()
    save = str(tmp_path / "cli.json")
    result = runner.invoke(
        app,
        [
            "play",
            "--game",
            "iceandsnow",
            "--players",
            "3",
            "--humans",
            "0",
            "--seed",
            "9",
            "--save",
            save,
            "--options",
            '{"modes": ["survival"]}',
        ],
    )
    assert result.exit_code == 0, result.output
    assert "Final scores" in result.output
    assert json.loads(Path(save).read_text())["options"]["modes"] == ["survival"]
    result = runner.invoke(app, ["replay", save, "--no-step"])
    assert result.exit_code == 0, result.output
    assert "Final scores" in result.output


def test_cli_solo_scenario_reads_a_pipe(tmp_path: Path) -> None:
    runner = CliRunner()
    save = str(tmp_path / "solo.json")
    result = runner.invoke(
        app,
        [
            "play",
            "--game",
            "iceandsnow",
            "--scenario",
            "magnetic-north-pole",
            "--seed",
            "4",
            "--save",
            save,
        ],
        input=f"{PASS}\n1\n" * 300,
    )
    assert result.exit_code == 0, result.output
    game = load_save(save)
    assert game.players == 1 and game.options["scenario"] == "magnetic-north-pole"
    assert "Outcome:" in result.output


def test_cli_bad_options_exit_2() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["play", "--game", "iceandsnow", "--options", "{nope"])
    assert result.exit_code == 2 and "not valid JSON" in result.output
    result = runner.invoke(app, ["play", "--game", "iceandsnow", "--scenario", "moon"])
    assert result.exit_code == 2 and "unknown scenario" in result.output


# --------------------------------------------------------------------- issue 10: terminal


def test_undo_takes_back_a_setup_choice_but_not_past_the_turn(tmp_path: Path) -> None:
    save = tmp_path / "undo.json"
    console = recording_console()
    ask = answers(["1", "u", "q"], limit=3)
    assert run_play(3, 1, 5, str(save), console=console, input_fn=ask, game="iceandsnow") == 0
    out = console.export_text()
    assert "Red takes back: investor" in out
    assert json.loads(save.read_text())["actions"] == []  # the effective log
    console = recording_console()
    ask = answers(["1", "1", "u", "q"], limit=4)  # the cartography card ends Red's setup
    assert run_play(3, 1, 5, str(save), console=console, input_fn=ask, game="iceandsnow") == 0
    assert "Nothing to take back" in console.export_text()
    assert len(json.loads(save.read_text())["actions"]) >= 2


def test_every_reveal_is_a_barrier() -> None:
    from erebus.games import get_game
    from erebus.terminal.undo import is_barrier

    reveals = get_game("iceandsnow").reveals_hidden

    state = ice.new_game(3, 4)
    bots = [make_bot("medium", seed=s) for s in range(3)]
    seen: set[str] = set()
    undoable = 0
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        before = state.clone()
        events = state.apply(bots[seat].choose(state))
        names = {type(e).__name__ for e in events}
        barrier = is_barrier("iceandsnow", seat, before, state, events)
        hidden = {type(e).__name__ for e in events if reveals(e)}
        if hidden:
            seen |= hidden
            assert barrier, names
        if before.rng != state.rng:
            assert barrier
        undoable += not barrier
    assert {"InvestorRevealed", "EventRevealed", "CardsRevealed"} <= seen
    assert undoable  # the investor choices, at least


def test_bots_secret_choices_stay_hidden(tmp_path: Path) -> None:
    console = recording_console()
    ask = answers(["1", "1", "q"], limit=3)
    assert run_play(3, 1, 5, None, console=console, input_fn=ask, game="iceandsnow") == 0
    out = console.export_text()
    assert re.search(r"^▶ Red: investor ", out, re.M)  # your own choice, in full
    assert "▶ Blue: chooses an investor (kept secret)" in out
    assert "▶ Ochre: chooses a cartography card (kept secret)" in out
    assert not re.search(r"^▶ (Blue|Ochre): (investor|cartography) ", out, re.M)


def test_load_resumes_ice_and_snow(tmp_path: Path) -> None:
    save = tmp_path / "resume.json"
    ask = answers(["1", "q"], limit=2)
    assert (
        run_play(3, 1, 5, str(save), console=recording_console(), input_fn=ask, game="iceandsnow")
        == 0
    )
    first = json.loads(save.read_text())
    assert first["seats"] == ["human", "bot", "bot"] and len(first["actions"]) == 1
    console = recording_console()
    assert run_play(None, 0, None, str(save), console=console, load=str(save)) == 0
    out = console.export_text()
    assert "Resumed" in out and "Through Ice and Snow" in out and "Final scores" in out
    done = json.loads(save.read_text())
    assert done["actions"][:1] == first["actions"] and done["seats"] == ["bot"] * 3
    assert ice.replay(3, 5, done["actions"], done["options"]).is_over


@pytest.mark.parametrize(("width", "notice"), [(40, True), (60, False)])
def test_width_notice(width: int, notice: bool) -> None:
    console = recording_console(width)
    ask = answers(["q"], limit=1)
    assert run_play(3, 1, 5, None, console=console, input_fn=ask, game="iceandsnow") == 0
    out = " ".join(console.export_text().split())  # the notice wraps at 40 columns
    assert ("This screen needs 44 columns; the terminal has 40" in out) == notice
    assert ("Action board" in out) != notice and "Number to play" in out


_ID = re.compile(r"\b[a-z]+_[a-z0-9_]+\b|\(\d+, \d+|\('| a [aeiou]\w")


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [
        (3, 4, None),
        (2, 9, {"modes": ["survival", "shelters", "dual_species"], "upgrades": "all"}),
        (1, 3, {"scenario": "magnetic-north-pole"}),
        (1, 3, {"scenario": "lost-expedition"}),
    ],
)
def test_event_texts_and_menus_name_things_in_words(
    players: int, seed: int, options: dict[str, Any] | None
) -> None:
    """No ids (snake_case, cartography_9), no tuples, "an open voyage" (issue 10)."""
    state = ice.new_game(players, seed, options)
    log = list(state.setup_events)
    bots = [make_bot("medium", seed=s) for s in range(players)]
    names = ["Red", "Blue", "Ochre", "Teal"][:players]
    while not state.is_over:
        for action in state.legal_actions()[:40]:
            text = render.describe(state, action)
            assert not _ID.search(text), text
        seat = state.current_player
        assert seat is not None
        log += state.apply(bots[seat].choose(state))
    for ev in log:
        for text in (ev.text(names), ev.text(None), render.event_text(state, ev, names)):
            assert not _ID.search(text), text
    voyages = [ev.text(names) for ev in log if type(ev).__name__ == "VoyageChosen"]
    assert voyages and all(" an open voyage" in t or " a coastal voyage" in t for t in voyages)


def test_cabin_menu_pp_is_what_the_log_then_says() -> None:
    state, _ = bot_game(
        until=lambda s: (
            s.pending == "action"
            and any(a.kind == "take" and a.space == "build_cabin" for a in s.legal_actions())
        )
    )
    cabins = [a for a in state.legal_actions() if a.kind == "take" and a.space == "build_cabin"]
    assert cabins
    for action in cabins[:: max(1, len(cabins) // 6)]:
        shown = re.search(r"\(\+(\d+) PP\)", render.describe(state, action))
        assert shown, render.describe(state, action)
        trial = state.clone()
        events = trial.apply(action)
        scored = sum(
            e.delta
            for e in events
            if isinstance(e, ice.events.ScoreChanged) and e.reason in ("cabin", "cabin food")
        )
        assert int(shown.group(1)) == scored


def test_investor_and_cartography_are_named() -> None:
    state = ice.new_game(3, 5)
    texts = [render.describe(state, a) for a in state.legal_actions()]
    assert all(t.startswith("investor ") and "_" not in t for t in texts)
    state.apply(state.legal_actions()[0])
    texts = [render.describe(state, a) for a in state.legal_actions()]
    assert all(re.match(r"cartography card: [A-Z]", t) for t in texts), texts
    state, log = bot_game(until=lambda s: s.round >= 1)
    revealed = [e.text(["Red", "Blue", "Ochre"]) for e in log if "Revealed" in type(e).__name__]
    assert any(re.match(r"Red reveals investor [A-Z]", t) for t in revealed), revealed


def test_replay_keeps_the_secret_choices_of_a_spectator(tmp_path: Path) -> None:
    save = tmp_path / "bots.json"
    assert run_play(2, 0, 3, str(save), console=recording_console(), game="iceandsnow") == 0
    console = recording_console()
    assert run_replay(str(save), step=False, console=console) == 0
    out = console.export_text()
    assert re.search(r"^#1 Red: chooses an investor \(kept secret\)", out, re.M)
    assert not re.search(r"^#\d+ \w+: cartography card:", out, re.M)
