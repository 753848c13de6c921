"""Bot against bot on one machine: one seeded game, and a match of many.

The referee owns all randomness: chance outcomes come from the state's own
RNG, seeded per game, so the bots never roll dice and a game is reproduced
exactly from (game, presets, seed). Seats alternate every game.
"""
from __future__ import annotations

import multiprocessing
import signal
import sys
import threading
import time
from dataclasses import dataclass, field

import ardsearch
from ardsearch.records import Record
from ardsearch.stats import elo_interval, score_interval


@dataclass
class GameRecord:
    seed: int
    seats: tuple[str, str]          # preset name in seat 0 and seat 1
    moves: list[str] = field(default_factory=list)
    returns: tuple[float, float] = (0.0, 0.0)
    length: int = 0
    seconds: float = 0.0
    record: Record | None = None     # the full game record (docs/records.md)

    def points(self, seat: int) -> float:
        """1, 0.5 or 0 for the entrant in `seat`."""
        return (self.returns[seat] + 1.0) / 2.0


def derive_seed(base: int, *parts: int) -> int:
    """A well-mixed 63-bit seed from a base and indices (match seed, game, seat)."""
    x = base & 0xFFFFFFFFFFFFFFFF
    for p in parts:
        x = (x ^ (p + 0x9E3779B97F4A7C15 + (x << 6) + (x >> 2))) & 0xFFFFFFFFFFFFFFFF
        x = (x * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 31
    return x & 0x7FFFFFFFFFFFFFFF


def play_game(game, bots, seed: int, on_move=None, chance=None) -> GameRecord:
    """Plays one game between bots[0] (seat 0) and bots[1] (seat 1).

    `chance(state) -> action` picks chance outcomes (default: the state's own
    seeded RNG); the tournament passes one that keys each draw to the event's
    index so that both games of a duplicate pair see the same outcomes."""
    state = game.new_initial_state(seed=seed)
    record = GameRecord(seed=seed, seats=(bots[0].name, bots[1].name))
    record.record = Record.start(game, seed, [_player(bot) for bot in bots])
    for bot in bots:
        bot.reset()
    t0 = time.perf_counter()
    while not state.is_terminal():
        comments = {}
        if state.is_chance_node():
            action = chance(state) if chance else state.sample_chance()
        else:
            bot = bots[state.current_player()]
            t1 = time.perf_counter()
            if hasattr(bot, "play"):      # the move and the search behind it, searched once
                action, info = bot.play(state)
                comments = move_comments(info)
            else:
                action = bot.step(state)
            comments["time"] = round(time.perf_counter() - t1, 4)
        record.moves.append(state.action_to_string(action))
        record.record.add(state, action, **comments)
        state.apply_action(action)
        if on_move:
            on_move(state, action)
    record.returns = tuple(state.returns())
    record.length = len(record.moves)
    record.seconds = time.perf_counter() - t0
    record.record.finish(state)
    return record


def move_comments(info) -> dict:
    """A record's comments on a move from a bot's analysis (docs/records.md)."""
    if not info or not info.get("nodes"):     # no search behind the move (random, forced)
        return {}
    out = {"eval": info.get("value"), "wp": info.get("wp"), "nodes": info.get("nodes"),
           "depth": info.get("depth"), "pv": list(info["pv"]) if info.get("pv") else None}
    out = {k: v for k, v in out.items() if v is not None}
    for k in ("eval", "wp"):
        if k in out:
            out[k] = round(float(out[k]), 4)
    if "nodes" in out:
        out["nodes"] = int(out["nodes"])
    if "depth" in out:
        out["depth"] = int(out["depth"])
    return out


def _player(bot) -> dict:
    """How a record names a bot: its preset and the settings that define its play."""
    p = {"name": bot.name, "kind": "bot"}
    settings = getattr(bot, "settings", None)
    if isinstance(settings, dict):
        p["settings"] = dict(settings)
    return p


def _play_indexed(args):
    game_name, params, preset_a, preset_b, match_seed, index, overrides = args
    game = ardsearch.load_game(game_name, **params)
    a_seat = index % 2  # entrant A sits in seat 0 in even games, seat 1 in odd ones
    bot_a = ardsearch.load_bot(preset_a, game, seed=derive_seed(match_seed, index, 0), **overrides[0])
    bot_b = ardsearch.load_bot(preset_b, game, seed=derive_seed(match_seed, index, 1), **overrides[1])
    bots = (bot_a, bot_b) if a_seat == 0 else (bot_b, bot_a)
    record = play_game(game, bots, seed=derive_seed(match_seed, index))
    return index, a_seat, record


@dataclass
class MatchResult:
    preset_a: str
    preset_b: str
    wins: int = 0      # from A's point of view
    draws: int = 0
    losses: int = 0
    lengths: list[int] = field(default_factory=list)
    records: list[GameRecord] = field(default_factory=list)

    def add(self, a_seat: int, record: GameRecord):
        pts = record.points(a_seat)
        if pts == 1.0:
            self.wins += 1
        elif pts == 0.0:
            self.losses += 1
        else:
            self.draws += 1
        self.lengths.append(record.length)
        self.records.append(record)

    @property
    def games(self):
        return self.wins + self.draws + self.losses

    def table(self) -> str:
        s = score_interval(self.wins, self.draws, self.losses)
        elo, lo, hi = elo_interval(self.wins, self.draws, self.losses)
        mean_len = sum(self.lengths) / len(self.lengths) if self.lengths else 0.0
        w = max(16, len(self.preset_a) + 2, len(self.preset_b) + 2)   # a long label keeps the columns
        rows = [
            f"{'entrant':<{w}}{'W':>6}{'D':>6}{'L':>6}  score [95% interval]      Elo [95% interval]",
            f"{self.preset_a:<{w}}{self.wins:>6}{self.draws:>6}{self.losses:>6}  {s}   "
            f"{_elo(elo)} [{_elo(lo)}, {_elo(hi)}]",
            f"{self.preset_b:<{w}}{self.losses:>6}{self.draws:>6}{self.wins:>6}  "
            f"{1 - s.score:.3f} [{1 - s.high:.3f}, {1 - s.low:.3f}]   "
            f"{_elo(-elo)} [{_elo(-hi)}, {_elo(-lo)}]",
            f"games {self.games}, mean length {mean_len:.1f} actions",
        ]
        return "\n".join(rows)


class MatchInterrupted(KeyboardInterrupt):
    """Ctrl-C (KeyboardInterrupt) during run_match. `result` holds every game
    that finished before it, in game order; `planned` is the number asked for.
    A KeyboardInterrupt, so callers that only stop on Ctrl-C still do."""

    def __init__(self, result: MatchResult, planned: int):
        super().__init__(f"match interrupted after {result.games} of {planned} games")
        self.result = result
        self.planned = planned


def _ignore_sigint():
    # Workers leave Ctrl-C to the parent, which stops them and keeps the finished games.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _elo(x: float) -> str:
    return "+inf" if x == float("inf") else "-inf" if x == float("-inf") else f"{x:+.0f}"


def run_match(game, preset_a: str, preset_b: str, games: int, seed: int = 0, jobs: int = 1,
              overrides=({}, {}), progress=True, out=None, clock=None) -> MatchResult:
    """Plays `games` games between two presets, seats alternating; the records
    come back in game order. Bad presets or settings raise ValueError before
    any game starts. Ctrl-C raises MatchInterrupted (a KeyboardInterrupt)
    holding the games that finished. clock ("wall" or "cpu", None: each
    bot's own): what the time limits of both bots count, given to every bot
    that searches on a time limit (an override `clock=` wins)."""
    from ardsearch.bots import _as_game
    out = out or sys.stderr
    game = _as_game(game)
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    overrides = (dict(overrides[0]), dict(overrides[1]))   # copies: `clock` may be added below
    # Fail fast on bad presets and settings before anything starts (no progress
    # bar, no worker): the same call every game makes, with a seed of its own.
    for preset, over in ((preset_a, overrides[0]), (preset_b, overrides[1])):
        if "seed" in over:
            raise ValueError(f"bot {preset!r}: seed is not a setting of a match (each game derives its "
                             f"bots' seeds from the match seed): give the match seed instead")
        bot = ardsearch.load_bot(preset, game, seed=0, **over)
        if clock is not None and hasattr(bot, "clock") and "clock" not in over:
            over["clock"] = clock
            ardsearch.load_bot(preset, game, seed=0, **over)   # a bad clock fails here, before any game
    live = MatchResult(preset_a, preset_b)     # for the progress line, in finishing order
    finished: dict[int, tuple[int, GameRecord]] = {}
    tasks = [(game.name, game.params, preset_a, preset_b, seed, i, overrides) for i in range(games)]
    t0 = time.perf_counter()

    def report():
        if not progress:
            return
        n = live.games
        s = score_interval(live.wins, live.draws, live.losses)
        eta = (time.perf_counter() - t0) / n * (games - n) if n else 0.0
        bar = "#" * (20 * n // games) + "-" * (20 - 20 * n // games)
        out.write(f"\r[{bar}] {n}/{games} games  {preset_a} +{live.wins} ={live.draws} "
                  f"-{live.losses}  score {s.score:.3f}  eta {eta:5.0f}s ")
        out.flush()

    def done(i, a_seat, rec):
        finished[i] = (a_seat, rec)
        live.add(a_seat, rec)
        report()

    def in_game_order():
        result = MatchResult(preset_a, preset_b)
        for i in sorted(finished):
            result.add(*finished[i])
        return result

    report()
    try:
        if jobs == 1:
            for t in tasks:
                done(*_play_indexed(t))
        else:
            # Workers ignore SIGINT (set before they fork, and again in each), so
            # Ctrl-C reaches only this process, which then stops them at once.
            main_thread = threading.current_thread() is threading.main_thread()
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main_thread else None
            try:
                pool = multiprocessing.get_context().Pool(jobs, initializer=_ignore_sigint)
            finally:
                if main_thread:
                    signal.signal(signal.SIGINT, previous)
            try:
                for i, a_seat, rec in pool.imap_unordered(_play_indexed, tasks):
                    done(i, a_seat, rec)
                pool.close()
            except BaseException:
                pool.terminate()
                raise
            finally:
                pool.join()
    except KeyboardInterrupt:
        if progress:
            out.write("\n")
            out.flush()
        raise MatchInterrupted(in_game_order(), games) from None
    if progress:
        out.write("\n")
    return in_game_order()
