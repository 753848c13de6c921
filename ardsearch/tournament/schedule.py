"""Which games are played: pairings, duplicate pairs and their seeds.

Every game is fixed in advance by the tournament seed, so a game's outcome
does not depend on which worker plays it or when, and a resumed tournament
replays nothing it already has.

Order: pair k of every pairing comes before pair k+1 of any pairing, so all
pairings progress together and an early stop (SPRT) leaves a balanced table.
Within a pair, leg 0 seats the first entrant of the pairing as player 0 and
leg 1 swaps the seats; both legs share one game seed.
"""
from __future__ import annotations

from dataclasses import dataclass

from ardsearch.match import derive_seed

FORMATS = ("round-robin", "gauntlet")


@dataclass(frozen=True)
class GameTask:
    index: int          # position in the schedule, 0-based; the key of a game in results and resume
    pairing: int        # index into the list of pairings
    pair: int           # duplicate pair number within the pairing
    leg: int            # 0: pairing order; 1: seats swapped
    seed: int           # the game seed (shared by both legs of a pair)
    seats: tuple[str, str]   # entrant names in seat 0 and seat 1


def pairings(names: list[str], fmt: str) -> list[tuple[str, str]]:
    """Round-robin: every entrant against every other. Gauntlet: the first
    entrant against each of the others."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r} (use {' or '.join(FORMATS)})")
    if len(names) < 2:
        raise ValueError(f"a tournament needs at least 2 entrants, got {len(names)}")
    if fmt == "gauntlet":
        return [(names[0], other) for other in names[1:]]
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]


def schedule(names: list[str], fmt: str, games: int, seed: int) -> list[GameTask]:
    """All games of the tournament in order; `games` per pairing, an even number."""
    if games < 2 or games % 2:
        raise ValueError(f"games per pairing must be an even number of at least 2 "
                         f"(games come in duplicate pairs), got {games}")
    tasks = []
    plan = pairings(names, fmt)
    for pair in range(games // 2):
        for p, (a, b) in enumerate(plan):
            game_seed = derive_seed(seed, p, pair)
            for leg, seats in enumerate(((a, b), (b, a))):
                tasks.append(GameTask(len(tasks), p, pair, leg, game_seed, seats))
    return tasks
