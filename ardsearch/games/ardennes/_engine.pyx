# cython: language_level=3
"""Clash of the Ardennes: the C engine behind the ardsearch game ABI.

Rules: ardsearch/games/ardennes/RULES.md (from shared/games/ardennes.md).
Everything the search calls is a `noexcept nogil` C function in the static
vtable ARD_GAME, exported by capsule(). The module-level Python functions
(pack_params, to_dict, from_dict, observation_tensor, and the underscored test
and benchmark helpers) are the slow, friendly side used by the package
__init__ and by tests.
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


# ----------------------------------------------------------------- geometry
cdef inline int lead_unit(const ArdState *s, int p, int r) noexcept nogil:
    return s.line[p][r][s.count[p][r] - 1]


cdef inline int full_stock(const ArdState *s, int t) noexcept nogil:
    if s.variant == 1 and t >= U_GENERAL:
        return 0
    return FULL_STOCK[t]


cdef inline bint special_allowed(const ArdState *s, int p) noexcept nogil:
    """No special unit of p on the board (each exists once: in stock or on board)."""
    return (s.variant == 0 and s.stock[p][U_GENERAL] + s.stock[p][U_SPY]
            + s.stock[p][U_CMDTANK] + s.stock[p][U_MORTAR] == 4)


cdef int find_unit(const ArdState *s, int p, int t, int *road, int *depth) noexcept nogil:
    """Road and depth (tiles from p's block to its rear tile) of p's unit of type t."""
    cdef int r, i, d
    for r in range(NROADS):
        d = 0
        for i in range(s.count[p][r]):
            if s.line[p][r][i] == t:
                road[0] = r
                depth[0] = d
                return 1
            d += UNIT_LEN[s.line[p][r][i]]
    return 0


cdef int unit_at_depth(const ArdState *s, int q, int r, int depth) noexcept nogil:
    """Index of q's unit on road r covering the tile `depth` tiles from q's block, or -1."""
    cdef int i, d = 0
    if depth >= s.length[q][r]:
        return -1
    for i in range(s.count[q][r]):
        d += UNIT_LEN[s.line[q][r][i]]
        if depth < d:
            return i
    return -1


cdef inline bint can_clash(const ArdState *s, int p, int r) noexcept nogil:
    cdef int o = 1 - p
    return (s.count[p][r] > 0 and s.count[o][r] > 0
            and s.length[p][r] + s.length[o][r] == s.road_length
            and BEATS[lead_unit(s, p, r)][lead_unit(s, o, r)] >= 0)


cdef int flank_target(const ArdState *s, int p, int kroad, int kdepth, int target) noexcept nogil:
    """Index of the enemy infantry unit p's command tank (road kroad, rear tile at
    kdepth) can flank on road `target`, or -1. The arrows are on the tank's tile
    nearest the enemy."""
    cdef int o = 1 - p, i
    if target < 0 or target >= NROADS or (s.conquered[o] >> target) & 1:
        return -1
    i = unit_at_depth(s, o, target, s.road_length - 1 - (kdepth + 2))
    if i < 0 or not IS_INFANTRY[s.line[o][target][i]]:
        return -1
    return i


cdef inline int mortar_road(int p, int r) noexcept nogil:
    """The road the mortar on road r aims at: two to its owner's left."""
    return r - 2 if p == 0 else r + 2


cdef int mortar_target(const ArdState *s, int p, int mroad, int mdepth) noexcept nogil:
    """Index of the enemy private p's mortar (road mroad, rear tile at mdepth) can shoot, or -1."""
    cdef int o = 1 - p, target = mortar_road(p, mroad), i
    if target < 0 or target >= NROADS or (s.conquered[o] >> target) & 1:
        return -1
    i = unit_at_depth(s, o, target, s.road_length - 1 - (mdepth + 1))
    if i < 0 or s.line[o][target][i] != U_PRIVATE:
        return -1
    return i


cdef bint any_attack(const ArdState *s, int p) noexcept nogil:
    """Whether p has a clash, flank or mortar shot available."""
    cdef int r, road, depth
    for r in range(NROADS):
        if can_clash(s, p, r):
            return 1
    if s.variant == 0:
        if s.stock[p][U_CMDTANK] == 0 and find_unit(s, p, U_CMDTANK, &road, &depth):
            if (flank_target(s, p, road, depth, road - 1) >= 0
                    or flank_target(s, p, road, depth, road + 1) >= 0):
                return 1
        if s.stock[p][U_MORTAR] == 0 and find_unit(s, p, U_MORTAR, &road, &depth):
            if mortar_target(s, p, road, depth) >= 0:
                return 1
    return 0


# ----------------------------------------------------------------- changes
cdef void truncate_line(ArdState *s, int q, int r, int keep) noexcept nogil:
    """Return q's units on road r from index `keep` to the front to q's stock."""
    cdef int i, t
    for i in range(keep, s.count[q][r]):
        t = s.line[q][r][i]
        s.stock[q][t] += 1
        s.length[q][r] -= UNIT_LEN[t]
        s.line[q][r][i] = 0
    s.count[q][r] = keep


cdef void check_conquest_win(ArdState *s, int p) noexcept nogil:
    cdef int c = s.conquered[p], card = s.objective[p]
    if POPCOUNT[c] >= 3 or (1 <= card <= NCARDS and (c & CARD_MASK[card]) == CARD_MASK[card]):
        s.phase = PH_OVER
        s.winner = p


cdef void end_turn(ArdState *s) noexcept nogil:
    cdef int c0, c1
    if s.to_move != s.starter:        # the second turn of the round is over
        if s.round >= s.max_rounds:
            c0 = POPCOUNT[s.conquered[0]]
            c1 = POPCOUNT[s.conquered[1]]
            s.phase = PH_OVER
            s.winner = 0 if c0 > c1 else (1 if c1 > c0 else WIN_DRAW)
            return
        s.round += 1
    s.to_move = 1 - s.to_move
    s.ap = START_AP


cdef void place_unit(ArdState *s, int p, int t, int r) noexcept nogil:
    s.line[p][r][s.count[p][r]] = t
    s.count[p][r] += 1
    s.length[p][r] += UNIT_LEN[t]
    s.stock[p][t] -= 1
    s.ap -= 1
    if s.length[p][r] == s.road_length:
        s.conquered[p] |= 1 << r
        check_conquest_win(s, p)


cdef void rotate_line(ArdState *s, int p, int r) noexcept nogil:
    """The rearmost unit goes to the front; the others shift back."""
    cdef int n = s.count[p][r]
    cdef uint8_t rear = s.line[p][r][0]
    memmove(&s.line[p][r][0], &s.line[p][r][1], n - 1)
    s.line[p][r][n - 1] = rear
    s.ap -= 2


cdef void retreat_lead(ArdState *s, int p, int r) noexcept nogil:
    cdef int o = 1 - p
    if s.count[o][r] > 0 and s.length[p][r] + s.length[o][r] == s.road_length:
        s.ap -= 3                       # blocked: front touches the enemy
    else:
        s.ap -= 2
    truncate_line(s, p, r, s.count[p][r] - 1)


