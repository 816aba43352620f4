"""Terminal play: the generic app (:mod:`erebus.terminal.app`: ``erebus play`` and
``erebus replay``), the seat colours and score table both screens share
(:mod:`erebus.terminal.seats`), and one module per game's UI and screen
(``erebus.terminal.<game>`` exporting ``UI``, named by the game's ``SPEC.terminal_ui``).

The front-end imports the engines, never the reverse: a game package names its
terminal module (a string) and does not import Rich.
"""
