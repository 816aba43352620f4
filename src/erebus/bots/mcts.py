"""The hard level: information-set Monte Carlo tree search.

Single-observer ISMCTS (Cowling, Powley & Whitehouse, 2011): one tree for the
seat to move, and every iteration plays in a freshly *determinized* world —
the public position with the hidden information (the bag's order) sampled
anew — so the search never relies on what the seat cannot see.

* Selection: UCB1 with availability counts (a child's exploration term uses
  the number of iterations in which its action was legal, not the parent's
  visits), as ISMCTS requires when action sets differ between worlds.
* Rewards are per seat (max^n): each node stores the reward of the player who
  chose the action leading to it.
* Playouts are short: a fast biased-random policy for ``rollout_depth``
  actions, then the game's ``heuristic`` turns the position into rewards
  (``tanh`` of each seat's lead over the mean, so one bot does not chase a
  large margin at the cost of the win); finished games use the final scores.
* Budget: ``time_s`` seconds (default 1) or exactly ``iterations``; with
  ``iterations`` and a seed the choice is deterministic.  A time budget is wall
  time from the call to the answer: the set-up counts, and the search stops when
  the next iteration could end past it (judged by the slowest recent iteration).
* A game may give the search its own evaluator and action filter
  (``GameSpec.search_heuristic``, ``search_actions``: a policy prior as pruning);
  the one-ply greedy bot keeps ``heuristic`` and ``bot_actions``.
* A game whose tree plans only the mover's own turn may ask for the rivals' replies
  (``SearchHints.rival_reply``): a leaf where a rival is to move is first played on
  by the rivals' one-ply greedy choices until the mover is to act again, so an action
  is valued after the replies it invites (a majority taken, a card snatched), not as
  if the rivals passed.
"""

from __future__ import annotations

import math
import operator
import random
import time
from typing import Any

from erebus.bots.base import (
    BotSpec,
    candidates,
    determinize,
    game_of,
    heuristic_of,
    seat_world,
)
from erebus.bots.greedy import greedy_choice
from erebus.bots.random_bot import biased_choice
from erebus.core.game import GameSpec

EXPLORATION = 0.05
ROLLOUT_DEPTH = 0  # 0: evaluate the leaf with the heuristic at once
OWN_TURN_ONLY = True  # the tree plans the mover's own turn; later turns are evaluated
REWARD_SCALE = 0.5
TIME_MARGIN = 0.03  # share of ``time_s`` kept back for returning the choice
SLOWEST_DECAY = 0.97  # per iteration: how fast a slow iteration is forgotten
_clock = time.perf_counter  # wall time (a test replaces it with a fake clock)


class Node:
    """Statistics of one action sequence from the root (open loop)."""

    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0


