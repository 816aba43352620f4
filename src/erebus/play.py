"""Terminal play and replay of Expedition: Northwest Passage.

``run_play`` runs a game at the terminal: human seats choose from the legal
actions, the others are played by bots of a chosen level (erebus.bots); ``run_replay`` steps
through a saved game.  Both only use the public engine API
(``shared/design/engine-api.md``) and the pictures of
:mod:`erebus.games.northwest.render`.

Why the prompt works the way it does: a turn can offer hundreds of placements,
so actions are shown **grouped by kind** with each group's crew cost, small
groups inline and big ones folded.  Every action keeps **one number** for the
whole decision, whether it was listed from the overview, a group or a filter,
so ``12`` always means the same thing; a group letter (``p``) or a filter
(``place L17``, ``move 5,2``) only changes what is listed.  ``v 12`` previews the
board after action 12 without playing it.

Input comes through ``input_fn`` (default :func:`input`), so the loop is driven
the same way by a person, by a pipe (stdin that is not a terminal: one line per
answer, end of input = quit) and by tests.

The save file is the action log, written after every action so a game that is
quit or interrupted is never lost::

    {"game": "northwest", "players": 3, "seed": 42, "names": ["Red", ...],
     "actions": [{"type": "draft", "index": 1}, ...]}

Replaying it through the engine rebuilds every state exactly (same seed, same
actions, same state).
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.columns import Columns
from rich.console import Console
from rich.style import Style
from rich.text import Text

from erebus.bots import LEVELS, make_bot
from erebus.core.events import Event
from erebus.games import northwest as nw
from erebus.games.northwest import render
from erebus.games.northwest.actions import Action
from erebus.games.northwest.events import (
    CrewSpent,
    GameOver,
    RoundEnded,
    RoundStarted,
    ScoreChanged,
    SledLost,
    SunMoved,
)
from erebus.games.northwest.state import State

InputFn = Callable[[str], str]

GAME = "northwest"

# Action groups in the order a player thinks of a turn: (kind, key, label).
# Draft (setup only) and draw never occur together, so they share "d".
GROUPS: tuple[tuple[str, str, str], ...] = (
    ("draft", "d", "draft"),
    ("draw", "d", "draw"),
    ("refresh", "r", "refresh"),
    ("place", "p", "place"),
    ("move", "m", "move"),
    ("transfer", "t", "transfer"),
    ("explore", "x", "explore"),
    ("discover", "c", "discover"),
    ("end_turn", "e", "end turn"),
    ("pass", "pass", "pass"),
)
_INLINE = 4  # groups up to this size are listed in the overview

HELP = """\
How to choose an action
  12            play action number 12 (numbers stay the same until you act)
  p             list a group: d draw/draft, r refresh, p place, m move,
                t transfer, x explore, c discover (e = end turn, pass = pass)
  place L17     list the actions whose description contains every word;
                if exactly one matches, it is played (try "move greenland")
  v 12          preview the board after action 12 without playing it
  a             list every legal action
  b             show the board and the panels again
  ?             this help
  q             quit (the game is saved if you started it with --save,
                otherwise you are offered to save it)

Reading actions
  place L17b r1 at 5,2   tile L17, side b up, turned 1 quarter clockwise,
                         top-left square at column 5, row 2
  transfer (sled 2 available, 1 resting)   the sled column afterwards
  Costs are in crewmen of the acting vehicle's column; every action after
  the first in a turn costs one more.  End turn keeps your crew for later
  turns this round; pass ends your round.
