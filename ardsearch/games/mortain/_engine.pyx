# cython: language_level=3
"""Stand at Mortain: the C-struct state, move generator, card-deck chance
nodes, combat, notation and the ard_game vtable (csrc/ardsearch/game.h).

Rules: RULES.md beside this file. Scenario data (map, units, historical
setup) never changes during a game, so it lives in static C tables filled
once at import from scenarios/mortain.toml (see _install_scenario); the state
holds only what changes.

This file holds the sizes, the state struct, hex sets and the scenario
tables; the code is split by concern into the files included at its end:
_moves.pxi (init, the legal moves), _apply.pxi (apply, chance, returns),
_features.pxi (the evaluation's features), _views.pxi (hash, views),
_validate.pxi, _notation.pxi, _vtable.pxi (the vtable and capsule),
_tables.pxi (the scenario and hex geometry filled at import) and _pyapi.pxi
(the Python side).
"""
from libc.stdint cimport uint8_t, int8_t, uint16_t, uint32_t, uint64_t, int32_t
from libc.string cimport memcpy, memset, strlen, strcmp, strncmp
from libc.stdio cimport snprintf
from libc.math cimport round as c_round, fabs, log
from cpython.pycapsule cimport PyCapsule_New
from ardsearch.game cimport *

import time as _time
import numpy as np

# ---------------------------------------------------------------- sizes ----
cdef enum:
    NU = 22            # units: 0..10 German, 11..21 US
    NSIDE = 11         # units per side
    COLS = 13
    ROWS = 9
    NHEX = 117
    NCLASS = 27        # card classes: (rank-1)*2 + colour (0 black, 1 red); 26 joker
    JOKER = 26
    LOC_RESERVE = 200  # not yet entered (German, US reinforcement, US unplaced in setup)
    LOC_EXITED = 201   # German unit that left by the west edge
    LOC_DEAD = 202     # eliminated
    NONE = 255
    # phases
    PH_SETUP = 0       # US places its units (setup=free)
    PH_DRAW = 1        # chance: activation card
    PH_ACT = 2         # the card's side acts
    PH_COMBAT = 3      # chance: combat card
    PH_REDRAW = 4      # firer chooses redraw / miss after a face card
    PH_OVER = 5
    # pending attack kinds
    ST_GROUND = 0
    ST_AIR = 1
    ST_OBA = 2
    # action layout: dense and state independent (the notation of an action never depends on the state)
    A_PASS = 27
    A_REDRAW = 28
    A_MISS = 29
    A_STACK = 30                     # + hex
    A_SETUP = A_STACK + NHEX         # + us_index*NHEX + hex
    A_AIRI = A_SETUP + NSIDE * NHEX  # + hex
    A_AIR = A_AIRI + NHEX            # + German unit
    A_OBA = A_AIR + NSIDE            # + German unit
    NMOVER = 32                      # 22 single units + 10 German units moving with the Tiger
    NDEST = NHEX + 1                 # hexes, then exit
    A_MOVE = A_OBA + NSIDE           # + mover*NDEST + dest
    NFSET = 132                      # 22 single firers + 2*55 same-side pairs
    A_FIRE = A_MOVE + NMOVER * NDEST # + set*NSIDE + target index within the enemy side
    NUM_ACTIONS = A_FIRE + NFSET * NSIDE
    # bound on legal actions: the free setup's worst case, every US unit still to place
    # on any hex but the forbidden column (11*108 = 1188; the scenario file may make
    # no unit a reinforcement), above play's 1 pass + 22 air + 11 stacks + 21 movers*9
    # + 66 fire groups*11 = 949
    MAX_LEGAL = NSIDE * (NHEX - ROWS)


