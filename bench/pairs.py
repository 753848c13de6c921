"""Seeded duplicate pairs between two bots, for the strength figures of
bench/ (ladder, scaling, balance).

Pair k of a match has game seed derive_seed(seed, k); its two legs use that
seed with the seats swapped, and the k-th chance event of each leg is drawn
from a uniform keyed to (game seed, k) (ardsearch.tournament.duplicate), so
both legs see the same dice and cards wherever the game allows: the same
mechanism and seeds as `ardsearch tournament`. Bot seeds are derived from the
game seed, the leg and the seat, as the tournament's referee does. A bot is
(preset, {setting: value}); a search budget in simulations makes a match
reproducible on any machine, a time limit does not.
"""
from __future__ import annotations

import multiprocessing
from dataclasses import dataclass, field

import ardsearch
from ardsearch.match import derive_seed, play_game
from ardsearch.stats import elo_interval, pentanomial_elo, pentanomial_interval
from ardsearch.tournament.duplicate import DuplicateChance


@dataclass
class PairResult:
    """One duplicate pair: A's points in each leg (leg 0: A in seat 0)."""
    index: int
    seed: int
    a_points: tuple[float, float]
    lengths: tuple[int, int]
    seconds: float
    outcomes: tuple = (None, None)  # each leg's "reason: sentence" (state.outcome()), None if unknown


@dataclass
class Match:
    a: str
    b: str
    pairs: list[PairResult] = field(default_factory=list)

    def penta(self) -> tuple[int, int, int, int, int]:
        """Pairs in which A scored 0, 0.5, 1, 1.5, 2 points."""
        counts = [0] * 5
        for p in self.pairs:
            counts[int(round(2 * sum(p.a_points)))] += 1
        return tuple(counts)

    def wdl(self) -> tuple[int, int, int]:
        pts = [x for p in self.pairs for x in p.a_points]
        return pts.count(1.0), pts.count(0.5), pts.count(0.0)

    def elo(self) -> tuple[float, float, float]:
        """A's Elo over B with its 95% interval, from the pair variance; when
        every pair scored the same (a zero pair variance, as when each seat
        wins its game in every pair) the per-game (trinomial) interval, so a
        few identical pairs do not claim certainty."""
        penta = self.penta()
        if sum(1 for c in penta if c) == 1 and len(self.pairs) > 1 and not penta[0] and not penta[4]:
            return elo_interval(*self.wdl())
        return pentanomial_elo(penta)

    def score(self):
        return pentanomial_interval(self.penta())

    def seat_points(self) -> tuple[float, float, int]:
        """Points won by seat 0 and by seat 1 over all games, and the games."""
        s0 = sum(p.a_points[0] + (1.0 - p.a_points[1]) for p in self.pairs)
        n = 2 * len(self.pairs)
        return s0, n - s0, n

    def seconds(self) -> float:
        return sum(p.seconds for p in self.pairs)


CLOCKS = (None, "wall", "cpu")


def _bot(game, spec, seed, clock=None):
    """The spec's bot; `clock` ("wall" or "cpu", None: the bot's own) is what
    its time limit counts, given to a bot that has one (not greedy or random)
    unless the spec sets its own."""
    preset, settings = spec
    bot = ardsearch.load_bot(preset, game, seed=seed, **settings)
    if clock is not None and "clock" not in settings and hasattr(bot, "clock"):
        bot.clock = clock
    return bot


def play_pair(args) -> PairResult:
    game_text, spec_a, spec_b, seed, index, *rest = args
    clock = rest[0] if rest else None     # bench.balance_log passes the five without a clock
    game = ardsearch.load_game(game_text)
    game_seed = derive_seed(seed, index)
    points, lengths, outcomes, seconds = [], [], [], 0.0
    for leg in (0, 1):
        a = _bot(game, spec_a, derive_seed(game_seed, 1 + leg, leg), clock)
        b = _bot(game, spec_b, derive_seed(game_seed, 1 + leg, 1 - leg), clock)
        seated = (a, b) if leg == 0 else (b, a)
        rec = play_game(game, seated, game_seed, chance=DuplicateChance(game_seed))
        points.append(rec.points(leg))
        lengths.append(rec.length)
        o = rec.record.outcome
        outcomes.append(f"{o['reason']}: {o['sentence']}" if o else None)
        seconds += rec.seconds
    return PairResult(index, game_seed, (points[0], points[1]), (lengths[0], lengths[1]), seconds,
                      (outcomes[0], outcomes[1]))


def play_match(game_text: str, spec_a, spec_b, pairs: int, seed: int, jobs: int = 1,
               first: int = 0, progress=None, clock=None) -> Match:
    """`pairs` duplicate pairs (indices first .. first+pairs-1) of A against B.
    clock ("wall" or "cpu", None: each bot's own) is what the time limits of
    both bots count (_bot). Bad presets, settings or clocks raise ValueError
    before any game starts."""
    if clock not in CLOCKS:
        raise ValueError(f"clock {clock!r} is not valid: wall (time limits count wall time) or cpu "
                         f"(the searching threads' CPU time, fair on a loaded machine)")
    game = ardsearch.load_game(game_text)
    for spec in (spec_a, spec_b):
        _bot(game, spec, 0, clock)
    tasks = [(game_text, spec_a, spec_b, seed, first + k, clock) for k in range(pairs)]
    match = Match(label(spec_a), label(spec_b))
    if jobs <= 1:
        results = map(play_pair, tasks)
    else:
        pool = multiprocessing.get_context().Pool(jobs)
        results = pool.imap_unordered(play_pair, tasks)
    try:
        for r in results:
            match.pairs.append(r)
            if progress:
                progress(match)
    finally:
        if jobs > 1:
            pool.terminate()
            pool.join()
    match.pairs.sort(key=lambda p: p.index)
    return match


def label(spec) -> str:
    preset, settings = spec
    if not settings:
        return preset
    return preset + ":" + ",".join(f"{k}={v}" for k, v in sorted(settings.items()))


def parse_spec(text: str):
    """`preset[:key=value,...]` -> (preset, {key: value}); values are read as
    numbers where they look like numbers."""
    preset, _, rest = text.partition(":")
    settings = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ValueError(f"bot {text!r}: {item!r} is not key=value")
        settings[key] = _typed(value)
    return preset, settings


def _typed(value: str):
    for cast in (int, float):
        try:
            return cast(value)
        except ValueError:
            pass
    return {"true": True, "false": False, "none": None}.get(value.lower(), value)
