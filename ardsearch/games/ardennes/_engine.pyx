# cython: language_level=3
"""Clash of the Ardennes: the C engine behind the ardsearch game ABI.

Rules: ardsearch/games/ardennes/RULES.md (from shared/games/ardennes.md).
Everything the search calls is a `noexcept nogil` C function in the static
vtable ARD_GAME, exported by capsule(). The module-level Python functions
(pack_params, to_dict, from_dict, observation_tensor, and the underscored test
and benchmark helpers) are the slow, friendly side used by the package
__init__ and by tests.

This file holds the constants, the state struct and the clash table; the code
is split by concern into the files included at its end: _board.pxi (the
roads' geometry and the changes a move makes), _rules.pxi (init, legal
actions, chance, apply, returns), _features.pxi (the evaluation's features),
_views.pxi (hash, a seat's view), _notation.pxi, _validate.pxi, _vtable.pxi
(the vtable and capsule) and _pyside.pxi (the Python side).
"""
from libc.stdint cimport uint8_t, int8_t, uint16_t, int32_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset, memmove
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.pycapsule cimport PyCapsule_New

from libc.math cimport log
from ardsearch.game cimport (ard_linear_value, ard_feature_wanted, ard_game, ard_fail, ard_hash_bytes, ard_rng, ard_action, ard_rng_seed, ard_rng_below,
                             ARD_ABI_VERSION, ARD_CHANCE, ARD_TERMINAL, ARD_HIDDEN_OUTCOME,
                             ARD_FLAG_CHANCE, ARD_FLAG_HIDDEN)

import time
import numpy as np

# ----------------------------------------------------------------- constants
cdef enum:
    NTYPES = 9          # unit types, in action order M T P C S G Y K R
    NROADS = 7
    MAXUNITS = 16       # a line holds at most 15 units (6 one-tile units + 9 two-tile on 24 tiles)
    MIN_L = 8
    MAX_L = 24
    START_AP = 4
    NCARDS = 8
    CARD_UNKNOWN = 9    # objective drawn but not seen by this view's owner

cdef enum:  # unit codes (also the U in the placement action U*7 + road)
    U_MINE = 0
    U_TANK = 1
    U_PRIVATE = 2
    U_CORPORAL = 3
    U_SERGEANT = 4
    U_GENERAL = 5       # codes >= 5 are the special units
    U_SPY = 6
    U_CMDTANK = 7
    U_MORTAR = 8

cdef enum:  # dense action numbers (see RULES.md, Notation)
    A_PLACE = 0
    A_FRONT = 63
    A_RETREAT = 70
    A_ATTACK = 77
    A_FLANK = 84
    A_MORTAR = 98
    A_PASS = 105
    A_FIRST = 106       # 106 Allies start, 107 Germans start
    A_OBJ = 108         # 108 + (card - 1)
    NUM_ACTIONS = 116
    # Bound on legal actions: 63 placements + 7 front + 7 retreat + 7 attack
    # + 2 flanks (one command tank at most) + 1 mortar + pass; chance has <= 8.
    MAX_LEGAL = 88
    # Per turn at most 4 AP actions, one pass, and 25 attacks (each removes an
    # enemy unit and the enemy adds none during the turn); 3 setup outcomes.
    MAX_GAME_LENGTH = 3 + 1000 * 2 * 30

cdef enum:  # phases
    PH_COIN = 0         # chance: who starts
    PH_DRAW1 = 1        # chance: the starting player's objective card
    PH_DRAW2 = 2        # chance: the other player's objective card
    PH_PLAY = 3         # decisions
    PH_OVER = 4         # terminal

cdef enum:
    WIN_NONE = -1
    WIN_DRAW = 2


