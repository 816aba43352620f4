"""Reinforcement-learning adapters (needs the ``rl`` extra: numpy, gymnasium, pettingzoo).

``game_env(game, players, options=None, render_mode=None, reward="score")``
returns a PettingZoo AEC environment of any erebus game (:mod:`erebus.rl.env`, the
one environment, built from the game's ``GameSpec``); ``northwest_env(players=2, …)``
is that environment for Northwest Passage with its fixed action numbering and an
optional custom content (:mod:`erebus.rl.northwest`,
:mod:`erebus.games.northwest.encoding`).
"""

from erebus.rl.env import GameEnv, game_env
from erebus.rl.northwest import NorthwestEnv, northwest_env

__all__ = ["GameEnv", "NorthwestEnv", "game_env", "northwest_env"]