cdef void clash(ArdState *s, int p, int r) noexcept nogil:
    cdef int o = 1 - p
    cdef int a = lead_unit(s, p, r)
    cdef int n = s.count[o][r], removed = 0
    if BEATS[a][lead_unit(s, o, r)] == 0:      # equal: only the two leading units go
        truncate_line(s, o, r, n - 1)
        truncate_line(s, p, r, s.count[p][r] - 1)
        return
    while n > 0 and BEATS[a][s.line[o][r][n - 1]] > 0:
        n -= 1
        removed += 1
        if a == U_SPY and removed == 2:         # the spy takes two units at most
            break
    truncate_line(s, o, r, n)


# ----------------------------------------------------------------- vtable functions
cdef void ard_init(void *state, const void *params, uint64_t seed) noexcept nogil:
    cdef ArdState *s = <ArdState *>state
    cdef const ArdParams *prm = <const ArdParams *>params
    cdef int p, t
    memset(s, 0, sizeof(ArdState))
    s.variant = prm.variant
    s.road_length = prm.road_length
    s.max_rounds = prm.max_rounds
    s.first_rule = prm.first
    s.viewer = -1
    s.round = 1
    s.ap = START_AP
    s.winner = WIN_NONE
    for p in range(2):
        for t in range(NTYPES):
            s.stock[p][t] = full_stock(s, t)
    if prm.first == 0:
        s.phase = PH_COIN
    else:
        s.phase = PH_DRAW1
        s.starter = prm.first - 1
        s.to_move = s.starter


cdef int ard_current_player(const void *state) noexcept nogil:
    cdef const ArdState *s = <const ArdState *>state
    if s.phase == PH_PLAY:
        return s.to_move
    if s.phase == PH_OVER:
        return ARD_TERMINAL
    return ARD_CHANCE


cdef int ard_legal_actions(const void *state, ard_action *out) noexcept nogil:
    cdef const ArdState *s = <const ArdState *>state
    cdef int p = s.to_move, o = 1 - p, n = 0, r, t, ln, ap = s.ap, road, depth, cost
    cdef int free_tiles[7]
    cdef int max_free = 0
    if s.phase != PH_PLAY:
        return 0
    for r in range(NROADS):
        free_tiles[r] = s.road_length - s.length[0][r] - s.length[1][r]
        if free_tiles[r] > max_free:
            max_free = free_tiles[r]
    if ap >= 1 and max_free > 0:
        for t in range(NTYPES):
            if s.stock[p][t] == 0 or (t >= U_GENERAL and not special_allowed(s, p)):
                continue
            ln = UNIT_LEN[t]
            if ln > max_free:
                continue
            for r in range(NROADS):
                if free_tiles[r] >= ln:
                    out[n] = A_PLACE + t * NROADS + r
                    n += 1
    if ap >= 2:
        for r in range(NROADS):
            if s.count[p][r] >= 2:
                out[n] = A_FRONT + r
                n += 1
        for r in range(NROADS):
            if s.count[p][r] > 0 and not (s.conquered[p] >> r) & 1:
                cost = 3 if (s.count[o][r] > 0 and free_tiles[r] == 0) else 2
                if ap >= cost:
                    out[n] = A_RETREAT + r
                    n += 1
    for r in range(NROADS):
        if can_clash(s, p, r):
            out[n] = A_ATTACK + r
            n += 1
    if s.variant == 0:
        if s.stock[p][U_CMDTANK] == 0 and find_unit(s, p, U_CMDTANK, &road, &depth):
            if flank_target(s, p, road, depth, road - 1) >= 0:
                out[n] = A_FLANK + 2 * road
                n += 1
            if flank_target(s, p, road, depth, road + 1) >= 0:
                out[n] = A_FLANK + 2 * road + 1
                n += 1
        if s.stock[p][U_MORTAR] == 0 and find_unit(s, p, U_MORTAR, &road, &depth):
            if mortar_target(s, p, road, depth) >= 0:
                out[n] = A_MORTAR + road
                n += 1
    out[n] = A_PASS
    return n + 1


cdef inline int drawer(const ArdState *s) noexcept nogil:
    """Whose objective card the current draw is."""
    return s.starter if s.phase == PH_DRAW1 else 1 - s.starter


cdef int ard_chance_outcomes(const void *state, ard_action *out_actions, double *out_probs) noexcept nogil:
    cdef const ArdState *s = <const ArdState *>state
    cdef int n = 0, k, other
    if s.phase == PH_COIN:
        out_actions[0] = A_FIRST
        out_actions[1] = A_FIRST + 1
        out_probs[0] = 0.5
        out_probs[1] = 0.5
        return 2
    if s.phase != PH_DRAW1 and s.phase != PH_DRAW2:
        return 0
    # The other player's card, when known here, is out of the deck. In a view
    # where it is unknown, every card is equally likely for this draw.
    other = s.objective[1 - drawer(s)]
    for k in range(1, NCARDS + 1):
        if k != other:
            out_actions[n] = A_OBJ + k - 1
            n += 1
    for k in range(n):
        out_probs[k] = 1.0 / n
    return n


cdef ard_action ard_sample_chance(const void *state, ard_rng *rng) noexcept nogil:
    cdef const ArdState *s = <const ArdState *>state
    cdef int k, other
    if s.phase == PH_COIN:
        return A_FIRST + <int>ard_rng_below(rng, 2)
    other = s.objective[1 - drawer(s)]
    if 1 <= other <= NCARDS:
        k = 1 + <int>ard_rng_below(rng, NCARDS - 1)
        if k >= other:
            k += 1
    else:
        k = 1 + <int>ard_rng_below(rng, NCARDS)
    return A_OBJ + k - 1


cdef void apply_chance(ArdState *s, ard_action action) noexcept nogil:
    cdef int d
    if s.phase == PH_COIN:
        s.starter = action - A_FIRST
        s.to_move = s.starter
        s.phase = PH_DRAW1
        return
    d = drawer(s)
    if action == ARD_HIDDEN_OUTCOME or (s.viewer >= 0 and s.viewer != d):
        s.objective[d] = CARD_UNKNOWN   # a view never holds the opponent's card
    else:
        s.objective[d] = action - A_OBJ + 1
    if s.phase == PH_DRAW1:
        s.phase = PH_DRAW2
    else:
        s.phase = PH_PLAY
        s.to_move = s.starter
        s.ap = START_AP