class MctsBot:
    def __init__(self, spec: BotSpec) -> None:
        self.spec = spec
        self.rng = random.Random(spec.seed)
        self.rollout_depth = ROLLOUT_DEPTH
        self.own_turn_only = OWN_TURN_ONLY  # the game's SearchHints set it per choice
        self.rival_reply = False  # likewise
        self._heuristic: Any = None
        self.last_iterations = 0
        self._me = 0
        self._seats = 0  # the game's seats, set per choice (a leaf's rewards, the replies)
        self._base = 0.0
        self._root_only: set[Any] | None = None

    def choose(self, state: Any) -> Any:
        start = _clock()  # the budget counts the set-up and the final choice
        world, legal = seat_world(state, self.rng)
        self._root_only = None
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        module = game_of(state)
        self._heuristic = module.search_heuristic or heuristic_of(module)
        self.own_turn_only = module.search.own_turn_only
        self.rival_reply = module.search.rival_reply and self.own_turn_only
        self._me = world.current_player
        self._seats = len(world.scores())
        self._base = self._heuristic(world, self._me)
        legal = _search_candidates(module, world)
        iterations = self.spec.iterations
        deadline = None
        if iterations is None:
            budget = self.spec.time_s if self.spec.time_s else 1.0
            deadline = start + budget * (1.0 - TIME_MARGIN)
        root = Node()
        screen = module.search.root_screen
        if screen and len(legal) > screen:
            # Screen every candidate once on the root world (a greedy ply), then let
            # the search spend its budget on the best few, in resampled worlds.
            legal = self._screen(root, world, legal, screen, module, deadline)
        done = 0
        last = _clock()
        slowest = 0.0
        while True:
            if iterations is not None:
                if done >= iterations:
                    break
            elif deadline is not None and done:
                # Stop when the next iteration could end past the deadline, not
                # once past it.  On a loaded machine an iteration's wall time
                # includes the waits for the core, so the prediction is a slowly
                # decaying maximum of recent iterations, not their mean.
                now = _clock()
                slowest = max(now - last, slowest * SLOWEST_DECAY)
                last = now
                if now + slowest >= deadline:
                    break
            self._iterate(root, self._sample(module, state, world), module)
            done += 1
        self.last_iterations = done
        if not root.children:  # the deadline came before any child was valued
            return legal[0]
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].total))
        return best[0]

    def _sample(self, module: GameSpec, state: Any, world: Any) -> Any:
        """A fresh world for one iteration: ``world`` with its hidden information
        redrawn (the game's ``resample``), else a determinization of the seat's view."""
        seed = self.rng.getrandbits(63)
        if module.resample is not None:
            sample = world.clone()
            module.resample(sample, seed)
            return sample
        return determinize(module, state.view(world.current_player), seed)

    def _screen(
        self,
        root: Node,
        world: Any,
        legal: list[Any],
        keep: int,
        module: GameSpec,
        deadline: float | None = None,
    ) -> list[Any]:
        """Value every root action once by the heuristic; keep the ``keep`` best as
        the root's only children (``self._root_only``), already visited once.  Past
        the ``deadline`` the actions not yet valued are left out."""
        scored: list[tuple[float, Any]] = []
        for a in legal:
            if deadline is not None and scored and _clock() >= deadline:
                break
            after = world.clone()
            after.apply(a)
            value = (
                _terminal(module, after, self._me)
                if after.is_over
                else self._heuristic(after, self._me)
            )
            scored.append((value, a))
        scored.sort(key=lambda va: -va[0])
        best = [a for _, a in scored[:keep]]
        for value, a in scored[:keep]:
            child = Node()
            child.visits = child.avail = 1
            child.total = math.tanh((value - self._base) / _scale(module))
            root.children[a] = child
        self._root_only = set(best)
        return best

    def _child(
        self, node: Node, world: Any, action: Any, mover: int, module: GameSpec
    ) -> list[float]:
        """Add ``action``'s child to ``node``, valued by evaluating its result once."""
        after = world.clone()
        after.apply(action)
        rewards = self._evaluate(after, module)
        child = Node()
        child.visits = 1
        child.avail = 1
        child.total = rewards[mover]
        node.children[action] = child
        return rewards

    def _iterate(self, root: Node, world: Any, module: GameSpec) -> None:
        path: list[tuple[Node, int]] = []
        node = root
        me = world.current_player
        rewards: list[float] | None = None
        while rewards is None:
            if world.is_over:
                rewards = self._evaluate(world, module)
                break
            mover = world.current_player
            if self.own_turn_only and mover != me:
                rewards = self._evaluate(world, module)
                break
            legal = _search_candidates(module, world)
            if node is root and self._root_only is not None:
                legal = [a for a in legal if a in self._root_only] or legal
            children = node.children
            untried = []
            for a in legal:
                child = children.get(a)
                if child is None:
                    untried.append(a)
                else:
                    child.avail += 1
            if untried:
                # Expand one new action per iteration, valued by the heuristic.
                rewards = self._child(node, world, self.rng.choice(untried), mover, module)
                break
            best_score = -math.inf
            action = legal[0]
            for a in legal:
                c = children[a]
                score = c.total / c.visits + EXPLORATION * math.sqrt(math.log(c.avail) / c.visits)
                if score > best_score:
                    best_score, action = score, a
            node = children[action]
            world.apply(action)
            path.append((node, mover))
        assert rewards is not None
        for n, mover in path:
            n.visits += 1
            n.total += rewards[mover]

    def _evaluate(self, world: Any, module: GameSpec) -> list[float]:
        """Rewards per seat in [-1, 1] for a leaf (after an optional short playout).

        When the tree plans only the root seat's turn, only that seat's reward
        is ever read, so only its heuristic is computed, relative to its value
        at the root (the others' estimates barely move within one turn).
        """
        self._reply(world, module)
        rng = self.rng
        for _ in range(self.rollout_depth):
            if world.is_over:
                break
            world.apply(biased_choice(rng, world.legal_actions(), stop_every=6))
        n = self._seats
        if self.own_turn_only:
            me = self._me
            value = _terminal(module, world, me) if world.is_over else self._heuristic(world, me)
            out = [0.0] * n
            out[me] = math.tanh((value - self._base) / _scale(module))
            return out
        if world.is_over:
            values = [_terminal(module, world, s) for s in range(n)]
        else:
            values = [self._heuristic(world, s) for s in range(n)]
        mean = sum(values) / len(values)
        scale = _scale(module)
        return [math.tanh((v - mean) / scale) for v in values]

    def _reply(self, world: Any, module: GameSpec) -> None:
        """With ``rival_reply``: a leaf where a rival is to move is played on by the
        rivals' one-ply greedy choices, one decision at a time, until the searching seat
        is to move again — at most one decision fewer than the seats, so at 2 players the
        one rival's reply, at 3–4 the round of replies before the seat's next action
        (``world`` is the leaf's own copy).  At 3–4 players the next seat's reply alone
        lost to no reply at all (docs/iceandsnow-balance.md, 2026-12-04 b)."""
        if not self.rival_reply:
            return
        for _ in range(self._seats - 1):
            if world.is_over or world.current_player == self._me:
                return
            world.apply(greedy_reply(module, world))

    def analyse(
        self, state: Any, keep: Any = (), base: float | None = None
    ) -> list[tuple[Any, float, int]]:
        """The search of :meth:`choose`, with its root statistics instead of a choice:
        (action, mean reward in [-1, 1], visits) of every root child, most visited
        first (the hints and reviews of :mod:`erebus.bots.analysis`).  ``keep``: actions
        the root screen must not drop (a review rates the move played); ``base``: the
        heuristic value rewards are relative to (default: the root's, as in play)."""
        world, everything = seat_world(state, self.rng)
        module = game_of(state)
        # The same evaluator and candidates as choose(), so a hint is the hard bot's move.
        self._heuristic = module.search_heuristic or heuristic_of(module)
        self.own_turn_only = module.search.own_turn_only
        self.rival_reply = module.search.rival_reply and self.own_turn_only
        self._me = world.current_player
        self._seats = len(world.scores())
        self._base = self._heuristic(world, self._me) if base is None else base
        self._root_only = None
        legal = _search_candidates(module, world) or everything
        kept = [a for a in everything if a in set(keep) and a not in legal]
        root = Node()
        screen = module.search.root_screen
        if screen and len(legal) > screen:
            self._screen(root, world, legal, screen, module)
            assert self._root_only is not None
            kept += [a for a in legal if a in set(keep) and a not in self._root_only]
        for a in kept:  # rated once even where the search would not look at them
            self._child(root, world, a, self._me, module)
            if self._root_only is not None:
                self._root_only.add(a)
        done = 0
        budget = self.spec.iterations if self.spec.iterations is not None else 200
        while done < budget:
            self._iterate(root, self._sample(module, state, world), module)
            done += 1
        self.last_iterations = done
        stats = [(a, c.total / c.visits, c.visits) for a, c in root.children.items() if c.visits]
        stats.sort(key=lambda s: (-s[2], -s[1]))
        return stats


