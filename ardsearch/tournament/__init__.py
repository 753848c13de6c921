"""Bot-vs-bot tournaments: duplicate pairs, pentanomial statistics, SPRT,
fault handling, resume, and local or Ray backends.

    from ardsearch.tournament import TournamentConfig, run_tournament, parse_bot
    game = ardsearch.load_game("ardennes")
    config = TournamentConfig(game.name, game.params, (parse_bot("mcts"), parse_bot("greedy")), games=10)
    result = run_tournament(config, "results.jsonl")

The command line is `ardsearch tournament` / `ardsearch replay` (tournament/cli.py).
"""
from ardsearch.tournament.config import TournamentConfig
from ardsearch.tournament.entrants import Entrant, Limits, TimeControl, parse_bot, parse_engine
from ardsearch.tournament.records import read_results
from ardsearch.tournament.runner import TournamentResult, run_tournament
from ardsearch.tournament.schedule import GameTask, pairings, schedule

__all__ = ["TournamentConfig", "Entrant", "Limits", "TimeControl", "parse_bot", "parse_engine",
           "read_results", "TournamentResult", "run_tournament", "GameTask", "pairings", "schedule"]
