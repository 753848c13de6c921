"""Plays one scheduled game and returns its record (a JSON-ready dict).

This is the unit of work every backend runs: in the runner's own process,
in a pool worker or as a Ray task. It depends only on the configuration and
the task, never on what the worker did before, so the same seeds give the
same games on every backend. Players are cached per worker process: engine
processes stay pinned to the worker that started them.
"""
from __future__ import annotations

import time

import ardsearch
from ardsearch.match import derive_seed, play_game
from ardsearch.tournament.config import TournamentConfig
from ardsearch.tournament.duplicate import DuplicateChance
from ardsearch.tournament.players import BotPlayer, Clock, EnginePlayer, GameFault, Seat
from ardsearch.tournament.schedule import GameTask

# This worker's players and game, for the one tournament it serves.
_cache: dict = {"key": None, "game": None, "players": {}}


def close_players() -> None:
    """Stops this worker's engine processes."""
    for player in _cache["players"].values():
        player.close()
    _cache.update(key=None, game=None, players={})


def _setup(config: TournamentConfig):
    key = config.key()
    if _cache["key"] != key:
        close_players()
        _cache["key"] = key
        _cache["game"] = ardsearch.load_game(config.game, **config.params)
        _cache["players"] = {
            e.name: BotPlayer(e) if e.kind == "bot" else EnginePlayer(e, config.timeout)
            for e in config.entrants}
    return _cache["game"], _cache["players"]


def result_text(returns) -> str:
    """The result from seat 0's side: 1-0, 0-1 or 1/2-1/2."""
    if returns[0] > returns[1]:
        return "1-0"
    if returns[0] < returns[1]:
        return "0-1"
    return "1/2-1/2"


def play_task(config: TournamentConfig, task: GameTask) -> dict:
    game, players = _setup(config)
    seated = [players[name] for name in task.seats]
    clocks = [Clock(p.entrant.limits) for p in seated]
    log: list[dict] = []
    chance = DuplicateChance(task.seed)

    def pick_chance(state):
        action = chance(state)
        log.append({"move": state.action_to_string(action), "player": -1})
        return action

    t0 = time.perf_counter()
    fault = None
    try:
        for seat, player in enumerate(seated):
            player.new_game(game, seat, derive_seed(task.seed, 1 + task.leg, seat))
        seats = [Seat(p, i, clocks, log) for i, p in enumerate(seated)]
        record = play_game(game, seats, task.seed, chance=pick_chance)
        returns = [float(r) for r in record.returns]
        termination = "normal"
    except GameFault as f:
        returns = [-1.0, 1.0] if f.seat == 0 else [1.0, -1.0]
        termination = f.kind
        fault = {"seat": f.seat, "entrant": task.seats[f.seat], "kind": f.kind, "message": f.message}
    return {
        "index": task.index, "pairing": task.pairing, "pair": task.pair, "leg": task.leg,
        "seed": task.seed, "game": config.game, "params": config.params,
        "seats": list(task.seats), "result": result_text(returns), "returns": returns,
        "termination": termination, "fault": fault,
        "length": len(log), "seconds": round(time.perf_counter() - t0, 4),
        "moves": log,
    }