"""


# --------------------------------------------------------------------- save files


class SaveError(ValueError):
    """A save file that cannot be read or does not replay; the message says why."""


@dataclass(frozen=True, slots=True)
class SavedGame:
    """The content of a save file, checked: it replays through the engine."""

    players: int
    seed: int
    actions: list[Action]
    names: list[str]


def save_data(
    players: int, seed: int, actions: Sequence[Action], names: Sequence[str]
) -> dict[str, Any]:
    """The JSON document of a save file."""
    return {
        "game": GAME,
        "players": players,
        "seed": seed,
        "actions": [a.to_json() for a in actions],
        "names": list(names),
    }


def write_save(path: str | os.PathLike[str], data: dict[str, Any]) -> None:
    """Write atomically (temporary file, then rename), so a crash never leaves half a save."""
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, target)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def load_save(path: str | os.PathLike[str]) -> SavedGame:
    """Read and check a save file; :class:`SaveError` names the first problem."""
    try:
        raw = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SaveError(f"cannot read {path}: {exc}") from exc
    try:
        d = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise SaveError(f"{path} is not JSON: {exc}") from exc
    if not isinstance(d, dict):
        raise SaveError(f"{path}: a save file is a JSON object, not {type(d).__name__}")
    if d.get("game") != GAME:
        raise SaveError(f"{path}: not a Northwest Passage save (game is {d.get('game')!r})")
    players = d.get("players")
    if not _is_int(players) or players not in nw.PLAYERS:
        raise SaveError(f"{path}: 'players' must be one of {', '.join(map(str, nw.PLAYERS))}")
    seed = d.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SaveError(f"{path}: 'seed' must be an integer")
    acts = d.get("actions")
    if not isinstance(acts, list):
        raise SaveError(f"{path}: 'actions' must be a list")
    names = d.get("names")
    if names is None:
        names = render.default_names(players)
    if not (
        isinstance(names, list) and len(names) == players and all(isinstance(n, str) for n in names)
    ):
        raise SaveError(f"{path}: 'names' must be a list of {players} strings")
    actions: list[Action] = []
    state = nw.new_game(players, seed)
    for i, a in enumerate(acts, 1):
        try:
            action = Action.from_json(a)
        except ValueError as exc:
            raise SaveError(f"{path}: action {i} is malformed: {exc}") from exc
        if state.is_over:
            raise SaveError(f"{path}: action {i} comes after the end of the game")
        try:
            state.apply(action)
        except ValueError as exc:
            raise SaveError(f"{path}: action {i} ({action}) is not legal there: {exc}") from exc
        actions.append(action)
    return SavedGame(players, seed, actions, list(names))


# --------------------------------------------------------------------- printing


def _cell_for(console: Console) -> render.CellSize:
    """The large board when the terminal has room for it and the panels, else the compact one."""
    width, height = console.size
    return render.LARGE if width >= 150 and height >= 60 else render.COMPACT


def _name_text(names: Sequence[str], seat: int) -> Text:
    return Text(names[seat], render.player_style(seat))


def describe(state: State, action: Action) -> str:
    """``str(action)`` plus what it refers to: the tile of a display slot or pile."""
    text = str(action)
    # ``Action.index`` is the display slot, but mypy reads it as ``tuple.index``.
    slot = action.to_json().get("index")
    if action.kind in ("draw", "draft") and isinstance(slot, int):
        if 0 <= slot < len(state.display):
            text += f" ({state.display[slot]})"
    elif action.kind == "draw" and action.pile is not None:
        text += f" ({render._PILE_NAMES[action.pile]}, {state.piles[action.pile]} left)"
    return text


def _event_text(ev: Event, names: Sequence[str]) -> Text:
    line = ev.text(list(names))
    seat = getattr(ev, "seat", None)
    if isinstance(ev, RoundStarted | RoundEnded | SunMoved | GameOver):
        return Text(f"— {line}", Style(bold=True, color="#e8d27a"))
    if isinstance(ev, CrewSpent):
        return Text(f"  {line}", Style(dim=True))
    t = Text("  ")
    if isinstance(seat, int):
        t.append("● ", render.player_style(seat))
    style = Style(bold=True, color="#ffd24a") if isinstance(ev, ScoreChanged) else None
    if isinstance(ev, SledLost):
        style = Style(bold=True, color="#e06666")
    t.append(line, style or Style())
    return t


def print_events(console: Console, events: Sequence[Event], names: Sequence[str]) -> None:
    """Every event of an action in words, one per line."""
    for ev in events:
        console.print(_event_text(ev, names))


# --------------------------------------------------------------------- the human prompt


@dataclass
class _Choice:
    """The numbered legal actions of one decision, grouped by kind."""

    numbered: list[Action]
    groups: list[tuple[str, str, str, list[int]]]  # kind, key, label, 1-based numbers


def _choices(state: State) -> _Choice:
    by_kind: dict[str, list[Action]] = {}
    for a in state.legal_actions():
        by_kind.setdefault(a.kind, []).append(a)
    numbered: list[Action] = []
    groups: list[tuple[str, str, str, list[int]]] = []
    for kind, key, label in GROUPS:
        acts = by_kind.pop(kind, [])
        if acts:
            groups.append(
                (kind, key, label, list(range(len(numbered) + 1, len(numbered) + len(acts) + 1)))
            )
            numbered += acts
    for kind, acts in by_kind.items():  # a kind this prompt does not know yet
        groups.append(
            (kind, kind, kind, list(range(len(numbered) + 1, len(numbered) + len(acts) + 1)))
        )
        numbered += acts
    return _Choice(numbered, groups)


def _cost_text(state: State, kind: str) -> str:
    cost = state.cost_of(kind)
    return "free" if cost == 0 else f"{cost} crew"


def _numbered_item(state: State, choice: _Choice, n: int) -> str:
    return f"{n:>3}) {describe(state, choice.numbered[n - 1])}"


def _print_list(console: Console, state: State, choice: _Choice, numbers: Sequence[int]) -> None:
    items = [_numbered_item(state, choice, n) for n in numbers]
    console.print(Columns(items, padding=(0, 3), equal=True, column_first=True))


def _summary(state: State, choice: _Choice, numbers: Sequence[int], kind: str) -> str:
    """A folded group in a few words: placements by tile, others by vehicle."""
    counts: dict[str, int] = {}
    for n in numbers:
        a = choice.numbered[n - 1]
        key = a.tile if kind == "place" and a.tile else (a.vehicle or kind)
        counts[key] = counts.get(key, 0) + 1
    return ", ".join(f"{k} ×{v}" for k, v in counts.items())


def _print_menu(console: Console, state: State, choice: _Choice, names: Sequence[str]) -> None:
    seat = state.current_player
    assert seat is not None
    crew = state.crew(seat)
    head = Text()
    head.append_text(_name_text(names, seat))
    acted = state.view(None)["acted"]
    if state.round == 0:
        head.append(" drafts a tile from the display (free).")
    else:
        head.append(f" — round {state.round}, ")
        head.append(
            "first action of the turn" if not acted else f"action {acted + 1} of the turn (+1 crew)"
        )
        head.append("   available crew: ")
        head.append(f"ship {crew['ship']['available']}, sled {crew['sled']['available']}")
    console.print(head)
    for kind, key, label, numbers in choice.groups:
        line = Text()
        line.append(f"  {key:>4}  ", Style(bold=True, color="#e8d27a"))
        line.append(f"{label:<9}", Style(bold=True))
        line.append(f"{_cost_text(state, kind):>8}  ", Style(color="#9a9a9a"))
        if len(numbers) <= _INLINE:
            line.append("   ".join(_numbered_item(state, choice, n).strip() for n in numbers))
        else:
            line.append(
                f"{numbers[0]}–{numbers[-1]}: {len(numbers)} options ", Style(color="#cfcfcf")
            )
            line.append(f"({_summary(state, choice, numbers, kind)})", Style(color="#9a9a9a"))
        console.print(line)
    console.print(
        Text(
            'Number to play · group key to list · words to filter ("place L17") · '
            "v N preview · ? help · q quit",
            Style(color="#9a9a9a"),
        )
    )


def _preview(console: Console, state: State, action: Action, names: Sequence[str]) -> None:
    """The board after ``action``, computed on a copy: nothing is played."""
    trial = state.clone()
    events = trial.apply(action)
    console.print(Text(f"Preview of: {describe(state, action)}", Style(bold=True)))
    console.print(render.board(trial, names, _cell_for(console)))
    print_events(console, events, names)
    console.print(Text("(not played)", Style(color="#9a9a9a")))


def ask_human(
    state: State,
    names: Sequence[str],
    bots: Sequence[bool],
    console: Console,
    input_fn: InputFn,
) -> Action | None:
    """Ask the current player for an action; ``None`` if they quit (or input ended)."""
    choice = _choices(state)
    console.print(render.game_view(state, names, bots, _cell_for(console)))
    _print_menu(console, state, choice, names)
    while True:
        try:
            raw = input_fn("> ")
        except EOFError:
            return None
        cmd = " ".join(raw.strip().split())
        low = cmd.lower()
        if not low:
            _print_menu(console, state, choice, names)
            continue
        if low in ("q", "quit", "exit"):
            return None
        if low in ("?", "h", "help"):
            console.print(HELP, markup=False, highlight=False)
            continue
        if low in ("b", "board"):
            console.print(render.game_view(state, names, bots, _cell_for(console)))
            _print_menu(console, state, choice, names)
            continue
        if low in ("a", "all"):
            _print_list(console, state, choice, range(1, len(choice.numbered) + 1))
            continue
        if low.isdigit():
            n = int(low)
            if 1 <= n <= len(choice.numbered):
                return choice.numbered[n - 1]
            console.print(f"There is no action {n}; choose 1–{len(choice.numbered)}.")
            continue
        parts = low.split()
        if len(parts) == 2 and parts[0] in ("v", "view", "preview") and parts[1].isdigit():
            n = int(parts[1])
            if 1 <= n <= len(choice.numbered):
                _preview(console, state, choice.numbered[n - 1], names)
            else:
                console.print(f"There is no action {n}; choose 1–{len(choice.numbered)}.")
            continue
        group = next(
            (g for g in choice.groups if low in (g[1], g[2], g[0])),
            None,
        )
        if group is not None:
            if len(group[3]) == 1:
                return choice.numbered[group[3][0] - 1]
            console.print(Text(f"{group[2]} — {_cost_text(state, group[0])}", Style(bold=True)))
            _print_list(console, state, choice, group[3])
            continue
        known = [g[2] for g in GROUPS if low in (g[1], g[2], g[0])]
        if known:
            console.print(f"No {' or '.join(known)} action is possible now.")
            continue
        matches = [
            n
            for n in range(1, len(choice.numbered) + 1)
            if all(p in describe(state, choice.numbered[n - 1]).lower() for p in parts)
        ]
        if len(matches) == 1:
            return choice.numbered[matches[0] - 1]
        if not matches:
            console.print(f'Nothing matches "{cmd}". Type ? for help.')
            continue
        _print_list(console, state, choice, matches)


# --------------------------------------------------------------------- play


def _error(console: Console, message: str) -> int:
    console.print(Text("error: ", Style(bold=True, color="#e06666")) + Text(message))
    return 2


def run_play(
    players: int,
    humans: int,
    seed: int | None,
    save: str | None,
    names: list[str] | None = None,
    console: Console | None = None,
    input_fn: InputFn = input,
    level: str = "medium",
    think_s: float = 1.0,
) -> int:
    """Play a game at the terminal; returns the exit code (0, or 2 for bad arguments).

    Seats ``0 .. humans-1`` are people (seat 1 is Red, and so on), the others
    bots of difficulty ``level`` (easy = random, medium = greedy, hard = MCTS
    thinking ``think_s`` seconds a move), seeded from the game seed so a game
    of easy or medium bots is reproducible.  With ``save`` the action log is
    written after every action.
    """
    console = console or Console()
    if players not in nw.PLAYERS:
        return _error(console, f"Northwest Passage is for {nw.PLAYERS[0]}–{nw.PLAYERS[-1]} players")
    if not 0 <= humans <= players:
        return _error(console, f"--humans must be between 0 and {players}")
    if level not in LEVELS:
        return _error(console, f"--level must be one of {', '.join(LEVELS)}")
    if names is not None and len(names) != players:
        return _error(console, f"--names needs {players} names, got {len(names)}")
    # A fresh seed is short enough to type back in.
    game_seed = secrets.randbelow(10**6) if seed is None else seed
    names = list(names) if names else render.default_names(players)
    bots = [seat >= humans for seat in range(players)]
    state = nw.new_game(players, game_seed)
    seat_bots = {
        s: make_bot(level, seed=game_seed * 10 + s, time_s=think_s)
        for s in range(players)
        if bots[s]
    }
    history: list[Action] = []
    all_events: list[Event] = []

    def saved() -> None:
        if save:
            write_save(save, save_data(players, game_seed, history, names))

    try:
        saved()
    except OSError as exc:
        return _error(console, f"cannot write the save file {save}: {exc}")
    intro = Text()
    intro.append(f"{nw.TITLE}", Style(bold=True))
    intro.append(f" — {players} players, seed {game_seed}. ")
    for s in range(players):
        intro.append_text(_name_text(names, s))
        intro.append(f" ({level} bot)" if bots[s] else " (you)" if humans == 1 else " (human)")
        intro.append(", " if s < players - 1 else ".")
    console.print(intro)
    if humans:
        console.print(Text("Type ? at the prompt for help.", Style(color="#9a9a9a")))

    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        if bots[seat]:
            action = seat_bots[seat].choose(state)
        else:
            picked = ask_human(state, names, bots, console, input_fn)
            if picked is None:
                return _quit(console, input_fn, save, players, game_seed, history, names)
            action = picked
        line = Text("▶ ")
        line.append_text(_name_text(names, seat))
        line.append(f": {describe(state, action)}")
        events = state.apply(action)
        history.append(action)
        all_events += events
        saved()
        console.print(line)
        print_events(console, events, names)

    console.print(render.game_view(state, names, bots, _cell_for(console)))
    console.print(render.final_table(state, all_events, names))
    if save:
        console.print(f"Saved to {save}; watch it again with: erebus replay {save}")
    return 0


def _quit(
    console: Console,
    input_fn: InputFn,
    save: str | None,
    players: int,
    seed: int,
    history: Sequence[Action],
    names: Sequence[str],
) -> int:
    """Leave the game, offering to save it when no --save file was given."""
    if save:
        console.print(f"Game saved to {save} ({len(history)} actions).")
        return 0
    try:
        answer = input_fn(
            "Save this game? Type a file name, or just Enter to leave without saving: "
        )
    except EOFError:
        answer = ""
    path = answer.strip()
    if path:
        try:
            write_save(path, save_data(players, seed, history, names))
        except OSError as exc:
            return _error(console, f"cannot write {path}: {exc}")
        console.print(f"Game saved to {path} ({len(history)} actions).")
    else:
        console.print("Game left without saving.")
    return 0


# --------------------------------------------------------------------- replay


def run_replay(
    path: str,
    step: bool = True,
    console: Console | None = None,
    input_fn: InputFn = input,
) -> int:
    """Replay a save file: step by step (Enter = next, q = quit) or all at once.

    Returns 0, or 2 with a clear message if the file is unreadable, malformed
    or does not replay.
    """
    console = console or Console()
    try:
        game = load_save(path)
    except SaveError as exc:
        return _error(console, str(exc))
    names = game.names
    state = nw.new_game(game.players, game.seed)
    console.print(
        Text(
            f"Replay of {path}: {nw.TITLE}, {game.players} players, seed {game.seed}, "
            f"{len(game.actions)} actions.",
            Style(bold=True),
        )
    )
    if step:
        console.print(render.game_view(state, names, None, _cell_for(console)))
    all_events: list[Event] = []
    total = len(game.actions)
    for i, action in enumerate(game.actions, 1):
        if step:
            try:
                key = input_fn(f"[{i}/{total}] Enter = next action, q = quit: ")
            except EOFError:
                break
            if key.strip().lower() in ("q", "quit", "exit"):
                break
        seat = state.current_player
        assert seat is not None
        line = Text(f"#{i} ")
        line.append_text(_name_text(names, seat))
        line.append(f": {describe(state, action)}")
        events = state.apply(action)
        all_events += events
        console.print(line)
        print_events(console, events, names)
        if step:
            console.print(render.game_view(state, names, None, _cell_for(console)))
    if not step:
        console.print(render.game_view(state, names, None, _cell_for(console)))
    if state.is_over:
        console.print(render.final_table(state, all_events, names))
    else:
        where = f"round {state.round}" if state.round else "the setup draft"
        console.print(f"Stopped in {where}, before the end of the game.")
    return 0
