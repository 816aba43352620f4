"""The game contract: one :class:`GameSpec` per game, the only thing consumers know.

A game package (``erebus.games.<name>``) exports ``SPEC``; :func:`erebus.games.get_game`
returns it.  The server, the browser client's payloads, the terminal app, the bots,
tournaments, the RL environment and the benchmarks reach a game only through these
fields — never by importing the package's modules or probing it with ``getattr`` — so
that adding a game is one package plus one line in the registry.

Required fields are the public engine API of ``shared/design/engine-api.md``; the
optional hooks are declared here (``None``/empty when a game has none) so that every
consumer can see what a game offers.  The engine stays pure: hooks that belong to a
front-end (the terminal screen, the browser board) are *names* of modules that the
front-end imports itself, so an engine package never imports a front-end.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from erebus.core.events import Event

#: A state of some game (the engine API's ``State``): typed loosely on purpose, the
#: contract is structural (:mod:`erebus.core.protocols`).
State = Any
#: An action of some game (``Action``: ``to_json()``, hashable, ``str()`` readable).
Action = Any


@dataclass(frozen=True)
class SearchHints:
    """How a searching bot (MCTS) should treat this game.

    ``own_turn_only``: the tree plans the mover's own turn and values the position
    after it by the heuristic (later turns are not expanded).  ``root_screen``: when
    the root has more candidates than this, each is valued once (a greedy ply) and
    the search spends its budget on the best ``root_screen``; 0 = never.
    ``reward_scale``: the heuristic lead (in points) at which ``tanh`` saturates the
    reward, relative to the game's scores.  ``rival_reply``: with ``own_turn_only``,
    a leaf where a rival is to move is first played on by the rivals' one-ply greedy
    replies (the game's ``heuristic``, as the medium bot chooses), one decision at a
    time until the searching seat is to move again (at most one fewer than the seats),
    so the search values its action against the replies it leaves open."""

    own_turn_only: bool = True
    root_screen: int = 0
    reward_scale: float = 0.5
    rival_reply: bool = False


@dataclass(frozen=True)
class Statistic:
    """One per-seat figure a tournament records for each game (e.g. "reached the
    Northwest Passage"), under ``key`` in each game record's ``statistics``.

    ``value(final_state, seat)`` is a bool.  ``seen`` (optional) names the seat an
    event shows it happened to (or None): the figure is also true when such an event
    occurred during the game, even if the final state no longer shows it.  The balance
    table shows up to three rows: ``label`` the rate over seats, ``game_label`` the
    share of games where it happened to someone, ``count_label`` the mean number of
    seats per game it happened to (None: that row is not shown)."""

    key: str
    label: str | None
    value: Callable[[State, int], bool]
    seen: Callable[[Event], int | None] | None = None
    game_label: str | None = None
    count_label: str | None = None


@dataclass(frozen=True)
class RlEncoding:
    """A game's fixed-size encoding for reinforcement learning (``erebus.rl`` builds a
    PettingZoo environment of any game from it).

    Every field is a function, so that a game's package does not import numpy (an
    optional extra) until an environment asks: ``action_space_size()`` the number of
    action indices; ``observation_bounds()`` the (low, high) float32 arrays of the
    observation; ``observe(state, seat)`` the float32 vector from ``seat``'s view
    only; ``legal_mask(state)`` an int8 array of ``action_space_size()`` (1 = legal);
    ``action_at(state, index)`` the action an index stands for (``ValueError`` if
    none); ``action_index(state, action)`` its inverse.  For a game whose choices are
    too many to number, the index may be the position in ``legal_actions()``.
    (``render(mode="ansi")`` shows the terminal's plain-text picture of the game.)

    ``new_game(players, seed)`` (optional) starts the games the encoding numbers, when
    they are not ``spec.new_game(players, seed, options)``: an encoding made by
    ``GameSpec.rl_for`` for a set-up the options cannot say (Northwest: a custom
    content, whose board and tiles the indices follow).

    Two optional hooks let an environment step fast (each must agree exactly with
    the plain function, and tests check it along random games):
    ``legal_indices(state)`` the indices of ``legal_actions()``, in that order (the
    environment keeps one mask and changes only the entries that changed, instead
    of building an ``action_space_size()`` array per step); ``observer()`` a new
    stateful ``observe`` for the successive states of one game (an environment makes
    one per ``reset()``): it may keep the blocks of the last observation whose inputs
    did not change, and returns a new array equal to ``observe(state, seat)``.

    ``legal_parts``: the state's methods in which the engine makes the legal actions
    as ``legal_indices`` calls it (``legal_actions`` by default; an encoding that
    numbers the engine's option queries directly names those) — what ``erebus bench
    --compare`` times as the engine's ``legal_actions()`` in its breakdown of a step.

    ``observation_bounds_for(players, options)`` (optional): the bounds of the games
    made with these (parsed) options, for a game whose observation length follows the
    options (Through Ice and Snow: a module or a solo scenario adds map sections,
    spaces or event cards); without it, or without options, ``observation_bounds()``."""

    action_space_size: Callable[[], int]
    observation_bounds: Callable[[], tuple[Any, Any]]
    observe: Callable[[State, int], Any]
    legal_mask: Callable[[State], Any]
    action_at: Callable[[State, int], Action]
    action_index: Callable[[State, Action], int]
    new_game: Callable[[int, int], State] | None = None
    legal_indices: Callable[[State], Sequence[int]] | None = None
    observer: Callable[[], Callable[[State, int], Any]] | None = None
    observation_bounds_for: Callable[[int, Mapping[str, Any]], tuple[Any, Any]] | None = None
    legal_parts: tuple[str, ...] = ("legal_actions",)


@dataclass(frozen=True)
class GameOption:
    """One of a game's own options (``parse_options``' keys), described as data so that
    a front-end (the browser lobby) offers exactly what the engine takes and no copy of
    the list lives outside the game.  ``parse_options`` stays the only judge.

    ``kind``: ``"choice"`` (one of ``choices``, a string), ``"set"`` (any subset of
    ``choices``, a list in that order) or ``"flag"`` (true/false).  ``default``: the
    value when the option is left out; None for a choice that must be made (Ice and
    Snow's solo scenario: a lobby preselects the first).  ``players``: the player
    counts where the option means something and a lobby shows it (empty: all).
    ``requires``: the choice of another ``"set"`` option that must be picked for this
    one to mean something (Ice and Snow's module readings: ``("modules",
    "inuit_myths")``); the engine stores it only then.  ``choice_players``: choices
    that belong to some player counts only (Walking on Ice: not solo).
    The words (a label, a one-line explanation, each choice's name) are the
    front-end's, looked up by ``key`` and choice."""

    key: str
    kind: str
    choices: tuple[str, ...] = ()
    default: Any = None
    players: tuple[int, ...] = ()
    requires: tuple[str, str] | None = None
    choice_players: tuple[tuple[str, tuple[int, ...]], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "kind": self.kind,
            "choices": list(self.choices),
            "default": list(self.default) if isinstance(self.default, tuple) else self.default,
            "players": list(self.players),
            "requires": list(self.requires) if self.requires else None,
            "choice_players": {c: list(n) for c, n in self.choice_players},
        }


@dataclass(frozen=True)
class GameSpec:
    """Everything a consumer may know of a game (see the module docstring)."""

    # -- required: identity and rules
    name: str
    title: str
    min_players: int
    max_players: int
    #: ``parse_options(players, options)`` -> the complete, validated options
    #: (defaults filled in); ``ValueError`` with a message a person understands.
    parse_options: Callable[[int, Mapping[str, Any] | None], dict[str, Any]]
    #: ``new_game(players, seed, options=None)`` -> State (seed None: a fresh one).
    new_game: Callable[..., State]
    #: ``replay(players, seed, actions, options=None)`` -> State, always the same.
    replay: Callable[..., State]
    #: ``action_from_json(d)`` -> Action; ``ValueError`` (never KeyError/TypeError).
    action_from_json: Callable[[Any], Action]
    #: ``state_from_json(d)`` -> State, the inverse of ``state.to_json()``.
    state_from_json: Callable[[Mapping[str, Any]], State]
    #: The undo barrier: True when ``event`` showed a seat something it did not know
    #: before (a tile from the bag, a card revealed, a deck drawn from).
    reveals_hidden: Callable[[Event], bool]
    #: What a browser gets for ``seat`` (None: a spectator): named fields, JSON types,
    #: no integer beyond 2^53, no hidden information; each legal action of the seat
    #: to move is listed by the server with ``action_cost`` where the game has costs.
    wire_view: Callable[[State, int | None], dict[str, Any]]
    #: Optional: ``wire_view_shared(state, seat, shared)`` -> ``wire_view(state,
    #: seat)`` as the same JSON bytes when ``orjson`` writes it, for the server, which
    #: builds every seat's view of one state in turn and passes the same ``shared``
    #: dict (fresh for each state) to each call: the parts the same for every seat are
    #: built once into it (possibly as ``orjson.Fragment`` values).  None: the server
    #: calls ``wire_view`` for each seat.
    wire_view_shared: Callable[[State, int | None, dict[Any, Any]], dict[str, Any]] | None = None

    # -- optional: the game's own options as a lobby offers them (``parse_options``'
    #: keys, in the order to show them); empty: the game takes none.
    options: tuple[GameOption, ...] = ()

    # -- optional: presentation of actions and events
    #: ``action_cost(state, action)`` -> what the action costs the mover (Northwest:
    #: crewmen), or None when the game has no such notion.
    action_cost: Callable[[State, Action], int | None] | None = None
    #: ``action_costs(state, actions)`` -> ``[action_cost(state, a) for a in actions]``,
    #: computed at once (a game whose costs depend only on the kind of action prices
    #: each kind once); None: the server maps ``action_cost``.
    action_costs: Callable[[State, Sequence[Action]], list[int | None]] | None = None

    # -- optional: bots
    #: ``determinize(view, seed)`` -> a full State consistent with ``view`` (hidden
    #: information sampled); needed by every bot that searches.
    determinize: Callable[[Mapping[str, Any], int], State] | None = None
    #: ``resample(world, seed)``: draw a determinized world's hidden information anew,
    #: in place (cheaper than ``determinize`` per search iteration); None: searches
    #: determinize from the view every iteration.
    resample: Callable[[State, int], None] | None = None
    #: ``heuristic(state, seat)`` -> a score-like estimate of the seat's position.
    heuristic: Callable[[State, int], float] | None = None
    #: ``bot_actions(state)`` -> the legal actions a search considers (dominated
    #: variants pruned); None: every legal action.
    bot_actions: Callable[[State], Sequence[Action]] | None = None
    #: ``terminal_value(state, seat)`` -> the reward of a finished game for a seat
    #: (e.g. a game the whole table lost); None: from the final scores.
    terminal_value: Callable[[State, int], float] | None = None
    search: SearchHints = field(default_factory=SearchHints)
    #: ``search_heuristic(state, seat)`` -> the estimate a deep search (MCTS) values
    #: its leaves with, when it differs from the one-ply ``heuristic`` (Northwest: a
    #: planner's evaluator with fitted weights); None: ``heuristic``.
    search_heuristic: Callable[[State, int], float] | None = None
    #: ``search_actions(state)`` -> the legal actions a deep search expands: a policy
    #: prior as pruning (Northwest: draw only what the planned route can use); None:
    #: ``bot_actions``.  The one-ply bot keeps ``bot_actions``.
    search_actions: Callable[[State], Sequence[Action]] | None = None

    # -- optional: tournaments and balance
    #: Score sources in report order, their labels, and ``score_source(reason)``
    #: mapping a ``ScoreChanged.reason`` to its source (None: not counted, e.g. a
    #: starting score).
    score_sources: tuple[str, ...] = ("other",)
    source_labels: Mapping[str, str] = field(default_factory=lambda: {"other": "Other"})
    score_source: Callable[[str], str | None] | None = None
    statistics: tuple[Statistic, ...] = ()
    #: ``winners(final_state)`` -> the seats that won (empty: the whole table lost);
    #: None: the game has no shared defeat, the best places win.
    winners: Callable[[State], Sequence[int]] | None = None
    #: ``tied(final_state, a, b)`` -> True when two seats with the same score are not
    #: separated by the rules' tie-break (Northwest: neither returned to Greenland);
    #: None: equal scores tie.  ``ranking()``'s last resort, seat number, is no rule.
    tied: Callable[[State, int, int], bool] | None = None
    #: ``rounds(state)`` -> the round a state is in (reported per game); None: no rounds.
    rounds: Callable[[State], int] | None = None
    #: ``at_turn(state)`` -> True when a seat is in an ordinary turn (not a setup or
    #: off-turn decision): benchmarks time a mid-game position there.  None: always.
    at_turn: Callable[[State], bool] | None = None

    # -- optional: learning and front-ends (module names, imported by the front-end)
    rl: RlEncoding | None = None
    #: ``rl_for(players, setup)`` -> the :class:`RlEncoding` (with its ``new_game``) of
    #: games set up with engine objects that are no JSON options, e.g. Northwest's
    #: ``{"content": Content}`` (a custom board and tiles: the numbering follows them);
    #: ``ValueError`` for a setup or player count it cannot play.  ``erebus.rl`` calls
    #: it for ``GameEnv(..., setup=…)`` (``NorthwestEnv(content=…)``); None: the game
    #: takes its options only, and ``rl`` is its one encoding.
    rl_for: Callable[[int, Mapping[str, Any]], RlEncoding] | None = None
    #: The module holding this game's terminal UI (it exports ``UI``; ``erebus.terminal``
    #: imports it); None: the terminal app's generic screen.
    terminal_ui: str | None = None
    #: The folder of this game's board under ``erebus/web/`` (the browser client
    #: loads ``/static/<web_board>/board.js``); None: no browser board.
    web_board: str | None = None
    #: ``describe_action(state, action)`` -> the action in a few words for a person
    #: (a hint's reason, a review's table); None: ``str(action)``.
    describe_action: Callable[[State, Action], str] | None = None

    @property
    def players(self) -> range:
        """The player counts this game allows."""
        return range(self.min_players, self.max_players + 1)

    def check_players(self, players: Any) -> int:
        """``players`` if it is an allowed count, else ``ValueError``."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(
                f"players must be an integer in {self.min_players}..{self.max_players}"
            )
        if players not in self.players:
            raise ValueError(
                f"{self.title} takes {self.min_players}–{self.max_players} players, not {players}"
            )
        return players


__all__ = ["Action", "GameOption", "GameSpec", "RlEncoding", "SearchHints", "State", "Statistic"]
