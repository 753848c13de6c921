"""Micro Armour: pinned perft counts (tests/data/microarmour.perft).

The counts were computed with the reference model (tests/reference/
microarmour.py) and are checked here against both the engine
(ardsearch._core.perft) and the reference itself, so a change in either shows
up as a count change.

Regenerate the file (only after a deliberate rules change):
    python tests/test_microarmour_perft.py --write
"""
from __future__ import annotations

import os
import random
import sys

import pytest

import ardsearch
from ardsearch import _core
from ardsearch.games.microarmour import SPEC

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from reference import microarmour as ref  # noqa: E402
from reference import perft as reference_perft  # noqa: E402
from test_microarmour_differential import (ambush_position, broken_position, engineering_position,  # noqa: E402
                                           half_load_position, outpost_position, scattered_position,
                                           two_turn_load_position, village_position)

PERFT_FILE = os.path.join(HERE, "data", "microarmour.perft")

HEADER = """\
# Micro Armour perft counts, computed with tests/reference/microarmour.py.
#
# One line per count:   <start> <seed> <plies> <depth> <count>
#   start   comma-separated key=value game parameters ("-" for the defaults),
#           or "scattered" / "broken" / "village" / "ambush" / "outpost": the scattered
#           position of that seed, the one with a broken formation, the village
#           position, the ambush with the Germans scattered among the markers, or the
#           outpost with the Germans (cargo aboard) scattered over the minefield belt;
#           "engineering": the minefield scenario's workers beside the stream and the
#           ditches (tests/test_microarmour_differential.py, scattered_position,
#           broken_position, village_position, ambush_position, outpost_position,
#           engineering_position);
#           or "loads" / "halfload": the PaK 40 beside a half-track (two_turn_load_position),
#           or half-loaded onto it on turn 2 (half_load_position)
#   seed    seed of the game and of the random walk that reaches the position
#   plies   number of random plies played from the start
#   depth   perft depth; count = leaves at that depth, chance nodes expanded
#           over all their outcomes, a terminal state counting 1
#
# Random walk: rng = random.Random(seed); at each ply, moves = the chance
# outcome actions (increasing) at a chance node, else the legal actions
# (increasing) without `pass` (257) unless it is the only one; play rng.choice(moves).
"""