# ---------------------------------------------------------------- state ----
# The whole game state: 76 bytes, copied with memcpy. Field by field:
cdef packed struct MState:
    uint8_t loc[NU]        # per unit: hex 0..116 ((col-1)*9 + row-1), or LOC_RESERVE/EXITED/DEAD
    uint8_t deck[NCLASS]   # cards left this turn per class (2 of each rank+colour, 1 joker)
    uint32_t reduced       # bit u: unit u shows its reduced side (only units on the map or exited)
    uint32_t stack_mask    # face card after `stack <hex>`: units of that stack that may still act
    uint8_t turn           # 1..turns
    uint8_t phase          # PH_*
    uint8_t active         # side acting on the current card: 0 German, 1 US
    uint8_t card           # class of the current activation card, NONE between cards
    uint8_t acts_left      # number card: activations left on it
    uint8_t card_fresh     # 1 until the card's first use (Air/OBA and stack choice happen then)
    uint8_t drawn          # bit s: side s has had an activation card this turn (joker rule)
    uint8_t air_used       # the US Air/OBA marker was used this turn
    uint8_t interdict      # hex of this turn's air interdiction (it and its neighbours), NONE if none
    uint8_t exits          # German units exited (equals the count of LOC_EXITED)
    uint8_t setup_left     # setup=free, setup phase: non-CC US units still to place (those in reserve); else 0
    uint8_t firer[2]       # pending attack: firing units (NONE if absent; both NONE for a strike)
    uint8_t target         # pending attack: target unit
    uint8_t strike         # pending attack: ST_GROUND, ST_AIR or ST_OBA
    uint8_t winner         # 0 German, 1 US, NONE while playing
    uint8_t setup_free     # parameter setup: 0 historical, 1 free
    uint8_t strike_variant # parameter strike_terrain: 0 errata (no terrain), 1 errata variant
    int8_t viewer          # -1 full state; else the player whose (identical) view this is

cdef packed struct MParams:
    uint8_t setup_free
    uint8_t strike_variant

# ------------------------------------------------------------- hex sets ----
# A set of hexes as 128 bits (NHEX <= 128): hex h is bit h & 63 of word h >> 6.
# Move generation builds the few it needs once per call rather than scanning
# every unit for every candidate hex, and walks them in increasing hex order.
ctypedef struct HexSet:
    uint64_t w[2]

cdef extern from *:
    int __builtin_ctzll(unsigned long long x) noexcept nogil

cdef inline void hs_add(HexSet *m, int h) noexcept nogil:
    m.w[h >> 6] |= (<uint64_t>1) << (h & 63)

cdef inline int hs_has(const HexSet *m, int h) noexcept nogil:
    return (m.w[h >> 6] >> (h & 63)) & 1

cdef inline HexSet hs_minus(const HexSet *a, const HexSet *b) noexcept nogil:
    cdef HexSet r
    r.w[0] = a.w[0] & ~b.w[0]
    r.w[1] = a.w[1] & ~b.w[1]
    return r

cdef inline int emit_hexes(HexSet m, int base, ard_action *out) noexcept nogil:
    """Writes base + h for every hex h of m, increasing; returns the count."""
    cdef int k, n = 0
    cdef uint64_t w
    for k in range(2):
        w = m.w[k]
        while w:
            out[n] = base + 64 * k + __builtin_ctzll(w)
            n += 1
            w &= w - 1
    return n

# ------------------------------------------------------- scenario tables ----
cdef int8_t T_MOD[NHEX]            # terrain combat modifier per hex
cdef uint8_t T_BLOCK[NHEX]         # terrain stops line of sight through the hex
cdef uint8_t T_HILL[NHEX]          # hill: range 3
cdef uint8_t NEIGH[NHEX][6]        # neighbours in increasing hex order, NONE padded
cdef uint8_t DIST[NHEX][NHEX]
cdef uint8_t LOS[NHEX][NHEX]       # 1 if no blocking hex lies between (for distance <= 3)
cdef HexSet RANGE[NHEX]            # hexes a unit in the hex can fire at (in_range)
cdef HexSet NEIGH_SET[NHEX]        # NEIGH as a set
cdef uint8_t U_KIND[NU]            # 0 tank, 1 gun, 2 infantry
cdef uint8_t U_VAL[NU][2][2]       # [unit][reduced][0 AT, 1 AI]
cdef uint8_t U_REINF[NU]
cdef char U_ID[NU][9]
cdef int TIGER                     # unit index of the Tiger
cdef uint8_t MOVER_UNIT[NMOVER]
cdef uint8_t MOVER_TIGER[NMOVER]
cdef int8_t TIGER_MOVER[NU]        # mover index of "u+tiger", -1 if none
cdef uint8_t FSET_A[NFSET]
cdef uint8_t FSET_B[NFSET]         # NONE for a single firer
cdef uint8_t SIDE_MOVERS[2][NMOVER]  # movers of each side, increasing
cdef int SIDE_NMOVERS[2]
cdef uint8_t FSET_OF[NU][NU]       # fire set of [a][a] alone or of [a][b] together (a < b, same side)
cdef uint8_t HIST[NSIDE]           # historical hex per US unit (NONE for reinforcements)
cdef int S_TURNS, S_EXITS, S_GCOL, S_UCOL, S_XCOL, S_FORBID, S_REINF_TURN
cdef HexSet ENTRY[2]               # entry hexes per side: German S_GCOL, US reinforcements S_UCOL
cdef HexSet SETUP_HEXES            # hexes a US unit may be placed on in the free setup (not column S_FORBID)
cdef int SETUP_UNITS               # US units the free setup places (all but the reinforcements)