def greedy_reply(module: GameSpec, world: Any) -> Any:
    """The medium bot's choice for the seat to move in ``world`` (a determinized
    world: no resampling of its own): the candidate whose result the game's
    ``heuristic`` rates best for that seat, a stop unless an action beats the best
    stop by ``MIN_GAIN``; ties go to the first (the greedy bot draws among them)."""
    seat = world.current_player
    legal = candidates(module, world)
    if len(legal) == 1:
        return legal[0]
    heuristic = heuristic_of(module)

    def value(after: Any) -> float:
        return _terminal(module, after, seat) if after.is_over else heuristic(after, seat)

    return greedy_choice(world, legal, value, operator.itemgetter(0))


def _search_candidates(module: GameSpec, world: Any) -> list[Any]:
    """The actions the tree expands: the game's ``search_actions`` (a policy prior
    as pruning) when it has one, else the bots' ``candidates``."""
    if module.search_actions is not None:
        return list(module.search_actions(world))
    return candidates(module, world)


def _terminal(module: GameSpec, world: Any, seat: int) -> float:
    """A finished game's value for ``seat``: the game's ``terminal_value`` when it has
    one (a game where everyone can lose together), otherwise the score."""
    fn = module.terminal_value
    return float(fn(world, seat)) if fn is not None else float(world.scores()[seat])


def _scale(module: GameSpec) -> float:
    """The heuristic difference that counts as a clear gain: the game's
    ``REWARD_SCALE`` when it sets one (its points come in bigger steps)."""
    return float(module.search.reward_scale)
