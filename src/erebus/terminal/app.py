"""Terminal play and replay of every erebus game.

``run_play`` runs a game at the terminal: human seats choose from the legal
actions, the others are played by bots of a chosen level (erebus.bots); ``run_replay`` steps
through a saved game.  Both only use the game's spec (:func:`erebus.games.get_game`)
and a :class:`GameUI`: the ``UI`` of the module the spec names (``terminal_ui``:
:mod:`erebus.terminal.northwest`, :mod:`erebus.terminal.iceandsnow`, each with its
pictures in ``<game>_screen``), or :class:`GenericUI` for a game without one.

Why the prompt works the way it does: a turn can offer hundreds of actions
(Northwest placements; Through Ice and Snow crew compositions and cabin food
amounts), so actions are shown **grouped** (by kind, or by action space) with
small groups inline and big ones folded.  Every action keeps **one number** for
the whole decision, whether it was listed from the overview, a group or a
filter, so ``12`` always means the same thing; a group key (``p``, ``hunt``) or
a filter (``place L17``, ``cabin food=3``) only changes what is listed.  ``v 12``
previews the board after action 12 without playing it.

Input comes through ``input_fn`` (default :func:`input`), so the loop is driven
the same way by a person, by a pipe (stdin that is not a terminal: one line per
answer, end of input = quit) and by tests.

The save file is the action log, written after every action so a game that is
quit or interrupted is never lost::

    {"game": "northwest", "players": 3, "seed": 42, "options": {},
     "names": ["Red", ...], "actions": [{"type": "draft", "index": 1}, ...]}

Replaying it through the engine rebuilds every state exactly (same game,
options, seed and actions, same state).
"""

from __future__ import annotations

import importlib
import io
import json
import os
import secrets
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.columns import Columns
from rich.console import Console, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text

from erebus.bots import LEVELS, make_bot
from erebus.core.events import Event
from erebus.core.game import GameSpec
from erebus.games import GAMES, get_game
from erebus.terminal import seats as seats_look
from erebus.terminal.undo import is_barrier

InputFn = Callable[[str], str]

GAME = "northwest"

_INLINE = 4  # groups up to this size are listed in the overview
_LIST_MAX = 60  # a bigger group is summarised when listed; "<key> all" lists it

