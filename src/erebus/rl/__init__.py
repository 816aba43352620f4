"""Reinforcement-learning adapters (needs the ``rl`` extra: numpy, gymnasium, pettingzoo).

``northwest_env(players=2, render_mode=None, reward="score")`` returns a
PettingZoo AEC environment of Expedition: Northwest Passage; see
:mod:`erebus.rl.northwest_env` for its spaces, rewards and seeding, and
:mod:`erebus.games.northwest.encoding` for the action indices and the
observation layout.
"""

from erebus.rl.northwest_env import NorthwestEnv, northwest_env

__all__ = ["NorthwestEnv", "northwest_env"]
