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
from ardsearch.records import FORMAT, VERSION, result_text, side_names
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




def play_task(config: TournamentConfig, task: GameTask) -> dict:
    game, players = _setup(config)
    seated = [players[name] for name in task.seats]
    clocks = [Clock(p.entrant.limits) for p in seated]
    log: list[dict] = []
    chance = DuplicateChance(task.seed)

    def pick_chance(state):
        action = chance(state)
        log.append({"side": "chance", "player": -1, "move": state.action_to_string(action)})
        return action

    t0 = time.perf_counter()
    fault = None
    final = None
    try:
        for seat, player in enumerate(seated):
            player.new_game(game, seat, derive_seed(task.seed, 1 + task.leg, seat))
        seats = [Seat(p, i, clocks, log) for i, p in enumerate(seated)]
        record = play_game(game, seats, task.seed, chance=pick_chance)
        returns = [float(r) for r in record.returns]
        termination = "normal"
        final = record.record
    except GameFault as f:
        returns = [-1.0, 1.0] if f.seat == 0 else [1.0, -1.0]
        termination = f.kind
        fault = {"seat": f.seat, "entrant": task.seats[f.seat], "kind": f.kind, "message": f.message}
    sides = side_names(game)
    if final is not None:
        outcome = final.outcome
    else:   # the faulting seat loses
        outcome = {"winner": sides[1 - fault["seat"]], "reason": termination,
                   "sentence": f"{sides[fault['seat']]} ({fault['entrant']}) lost by {termination}: {fault['message']}"}
    players = []
    for seat, player in enumerate(seated):
        e = player.entrant
        entry = {"side": sides[seat], "name": e.name, "kind": "bot" if e.kind == "bot" else "engine"}
        entry["settings"] = ({"preset": e.preset, **e.options} if e.kind == "bot"
                             else {"command": list(e.command), **e.options})
        if not e.limits.is_empty():
            entry["settings"]["limits"] = e.limits.to_json()
        players.append(entry)
    # A game record (docs/records.md) with the tournament's own keys beside it.
    return {
        "format": FORMAT, "version": VERSION,
        "index": task.index, "pairing": task.pairing, "pair": task.pair, "leg": task.leg,
        "seed": task.seed, "game": config.game, "params": config.params,
        "players": players, "seats": list(task.seats), "result": result_text(returns), "returns": returns,
        "termination": termination, "outcome": outcome, "fault": fault,
        "length": len(log), "seconds": round(time.perf_counter() - t0, 4),
        "moves": log,
    }