HELP = """\
How to choose an action
  12            play action number 12 (numbers stay the same until you act)
  p             list a group: d draw/draft, r refresh, p place, m move,
                t transfer, x explore, c discover, e end turn, pass; a group
                key never plays an action, even the only one of its group
  place L17     list the actions whose description contains every word;
                if exactly one matches, it is played (try "move greenland")
  v 12          preview the board after action 12 without playing it
  u             take back your last action of this turn (not past a tile
                drawn from the bag, nor past the end of your turn)
  h             a hint: the hard bot's choice here, from what you can see
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

# --------------------------------------------------------------------- options


def parse_options(options: str | dict[str, Any] | None) -> dict[str, Any]:
    """``--options`` as given: a JSON object (text) or a dict; ``ValueError`` if neither."""
    if options is None:
        return {}
    if isinstance(options, dict):
        return dict(options)
    text = options.strip()
    if not text:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(
            f"--options is not valid JSON ({exc.msg} at column {exc.pos + 1})"
        ) from exc
    if not isinstance(value, dict):
        raise ValueError(
            f'--options must be a JSON object such as \'{{"modes": ["survival"]}}\', '
            f"not {type(value).__name__}"
        )
    return value


# --------------------------------------------------------------------- the per-game pieces


@dataclass
class _Choice:
    """The numbered legal actions of one decision, grouped."""

    numbered: list[Any]
    groups: list[tuple[str, str, str, list[int]]]  # kind, key, label, 1-based numbers


class GameUI(ABC):
    """What the terminal loop needs to know about one game.  Each game subclasses it
    and must provide the four abstract pieces: its screen, its end-of-game table,
    its grouped action menu and the menu's heading."""

    name = ""
    title = ""
    short = ""  # the title in a sentence: "Northwest Passage"
    help = HELP

    #: A filter the menu's footer suggests.
    filter_example = '"pass"'
    #: The scenarios ``--scenario`` may name (none: the game has none).
    scenarios: tuple[str, ...] = ()

    @property
    def spec(self) -> GameSpec:
        return get_game(self.name)

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(self.spec.players)

    def default_players(self, options: dict[str, Any]) -> int:
        """The player count when ``--players`` is not given."""
        return 3 if 3 in self.spec.players else self.spec.min_players

    def options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        """The checked, canonical options (``ValueError`` with a clear message)."""
        return self.spec.parse_options(players, options)

    def new_game(self, players: int, seed: int, options: dict[str, Any]) -> Any:
        return self.spec.new_game(players, seed, options or None)

    def setup_events(self, state: Any) -> list[Event]:
        """Events of the setup, before any action (shown first)."""
        return []

    def default_names(self, players: int) -> list[str]:
        return seats_look.default_names(players)

    def player_style(self, seat: int) -> Style:
        return seats_look.player_style(seat)

    def action_from_json(self, data: Any) -> Any:
        return self.spec.action_from_json(data)

    def describe(self, state: Any, action: Any) -> str:
        return str(action)

    def played(self, state: Any, action: Any, secret: bool) -> str:
        """The action on the "▶ player: …" line; ``secret``: others watch the screen."""
        return self.describe(state, action)

    def brief(self, state: Any, action: Any) -> str:
        """An action on a menu line that already names its group."""
        return self.describe(state, action)

    def matches(self, state: Any, action: Any, words: Sequence[str]) -> bool:
        text = self.describe(state, action).lower()
        return all(w in text for w in words)

    def event_line(self, state: Any, ev: Event, names: Sequence[str]) -> Text:
        return Text("  " + ev.text(list(names)))

    @abstractmethod
    def game_view(
        self,
        state: Any,
        names: Sequence[str],
        bots: Sequence[bool] | None,
        console: Console,
        seat: int | None,
        log: Sequence[Event],
    ) -> RenderableType:
        """Provided by each game."""

    @abstractmethod
    def final(self, state: Any, events: Sequence[Event], names: Sequence[str]) -> RenderableType:
        """Provided by each game."""

    @abstractmethod
    def choices(self, state: Any) -> _Choice:
        """Provided by each game."""

    def group_note(self, state: Any, kind: str) -> str:
        return ""

    def summary(self, state: Any, actions: Sequence[Any], kind: str) -> str:
        return ""

    @abstractmethod
    def menu_head(self, state: Any, names: Sequence[str]) -> Text:
        """Provided by each game."""

    def preview(self, state: Any, action: Any) -> tuple[Any, list[Event], str]:
        """The state after ``action`` (nothing is played), its events, and a note."""
        trial = state.clone()
        return trial, trial.apply(action), ""

    def preview_view(
        self,
        state: Any,
        names: Sequence[str],
        bots: Sequence[bool] | None,
        console: Console,
        seat: int | None,
        log: Sequence[Event],
    ) -> RenderableType:
        """The picture of a previewed position (default: the game's screen)."""
        return self.game_view(state, names, bots, console, seat, log)

    def find_group(self, choice: _Choice, word: str) -> tuple[str, str, str, list[int]] | None:
        """A group named by ``word`` other than by its kind, key or label (or None)."""
        return None

    def known_groups(self, low: str, word: str) -> list[str]:
        """Labels of the groups ``low``/``word`` names that are not possible now."""
        return []

    def stopped_where(self, state: Any) -> str:
        rounds = self.spec.rounds
        return f"round {rounds(state)}" if rounds and rounds(state) else "the setup"

    def min_width(self) -> int:
        """Columns the game's screen needs; narrower, it would be cut off."""
        return 80

    def plain_text(self, state: Any, width: int = 160) -> str:
        """The screen of the seat to act without colours (the RL environment's
        ``render(mode="ansi")``)."""
        console = Console(
            record=True, width=width, file=io.StringIO(), color_system=None, force_terminal=False
        )
        names = self.default_names(len(state.scores()))
        console.print(self.game_view(state, names, None, console, state.current_player, []))
        return console.export_text()


