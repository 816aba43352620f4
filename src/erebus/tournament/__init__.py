"""Bot-versus-bot tournaments behind ``erebus tournament``: who is stronger, and is the game fair.

A tournament plays ``games`` games between named bots and reports, per bot,
wins with a confidence interval, score statistics and Elo ratings, plus a
balance summary of the game itself (how often ships reach the Northwest
Passage, how often expeditions come home, where the points come from) that
``docs/balance.md`` is written from.

Design choices, and why:

* **Seating.**  Seat order matters in most board games (first player, last
  pick of the draft), so a bot that always sat first would look stronger than
  it is.  The *base lineup* is the bot list itself when it names at least as
  many bots as there are seats; with fewer names, the first bot takes one seat
  and the last bot fills the others (``mcts,greedy`` at 4 players is one mcts
  against three greedy — the usual "one challenger against the field" test).
  Game ``i`` seats ``base[(i + s) % len(base)]`` at seat ``s``: a rotation, so
  over every ``len(base)`` consecutive games each name sits in each seat
  equally often.  With more names than seats the window slides over the list,
  which keeps the same property.  ``games`` should be a multiple of
  ``len(base)`` for perfect balance; :attr:`TournamentResult.balanced` says
  whether it is.
* **Seeds.**  Game ``i`` gets a seed hashed from the tournament seed and
  ``i``, and each seat's bot a seed hashed from that game seed and the seat.
  Nothing depends on which worker runs a game or in which order games finish,
  so ``--seed`` reproduces every record whatever ``--jobs`` is — provided the
  bots are deterministic for a seed (random, greedy, and mcts given
  ``iterations``; mcts on a time budget is not).
* **Winners.**  A game's winners are the seats the rules cannot separate from
  the top of ``state.ranking()``.  ``ranking()`` applies the rules'
  tie-breaks (in Northwest: score, then who returned to Greenland first) but
  finally orders by seat number so that it is total; seat number is not a
  rule, so seats with equal scores none of whom returned share the place.
  A game won by ``k`` tied seats gives each ``1/k`` of a win.
* **Elo.**  Every game gives one pairwise result for each two seats held by
  *different* bots (better place wins, same place draws).  The ratings are
  the maximum-likelihood Bradley–Terry strengths of all those results
  (Hunter's MM algorithm), on the Elo scale (400·log10), mean 1500.  Unlike
  fixed-K Elo updated game by game, the fit does not depend on the order of
  the games, which is arbitrary here.  One virtual draw between every two
  bots keeps the ratings finite when one bot wins every game.
"""

from erebus.tournament.balance import balance_summary, balance_tables
from erebus.tournament.games import GameRecord, GameTask, places_of, play_game, sources_of
from erebus.tournament.ratings import (
    ELO_BASE,
    ELO_METHOD,
    BotStats,
    bot_stats,
    bradley_terry_elo,
    pairwise_results,
    wilson_interval,
)
from erebus.tournament.run import (
    TournamentResult,
    main,
    run_tournament,
    write_json,
    write_plot,
)
from erebus.tournament.seating import base_lineup, bot_seed, derive_seed, game_seed, lineup

__all__ = [
    "ELO_BASE",
    "ELO_METHOD",
    "BotStats",
    "GameRecord",
    "GameTask",
    "TournamentResult",
    "balance_summary",
    "balance_tables",
    "base_lineup",
    "bot_seed",
    "bot_stats",
    "bradley_terry_elo",
    "derive_seed",
    "game_seed",
    "lineup",
    "main",
    "pairwise_results",
    "places_of",
    "play_game",
    "run_tournament",
    "sources_of",
    "wilson_interval",
    "write_json",
    "write_plot",
]
