"""erebus — exact rules engines, bots and a table for Arctic-exploration board games."""

__version__ = "0.1.0"
