"""Reinforcement-learning adapters (needs the ``rl`` extra: numpy, gymnasium, pettingzoo).

``game_env(game, players, options=None, render_mode=None, reward="score")``
returns a PettingZoo AEC environment of any erebus game (see
:mod:`erebus.rl.game_env`); ``northwest_env(players=2, …)`` is the Northwest
Passage one with its fixed action numbering (:mod:`erebus.rl.northwest_env`,
:mod:`erebus.games.northwest.encoding`).
"""

from erebus.rl.game_env import GameEnv, game_env
from erebus.rl.northwest_env import NorthwestEnv, northwest_env

__all__ = ["GameEnv", "NorthwestEnv", "game_env", "northwest_env"]
