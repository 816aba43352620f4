"""Every test session knows the race game (tests/support/race): one line, as for any game."""

from erebus.games import register_game

register_game("race", "support.race")
