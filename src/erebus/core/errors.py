"""Errors raised by rules engines."""


class IllegalAction(ValueError):
    """An action that the rules forbid in the current state.

    The message names the rule that failed in words a player understands; the
    state that refused the action is left exactly as it was.
    """
