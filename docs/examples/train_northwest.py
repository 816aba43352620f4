"""Train a small policy on the Northwest Passage PettingZoo environment, on CPU, for a
few minutes, and show that it beats erebus's random bot.

    pip install -e '.[rl,train]'          # numpy, gymnasium, pettingzoo, torch (CPU)
    python docs/examples/train_northwest.py --minutes 4

What it does (see docs/rl-training.md):

* the environment is ``erebus.rl.northwest_env(players=2, reward="rank")``: our agent
  is ``player_0``, the other seat is the ``random`` bot (``erebus.bots.make_bot``,
  uniform over the legal actions but rarely stopping early), whose moves go through the
  environment as indices (``spec.rl.action_index``);
* the policy scores each *legal* action only: a small MLP embeds the observation
  (scaled by the observation space's upper bounds), another the action — its kind,
  vehicle and target, decoded from the index by the game's RL encoding
  (``env.spec.rl.action_at``: a placement's index is relative to the placing vehicle,
  so it is decoded in the state) — and a dot product of the two gives the logit; a
  softmax over the mask's 1s is the policy, so the 17 048-wide action space never
  becomes a 17 048-wide layer;
* REINFORCE with a running-mean baseline on the end-of-game reward (+1 win, −1 loss),
  Adam, one update every ``--batch`` games;
* before and after training, ``--eval-games`` games against the random bot with the
  greedy policy (highest logit) and with the policy itself (sampling, as in
  training); the win rates and mean score margins are printed.

Everything is seeded (``--seed``); the wall-clock budget decides how many games it
trains on, so two runs on different machines differ.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from torch import nn

from erebus.bots import make_bot
from erebus.rl import northwest_env

KINDS = ("pass", "end_turn", "draft", "draw", "refresh", "explore", "discover", "transfer")
KINDS += ("move", "place")
VEHICLES = ("ship", "sled")
N_ACTION_FEATURES = len(KINDS) + len(VEHICLES) + 11


def action_features(a: Any) -> list[float]:
    """What an action stands for, as numbers: kind and vehicle one-hots, then the
    target (move: square or arrow; place: square, side, large tile; transfer: the
    sled column after it; draw: display or pile)."""
    f = [0.0] * N_ACTION_FEATURES
    f[KINDS.index(a.kind)] = 1.0
    if a.vehicle in VEHICLES:
        f[len(KINDS) + VEHICLES.index(a.vehicle)] = 1.0
    o = len(KINDS) + len(VEHICLES)
    if a.kind == "move":
        if isinstance(a.to, str):
            f[o + (0 if a.to == "greenland" else 1)] = 1.0
        else:
            f[o + 2], f[o + 3] = a.to[0] / 14, a.to[1] / 8
    elif a.kind == "place":
        f[o + 4], f[o + 5] = (a.x or 0) / 14, (a.y or 0) / 8
        f[o + 6] = 1.0 if a.side == "b" else 0.0
        f[o + 7] = 1.0 if (a.tile or "").startswith("L") else 0.0
    elif a.kind == "transfer":
        f[o + 8], f[o + 9] = (a.sled_available or 0) / 7, (a.sled_resting or 0) / 8
    elif a.kind == "draw":
        f[o + 10] = 1.0 if a.source == "display" else 0.0
    return f


class Policy(nn.Module):
    """Logit of a legal action = embed(observation) · embed(action) + bias(action)."""

    def __init__(self, obs_size: int, hidden: int = 64) -> None:
        super().__init__()
        self.obs = nn.Sequential(nn.Linear(obs_size, hidden), nn.Tanh(), nn.Linear(hidden, hidden))
        self.act = nn.Sequential(
            nn.Linear(N_ACTION_FEATURES, hidden), nn.Tanh(), nn.Linear(hidden, hidden + 1)
        )

    def forward(self, obs: torch.Tensor, actions: torch.Tensor) -> torch.Tensor:
        h = self.obs(obs)  # (hidden,)
        a = self.act(actions)  # (legal, hidden + 1)
        return a[:, :-1] @ h + a[:, -1]


@dataclass
class Agent:
    """The policy with its feature caches, choosing among the legal indices."""

    policy: Policy
    scale: torch.Tensor
    cache: dict[Any, list[float]]

    def logits(self, env: Any, obs: dict[str, Any]) -> tuple[torch.Tensor, np.ndarray]:
        legal = np.flatnonzero(obs["action_mask"].view(np.bool_))  # bool: ~9× int8's
        feats = []
        action_at = env.spec.rl.action_at
        for i in legal.tolist():
            a = action_at(env.state_, i)  # a placement's index depends on the state
            f = self.cache.get(a)
            if f is None:  # an action's features are computed once
                f = self.cache[a] = action_features(a)
            feats.append(f)
        x = torch.from_numpy(obs["observation"]) / self.scale
        return self.policy(x, torch.tensor(feats)), legal


def play(
    env: Any, agent: Agent, bot: Any, seed: int, greedy: bool
) -> tuple[float, list[torch.Tensor]]:
    """One game, ``player_0`` the agent: (its reward, the log-probs of its choices);
    the agent samples from its policy (torch's seeded generator), or with ``greedy``
    takes the highest logit."""
    env.reset(seed=seed)
    rl = env.spec.rl
    logps: list[torch.Tensor] = []
    reward = 0.0
    for name in env.agent_iter():
        obs, r, terminated, truncated, _info = env.last()
        if name == "player_0":
            reward += r
        if terminated or truncated:
            env.step(None)
            continue
        if name != "player_0":
            env.step(rl.action_index(env.state_, bot.choose(env.state_)))
            continue
        if greedy:
            with torch.no_grad():
                logits, legal = agent.logits(env, obs)
            env.step(int(legal[int(torch.argmax(logits))]))
            continue
        logits, legal = agent.logits(env, obs)
        logp = torch.log_softmax(logits, dim=0)
        k = int(torch.multinomial(torch.exp(logp.detach()), 1))
        logps.append(logp[k])
        env.step(int(legal[k]))
    return reward, logps


def evaluate(agent: Agent, games: int, seed: int, greedy: bool = True) -> tuple[float, float]:
    """(win rate, mean score margin) of the policy — greedy, or sampling from it —
    against the random bot over ``games`` games (game seeds ``seed``, ``seed + 1``, …)."""
    env = northwest_env(players=2, reward="rank")
    bot = make_bot("random", seed=seed)
    torch.manual_seed(seed)
    wins = 0
    margin = 0.0
    for g in range(games):
        with torch.no_grad():
            reward, _ = play(env, agent, bot, seed + g, greedy)
        wins += reward > 0
        scores = env.state_.scores()
        margin += scores[0] - scores[1]
    return wins / games, margin / games


def train(minutes: float, seed: int = 0, batch: int = 8, lr: float = 3e-3) -> tuple[Agent, int]:
    """REINFORCE for ``minutes`` of wall time; (the agent, games trained on)."""
    torch.manual_seed(seed)
    env = northwest_env(players=2, reward="rank")
    high = env.observation_space("player_0")["observation"].high
    agent = Agent(Policy(high.shape[0]), torch.from_numpy(np.maximum(high, 1.0)), {})
    bot = make_bot("random", seed=seed + 1)
    opt = torch.optim.Adam(agent.policy.parameters(), lr=lr)
    baseline = 0.0
    games = 0
    deadline = time.monotonic() + 60 * minutes
    losses: list[torch.Tensor] = []
    while time.monotonic() < deadline:
        reward, logps = play(env, agent, bot, 10_000 + seed * 1_000_000 + games, False)
        games += 1
        if logps:
            losses.append(-(reward - baseline) * torch.stack(logps).sum())
        baseline += 0.05 * (reward - baseline)
        if len(losses) >= batch:
            opt.zero_grad()
            torch.stack(losses).mean().backward()
            opt.step()
            losses = []
    return agent, games


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=4.0, help="training wall time")
    parser.add_argument("--eval-games", type=int, default=200, help="games per evaluation")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=8, help="games per update")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    untrained, _ = train(0.0, args.seed)
    n = args.eval_games
    figures: dict[str, float] = {}
    for mode, greedy in (("greedy", True), ("sampled", False)):
        figures[f"before_{mode}"], figures[f"before_{mode}_margin"] = evaluate(
            untrained, n, 123_456, greedy
        )
    start, cpu = time.monotonic(), time.process_time()
    agent, games = train(args.minutes, args.seed, args.batch)
    figures["minutes"] = (time.monotonic() - start) / 60
    figures["cpu_minutes"] = (time.process_time() - cpu) / 60
    figures["games"] = float(games)
    for mode, greedy in (("greedy", True), ("sampled", False)):
        figures[f"after_{mode}"], figures[f"after_{mode}_margin"] = evaluate(
            agent, n, 123_456, greedy
        )
    print(
        f"trained {figures['minutes']:.1f} min ({figures['cpu_minutes']:.1f} min CPU) "
        f"on {games} games, seed {args.seed}; against the random bot, {n} games each:"
    )
    for mode in ("greedy", "sampled"):
        for when in ("before", "after"):
            key = f"{when}_{mode}"
            print(
                f"  {when:>6} training, {mode:>7} policy: {figures[key]:6.1%} wins, "
                f"mean score margin {figures[key + '_margin']:+.1f}"
            )
    figures["before"], figures["after"] = figures["before_greedy"], figures["after_greedy"]
    return figures


if __name__ == "__main__":
    main()