# The state. Packed, pointer-free, 288 bytes (36 words); copied with memcpy, hashed and
# serialized as its bytes, so unused line slots are always kept at zero.
cdef packed struct ArdState:
    # parameters (fixed for the game; kept here so a state is self-contained)
    uint8_t variant              # 0 standard, 1 basic (no special units)
    uint8_t road_length          # L: tiles per road, 8..24
    uint16_t max_rounds          # the game ends after this many rounds, 1..1000
    uint8_t first_rule           # 0 coin flip, 1 Allies start, 2 Germans start
    # whose information this is
    int8_t viewer                # -1 full state, 0/1 the owner of this view
    # progress
    uint8_t phase                # PH_*: setup chance nodes, play, over
    uint8_t starter              # who starts every round (valid once decided)
    uint8_t to_move              # player on turn in PH_PLAY (the starter during setup)
    uint8_t ap                   # action points left this turn, 0..4
    uint16_t round               # current round, 1..max_rounds
    int8_t winner                # -1 undecided, 0 Allies, 1 Germans, 2 draw
    uint8_t reserved             # always 0; rounds the struct up to 288 bytes (8-byte words for hash)
    uint8_t objective[2]         # 0 not drawn, 1..8 card, CARD_UNKNOWN hidden from the viewer
    uint8_t conquered[2]         # bit r: road r+1 conquered by that player
    uint8_t stock[2][9]          # units in stock per player and unit type
    uint8_t count[2][7]          # units in each line (player, road)
    uint8_t length[2][7]         # tiles each line covers (cache of its unit lengths)
    uint8_t line[2][7][16]       # unit codes from the owner's block (index 0) to the leading unit


# The parameters struct given to init (see pack_params).
cdef packed struct ArdParams:
    uint8_t variant              # 0 standard, 1 basic
    uint8_t road_length          # 8..24
    uint16_t max_rounds          # 1..1000
    uint8_t first                # 0 random, 1 allies, 2 germans
    uint8_t victory_cards        # must be 0 (the rulebook does not print the cards)


cdef uint8_t UNIT_LEN[9]
UNIT_LEN[:] = [1, 3, 2, 2, 2, 5, 1, 3, 2]
cdef uint8_t FULL_STOCK[9]
FULL_STOCK[:] = [5, 7, 6, 2, 1, 1, 1, 1, 1]
# Units a command tank may flank (all infantry: private, corporal, sergeant, general, mortar).
cdef uint8_t IS_INFANTRY[9]
IS_INFANTRY[:] = [0, 0, 1, 1, 1, 1, 0, 0, 1]
# Roads named by the objective cards 1..8 as bit masks (bit r-1 for road r).
cdef uint8_t CARD_MASK[9]
CARD_MASK[:] = [0, (1 << 0) | (1 << 6), (1 << 1) | (1 << 5), (1 << 2) | (1 << 4),
                (1 << 0) | (1 << 3), (1 << 3) | (1 << 6), (1 << 1) | (1 << 4),
                (1 << 2) | (1 << 5), (1 << 1) | (1 << 6)]
cdef uint8_t POPCOUNT[128]
for _i in range(128):
    POPCOUNT[_i] = bin(_i).count("1")

cdef const char *LETTERS = b"MTPCSGYKR"
LETTER_STR = "MTPCSGYKR"
CARD_ROADS = ((1, 7), (2, 6), (3, 5), (1, 4), (4, 7), (2, 5), (3, 6), (2, 7))
SIDES = ("allies", "germans")


# Clash strength: BEATS[a][b] is +1 if unit a beats unit b, 0 if they are
# equal, -1 if a loses. Built once from the rules in words.
cdef int8_t BEATS[9][9]

def _strength(a, b):
    tanks = (U_TANK, U_CMDTANK)
    rank = {U_MORTAR: 0, U_PRIVATE: 1, U_CORPORAL: 2, U_SERGEANT: 3, U_GENERAL: 4}
    if a == b or (a in tanks and b in tanks):
        return 0
    if a == U_SPY:
        return 1
    if b == U_SPY:
        return -1
    if a in tanks:
        return 1 if b in rank else -1          # tanks beat infantry, lose to the mine
    if a == U_MINE:
        return 1 if b in tanks else -1         # the mine beats tanks, loses to infantry
    if b == U_MINE:
        return 1                               # infantry beats the mine
    if b in tanks:
        return -1
    return 1 if rank[a] > rank[b] else -1      # infantry against infantry: rank

for _a in range(9):
    for _b in range(9):
        BEATS[_a][_b] = _strength(_a, _b)
del _a, _b, _i

# hash() reads the state as 8-byte words and RULES.md quotes the size
assert sizeof(ArdState) == 288, "ArdState layout changed: update hash, RULES.md and tests"


include "_board.pxi"
include "_rules.pxi"
include "_features.pxi"
include "_views.pxi"
include "_notation.pxi"
include "_validate.pxi"
include "_vtable.pxi"
include "_pyside.pxi"