POSITIONS = [
    ("-", 0, 0),
    ("-", 5, 6),
    ("deployment=close", 1, 40),
    ("deployment=close", 2, 120),
    ("deployment=close,hot_shot=true", 3, 200),
    ("deployment=close", 4, 300),
    ("scattered", 7, 30),
    ("scattered", 11, 80),
    ("scattered", 13, 150),
    ("broken", 3, 20),
    ("broken", 4, 60),
    ("broken", 8, 100),
    ("deployment=close,intuitive_action=true,conflicting_orders=true", 3, 59),
    # the airstrike scenario: the start, air strike choices (turns 1 and 2), a joint plot, a strafe's deviation roll
    ("scenario=airstrike", 0, 0),
    ("scenario=airstrike,deployment=close", 1, 30),
    ("scenario=airstrike,deployment=close", 4, 161),
    ("scenario=airstrike,deployment=close", 5, 187),
    ("scenario=airstrike,deployment=close", 1, 197),
    ("scenario=airstrike,deployment=close", 6, 163),
    # the support stands and building areas with the ammunition rules (RULES.md, Weapons extras, Buildings)
    ("deployment=close,support=true", 8, 200),
    ("deployment=close,support=true,special_ap=true,heat=true,big_gun_he=true", 8, 90),
    ("deployment=close,support=true,hot_shot=true", 5, 200),
    ("village", 2, 5),
    ("village", 3, 40),
    ("village", 9, 120),
    # the barrage scenario (artillery and smoke): the start (the Germans record their first
    # pre-registered point: 70 cells, then 69), the Soviets' recording, a plot decision with
    # calls on points, a call landing that shows its point, a deviation roll, movement
    ("scenario=barrage", 0, 0),
    ("scenario=barrage", 0, 2),
    ("scenario=barrage,deployment=close", 0, 49),
    ("scenario=barrage,deployment=close", 1, 146),
    ("scenario=barrage,deployment=close", 0, 328),
    ("scenario=barrage", 21, 150),
    ("scenario=barrage", 37, 163),
    ("scenario=barrage,deployment=close", 25, 300),
    ("scenario=barrage,deployment=close", 22, 90),
    ("scenario=barrage,deployment=close", 20, 220),
    # the minefield scenario (RULES.md, Improved positions, Wire and anti-tank ditches, Minefields): the start,
    # fire on dug-in stands, and stands on enemy markers rolling to leave them (reveal, the mine attack)
    ("scenario=minefield", 0, 0),
    ("scenario=minefield,deployment=close", 3, 30),
    ("scenario=minefield,deployment=close", 0, 61),
    ("scenario=minefield,deployment=close", 1, 61),
    ("scenario=minefield,deployment=close", 2, 78),
    # the meeting scenario: the special stand types (RULES.md, Special stand types)
    ("scenario=meeting", 0, 0),
    ("scenario=meeting", 4, 60),
    ("scenario=meeting,deployment=close", 2, 60),
    ("scenario=meeting,deployment=close", 3, 150),
    ("scenario=meeting,deployment=close", 3, 195),      # a movement group's roll (ordered, with an HQ)
    ("scenario=meeting,deployment=close", 2, 267),      # an independent group roll
    # the ambush scenario: hidden markers, showing and spotting them, light rain (RULES.md, Hidden
    # set-up and spotting, Weather and night); "ambush": German stands scattered among the markers
    ("scenario=ambush", 0, 0),
    ("scenario=ambush", 3, 12),
    ("scenario=ambush,night=night,ground=deep_snow", 4, 30),
    ("ambush", 5, 0),
    ("ambush", 6, 25),
    ("ambush", 9, 60),
    # the combined scenario: the start; the joint plot (an air bomb plot, then the batteries')
    ("scenario=combined", 0, 0),
    ("scenario=combined,deployment=close", 1, 47),
    # the Introductory's turn-1 entry from the table edges (RULES.md, Entry from the table edge):
    # movement with stands still off the table, the half-tracks' cargo aboard, support stands too
    ("-", 9, 40),
    ("-", 3, 70),
    ("support=true", 4, 40),
    ("scenario=combined", 2, 40),
    # readings between the families (RULES.md): the ambush under fire support; flares at night
    ("scenario=ambush_support", 0, 0),
    ("scenario=ambush,night=night", 0, 0),
    ("scenario=ambush,night=night", 1, 3),
    # the outpost scenario (hidden set-up, dummies, minefields and transports together): the start;
    # "outpost": German stands and loaded carriers scattered over the belt (marker reveals, the
    # field's attack on a carrier and its cargo, dismounts beside markers)
    ("scenario=outpost", 0, 0),
    ("scenario=outpost", 1, 65),         # a dismount
    ("scenario=outpost", 4, 26),         # markers to show
    ("outpost", 1, 174),                 # a marker's reveal, then the field's attack
    ("outpost", 1, 219),
    ("outpost", 2, 88),
    ("outpost", 6, 39),                  # a dismount
    ("outpost", 4, 91),                  # a carrier's steps
    # two-turn loads (RULES.md, Transport): the PaK 40's loading roll (a pass half-loads it);
    # a half-load in the posture phase; the orders roll that opens the movement phase, where it
    # completes (both marked for movement) or is off (the carrier in fire/move posture)
    ("loads", 17, 57),
    ("halfload", 0, 0),
    ("halfload", 0, 39),
    ("halfload", 2, 50),
    # bridges and AT ditches (RULES.md, Engineering: bridges and AT ditches): the workers facing
    # their squares; an engineering roll due (the bridging tank, the dozer), squares already done
    ("engineering", 2, 96),              # the bridging tank's roll, with a bridge and a ditch done
    ("engineering", 2, 97),              # the dozer's roll, with a bridge and a ditch done
    ("engineering", 2, 38),              # movement with a built bridge and a filled ditch
    ("engineering", 9, 152),
    # the airdrop scenario (RULES.md, Paratroops): the start, the drop zone plot (hidden), the arrival,
    # scatter cohesion and direction rolls of the drop turn
    ("scenario=airdrop", 0, 0),
    ("scenario=airdrop", 1, 27),                # the drop zone plot
    ("scenario=airdrop", 2, 85),                # the zone revealed as the drop turn opens
    ("scenario=airdrop", 2, 86),                # an arrival roll
    ("scenario=airdrop", 2, 88),                # a scatter direction
    ("scenario=airdrop", 1, 96),                # a 'Hot Combat Jump' 4D6 scatter distance
    # gliders and the paratroop HQ delay (the `jump` parameter): the glider tables' distances,
    # a glider's roll forward, the lost paratroop HQ's 1D8/2-turn delay roll
    ("scenario=airdrop,jump=glider_snafu", 1, 96),      # a 'SNAFU' 2D8+4 scatter distance
    ("scenario=airdrop,jump=glider_snafu", 1, 97),      # a glider's roll forward
    ("scenario=airdrop,jump=glider_snafu", 1, 217),     # the paratroop HQ delay roll
    ("scenario=airdrop,jump=glider,deployment=close", 1, 112),   # a glider 2D8 scatter distance
    ("scenario=airdrop,jump=glider,deployment=close", 1, 262),   # the delay roll (then one turn to wait)
]
DEPTHS = (1, 2)


