"""Shared test support: the tiny race game that shows a game is one package."""