def plain_text(game: str, state: Any) -> str:
    """``game``'s terminal picture of ``state`` as plain text (see :meth:`GameUI.plain_text`)."""
    return ui_for(game).plain_text(state)


class GenericUI(GameUI):
    """The screen of a game without a terminal UI of its own (``spec.terminal_ui`` is
    None): the scores and the view's fields as text, the legal actions by kind."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.title = self.short = get_game(name).title

    def game_view(
        self,
        state: Any,
        names: Sequence[str],
        bots: Sequence[bool] | None,
        console: Console,
        seat: int | None,
        log: Sequence[Event],
    ) -> RenderableType:
        view = self.spec.wire_view(state, seat)
        table = Table(title=self.title, show_header=False)
        table.add_column("")
        table.add_column("")
        for s, score in enumerate(state.scores()):
            table.add_row(Text(names[s], self.player_style(s)), str(score))
        for key, value in view.items():
            table.add_row(key, json.dumps(value))
        return table

    def final(self, state: Any, events: Sequence[Event], names: Sequence[str]) -> RenderableType:
        table = Table(title="Final scores")
        table.add_column("Place", justify="right")
        table.add_column("Player")
        table.add_column("Score", justify="right")
        scores = state.scores()
        for place, s in enumerate(state.ranking(), start=1):
            table.add_row(str(place), Text(names[s], self.player_style(s)), str(scores[s]))
        return table

    def choices(self, state: Any) -> _Choice:
        by_kind: dict[str, list[Any]] = {}
        for a in state.legal_actions():
            by_kind.setdefault(str(a.to_json().get("type", "action")), []).append(a)
        numbered: list[Any] = []
        groups: list[tuple[str, str, str, list[int]]] = []
        for kind, acts in by_kind.items():
            n0 = len(numbered)
            groups.append((kind, kind, kind, list(range(n0 + 1, n0 + len(acts) + 1))))
            numbered += acts
        return _Choice(numbered, groups)

    def menu_head(self, state: Any, names: Sequence[str]) -> Text:
        seat = state.current_player
        head = Text()
        head.append(names[seat], self.player_style(seat))
        head.append(" to act.")
        return head


_UIS: dict[str, GameUI] = {}


def ui_for(game: str) -> GameUI:
    """The terminal pieces of ``game``: the ``UI`` of the module its spec names
    (``spec.terminal_ui``), or the generic screen; ``ValueError`` for an unknown game."""
    ui = _UIS.get(game) if isinstance(game, str) else None
    if ui is None:
        if not isinstance(game, str) or game not in GAMES:
            raise ValueError(f"unknown game {game!r}; choose one of {', '.join(GAMES)}")
        module = get_game(game).terminal_ui
        ui = importlib.import_module(module).UI if module else GenericUI(game)
        _UIS[game] = ui
    return ui


# --------------------------------------------------------------------- save files


class SaveError(ValueError):
    """A save file that cannot be read or does not replay; the message says why."""


@dataclass(frozen=True, slots=True)
class SavedGame:
    """The content of a save file, checked: it replays through the engine."""

    players: int
    seed: int
    actions: list[Any]
    names: list[str]
    game: str = GAME
    options: dict[str, Any] = field(default_factory=dict)
    seats: list[str] | None = None  # "human" or "bot" per seat; None in older saves
    level: str | None = None  # the bots' level; None in older saves


SEAT_KINDS = ("human", "bot")


def save_data(
    players: int,
    seed: int,
    actions: Sequence[Any],
    names: Sequence[str],
    game: str = GAME,
    options: dict[str, Any] | None = None,
    seats: Sequence[str] | None = None,
    level: str | None = None,
) -> dict[str, Any]:
    """The JSON document of a save file (``seats`` and ``level`` let ``--load`` resume it
    with the same people and bots)."""
    data: dict[str, Any] = {
        "game": game,
        "players": players,
        "seed": seed,
        "options": dict(options or {}),
        "actions": [a.to_json() for a in actions],
        "names": list(names),
    }
    if seats is not None:
        data["seats"] = list(seats)
    if level is not None:
        data["level"] = level
    return data


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
    except OSError as exc:
        raise SaveError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise SaveError(f"cannot read {path}: it is not UTF-8 text ({exc.reason})") from exc
    try:
        d = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise SaveError(
            f"{path} is not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
        ) from exc
    if not isinstance(d, dict):
        raise SaveError(f"{path}: a save file is a JSON object, not {type(d).__name__}")
    game = d.get("game")
    if not isinstance(game, str) or game not in GAMES:
        titles = " or ".join(ui_for(name).short for name in GAMES)
        raise SaveError(f"{path}: not a {titles} save (game is {game!r})")
    ui = ui_for(game)
    players = d.get("players")
    if not _is_int(players) or players not in ui.players:
        raise SaveError(f"{path}: 'players' must be one of {', '.join(map(str, ui.players))}")
    seed = d.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SaveError(f"{path}: 'seed' must be an integer")
    options = d.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise SaveError(f"{path}: 'options' must be a JSON object")
    try:
        options = ui.options(players, options)
    except ValueError as exc:
        raise SaveError(f"{path}: bad 'options': {exc}") from exc
    acts = d.get("actions")
    if not isinstance(acts, list):
        raise SaveError(f"{path}: 'actions' must be a list")
    names = d.get("names")
    if names is None:
        names = ui.default_names(players)
    if not (
        isinstance(names, list) and len(names) == players and all(isinstance(n, str) for n in names)
    ):
        raise SaveError(f"{path}: 'names' must be a list of {players} strings")
    seats = d.get("seats")
    if seats is not None and not (
        isinstance(seats, list) and len(seats) == players and all(k in SEAT_KINDS for k in seats)
    ):
        raise SaveError(f'{path}: \'seats\' must be a list of {players} of "human" or "bot"')
    level = d.get("level")
    if level is not None and level not in LEVELS:
        raise SaveError(f"{path}: 'level' must be one of {', '.join(LEVELS)}")
    actions: list[Any] = []
    state = ui.new_game(players, seed, options)
    for i, a in enumerate(acts, 1):
        try:
            action = ui.action_from_json(a)
        except ValueError as exc:
            raise SaveError(f"{path}: action {i} is malformed: {exc}") from exc
        if state.is_over:
            raise SaveError(f"{path}: action {i} comes after the end of the game")
        try:
            state.apply(action)
        except ValueError as exc:
            raise SaveError(f"{path}: action {i} ({action}) is not legal there: {exc}") from exc
        actions.append(action)
    return SavedGame(players, seed, actions, list(names), game, options, seats, level)


# --------------------------------------------------------------------- printing


def _name_text(ui: GameUI, names: Sequence[str], seat: int) -> Text:
    return Text(names[seat], ui.player_style(seat))


def print_events(
    console: Console,
    events: Sequence[Event],
    names: Sequence[str],
    state: Any = None,
    ui: GameUI | None = None,
) -> None:
    """Every event of an action in words, one per line."""
    ui = ui or ui_for(GAME)
    for ev in events:
        console.print(ui.event_line(state, ev, names))


def too_narrow(console: Console, ui: GameUI) -> bool:
    return console.width < ui.min_width()


def width_notice(console: Console, ui: GameUI) -> Text:
    """What is shown instead of a screen the terminal is too narrow for."""
    return Text(
        f"This screen needs {ui.min_width()} columns; the terminal has {console.width} — "
        "widen it to see the board (the list of actions below still works).",
        Style(bold=True, color="#e06666"),
    )


def print_view(
    console: Console,
    ui: GameUI,
    state: Any,
    names: Sequence[str],
    bots: Sequence[bool] | None,
    seat: int | None,
    log: Sequence[Event],
) -> None:
    """The game's screen, or a notice saying how wide the terminal must be for it
    (Rich would otherwise cut the board's columns off)."""
    if too_narrow(console, ui):
        console.print(width_notice(console, ui))
    else:
        console.print(ui.game_view(state, names, bots, console, seat, log))


# --------------------------------------------------------------------- the human prompt


def _numbered_item(ui: GameUI, state: Any, choice: _Choice, n: int, brief: bool = False) -> str:
    action = choice.numbered[n - 1]
    return f"{n:>3}) {ui.brief(state, action) if brief else ui.describe(state, action)}"


def _print_list(
    console: Console,
    ui: GameUI,
    state: Any,
    choice: _Choice,
    numbers: Sequence[int],
    brief: bool = False,
) -> None:
    """Numbered actions in columns; ``brief`` under a heading that names their group."""
    items = [_numbered_item(ui, state, choice, n, brief) for n in numbers]
    console.print(Columns(items, padding=(0, 3), equal=True, column_first=True))


def _print_menu(
    console: Console, ui: GameUI, state: Any, choice: _Choice, names: Sequence[str]
) -> None:
    console.print(ui.menu_head(state, names))
    grid = Table.grid(padding=(0, 2))
    grid.add_column(justify="right", style=Style(bold=True, color="#e8d27a"), no_wrap=True)
    grid.add_column(style=Style(bold=True), no_wrap=True)
    notes = any(ui.group_note(state, g[0]) for g in choice.groups)
    if notes:
        grid.add_column(justify="right", style=Style(color="#9a9a9a"), no_wrap=True)
    grid.add_column(ratio=1)
    for kind, key, label, numbers in choice.groups:
        items = Text()
        if len(numbers) <= _INLINE:
            items.append(
                "   ".join(f"{n}) {ui.brief(state, choice.numbered[n - 1])}" for n in numbers)
            )
        else:
            acts = [choice.numbered[n - 1] for n in numbers]
            items.append(
                f"{numbers[0]}–{numbers[-1]}: {len(numbers)} options ", Style(color="#cfcfcf")
            )
            items.append(f"({ui.summary(state, acts, kind)})", Style(color="#9a9a9a"))
        row: list[Any] = [key, label]
        if notes:
            row.append(ui.group_note(state, kind))
        grid.add_row(*row, items)
    console.print(grid)
    example = ui.filter_example
    console.print(
        Text(
            f"Number to play · group key to list · words to filter ({example}) · "
            "v N preview · h hint · u undo · ? help · q quit",
            Style(color="#9a9a9a"),
        )
    )


def _preview(
    console: Console,
    ui: GameUI,
    state: Any,
    action: Any,
    names: Sequence[str],
    bots: Sequence[bool] | None,
    log: Sequence[Event],
) -> None:
    """The board after ``action``, computed on a copy: nothing is played."""
    trial, events, note = ui.preview(state, action)
    console.print(Text(f"Preview of: {ui.describe(state, action)}{note}", Style(bold=True)))
    seat = state.current_player
    if too_narrow(console, ui):
        console.print(width_notice(console, ui))
    else:
        console.print(ui.preview_view(trial, names, bots, console, seat, [*log, *events]))
    for ev in events:
        console.print(ui.event_line(trial, ev, names))
    console.print(Text("(not played)", Style(color="#9a9a9a")))


def _hint(console: Console, ui: GameUI, state: Any, choice: _Choice) -> None:
    """``h``: the hard bot's suggestion for the seat to move (from its view only,
    seeded by that view, so the same position always gets the same hint)."""
    from erebus.bots import analysis

    seed = analysis.view_seed(state.view(state.current_player))
    h = analysis.hint(state, seed)
    action = ui.action_from_json(h["action"])
    number = next((i for i, a in enumerate(choice.numbered, 1) if a == action), None)
    words = h.get("text") or ui.describe(state, action)  # the game's own words (describe_action)
    where = f" (action {number})" if number is not None else ""
    console.print(Text(f"Hint: {words}{where}", Style(bold=True, color="#7fc8f8")))
    console.print(Text(h["reason"], Style(color="#9a9a9a")))


#: What :func:`ask_human` returns when the player types ``u`` and may take back an action.
UNDO = "undo"


def ask_human(
    state: Any,
    names: Sequence[str],
    bots: Sequence[bool],
    console: Console,
    input_fn: InputFn,
    ui: GameUI | None = None,
    log: Sequence[Event] = (),
    undoable: str | None = None,
) -> Any | None:
    """Ask the current player for an action; ``None`` if they quit (or input ended),
    :data:`UNDO` if they take back ``undoable`` (their last action, when it may be)."""
    ui = ui or ui_for(GAME)
    seat = state.current_player
    choice = ui.choices(state)
    print_view(console, ui, state, names, bots, seat, log)
    _print_menu(console, ui, state, choice, names)
    total = len(choice.numbered)
    while True:
        try:
            raw = input_fn("> ")
        except EOFError:
            return None
        cmd = " ".join(raw.strip().split())
        low = cmd.lower()
        if not low:
            _print_menu(console, ui, state, choice, names)
            continue
        if low in ("q", "quit", "exit"):
            return None
        if low in ("?", "help"):
            console.print(ui.help, markup=False, highlight=False)
            continue
        if low in ("h", "hint"):
            _hint(console, ui, state, choice)
            continue
        if low in ("b", "board"):
            print_view(console, ui, state, names, bots, seat, log)
            _print_menu(console, ui, state, choice, names)
            continue
        if low in ("u", "undo"):
            if undoable is not None:
                return UNDO
            console.print(
                "Nothing to take back: undo works within your turn, back to the last "
                "action that revealed a tile or card or passed the turn on."
            )
            continue
        if low in ("a", "all"):
            _print_list(console, ui, state, choice, range(1, total + 1))
            continue
        if low.isdigit():
            n = int(low)
            if 1 <= n <= total:
                return choice.numbered[n - 1]
            console.print(f"There is no action {n}; choose 1–{total}.")
            continue
        parts = low.split()
        if len(parts) == 2 and parts[0] in ("v", "view", "preview") and parts[1].isdigit():
            n = int(parts[1])
            if 1 <= n <= total:
                _preview(console, ui, state, choice.numbered[n - 1], names, bots, log)
            else:
                console.print(f"There is no action {n}; choose 1–{total}.")
            continue
        full = len(parts) == 2 and parts[1] == "all"
        word = parts[0] if full else low
        group = next((g for g in choice.groups if word in (g[1], g[2], g[0])), None)
        if group is None:
            group = ui.find_group(choice, word)
        if group is not None:  # a group key only lists, even a group of one (issue 10)
            note = ui.group_note(state, group[0])
            console.print(Text(f"{group[2]}{' — ' + note if note else ''}", Style(bold=True)))
            if len(group[3]) > _LIST_MAX and not full:
                acts = [choice.numbered[n - 1] for n in group[3]]
                console.print(
                    f"{len(group[3])} options, {group[3][0]}–{group[3][-1]}: "
                    f"{ui.summary(state, acts, group[0])}.\n"
                    f'Add words to narrow them (e.g. "{group[1]} wood" or "{group[1]} '
                    f'sailors"), or type "{group[1]} all" to list them all.'
                )
            else:
                _print_list(console, ui, state, choice, group[3], brief=True)
            continue
        known = ui.known_groups(low, word)
        if known:
            console.print(f"No {' or '.join(known)} action is possible now.")
            continue
        matches = [
            n for n in range(1, total + 1) if ui.matches(state, choice.numbered[n - 1], parts)
        ]
        if len(matches) == 1:
            return choice.numbered[matches[0] - 1]
        if not matches:
            console.print(f'Nothing matches "{cmd}". Type ? for help.')
            continue
        _print_list(console, ui, state, choice, matches)


# --------------------------------------------------------------------- play


def _error(console: Console, message: str) -> int:
    # One line, whatever the width: the terminal wraps it, Rich does not break it.
    console.print(
        Text("error: ", Style(bold=True, color="#e06666")) + Text(message), soft_wrap=True
    )
    return 2


def run_play(
    players: int | None,
    humans: int | None,
    seed: int | None,
    save: str | None,
    names: list[str] | None = None,
    console: Console | None = None,
    input_fn: InputFn = input,
    level: str | None = None,
    think_s: float = 1.0,
    game: str | None = None,
    options: str | dict[str, Any] | None = None,
    scenario: str | None = None,
    load: str | None = None,
) -> int:
    """Play a game at the terminal; returns the exit code (0, or 2 for bad arguments).

    Seats ``0 .. humans-1`` are people (seat 1 is Red, and so on), the others
    bots of difficulty ``level`` (easy = random, medium = greedy, hard = MCTS
    thinking ``think_s`` seconds a move; default medium), seeded from the game seed so
    a game of easy or medium bots is reproducible.  With ``save`` the action log is
    written after every action.  ``options`` (a dict or JSON text) are the
    game's options; ``scenario`` (Through Ice and Snow's solo scenarios) implies
    one player, a person unless ``humans`` says otherwise.

    ``load`` resumes a save file: game, players, seed, options and names come from
    it (giving a different one is an error), the seats are people or bots as saved
    unless ``humans`` says otherwise, the bots play at the saved level unless
    ``level`` is given.  Saving goes to ``save`` only when it is given (it may be the
    loaded file itself).
    """
    console = console or Console()
    loaded: SavedGame | None = None
    if load is not None:
        try:
            loaded = load_save(load)
        except SaveError as exc:
            return _error(console, str(exc))
        clash = [
            f"{flag} {given}"
            for flag, given, saved_value in (
                ("--game", game, loaded.game),
                ("--players", players, loaded.players),
                ("--seed", seed, loaded.seed),
                ("--scenario", scenario, loaded.options.get("scenario")),
            )
            if given is not None and given != saved_value
        ]
        if options is not None:
            clash.append("--options")
        if clash:
            return _error(
                console,
                f"{load} holds its own game, players, seed and options; drop {', '.join(clash)}",
            )
        game, players, seed = loaded.game, loaded.players, loaded.seed
        options = dict(loaded.options)
        if humans is None and loaded.seats is not None:
            humans = loaded.seats.count("human")
        if level is None:
            level = loaded.level
        if names is None:
            names = list(loaded.names)
    try:
        ui = ui_for(game or GAME)
    except ValueError as exc:
        return _error(console, str(exc))
    try:
        opts = parse_options(options)
    except ValueError as exc:
        return _error(console, str(exc))
    if scenario is not None and loaded is None:
        if not ui.scenarios:
            return _error(console, f"{ui.short} has no scenarios (--scenario)")
        if scenario not in ui.scenarios:
            return _error(
                console, f"unknown scenario {scenario!r}; choose one of {', '.join(ui.scenarios)}"
            )
        opts["scenario"] = scenario
    if players is None:
        players = ui.default_players(opts)
    if humans is None:
        humans = 1
    level = level or "medium"
    if players not in ui.players:
        lo, hi = ui.players[0], ui.players[-1]
        return _error(console, f"{ui.short} is for {lo}–{hi} players")
    if not 0 <= humans <= players:
        return _error(console, f"--humans must be between 0 and {players}")
    if level not in LEVELS:
        return _error(console, f"--level must be one of {', '.join(LEVELS)}")
    if names is not None and len(names) != players:
        return _error(console, f"--names needs {players} names, got {len(names)}")
    try:
        opts = ui.options(players, opts)
    except ValueError as exc:
        return _error(console, f"bad --options: {exc}")
    # A fresh seed is short enough to type back in.
    game_seed = secrets.randbelow(10**6) if seed is None else seed
    names = list(names) if names else ui.default_names(players)
    if loaded is not None and loaded.seats is not None and humans == loaded.seats.count("human"):
        bots = [kind == "bot" for kind in loaded.seats]
    else:
        bots = [seat >= humans for seat in range(players)]
    state = ui.new_game(players, game_seed, opts)
    seat_bots = {
        s: make_bot(level, seed=game_seed * 10 + s, time_s=think_s)
        for s in range(players)
        if bots[s]
    }
    history: list[Any] = []
    all_events: list[Event] = ui.setup_events(state)
    for action in loaded.actions if loaded is not None else ():
        all_events += state.apply(action)
        history.append(action)
    # Take-backs of the current turn: (state before, events before, the action).
    undo_stack: list[tuple[Any, int, Any]] = []
    assert level is not None

    def data() -> dict[str, Any]:
        seats = ["bot" if b else "human" for b in bots]
        return save_data(players, game_seed, history, names, ui.name, opts, seats, level)

    def saved() -> None:
        if save:
            write_save(save, data())

    try:
        saved()
    except OSError as exc:
        return _error(console, f"cannot write the save file {save}: {exc}")
    intro = Text()
    if loaded is not None:
        intro.append(f"Resumed {load} ({len(history)} actions): ", Style(bold=True))
    intro.append(ui.title, Style(bold=True))
    extra = ""
    if opts.get("scenario"):
        extra = f", scenario {opts['scenario']}"
    if opts.get("modes"):
        extra += f", modes {', '.join(opts['modes'])}"
    intro.append(f" — {players} player{'s' if players > 1 else ''}{extra}, seed {game_seed}. ")
    people = players - sum(bots)
    for s in range(players):
        intro.append_text(_name_text(ui, names, s))
        intro.append(f" ({level} bot)" if bots[s] else " (you)" if people == 1 else " (human)")
        intro.append(", " if s < players - 1 else ".")
    console.print(intro)
    if people:
        console.print(Text("Type ? at the prompt for help.", Style(color="#9a9a9a")))

    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        if bots[seat]:
            action = seat_bots[seat].choose(state)
        else:
            last = ui.describe(undo_stack[-1][0], undo_stack[-1][2]) if undo_stack else None
            picked = ask_human(state, names, bots, console, input_fn, ui, all_events, last)
            if picked is None:
                return _quit(console, input_fn, save, data)
            if picked is UNDO:
                state, kept, taken = undo_stack.pop()
                history.pop()
                del all_events[kept:]
                saved()
                line = Text("↶ ")
                line.append_text(_name_text(ui, names, seat))
                line.append(f" takes back: {ui.describe(state, taken)}")
                console.print(line)
                continue
            action = picked
        line = Text("▶ ")
        line.append_text(_name_text(ui, names, seat))
        # A secret choice (an investor) stays hidden from the people at the screen.
        secret = people > 1 or (bots[seat] and people > 0)
        line.append(f": {ui.played(state, action, secret)}")
        before = state.clone()
        events = state.apply(action)
        if bots[seat] or is_barrier(ui.name, seat, before, state, events):
            undo_stack.clear()
        else:
            undo_stack.append((before, len(all_events), action))
        history.append(action)
        all_events += events
        saved()
        console.print(line)
        print_events(console, events, names, state, ui)

    viewer = next((s for s in range(players) if not bots[s]), None) if people == 1 else None
    print_view(console, ui, state, names, bots, viewer, all_events)
    console.print(ui.final(state, all_events, names))
    if save:
        console.print(f"Saved to {save}; watch it again with: erebus replay {save}")
    return 0


def _quit(
    console: Console,
    input_fn: InputFn,
    save: str | None,
    data: Callable[[], dict[str, Any]],
) -> int:
    """Leave the game, offering to save it when no --save file was given."""
    count = len(data()["actions"])
    if save:
        console.print(f"Game saved to {save} ({count} actions).")
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
            write_save(path, data())
        except OSError as exc:
            return _error(console, f"cannot write {path}: {exc}")
        console.print(f"Game saved to {path} ({count} actions).")
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
    or does not replay.  A replay shows what a spectator sees (no hidden cards).
    """
    console = console or Console()
    try:
        game = load_save(path)
    except SaveError as exc:
        return _error(console, str(exc))
    ui = ui_for(game.game)
    names = game.names
    state = ui.new_game(game.players, game.seed, game.options)
    extra = f", scenario {game.options['scenario']}" if game.options.get("scenario") else ""
    console.print(
        Text(
            f"Replay of {path}: {ui.title}, {game.players} players{extra}, seed {game.seed}, "
            f"{len(game.actions)} actions.",
            Style(bold=True),
        )
    )
    all_events: list[Event] = ui.setup_events(state)
    if step:
        print_view(console, ui, state, names, None, None, all_events)
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
        line.append_text(_name_text(ui, names, seat))
        line.append(f": {ui.played(state, action, True)}")  # a spectator's view
        events = state.apply(action)
        all_events += events
        console.print(line)
        print_events(console, events, names, state, ui)
        if step:
            print_view(console, ui, state, names, None, None, all_events)
    if not step:
        print_view(console, ui, state, names, None, None, all_events)
    if state.is_over:
        console.print(ui.final(state, all_events, names))
    else:
        console.print(f"Stopped in {ui.stopped_where(state)}, before the end of the game.")
    return 0