def parse_params(text):
    if text in ("-", "scattered", "broken", "village", "ambush", "outpost", "loads", "halfload",
                "engineering"):
        return {}
    out = {}
    for kv in text.split(","):
        k, v = kv.split("=")
        out[k] = {"true": True, "false": False}.get(v, int(v) if v.lstrip("-").isdigit() else v)
    return out


def start_state(start, seed, plies):
    if start == "scattered":
        _, state = scattered_position(seed)
    elif start == "broken":
        _, state = broken_position(seed)
    elif start == "village":
        _, state = village_position(seed)
    elif start == "ambush":
        _, state = ambush_position(seed)
    elif start == "outpost":
        _, state = outpost_position(seed)
    elif start == "loads":
        _, state = two_turn_load_position(seed)
    elif start == "halfload":
        _, state = half_load_position(seed)
    elif start == "engineering":
        _, state = engineering_position(seed)
    else:
        state = ardsearch.Game(SPEC, parse_params(start)).new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        if state.is_chance_node():
            moves = [a for a, _ in state.chance_outcomes()]
        else:
            moves = state.legal_actions()
            if len(moves) > 1:
                moves = [a for a in moves if a != 257]
        state.apply_action(rng.choice(moves))
    return state


def read_rows():
    rows = []
    with open(PERFT_FILE) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                start, seed, plies, depth, count = line.split()
                rows.append((start, int(seed), int(plies), int(depth), int(count)))
    return rows


def write_file():
    lines = [HEADER]
    for start, seed, plies in POSITIONS:
        state = start_state(start, seed, plies)
        for depth in DEPTHS:
            count = reference_perft(ref.from_dict(state.to_dict()), depth)
            lines.append(f"{start} {seed} {plies} {depth} {count}\n")
    with open(PERFT_FILE, "w") as f:
        f.writelines(lines)


def test_perft_file_covers_all_positions():
    pinned = {(r[0], r[1], r[2], r[3]) for r in read_rows()}
    assert pinned == {(s, seed, p, d) for s, seed, p in POSITIONS for d in DEPTHS}


@pytest.mark.parametrize("row", read_rows() if os.path.exists(PERFT_FILE) else [])
def test_engine_perft(row):
    start, seed, plies, depth, count = row
    assert _core.perft(start_state(start, seed, plies), depth) == count


@pytest.mark.parametrize("row", read_rows() if os.path.exists(PERFT_FILE) else [])
def test_reference_perft(row):
    start, seed, plies, depth, count = row
    assert reference_perft(ref.from_dict(start_state(start, seed, plies).to_dict()), depth) == count


if __name__ == "__main__":
    if "--write" in sys.argv:
        write_file()
        print(open(PERFT_FILE).read())
