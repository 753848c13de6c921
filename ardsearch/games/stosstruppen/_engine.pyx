# cython: language_level=3
"""Stosstruppen: the C engine behind the ardsearch game ABI.

Rules: ardsearch/games/stosstruppen/RULES.md (from shared/games/stosstruppen.md).
Everything the search calls is a `noexcept nogil` C function in the static
vtable ST_GAME, exported by capsule(). Unit types and scenarios (map, armies,
precomputed line of sight) are static C tables filled once at import from the
TOML data files (data.py checks them), with each map also as bitboards for
whole-set movement and barrage placement (_bitboard.pxi, _reach.pxi); a state
names its scenario by index.
The Python side (pack_params, to_dict, from_dict, observation_tensor, test
helpers) is in _pyside.pxi.
"""
from libc.stdint cimport uint8_t, int8_t, uint16_t, int32_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset
from libc.math cimport atanh
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.pycapsule cimport PyCapsule_New

from ardsearch.game cimport (ard_game, ard_fail, ard_hash_bytes, ard_rng, ard_action, ard_rng_seed, ard_rng_below,
                             ard_rng_pick, ARD_ABI_VERSION, ARD_CHANCE, ARD_TERMINAL,
                             ARD_HIDDEN_OUTCOME, ARD_FLAG_CHANCE, ard_linear_value,
                             ard_feature_wanted)

import time
import numpy as np
from ardsearch.games.stosstruppen import data as _data

# ----------------------------------------------------------------- constants
cdef enum:
    STRIDE = 16         # square index = row * 16 + column
    NSQ = 192           # 16 columns x 12 rows at most
    UPS = 16            # unit slots per side (slots 0..15 German, 16..31 British)
    NUNITS = 32
    MPS = 4             # marker slots per side
    MAXTYPES = 32
    MAXSCN = 8
    NOSQ = 255
    NOTYPE = 255

cdef enum:  # terrain codes (data.TERRAIN_LETTERS order)
    T_OPEN = 0
    T_ROAD = 1
    T_WOODS = 2
    T_BUILDINGS = 3
    T_FORD = 4
    T_MARSH = 5
    T_CRATERS = 6
    T_TRENCH = 7
    T_BUNKER = 8
    T_WALL = 9

cdef enum:  # per-square flags of a scenario
    F_HILL = 1
    F_WIRE = 2
    F_OBJECTIVE = 4
    F_WOODED_HILL = 8           # a square of a hill holding woods or buildings

cdef enum:  # unit st byte
    ST_STATUS = 3       # 0 normal, 1 pinned, 2 suppressed
    ST_SPOTTED = 4
    ST_MOVED = 8        # moved this turn (the `*` rule)
    ST_FIRED = 16       # fired this turn
    ST_ACTED = 32       # moved / fired / assaulted in this phase
    ST_STUCK = 64       # non-foot unit immobilised in a trench

cdef enum:  # unit tk byte (tanks)
    TK_MAIN_OUT = 1
    TK_SEC_OUT = 2
    TK_IMMOB = 4
    TK_DAMAGED = 8      # one penetrating hit taken: the next destroys
    TK_MAIN_FIRED = 16
    TK_SEC_FIRED = 32
    TK_FACING_SHIFT = 6 # bits 6-7: facing 0 n, 1 e, 2 s, 3 w

cdef enum:  # marker kinds (low 7 bits of mk[i][0]); bit 7: armed (tests from now on)
    MK_NONE = 0
    MK_BARRAGE_STOCK = 1
    MK_CAS_STOCK = 2
    MK_BARRAGE = 3
    MK_GAS = 4
    MK_CAS = 5
    MK_FIGHTER = 6      # a CAS marker that arrived, aircraft rolled
    MK_BOMBER = 7
    MK_ARMED = 128

cdef enum:  # phases
    PH_DRAW = 0         # chance: the next Sequence card
    PH_MOVE = 1
    PH_FIRE = 2
    PH_ASSAULT = 3
    PH_RALLY = 4
    PH_ADVANCE = 5      # decision: a winning assaulter may enter the vacated square
    PH_OVER = 6

cdef enum:  # pending chance node inside a phase
    P_NONE = 0
    P_HQTEST = 1        # unit pu far from its HQ tests to move to psq
    P_CROSS = 2         # unit pu tests to cross wire (at psq) or a trench (paux)
    P_ADJ_MOVER = 3     # unit pu moved next to an enemy, arriving on psq: tests
    P_ADJ_ENEMY = 4     # enemy pt next to psq (where mover pu arrived) tests
    P_FIRE = 5          # unit pu fires at pt (pflags & PF_SECONDARY: tank secondary)
    P_ARRIVE = 6        # marker paux tests arrival
    P_AIRCRAFT = 7      # marker paux (CAS) arrived: fighter or bomber
    P_BLAST = 8         # marker paux attacks unit pt
    P_ASSAULT = 9       # unit pu assaults pt
    P_RALLY = 10        # unit pt tests to rally
    P_LAST = 10

cdef enum:
    PF_HQ = 1           # the HQ morale test is still due
    PF_CROSS = 2        # the crossing test is still due
    PF_SECONDARY = 4    # P_FIRE: the tank's secondary armament fires
    PF_TRENCH = 8       # P_CROSS: a trench crossing (else wire)