cdef inline int side_of(int u) noexcept nogil:
    return 0 if u < NSIDE else 1

cdef inline int on_map(int loc) noexcept nogil:
    return loc < NHEX

cdef inline int hex_col(int h) noexcept nogil:
    return h // ROWS + 1

cdef inline int card_rank(int c) noexcept nogil:
    return c // 2 + 1

cdef inline int deck_total(const MState *s) noexcept nogil:
    cdef int i, n = 0
    for i in range(NCLASS):
        n += s.deck[i]
    return n

cdef inline int unit_value(const MState *s, int u, int anti_infantry) noexcept nogil:
    return U_VAL[u][(s.reduced >> u) & 1][anti_infantry]

cdef int enemy_in(const MState *s, int side, int h) noexcept nogil:
    cdef int u, lo = (1 - side) * NSIDE
    for u in range(lo, lo + NSIDE):
        if s.loc[u] == h:
            return 1
    return 0

ctypedef struct Occupancy:
    HexSet own         # hexes holding a unit of the side (the Tiger included)
    HexSet enemy       # hexes holding a unit of the other side
    HexSet full        # hexes holding 2 units of the side that count for stacking (the Tiger does not)
    HexSet closed      # enemy | full: where a unit other than the Tiger may not move

cdef void occupancy(const MState *s, int side, Occupancy *o) noexcept nogil:
    """Who stands where, seen from `side`: one pass over the units, after
    which every stacking test of a move generation is a bit test."""
    cdef int u, h, lo = side * NSIDE, elo = (1 - side) * NSIDE
    cdef HexSet one
    memset(o, 0, sizeof(Occupancy))
    memset(&one, 0, sizeof(HexSet))
    for u in range(lo, lo + NSIDE):
        h = s.loc[u]
        if not on_map(h):
            continue
        hs_add(&o.own, h)
        if u == TIGER:
            continue
        if hs_has(&one, h):
            hs_add(&o.full, h)
        else:
            hs_add(&one, h)
    for u in range(elo, elo + NSIDE):
        h = s.loc[u]
        if on_map(h):
            hs_add(&o.enemy, h)
    o.closed.w[0] = o.enemy.w[0] | o.full.w[0]
    o.closed.w[1] = o.enemy.w[1] | o.full.w[1]

cdef inline int can_enter(const Occupancy *o, int u, int h) noexcept nogil:
    """May unit u (of the side o was built for) end a move in hex h? No
    enemy there, and fewer than 2 stacking friends unless u is the Tiger."""
    if hs_has(&o.enemy, h):
        return 0
    return u == TIGER or not hs_has(&o.full, h)

cdef inline int interdicted(const MState *s, int h) noexcept nogil:
    return s.interdict != NONE and DIST[s.interdict][h] <= 1


include "_moves.pxi"
include "_apply.pxi"
include "_features.pxi"
include "_views.pxi"
include "_validate.pxi"
include "_notation.pxi"
include "_vtable.pxi"
include "_tables.pxi"
include "_pyapi.pxi"