cdef void ard_apply(void *state, ard_action action) noexcept nogil:
    cdef ArdState *s = <ArdState *>state
    cdef int p = s.to_move, r, road, depth, target, idx
    if s.phase != PH_PLAY:
        if s.phase != PH_OVER:
            apply_chance(s, action)
        return
    if action == A_PASS:
        end_turn(s)
        return
    if action < A_FRONT:
        place_unit(s, p, action // NROADS, action % NROADS)
        if s.phase == PH_OVER:
            return
    elif action < A_RETREAT:
        rotate_line(s, p, action - A_FRONT)
    elif action < A_ATTACK:
        retreat_lead(s, p, action - A_RETREAT)
    elif action < A_FLANK:
        clash(s, p, action - A_ATTACK)
    elif action < A_MORTAR:
        r = (action - A_FLANK) // 2
        target = r - 1 if (action - A_FLANK) % 2 == 0 else r + 1
        if find_unit(s, p, U_CMDTANK, &road, &depth):
            idx = flank_target(s, p, road, depth, target)
            if idx >= 0:
                truncate_line(s, 1 - p, target, idx)
    else:
        if find_unit(s, p, U_MORTAR, &road, &depth):
            idx = mortar_target(s, p, road, depth)
            if idx >= 0:
                truncate_line(s, 1 - p, mortar_road(p, road), idx)
    if s.ap == 0 and not any_attack(s, p):
        end_turn(s)


cdef void ard_returns(const void *state, double *out) noexcept nogil:
    cdef const ArdState *s = <const ArdState *>state
    out[0] = 0.0
    out[1] = 0.0
    if s.phase == PH_OVER and (s.winner == 0 or s.winner == 1):
        out[s.winner] = 1.0
        out[1 - s.winner] = -1.0


cdef double objective_progress(const ArdState *s, int q, const double *prog) noexcept nogil:
    """Progress of q toward its objective card in [0, 1]: the mean squared share
    of the card's two roads q's lines hold (the last tiles of a road matter
    most). An unseen card counts as the average over the cards it can be."""
    cdef int card = s.objective[q], other = s.objective[1 - q], k, r, n = 0
    cdef double total = 0.0, v
    for k in range(1, NCARDS + 1):
        if (1 <= card <= NCARDS and k != card) or k == other:
            continue
        v = 0.0
        for r in range(NROADS):
            if (CARD_MASK[k] >> r) & 1:
                v += prog[r] * prog[r]
        total += v * 0.5
        n += 1
    return total / n if n else 0.0


cdef int clash_loss(const ArdState *s, int q, int r) noexcept nogil:
    """Tiles of q's line on road r that the enemy's clash there would remove
    now (0 if the enemy cannot attack on r)."""
    cdef int o = 1 - q, a, n, removed = 0, tiles = 0, t
    if not can_clash(s, o, r):
        return 0
    a = lead_unit(s, o, r)
    n = s.count[q][r]
    if BEATS[a][s.line[q][r][n - 1]] == 0:
        return UNIT_LEN[s.line[q][r][n - 1]]
    while n > 0 and BEATS[a][s.line[q][r][n - 1]] > 0:
        n -= 1
        t = s.line[q][r][n]
        tiles += UNIT_LEN[t]
        removed += 1
        if a == U_SPY and removed == 2:
            break
    return tiles


cdef double side_score(const ArdState *s, int q) noexcept nogil:
    """Unbounded position score of player q (not relative).

    A player has about 55 tiles of units for 7 roads of L tiles, so they can
    fill three roads at most: what counts is the lines on the roads they can
    win with (their objective roads and their three longest), held against
    the enemy's next clash. Units spread elsewhere are worth less than units
    kept in stock, which can still go where they are needed."""
    cdef int r, i, held, card = s.objective[q], t, nfocus
    cdef uint8_t focus = 0
    cdef double v[7]
    cdef double score = 0.0, best, stock_tiles = 0.0
    cdef int order[3]
    for r in range(NROADS):
        # a run of units the enemy's leading unit beats is as good as gone,
        # and a little worse (the enemy gains the road's tiles)
        held = s.length[q][r] - clash_loss(s, q, r)
        v[r] = (held - 0.3 * (s.length[q][r] - held)) / s.road_length
        if v[r] < 0:
            v[r] = 0
    # The longest lines, as many as the player's units can fill (three with
    # the special units on 16 tiles); without them (basic variant) the player
    # cannot hold three roads at once and plays for the objective card.
    nfocus = (55 if s.variant == 0 else 44) // s.road_length
    if nfocus > 3:
        nfocus = 3
    if nfocus < 3 and 1 <= card <= NCARDS:
        nfocus = 0
    for i in range(nfocus):
        order[i] = -1
        best = -1.0
        for r in range(NROADS):
            if not (focus >> r) & 1 and v[r] > best:
                best = v[r]
                order[i] = r
        focus |= 1 << order[i]
    if 1 <= card <= NCARDS:
        focus |= CARD_MASK[card]
        score += 0.45 * objective_progress(s, q, v)
    elif card == CARD_UNKNOWN:
        score += 0.2 * objective_progress(s, q, v)
    for r in range(NROADS):
        if (focus >> r) & 1:
            score += 0.25 * v[r] + 0.6 * v[r] * v[r]
        else:
            score += 0.03 * v[r]
    for t in range(NTYPES):
        stock_tiles += s.stock[q][t] * UNIT_LEN[t]
    score += 0.1 * stock_tiles / s.road_length
    score += 0.5 * POPCOUNT[s.conquered[q]]
    return score


cdef double ard_evaluate_classic(const void *state, int player) noexcept nogil:
    """The hand-set evaluation (now the feature "classic", _features.pxi)."""
    cdef const ArdState *s = <const ArdState *>state
    cdef double d, e
    if s.phase == PH_OVER:
        if s.winner == WIN_DRAW:
            return 0.0
        return 1.0 if s.winner == player else -1.0
    if s.phase != PH_PLAY:
        return 0.0
    d = side_score(s, player) - side_score(s, 1 - player)
    # squash to (-0.95, 0.95): never as good as a real win
    e = d / (1.0 + (d if d > 0 else -d))
    return 0.95 * e


include "_features.pxi"


cdef uint64_t ard_hash(const void *state) noexcept nogil:
    return ard_hash_bytes(state, sizeof(ArdState))


cdef void ard_observe(const void *state, int player, void *out_view) noexcept nogil:
    cdef ArdState *v = <ArdState *>out_view
    if out_view != state:
        memcpy(out_view, state, sizeof(ArdState))
    if v.objective[1 - player] != 0:
        v.objective[1 - player] = CARD_UNKNOWN
    v.viewer = player


cdef void ard_determinize(void *view, int player, ard_rng *rng) noexcept nogil:
    """Fill each unseen objective with a card uniformly drawn among those it can
    be: not the other player's card, and not a card whose two roads its owner
    already holds (the game would have ended)."""
    cdef ArdState *s = <ArdState *>view
    cdef int q, k, n
    cdef int cands[8]
    for q in range(2):
        if s.objective[q] != CARD_UNKNOWN:
            continue
        n = 0
        for k in range(1, NCARDS + 1):
            if k == s.objective[1 - q]:
                continue
            if s.phase >= PH_PLAY and (s.conquered[q] & CARD_MASK[k]) == CARD_MASK[k]:
                continue
            cands[n] = k
            n += 1
        s.objective[q] = cands[ard_rng_below(rng, n)]
    s.viewer = -1


cdef int ard_viewer(const void *state) noexcept nogil:
    return (<const ArdState *>state).viewer


cdef int ard_action_visible(const void *state, ard_action action, int player) noexcept nogil:
    cdef const ArdState *s = <const ArdState *>state
    if (s.phase == PH_DRAW1 or s.phase == PH_DRAW2) and (
            action == ARD_HIDDEN_OUTCOME or action >= A_OBJ):
        return 1 if player == drawer(s) else 0
    return 1


# ----------------------------------------------------------------- notation
cdef int put_int(char *buf, int pos, int v) noexcept nogil:
    if v >= 10:
        buf[pos] = c'0' + v // 10
        pos += 1
    buf[pos] = c'0' + v % 10
    return pos + 1


cdef int put_text(char *buf, int pos, const char *text) noexcept nogil:
    cdef int i = 0
    while text[i]:
        buf[pos] = text[i]
        pos += 1
        i += 1
    return pos


cdef int ard_action_to_string(const void *state, ard_action a, char *buf, int buflen) noexcept nogil:
    cdef char tmp[32]
    cdef int n = 0, r
    if a == ARD_HIDDEN_OUTCOME:
        n = put_text(tmp, 0, b"?")
    elif a < 0 or a >= NUM_ACTIONS:
        return -1
    elif a < A_FRONT:
        tmp[0] = LETTERS[a // NROADS]
        n = put_int(tmp, 1, a % NROADS + 1)
    elif a < A_RETREAT:
        tmp[0] = c'f'
        n = put_int(tmp, 1, a - A_FRONT + 1)
    elif a < A_ATTACK:
        tmp[0] = c'x'
        n = put_int(tmp, 1, a - A_RETREAT + 1)
    elif a < A_FLANK:
        tmp[0] = c'a'
        n = put_int(tmp, 1, a - A_ATTACK + 1)
    elif a < A_MORTAR:
        r = (a - A_FLANK) // 2 + 1
        tmp[0] = c'k'
        n = put_int(tmp, 1, r)
        tmp[n] = c':'
        n = put_int(tmp, n + 1, r - 1 if (a - A_FLANK) % 2 == 0 else r + 1)
    elif a < A_PASS:
        tmp[0] = c'm'
        n = put_int(tmp, 1, a - A_MORTAR + 1)
    elif a == A_PASS:
        n = put_text(tmp, 0, b"pass")
    elif a == A_FIRST:
        n = put_text(tmp, 0, b"first:A")
    elif a == A_FIRST + 1:
        n = put_text(tmp, 0, b"first:G")
    else:
        n = put_text(tmp, 0, b"obj:")
        n = put_int(tmp, n, a - A_OBJ + 1)
    if n >= buflen:
        return -1
    memcpy(buf, tmp, n)
    buf[n] = 0
    return n


cdef bint text_is(const char *t, int n, const char *word) noexcept nogil:
    cdef int i = 0
    while i < n and word[i] and t[i] == word[i]:
        i += 1
    return i == n and word[i] == 0


cdef ard_action ard_string_to_action(const void *state, const char *text) noexcept nogil:
    cdef int start = 0, n = 0, t, r, s2
    cdef const char *p
    # trim surrounding blanks
    while text[start] == c' ' or text[start] == c'\t':
        start += 1
    p = text + start
    while p[n]:
        n += 1
    while n > 0 and (p[n - 1] == c' ' or p[n - 1] == c'\t' or p[n - 1] == c'\n' or p[n - 1] == c'\r'):
        n -= 1
    if n == 0:
        return -1
    if text_is(p, n, b"pass"):
        return A_PASS
    if text_is(p, n, b"?"):
        return ARD_HIDDEN_OUTCOME
    if text_is(p, n, b"first:A"):
        return A_FIRST
    if text_is(p, n, b"first:G"):
        return A_FIRST + 1
    if n == 5 and text_is(p, 4, b"obj:") and c'1' <= p[4] <= c'8':
        return A_OBJ + (p[4] - c'1')
    if n == 2 and c'1' <= p[1] <= c'7':
        r = p[1] - c'1'
        for t in range(NTYPES):
            if p[0] == LETTERS[t]:
                return A_PLACE + t * NROADS + r
        if p[0] == c'f':
            return A_FRONT + r
        if p[0] == c'x':
            return A_RETREAT + r
        if p[0] == c'a':
            return A_ATTACK + r
        if p[0] == c'm':
            return A_MORTAR + r
        return -1
    if n == 4 and p[0] == c'k' and c'1' <= p[1] <= c'7' and p[2] == c':' and c'0' <= p[3] <= c'8':
        r = p[1] - c'0'
        s2 = p[3] - c'0'
        if s2 == r - 1:
            return A_FLANK + 2 * (r - 1)
        if s2 == r + 1:
            return A_FLANK + 2 * (r - 1) + 1
    return -1


# ----------------------------------------------------------------- validation
cdef inline int fail(char *msg, int msglen, const char *text) noexcept nogil:
    return ard_fail(msg, msglen, text)  # game.h


cdef int ard_validate(const void *state, char *msg, int msglen) noexcept nogil:
    cdef const ArdState *s = <const ArdState *>state
    cdef int p, r, i, t, ln, specials, decided, on_board
    cdef int board[2][9]
    if s.variant > 1:
        return fail(msg, msglen, b"variant is not 0 (standard) or 1 (basic)")
    if s.road_length < MIN_L or s.road_length > MAX_L:
        return fail(msg, msglen, b"road_length is outside 8..24")
    if s.max_rounds < 1 or s.max_rounds > 1000:
        return fail(msg, msglen, b"max_rounds is outside 1..1000")
    if s.first_rule > 2:
        return fail(msg, msglen, b"first rule is not random, allies or germans")
    if s.viewer < -1 or s.viewer > 1:
        return fail(msg, msglen, b"viewer is not -1, 0 or 1")
    if s.phase > PH_OVER:
        return fail(msg, msglen, b"phase is out of range")
    if s.reserved != 0:
        return fail(msg, msglen, b"reserved byte is not zero")
    if s.starter > 1 or s.to_move > 1:
        return fail(msg, msglen, b"starter or player to move is not 0 or 1")
    if s.ap > START_AP:
        return fail(msg, msglen, b"action points exceed 4")
    if s.round < 1 or s.round > s.max_rounds:
        return fail(msg, msglen, b"round is outside 1..max_rounds")
    if s.winner < -1 or s.winner > 2 or (s.winner == WIN_NONE) != (s.phase != PH_OVER):
        return fail(msg, msglen, b"winner does not match the phase")
    if s.first_rule != 0 and s.phase != PH_COIN and s.starter != s.first_rule - 1:
        return fail(msg, msglen, b"starting player contradicts the first parameter")
    if s.phase == PH_COIN and (s.first_rule != 0 or s.starter != 0 or s.to_move != 0):
        return fail(msg, msglen, b"coin flip pending but the start is already decided")
    # objectives
    for p in range(2):
        if s.objective[p] > CARD_UNKNOWN:
            return fail(msg, msglen, b"objective card is outside 0..9")
        if s.objective[p] == CARD_UNKNOWN and (s.viewer < 0 or s.viewer == p):
            return fail(msg, msglen, b"unknown objective outside an opponent's view")
        if s.viewer >= 0 and s.viewer != p and 1 <= s.objective[p] <= NCARDS:
            return fail(msg, msglen, b"a view holds the opponent's objective card")
    if 1 <= s.objective[0] <= NCARDS and s.objective[0] == s.objective[1]:
        return fail(msg, msglen, b"both players hold the same objective card")
    for p in range(2):
        # drawn: starter's card from DRAW2 on, the other's from PLAY on
        if p == s.starter:
            decided = s.phase >= PH_DRAW2
        else:
            decided = s.phase >= PH_PLAY
        if s.phase == PH_COIN:
            decided = 0
        if decided != (s.objective[p] != 0):
            return fail(msg, msglen, b"objective cards drawn do not match the setup phase")
    if s.phase < PH_PLAY and (s.round != 1 or s.ap != START_AP or s.to_move != s.starter):
        return fail(msg, msglen, b"setup state with round, AP or player to move changed")
    # lines
    memset(board, 0, sizeof(board))
    for p in range(2):
        specials = 0
        if s.conquered[p] & 0x80:
            return fail(msg, msglen, b"conquered road mask has bit 8 set")
        for r in range(NROADS):
            if s.count[p][r] > MAXUNITS:
                return fail(msg, msglen, b"line holds more than 16 units")
            ln = 0
            for i in range(MAXUNITS):
                t = s.line[p][r][i]
                if i >= s.count[p][r]:
                    if t != 0:
                        return fail(msg, msglen, b"unused line slot is not zero")
                    continue
                if t >= NTYPES:
                    return fail(msg, msglen, b"unit code is not 0..8")
                ln += UNIT_LEN[t]
                board[p][t] += 1
                if t >= U_GENERAL:
                    specials += 1
            if ln != s.length[p][r]:
                return fail(msg, msglen, b"cached line length does not match its units")
            if ((s.conquered[p] >> r) & 1) != (ln == s.road_length):
                return fail(msg, msglen, b"conquered marker does not match a full line")
        if specials > 1:
            return fail(msg, msglen, b"more than one special unit of a player on the board")
        for t in range(NTYPES):
            if board[p][t] + s.stock[p][t] != full_stock(s, t):
                return fail(msg, msglen, b"units on board plus stock differ from the player's set")
    for r in range(NROADS):
        if s.length[0][r] + s.length[1][r] > s.road_length:
            return fail(msg, msglen, b"lines overlap or stick out past the end of a road")
    if s.phase < PH_PLAY:
        for p in range(2):
            for r in range(NROADS):
                if s.count[p][r]:
                    return fail(msg, msglen, b"units on the board during setup")
    if s.phase == PH_PLAY:
        for p in range(2):
            t = s.objective[p]
            if POPCOUNT[s.conquered[p]] >= 3 or (
                    1 <= t <= NCARDS and (s.conquered[p] & CARD_MASK[t]) == CARD_MASK[t]):
                return fail(msg, msglen, b"a player has already won but the game goes on")
        if s.ap == 0 and not any_attack(s, s.to_move):
            return fail(msg, msglen, b"no AP and no attack left but the turn has not ended")
    if msg != NULL and msglen > 0:
        msg[0] = 0
    return 0


# ----------------------------------------------------------------- the vtable
cdef ard_game ARD_GAME
ARD_GAME.name = "ardennes"
ARD_GAME.abi_version = ARD_ABI_VERSION
ARD_GAME.flags = ARD_FLAG_CHANCE | ARD_FLAG_HIDDEN
ARD_GAME.state_size = sizeof(ArdState)
ARD_GAME.params_size = sizeof(ArdParams)
ARD_GAME.num_actions = NUM_ACTIONS
ARD_GAME.max_legal = MAX_LEGAL
ARD_GAME.max_game_length = MAX_GAME_LENGTH
ARD_GAME.init = ard_init
ARD_GAME.validate = ard_validate
ARD_GAME.current_player = ard_current_player
ARD_GAME.legal_actions = ard_legal_actions
ARD_GAME.apply = ard_apply
ARD_GAME.chance_outcomes = ard_chance_outcomes
ARD_GAME.sample_chance = ard_sample_chance
ARD_GAME.returns = ard_returns
ARD_GAME.evaluate = ard_evaluate
ARD_GAME.hash = ard_hash
ARD_GAME.observe = ard_observe
ARD_GAME.determinize = ard_determinize
ARD_GAME.viewer = ard_viewer
ARD_GAME.action_visible = ard_action_visible
ARD_GAME.action_to_string = ard_action_to_string
ARD_GAME.string_to_action = ard_string_to_action
ARD_GAME.num_features = NFEAT
ARD_GAME.feature_names = ARD_FEATURE_NAMES
ARD_GAME.features = ard_features
ARD_GAME.weights = ARD_WEIGHTS

STATE_SIZE = sizeof(ArdState)
PARAMS_SIZE = sizeof(ArdParams)


cdef const char *CAPSULE_NAME = b"ardsearch.game"


def capsule():
    """The vtable as a PyCapsule named "ardsearch.game"."""
    return PyCapsule_New(&ARD_GAME, CAPSULE_NAME, NULL)


# ================================================================= Python side
# Slow, friendly helpers for the package __init__ (GameSpec) and for tests.

cdef int load_state(object raw, ArdState *s) except -1:
    cdef bytes b
    if not isinstance(raw, (bytes, bytearray, memoryview)):
        raise ValueError(f"an ardennes state is {sizeof(ArdState)} raw bytes, got {type(raw).__name__}")
    b = bytes(raw)
    if len(b) != sizeof(ArdState):
        raise ValueError(f"an ardennes state is {sizeof(ArdState)} bytes, got {len(b)}")
    memcpy(s, <const char *>b, sizeof(ArdState))
    return 0


cdef bytes state_bytes(const ArdState *s):
    return PyBytes_FromStringAndSize(<const char *>s, sizeof(ArdState))


VARIANTS = ("standard", "basic")
FIRST_RULES = ("random", "allies", "germans")


def pack_params(values):
    """Validated parameter values by name -> the ArdParams struct bytes."""
    cdef ArdParams prm
    memset(&prm, 0, sizeof(ArdParams))
    variant = values.get("variant", "standard")
    if variant not in VARIANTS:
        raise ValueError(f"parameter variant={variant!r}: expected standard or basic")
    road_length = values.get("road_length", 16)
    if isinstance(road_length, bool) or not isinstance(road_length, int) or not MIN_L <= road_length <= MAX_L:
        raise ValueError(f"parameter road_length={road_length!r}: expected an integer from 8 to 24")
    max_rounds = values.get("max_rounds", 80)
    if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or not 1 <= max_rounds <= 1000:
        raise ValueError(f"parameter max_rounds={max_rounds!r}: expected an integer from 1 to 1000")
    first = values.get("first", "random")
    if first not in FIRST_RULES:
        raise ValueError(f"parameter first={first!r}: expected random, allies or germans")
    if values.get("victory_cards", False):
        raise ValueError("parameter victory_cards=true is not supported: the rulebook does not print "
                         "the Victory card effects, so the engine draws none; use victory_cards=false")
    prm.variant = VARIANTS.index(variant)
    prm.road_length = road_length
    prm.max_rounds = max_rounds
    prm.first = FIRST_RULES.index(first)
    return PyBytes_FromStringAndSize(<const char *>&prm, sizeof(ArdParams))


def to_dict(raw):
    """The structured state (schema in RULES.md) of raw state bytes."""
    cdef ArdState s
    load_state(raw, &s)
    if s.phase == PH_OVER:
        to_move = "terminal"
    elif s.phase == PH_PLAY:
        to_move = SIDES[s.to_move]
    else:
        to_move = "chance"
    roads = []
    for r in range(NROADS):
        conq = None
        for p in range(2):
            if (s.conquered[p] >> r) & 1:
                conq = SIDES[p]
        roads.append({"road": r + 1,
                      "allies": [LETTER_STR[s.line[0][r][i]] for i in range(s.count[0][r])],
                      "germans": [LETTER_STR[s.line[1][r][i]] for i in range(s.count[1][r])],
                      "conquered": conq})
    objectives = {SIDES[p]: (s.objective[p] if 1 <= s.objective[p] <= NCARDS else None) for p in range(2)}
    winner = None
    if s.phase == PH_OVER:
        winner = "draw" if s.winner == WIN_DRAW else SIDES[s.winner]
    return {
        "game": "ardennes", "variant": VARIANTS[s.variant % 2], "road_length": s.road_length,
        "max_rounds": s.max_rounds, "round": s.round, "to_move": to_move, "ap": s.ap,
        "roads": roads,
        "stock": {SIDES[p]: {LETTER_STR[t]: s.stock[p][t] for t in range(NTYPES)} for p in range(2)},
        "objectives": objectives,
        "winner": winner,
    }


DICT_KEYS = ("game", "variant", "road_length", "max_rounds", "round", "to_move", "ap",
             "roads", "stock", "objectives", "winner", "first")
UNIT_NAMES = ("mine", "tank", "private", "corporal", "sergeant", "general", "spy",
              "command tank", "mortar")


def _dict_int(d, key, lo, hi, default):
    v = d.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError(f"{key}={v!r}: expected an integer from {lo} to {hi}")
    if not lo <= v <= hi:
        raise ValueError(f"{key}={v}: expected an integer from {lo} to {hi}")
    return v


def _dict_choice(d, key, choices, default):
    v = d.get(key, default)
    if v not in choices:
        raise ValueError(f"{key}={v!r}: expected one of {', '.join(map(str, choices))}")
    return v


def from_dict(d, params=None):
    """Structured state (a decision point) -> raw state bytes; ValueError naming the problem.

    Besides the schema keys, an optional "first": "allies"|"germans" says who
    started the game (it decides when a round ends). Without it the game's
    `params` decide when given (first=allies|germans), else the Allies.
    Missing variant, road_length and max_rounds also come from `params`.
    "stock" may be left out (it is then what is not on the board). Give both
    objective cards for a full state; with one of them null the result is the
    view of the player whose card is given.
    """
    cdef ArdState s
    cdef char msg[160]
    if not isinstance(d, dict):
        raise ValueError(f"an ardennes structured state is a dict, got {type(d).__name__}")
    unknown = [k for k in d if k not in DICT_KEYS]
    if unknown:
        raise ValueError(f"unknown key(s) {', '.join(map(repr, unknown))}: expected {', '.join(DICT_KEYS)}")
    if d.get("game", "ardennes") != "ardennes":
        raise ValueError(f"game={d.get('game')!r}: this is the ardennes engine")
    for key in ("to_move", "roads", "objectives"):
        if key not in d:
            raise ValueError(f"missing key {key!r}")
    params = params or {}
    variant = _dict_choice(d, "variant", VARIANTS, params.get("variant", "standard"))
    L = _dict_int(d, "road_length", MIN_L, MAX_L, params.get("road_length", 16))
    max_rounds = _dict_int(d, "max_rounds", 1, 1000, params.get("max_rounds", 80))
    rnd = _dict_int(d, "round", 1, max_rounds, 1)
    ap = _dict_int(d, "ap", 0, START_AP, START_AP)
    to_move = d["to_move"]
    if to_move in ("chance", "terminal"):
        raise ValueError(f"to_move={to_move!r}: a structured state sets up a decision point; "
                         "use allies or germans (start from new_initial_state for the setup draws)")
    to_move = _dict_choice(d, "to_move", SIDES, None)
    if d.get("winner") is not None:
        raise ValueError(f"winner={d['winner']!r}: a structured state sets up a game in play; winner must be null")
    first_rule = params.get("first", "random")
    first = _dict_choice(d, "first", SIDES, first_rule if first_rule in SIDES else "allies")
    if first_rule in SIDES and first != first_rule:
        raise ValueError(f"first={first!r} but this game is set up with first={first_rule}")

    memset(&s, 0, sizeof(ArdState))
    s.variant = VARIANTS.index(variant)
    s.road_length = L
    s.max_rounds = max_rounds
    s.first_rule = FIRST_RULES.index(first_rule) if first_rule in FIRST_RULES else 0
    s.viewer = -1
    s.phase = PH_PLAY
    s.starter = SIDES.index(first)
    s.to_move = SIDES.index(to_move)
    s.ap = ap
    s.round = rnd
    s.winner = WIN_NONE

    # roads
    roads = d["roads"]
    if not isinstance(roads, list) or len(roads) != NROADS:
        raise ValueError("roads: expected a list of 7 road entries")
    seen = set()
    for entry in roads:
        if not isinstance(entry, dict):
            raise ValueError(f"roads: each entry is a dict, got {type(entry).__name__}")
        bad = [k for k in entry if k not in ("road", "allies", "germans", "conquered")]
        if bad:
            raise ValueError(f"roads: unknown key(s) {', '.join(map(repr, bad))}: expected road, allies, germans, conquered")
        rn = entry.get("road")
        if isinstance(rn, bool) or not isinstance(rn, int) or not 1 <= rn <= NROADS:
            raise ValueError(f"roads: road={rn!r}: expected an integer from 1 to 7")
        if rn in seen:
            raise ValueError(f"roads: road {rn} is listed twice")
        seen.add(rn)
        r = rn - 1
        for p, side in enumerate(SIDES):
            units = entry.get(side, [])
            if not isinstance(units, (list, tuple)):
                raise ValueError(f"road {rn}: {side} must be a list of unit letters, got {type(units).__name__}")
            if len(units) > MAXUNITS - 1:
                raise ValueError(f"road {rn}: {side} line has {len(units)} units; it can hold at most 15")
            for i, u in enumerate(units):
                if not isinstance(u, str) or len(u) != 1 or u not in LETTER_STR:
                    raise ValueError(f"road {rn}: {side} unit {u!r} is not one of the letters {LETTER_STR}")
                t = LETTER_STR.index(u)
                if variant == "basic" and t >= U_GENERAL:
                    raise ValueError(f"road {rn}: {side} unit {u} ({UNIT_NAMES[t]}) does not exist in the basic variant")
                s.line[p][r][i] = t
                s.length[p][r] += UNIT_LEN[t]
            s.count[p][r] = len(units)
        used = s.length[0][r] + s.length[1][r]
        if used > L:
            raise ValueError(f"road {rn}: the lines cover {s.length[0][r]} + {s.length[1][r]} = {used} tiles "
                             f"but the road has {L}: lines would overlap or stick out past its end")
        full_by = None
        for p in range(2):
            if s.length[p][r] == L:
                s.conquered[p] |= 1 << r
                full_by = SIDES[p]
        conq = entry.get("conquered")
        if conq not in (None, "allies", "germans"):
            raise ValueError(f"road {rn}: conquered={conq!r}: expected null, allies or germans")
        if conq != full_by:
            if full_by is None:
                raise ValueError(f"road {rn}: conquered={conq!r} but the {conq} line does not fill the road")
            raise ValueError(f"road {rn}: the {full_by} line fills the road, so conquered must be {full_by!r}, not {conq!r}")

    # units on board against each player's set, specials, stock
    stock = d.get("stock")
    if stock is not None and (not isinstance(stock, dict) or set(stock) - set(SIDES)):
        raise ValueError("stock: expected {\"allies\": {letter: count}, \"germans\": {...}}")
    for p, side in enumerate(SIDES):
        on_board = [0] * NTYPES
        specials = []
        for r in range(NROADS):
            for i in range(s.count[p][r]):
                t = s.line[p][r][i]
                on_board[t] += 1
                if t >= U_GENERAL:
                    specials.append(f"{LETTER_STR[t]} on road {r + 1}")
        if len(specials) > 1:
            raise ValueError(f"{side} have {len(specials)} special units on the board ({', '.join(specials)}); "
                             "at most one is allowed")
        given = {} if stock is None else stock.get(side, {})
        if not isinstance(given, dict):
            raise ValueError(f"stock {side}: expected a dict of unit letter -> count")
        bad = [k for k in given if k not in LETTER_STR or len(k) != 1]
        if bad:
            raise ValueError(f"stock {side}: unknown unit letter(s) {', '.join(map(repr, bad))}: expected {LETTER_STR}")
        for t in range(NTYPES):
            full = full_stock(&s, t)
            if on_board[t] > full:
                raise ValueError(f"{side} have {on_board[t]} {UNIT_NAMES[t]} unit(s) ({LETTER_STR[t]}) on the board "
                                 f"but own only {full}")
            n = given.get(LETTER_STR[t], full - on_board[t])
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise ValueError(f"stock {side} {LETTER_STR[t]}={n!r}: expected a count >= 0")
            if n + on_board[t] != full:
                raise ValueError(f"stock {side} {LETTER_STR[t]}={n}: with {on_board[t]} on the board that makes "
                                 f"{n + on_board[t]} {UNIT_NAMES[t]} unit(s), but a player has exactly {full}")
            s.stock[p][t] = n

    # objectives
    obj = d["objectives"]
    if not isinstance(obj, dict) or set(obj) - set(SIDES):
        raise ValueError("objectives: expected {\"allies\": card 1..8 or null, \"germans\": card 1..8 or null}")
    cards = []
    for side in SIDES:
        k = obj.get(side)
        if k is not None and (isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= NCARDS):
            raise ValueError(f"objectives {side}={k!r}: expected a card number 1..8 or null")
        cards.append(k)
    if cards[0] is None and cards[1] is None:
        raise ValueError("objectives: both are null; at a decision point both players hold a card: "
                         "give card numbers 1..8 (one null makes the view of the other player)")
    if cards[0] is not None and cards[0] == cards[1]:
        raise ValueError(f"objectives: both players hold card {cards[0]}; the two cards drawn are different")
    for p in range(2):
        if cards[p] is None:
            s.objective[p] = CARD_UNKNOWN
            s.viewer = 1 - p
        else:
            s.objective[p] = cards[p]
    for p, side in enumerate(SIDES):
        if POPCOUNT[s.conquered[p]] >= 3:
            raise ValueError(f"{side} have conquered {POPCOUNT[s.conquered[p]]} roads: the game would be over")
        k = s.objective[p]
        if 1 <= k <= NCARDS and (s.conquered[p] & CARD_MASK[k]) == CARD_MASK[k]:
            raise ValueError(f"{side} have conquered both roads of their objective card {k}: the game would be over")
    if ard_validate(&s, msg, sizeof(msg)):
        raise ValueError(msg.decode("ascii", "replace"))
    return state_bytes(&s)


# Observation tensor: planes x 7 roads x 24 tiles, from the observer's side:
# tile 0 is the observer's own starting block and, for the Germans, roads are
# mirrored (their left is the Allied right), so both sides see the same picture.
OBS_PLANES = 47
OBSERVATION_SHAPE = (OBS_PLANES, NROADS, MAX_L)


def observation_tensor(raw, int player):
    """numpy float32 (47, 7, 24) of what `player` sees (never the opponent's card).

    planes 0-8 own units by type, 9-17 enemy units by type, 18 own unit rear
    tiles, 19 enemy unit rear tiles (from the enemy's block), 20 tile exists,
    21/22 road conquered by me/enemy, 23 road on my objective card, 24 my turn,
    25 AP/4, 26 round/max_rounds, 27 I am the Allies, 28 game in play,
    29-37 my stock / full set, 38-46 enemy stock / full set.
    """
    cdef ArdState s
    cdef int q, o, r, rr, i, t, d, k, L, rel
    if player not in (0, 1):
        raise ValueError(f"player={player}: expected 0 or 1")
    load_state(raw, &s)
    obs = np.zeros(OBSERVATION_SHAPE, dtype=np.float32)
    cdef float[:, :, :] x = obs
    L = s.road_length
    o = 1 - player
    for r in range(NROADS):
        rr = r if player == 0 else NROADS - 1 - r
        for rel in range(2):
            q = player if rel == 0 else o
            d = 0
            for i in range(s.count[q][r]):
                t = s.line[q][r][i]
                # own units counted from my block; enemy units from theirs,
                # converted to my tile index (L-1-depth)
                for k in range(UNIT_LEN[t]):
                    x[rel * NTYPES + t, rr, d + k if rel == 0 else L - 1 - d - k] = 1.0
                x[18 + rel, rr, d if rel == 0 else L - 1 - d] = 1.0
                d += UNIT_LEN[t]
        for i in range(L):
            x[20, rr, i] = 1.0
            if (s.conquered[player] >> r) & 1:
                x[21, rr, i] = 1.0
            if (s.conquered[o] >> r) & 1:
                x[22, rr, i] = 1.0
            if 1 <= s.objective[player] <= NCARDS and (CARD_MASK[s.objective[player]] >> r) & 1:
                x[23, rr, i] = 1.0
    obs[24] = 1.0 if (s.phase == PH_PLAY and s.to_move == player) else 0.0
    obs[25] = s.ap / 4.0
    obs[26] = s.round / <float>s.max_rounds
    obs[27] = 1.0 if player == 0 else 0.0
    obs[28] = 1.0 if s.phase == PH_PLAY else 0.0
    for t in range(NTYPES):
        if full_stock(&s, t):
            obs[29 + t] = s.stock[player][t] / <float>full_stock(&s, t)
            obs[38 + t] = s.stock[o][t] / <float>full_stock(&s, t)
    return obs


# ----------------------------------------------------------------- test helpers
# Thin wrappers over the vtable functions on raw bytes, for unit tests that do
# not go through ardsearch._core.

def _new(params=None):
    cdef ArdState s
    cdef bytes prm = pack_params(params or {})
    ard_init(&s, <const char *>prm, 0)
    return state_bytes(&s)


def _validate(raw):
    """None if the bytes are a valid state, else the reason."""
    cdef ArdState s
    cdef char msg[160]
    b = bytes(raw)
    if len(b) != sizeof(ArdState):
        return f"wrong size {len(b)}"
    memcpy(&s, <const char *>b, sizeof(ArdState))
    if ard_validate(&s, msg, sizeof(msg)):
        return msg.decode("ascii", "replace")
    return None


def _current(raw):
    cdef ArdState s
    load_state(raw, &s)
    return ard_current_player(&s)


def _legal(raw):
    cdef ArdState s
    cdef ard_action out[MAX_LEGAL]
    load_state(raw, &s)
    return [out[i] for i in range(ard_legal_actions(&s, out))]


def _chance(raw):
    cdef ArdState s
    cdef ard_action acts[MAX_LEGAL]
    cdef double probs[MAX_LEGAL]
    load_state(raw, &s)
    n = ard_chance_outcomes(&s, acts, probs)
    return [(acts[i], probs[i]) for i in range(n)]


def _apply(raw, int action):
    cdef ArdState s
    load_state(raw, &s)
    ard_apply(&s, action)
    return state_bytes(&s)


def _returns(raw):
    cdef ArdState s
    cdef double out[2]
    load_state(raw, &s)
    ard_returns(&s, out)
    return [out[0], out[1]]


def _evaluate_classic(raw, int player):
    """The hand-set evaluation the feature "classic" is made of."""
    cdef ArdState s
    load_state(raw, &s)
    return ard_evaluate_classic(&s, player)


def _evaluate(raw, int player):
    cdef ArdState s
    load_state(raw, &s)
    return ard_evaluate(&s, player)


def _hash(raw):
    cdef ArdState s
    load_state(raw, &s)
    return ard_hash(&s)


def _observe(raw, int player):
    cdef ArdState s
    load_state(raw, &s)
    ard_observe(&s, player, &s)
    return state_bytes(&s)


def _determinize(raw, int player, uint64_t seed):
    cdef ArdState s
    cdef ard_rng rng
    load_state(raw, &s)
    ard_rng_seed(&rng, seed)
    ard_determinize(&s, player, &rng)
    return state_bytes(&s)


def _visible(raw, int action, int player):
    cdef ArdState s
    load_state(raw, &s)
    return ard_action_visible(&s, action, player)


def _sample(raw, uint64_t seed):
    cdef ArdState s
    cdef ard_rng rng
    load_state(raw, &s)
    ard_rng_seed(&rng, seed)
    return ard_sample_chance(&s, &rng)


def _to_string(int action):
    cdef char buf[32]
    n = ard_action_to_string(NULL, action, buf, sizeof(buf))
    return None if n < 0 else buf[:n].decode("ascii")


def _from_string(text):
    cdef bytes b = text.encode("utf-8")
    return ard_string_to_action(NULL, b)


# ----------------------------------------------------------------- benchmarks
cdef long playout(const ard_game *g, void *st, ard_rng *rng, ard_action *buf) noexcept nogil:
    """One uniformly random game through the vtable; returns the actions played."""
    cdef long steps = 0
    cdef int p, n
    while True:
        p = g.current_player(st)
        if p == ARD_TERMINAL:
            return steps
        if p == ARD_CHANCE:
            g.apply(st, g.sample_chance(st, rng))
        else:
            n = g.legal_actions(st, buf)
            g.apply(st, buf[ard_rng_below(rng, n)])
        steps += 1


def _bench_playouts(int games, uint64_t seed, params=None):
    """Random playouts through the vtable with the GIL released: (actions, seconds)."""
    cdef ArdState start, st
    cdef ard_rng rng
    cdef ard_action buf[MAX_LEGAL]
    cdef long total = 0
    cdef int i
    cdef const ard_game *g = &ARD_GAME
    cdef bytes prm = pack_params(params or {})
    g.init(&start, <const char *>prm, 0)
    ard_rng_seed(&rng, seed)
    t0 = time.perf_counter()
    with nogil:
        for i in range(games):
            memcpy(&st, &start, sizeof(ArdState))
            total += playout(g, &st, &rng, buf)
    return total, time.perf_counter() - t0


cdef int greedy_pick(const ard_game *g, const ArdState *s, ard_action *buf, int n,
                     ard_rng *rng) noexcept nogil:
    cdef ArdState child
    cdef int i, best = 0, p = g.current_player(s), ties = 0
    cdef double v, best_v = -2.0
    for i in range(n):
        memcpy(&child, s, sizeof(ArdState))
        g.apply(&child, buf[i])
        v = g.evaluate(&child, p)
        if v > best_v + 1e-12:
            best_v = v
            best = i
            ties = 1
        elif v > best_v - 1e-12:
            ties += 1                       # reservoir pick among equal values
            if ard_rng_below(rng, ties) == 0:
                best = i
    return best


def _greedy_vs_random(int games, uint64_t seed, params=None):
    """One-ply greedy on evaluate against uniform random, sides alternating:
    (greedy wins, greedy losses, draws)."""
    cdef ArdState start, st
    cdef ard_rng rng
    cdef ard_action buf[MAX_LEGAL]
    cdef double ret[2]
    cdef int i, p, n, greedy_side, wins = 0, losses = 0, draws = 0
    cdef const ard_game *g = &ARD_GAME
    cdef bytes prm = pack_params(params or {})
    g.init(&start, <const char *>prm, 0)
    ard_rng_seed(&rng, seed)
    with nogil:
        for i in range(games):
            greedy_side = i % 2
            memcpy(&st, &start, sizeof(ArdState))
            while True:
                p = g.current_player(&st)
                if p == ARD_TERMINAL:
                    break
                if p == ARD_CHANCE:
                    g.apply(&st, g.sample_chance(&st, &rng))
                    continue
                n = g.legal_actions(&st, buf)
                if p == greedy_side:
                    g.apply(&st, buf[greedy_pick(g, &st, buf, n, &rng)])
                else:
                    g.apply(&st, buf[ard_rng_below(&rng, n)])
            g.returns(&st, ret)
            if ret[greedy_side] > 0:
                wins += 1
            elif ret[greedy_side] < 0:
                losses += 1
            else:
                draws += 1
    return wins, losses, draws


def objective_codes(raw):
    """(allies, germans) objective fields: 0 not drawn, 1..8 the card, 9 hidden in this view."""
    cdef ArdState s
    load_state(raw, &s)
    return (s.objective[0], s.objective[1])