cdef enum:  # dense action numbers (RULES.md, Notation)
    A_MOVE = 0          # + local unit * 192 + square
    A_FIRE = 3072       # + local unit * 16 + local target
    A_ASSAULT = 3328    # + local unit * 16 + local target
    A_BARRAGE = 3584    # + square
    A_GAS = 3776
    A_CAS = 3968
    A_RALLY = 4160
    A_DONE = 4161
    A_ADVANCE = 4162
    A_STAY = 4163
    A_CARD = 4164       # + player * 4 + phase (0 move, 1 fire, 2 assault, 3 rally)
    A_PASS = 4172
    A_FAIL = 4173
    A_HIT = 4174
    A_MISS = 4175
    A_T_MAIN = 4176     # penetration: main armament out
    A_T_SEC = 4177      # secondary armament out
    A_T_IMMOB = 4178    # immobilised
    A_T_KILL = 4179     # destroyed
    A_WIN = 4180        # assault: the attacker wins
    A_LOSS = 4181
    A_TIE = 4182
    A_ARRIVE = 4183
    A_WAIT = 4184
    A_FIGHTER = 4185
    A_BOMBER = 4186
    NUM_ACTIONS = 4187
    # Move phase: 16 units x 191 destinations + done bounds everything.
    MAX_LEGAL = 3080
    # Per turn: 8 cards + per player at most 16 moves x 12 steps, 205 fire-phase
    # steps (32 fire actions with their rolls, 4 markers x 34 rolls, 4 placements,
    # done), 49 assault steps and 18 rally steps: 938 < 1000; turns <= 30.
    MAX_GAME_LENGTH = 30 * 1000 + 10

cdef enum:
    WIN_NONE = -1


cdef packed struct UType:      # one unit type of units.toml (see its header)
    uint8_t foot, tank, move, fire, at, at_no_long, melee, assault, artillery
    uint8_t star, plunging, direct, hq, armour, main, main_at, secondary, all_round, bonus


cdef packed struct Scn:        # one scenario file, plus its line-of-sight table
    uint8_t width, height, turns, attacker, obj_needed
    uint8_t nobj               # objective squares (also flagged F_OBJECTIVE)
    uint8_t objsq[8]
    uint8_t morale[2]          # 0 green, 1 regular, 2 veteran
    uint8_t nunits[2]
    uint8_t utype[2][16]
    uint8_t usq[2][16]
    uint8_t ufacing[2][16]
    uint8_t mkind[2][4]        # MK_BARRAGE_STOCK / MK_CAS_STOCK / MK_NONE per marker slot
    uint8_t terrain[192]
    uint8_t flags[192]         # F_*
    uint8_t aperture[192]      # bunker aperture direction 0 n, 1 e, 2 s, 3 w
    uint8_t los[192][24]       # bit b of los[a]: line of sight from square a to b


include "_bitboard.pxi"

cdef struct Masks:             # one scenario's square sets, for whole-set moves and fire
    BB board
    BB road
    BB wire
    BB trench
    BB enter[2]                # squares a unit may end a step on: [0] non-foot, [1] foot
    BB slow[2]                 # squares a step into costs 4 half squares: [0] non-foot, [1] foot
    BB los[192]                # los[a]: the squares in line of sight from a (Scn.los)


cdef packed struct Unit:
    uint8_t type               # unit type index, NOTYPE for an empty slot
    uint8_t sq                 # square, NOSQ once eliminated (or empty slot)
    uint8_t st                 # ST_* bits (status, spotted, per-turn and per-phase flags)
    uint8_t tk                 # TK_* bits (tanks only; 0 for other units)


# The state. Packed, pointer-free, 160 bytes (20 words); copied with memcpy,
# hashed and serialized as its bytes, so unused fields are always zero.
cdef packed struct StState:
    uint8_t scenario           # index into the scenario table (parameter)
    uint8_t turns              # the game ends after this turn, 1..30 (parameter)
    int8_t viewer              # -1 full state, else the owner of this view
    uint8_t phase              # PH_*
    uint8_t turn               # 1..turns
    uint8_t drawn              # bit c: Sequence card c drawn this turn
    uint8_t card               # the card being played (phases MOVE..ADVANCE), else 0
    int8_t winner              # -1 undecided, 0 German, 1 British
    uint8_t pend               # P_*: a chance node inside the phase
    uint8_t pu                 # pending: acting unit slot
    uint8_t pt                 # pending: target unit slot
    uint8_t psq                # pending: destination square (move, advance; the arrival
                               # square while the tests for moving next to the enemy run)
    uint8_t paux               # pending: marker slot or trench square crossed
    uint8_t pflags             # pending: PF_*
    uint8_t reserved[2]        # always 0
    Unit u[32]                 # slots 0..15 player 0 (German), 16..31 player 1 (British)
    uint8_t mk[8][2]           # markers: [kind | MK_ARMED, square]; 0..3 German, 4..7 British


cdef packed struct StParams:
    uint8_t scenario           # index into the scenario table
    uint8_t turns              # 0: the scenario's turn count


cdef UType UT[32]
cdef Scn SC[8]
cdef Masks SM[8]               # SM[k] is derived from SC[k] (build_masks)
cdef int NTYPES_LOADED = 0
cdef int NSCN = 0
cdef int PV[10]
PV[:] = [4, 4, 5, 6, 4, 4, 5, 7, 9, 6]
# terrain in which a further hit eliminates ("open": open, road, ford, marsh)
cdef uint8_t IS_OPEN[10]
IS_OPEN[:] = [1, 1, 0, 0, 1, 1, 0, 0, 0, 0]
cdef int DX[8]
cdef int DY[8]
DX[:] = [-1, 0, 1, -1, 1, -1, 0, 1]
DY[:] = [-1, -1, -1, 0, 0, 1, 1, 1]

assert sizeof(StState) == 160, "StState layout changed: update RULES.md and tests"

include "_tables.pxi"
include "_rules.pxi"
include "_reach.pxi"
include "_vtable.pxi"
include "_pyside.pxi"
