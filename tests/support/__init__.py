"""Shared test support: the harness both games' tests use (golden files, whole-game
hypothesis settings, bot checks, the scripted terminal) and the tiny race game that
shows a game is one package."""
