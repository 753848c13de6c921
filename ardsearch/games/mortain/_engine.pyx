# cython: language_level=3
"""Stand at Mortain: the C-struct state, move generator, card-deck chance
nodes, combat, notation and the ard_game vtable (csrc/ardsearch/game.h).

Rules: RULES.md beside this file. Scenario data (map, units, historical
setup) never changes during a game, so it lives in static C tables filled
once at import from scenarios/mortain.toml (see _install_scenario); the state
holds only what changes.
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

# ------------------------------------------------------------------ init ----
cdef void m_init(void *state, const void *params, uint64_t seed) noexcept nogil:
    cdef MState *s = <MState *>state
    cdef const MParams *p = <const MParams *>params
    cdef int u, k
    memset(s, 0, sizeof(MState))
    s.setup_free = p.setup_free
    s.strike_variant = p.strike_variant
    for u in range(NU):
        s.loc[u] = LOC_RESERVE
    for k in range(NSIDE):
        if not s.setup_free and HIST[k] != NONE:
            s.loc[NSIDE + k] = HIST[k]
    s.card = NONE
    s.interdict = NONE
    s.firer[0] = NONE
    s.firer[1] = NONE
    s.target = NONE
    s.winner = NONE
    s.viewer = -1
    s.turn = 1
    reset_deck(s)
    if s.setup_free and SETUP_UNITS > 0:
        s.setup_left = SETUP_UNITS     # every one of them is in reserve
        s.phase = PH_SETUP
    else:
        s.phase = PH_DRAW

cdef void reset_deck(MState *s) noexcept nogil:
    cdef int i
    for i in range(JOKER):
        s.deck[i] = 2
    s.deck[JOKER] = 1

# --------------------------------------------------------------- players ----
cdef int m_current_player(const void *state) noexcept nogil:
    cdef const MState *s = <const MState *>state
    if s.phase == PH_OVER:
        return ARD_TERMINAL
    if s.phase == PH_DRAW or s.phase == PH_COMBAT:
        return ARD_CHANCE
    if s.phase == PH_SETUP:
        return 1
    return s.active

# ---------------------------------------------------------- legal moves ----
cdef inline int air_card(int c) noexcept nogil:
    """A red odd number (A, 3, 5, 7, 9) or a Jack allows the Air marker; other red cards OBA."""
    cdef int r = card_rank(c)
    return r == 11 or (r <= 9 and (r & 1))

cdef int fire_cost(const MState *s, int a, int b) noexcept nogil:
    """Activations a fire by a (and b) spends on a number card: one per firer,
    except that the Tiger joins a German unit in its hex for free."""
    if b == NONE:
        return 1
    if (a == TIGER or b == TIGER) and s.loc[a] == s.loc[b]:
        return 1
    return 2

cdef int stack_may_fire(const MState *s, int a, int b) noexcept nogil:
    """In a face-card stack activation: every firer is in the stack, or is
    the Tiger joining a stack unit in its hex for free."""
    cdef uint32_t m = s.stack_mask
    if b == NONE:
        return (m >> a) & 1
    if ((m >> a) & 1) and ((m >> b) & 1):
        return 1
    if a == TIGER and ((m >> b) & 1) and s.loc[a] == s.loc[b]:
        return 1
    if b == TIGER and ((m >> a) & 1) and s.loc[a] == s.loc[b]:
        return 1
    return 0

cdef inline int in_range(int f, int t) noexcept nogil:
    """May a unit in hex f fire at hex t? Tabulated in RANGE by build_geometry."""
    cdef int d = DIST[f][t]
    return d <= (3 if T_HILL[f] else 2) and LOS[f][t]

cdef int move_dests(const MState *s, const Occupancy *o, int m, ard_action *out) noexcept nogil:
    """Writes the move actions of mover m (hexes, then exit), increasing; ignores card limits."""
    cdef int u = MOVER_UNIT[m], h = s.loc[u], n
    cdef const HexSet *dests
    if h == LOC_RESERVE:
        if MOVER_TIGER[m]:
            return 0
        if side_of(u) == 1 and not (U_REINF[u] and s.turn >= S_REINF_TURN):
            return 0
        dests = &ENTRY[side_of(u)]
    elif not on_map(h):
        return 0
    elif MOVER_TIGER[m] and s.loc[TIGER] != h:
        return 0
    else:
        dests = &NEIGH_SET[h]
    # the Tiger does not count for stacking; a unit moving with it is tested as itself
    n = emit_hexes(hs_minus(dests, &o.enemy if u == TIGER else &o.closed), A_MOVE + m * NDEST, out)
    if side_of(u) == 0 and on_map(h) and hex_col(h) == S_XCOL:
        out[n] = A_MOVE + m * NDEST + NHEX
        n += 1
    return n

cdef int mover_allowed(const MState *s, int m) noexcept nogil:
    """May mover m (of the acting side) act under the current card (number, face-fresh or stack)?"""
    cdef int u = MOVER_UNIT[m]
    if card_rank(s.card) <= 10:
        return s.acts_left >= 1
    if s.card_fresh:
        return s.loc[u] == LOC_RESERVE     # a single reserve unit enters
    return (s.stack_mask >> u) & 1

cdef inline int fire_at(const MState *s, int number, int a, int b, uint32_t targets,
                        ard_action *out) noexcept nogil:
    """Writes the fire actions of a (and b) at `targets` (bit t: enemy unit t of its side)
    if the card lets them fire; returns the count."""
    cdef int n = 0, base
    if number:
        if fire_cost(s, a, b) > s.acts_left:
            return 0
    elif not stack_may_fire(s, a, b):
        return 0
    base = A_FIRE + FSET_OF[a][a if b == NONE else b] * NSIDE
    while targets:
        out[n] = base + __builtin_ctzll(targets)
        n += 1
        targets &= targets - 1
    return n

cdef int fire_actions(const MState *s, const Occupancy *o, int number, ard_action *out) noexcept nogil:
    """Writes the fire actions of the acting side in fire-set order (singles,
    then pairs a < b), each with its targets in increasing order."""
    cdef int side = s.active, lo = side * NSIDE, elo = (1 - side) * NSIDE
    cdef int i, j, k, t, f, h, nf = 0, n = 0
    cdef uint64_t w
    cdef uint32_t targets
    cdef HexSet seen
    cdef uint16_t enemy_at[NHEX]   # bit t: enemy unit elo+t is in the hex; valid on o.enemy only
    cdef uint32_t reach[NSIDE]     # bit t: own unit lo+i may fire at enemy unit elo+t
    cdef int firer[NSIDE]          # own units with a target, increasing
    for t in range(NSIDE):
        h = s.loc[elo + t]
        if on_map(h):
            enemy_at[h] = 0
    for t in range(NSIDE):
        h = s.loc[elo + t]
        if on_map(h):
            enemy_at[h] |= 1 << t
    for i in range(NSIDE):
        reach[i] = 0
        f = s.loc[lo + i]
        if not on_map(f):
            continue
        seen.w[0] = RANGE[f].w[0] & o.enemy.w[0]
        seen.w[1] = RANGE[f].w[1] & o.enemy.w[1]
        for k in range(2):
            w = seen.w[k]
            while w:
                reach[i] |= enemy_at[64 * k + __builtin_ctzll(w)]
                w &= w - 1
        if reach[i]:
            firer[nf] = i
            nf += 1
    # a unit without a target is in no fire set that has one
    for i in range(nf):
        n += fire_at(s, number, lo + firer[i], NONE, reach[firer[i]], out + n)
    for i in range(nf):
        for j in range(i + 1, nf):
            targets = reach[firer[i]] & reach[firer[j]]
            if targets:
                n += fire_at(s, number, lo + firer[i], lo + firer[j], targets, out + n)
    return n

cdef int m_legal_actions(const void *state, ard_action *out) noexcept nogil:
    cdef const MState *s = <const MState *>state
    cdef int n = 0, k, h, u, m, j, number, total
    cdef Occupancy occ
    cdef HexSet free_hexes
    if s.phase == PH_SETUP:
        # any unplaced non-CC US unit, in any order, on any hex outside the
        # forbidden column with room under the stacking limit (no German is on
        # the map yet, and no US unit is the Tiger, so `closed` is the full hexes)
        occupancy(s, 1, &occ)
        free_hexes = hs_minus(&SETUP_HEXES, &occ.closed)
        for k in range(NSIDE):
            u = NSIDE + k
            if s.loc[u] == LOC_RESERVE and not U_REINF[u]:
                n += emit_hexes(free_hexes, A_SETUP + k * NHEX, out + n)
        return n
    if s.phase == PH_REDRAW:
        if deck_total(s) > 0:
            out[n] = A_REDRAW
            n += 1
        out[n] = A_MISS
        return n + 1
    if s.phase != PH_ACT:
        return 0
    total = deck_total(s)
    occupancy(s, s.active, &occ)
    out[n] = A_PASS
    n += 1
    number = card_rank(s.card) <= 10
    if not number and s.card_fresh:
        n += emit_hexes(occ.own, A_STACK, out + n)
    # US Air / OBA: instead of ground activations, once per turn
    if s.active == 1 and s.card_fresh and not s.air_used:
        if air_card(s.card):
            n += emit_hexes(occ.enemy, A_AIRI, out + n)   # hexes holding German units
        if total > 0:
            for u in range(NSIDE):
                if on_map(s.loc[u]):
                    out[n] = (A_AIR if air_card(s.card) else A_OBA) + u
                    n += 1
    for j in range(SIDE_NMOVERS[s.active]):
        m = SIDE_MOVERS[s.active][j]
        if mover_allowed(s, m):
            n += move_dests(s, &occ, m, out + n)
    if total == 0 or (not number and s.card_fresh):
        return n
    return n + fire_actions(s, &occ, number, out + n)

# ----------------------------------------------------------------- apply ----
cdef void end_turn(MState *s) noexcept nogil:
    """Germans win at the end of any turn with enough exits (errata); US at the end of the last."""
    s.card = NONE
    s.acts_left = 0
    s.stack_mask = 0
    s.card_fresh = 0
    clear_attack(s)
    if s.exits >= S_EXITS:
        s.winner = 0
        s.phase = PH_OVER
    elif s.turn >= S_TURNS:
        s.winner = 1
        s.phase = PH_OVER
    else:
        s.turn += 1
        reset_deck(s)
        s.drawn = 0
        s.air_used = 0
        s.interdict = NONE
        s.phase = PH_DRAW

cdef inline void clear_attack(MState *s) noexcept nogil:
    s.firer[0] = NONE
    s.firer[1] = NONE
    s.target = NONE
    s.strike = ST_GROUND

cdef int check_decided(MState *s) noexcept nogil:
    """Ends the game at once when it is decided: no US units left (German
    win, rules), or no German units left to act (design choice: the result
    can no longer change). Returns 1 if over."""
    cdef int u, g = 0, us = 0
    for u in range(NSIDE):
        if s.loc[u] == LOC_RESERVE or on_map(s.loc[u]):
            g += 1
    for u in range(NSIDE, NU):
        if s.loc[u] != LOC_DEAD:
            us += 1
    if us == 0:
        s.winner = 0
    elif g == 0:
        s.winner = 0 if s.exits >= S_EXITS else 1
    else:
        return 0
    s.phase = PH_OVER
    s.card = NONE
    s.acts_left = 0
    s.stack_mask = 0
    s.card_fresh = 0
    clear_attack(s)
    return 1

cdef inline int card_over(const MState *s) noexcept nogil:
    if card_rank(s.card) <= 10:
        return s.acts_left == 0
    return not s.card_fresh and s.stack_mask == 0

cdef void next_card(MState *s) noexcept nogil:
    """The current activation card is used up: draw again, or end the turn if the deck is out."""
    s.card = NONE
    s.acts_left = 0
    s.stack_mask = 0
    s.card_fresh = 0
    if deck_total(s) == 0:
        end_turn(s)
    else:
        s.phase = PH_DRAW

cdef void after_use(MState *s) noexcept nogil:
    if check_decided(s):
        return
    if card_over(s):
        next_card(s)
    else:
        s.phase = PH_ACT

cdef void end_card_now(MState *s) noexcept nogil:
    s.acts_left = 0
    s.stack_mask = 0
    s.card_fresh = 0

cdef void draw_activation(MState *s, int c) noexcept nogil:
    cdef int side, r
    if c == JOKER:
        if s.drawn == 3:
            end_turn(s)
        else:
            s.deck[JOKER] = 0          # ignored: set aside, draw again
            if deck_total(s) == 0:
                end_turn(s)
        return
    s.deck[c] -= 1
    side = c & 1
    r = card_rank(c)
    s.drawn |= 1 << side
    s.active = side
    s.card = c
    s.card_fresh = 1
    s.stack_mask = 0
    s.acts_left = (r + 1) // 2 if r <= 10 else 0
    s.phase = PH_ACT

cdef void resolve(MState *s, int rank) noexcept nogil:
    cdef int t = s.target, th = s.loc[t], a = s.firer[0], b = s.firer[1]
    cdef int ai = U_KIND[t] != 0, modified = rank, strength, i, u, adjacent
    if s.strike == ST_GROUND:
        strength = unit_value(s, a, ai)
        if b != NONE:
            strength += unit_value(s, b, ai)
        adjacent = DIST[s.loc[a]][th] == 1 and (b == NONE or DIST[s.loc[b]][th] == 1)
        if adjacent:
            modified -= 1
        if not ai and (a == TIGER or b == TIGER):
            modified -= 1
        modified += T_MOD[th]
        if side_of(a) == 0 and (interdicted(s, s.loc[a]) or (b != NONE and interdicted(s, s.loc[b]))):
            modified += 1
    else:
        strength = 4 if s.strike == ST_AIR else 3
        if s.strike_variant:
            adjacent = 0
            for i in range(6):
                if NEIGH[th][i] != NONE:
                    for u in range(NSIDE):
                        if s.loc[u] == NEIGH[th][i]:
                            adjacent = 1
            if not adjacent:
                modified += T_MOD[th]
    if modified <= strength:
        if (s.reduced >> t) & 1:
            s.loc[t] = LOC_DEAD
            s.reduced &= ~(<uint32_t>1 << t)
            s.stack_mask &= ~(<uint32_t>1 << t)
        else:
            s.reduced |= <uint32_t>1 << t
    clear_attack(s)
    after_use(s)

cdef void draw_combat(MState *s, int c) noexcept nogil:
    if c == JOKER:
        if s.drawn == 3:
            end_turn(s)            # the attack misses (design choice) and the turn ends
        else:
            s.deck[JOKER] = 0
            if deck_total(s) == 0:
                end_turn(s)
        return
    s.deck[c] -= 1
    if card_rank(c) >= 11:
        s.phase = PH_REDRAW
    else:
        resolve(s, card_rank(c))

cdef void use_units(MState *s, int a, int b) noexcept nogil:
    """Spends the card's activations for a (and b) acting together."""
    if card_rank(s.card) <= 10:
        s.acts_left -= fire_cost(s, a, b)
    else:
        s.stack_mask &= ~(<uint32_t>1 << a)
        if b != NONE:
            s.stack_mask &= ~(<uint32_t>1 << b)
    s.card_fresh = 0

cdef void m_apply(void *state, ard_action action) noexcept nogil:
    cdef MState *s = <MState *>state
    cdef int a = action, k, h, m, d, u, fs, side
    if a == ARD_HIDDEN_OUTCOME:
        return
    if s.phase == PH_DRAW:
        draw_activation(s, a)
    elif s.phase == PH_COMBAT:
        draw_combat(s, a)
    elif a == A_REDRAW:
        s.phase = PH_COMBAT
    elif a == A_MISS:
        clear_attack(s)
        after_use(s)
    elif a == A_PASS:
        next_card(s)
    elif a < A_SETUP:
        h = a - A_STACK
        side = s.active
        s.stack_mask = 0
        for u in range(side * NSIDE, side * NSIDE + NSIDE):
            if s.loc[u] == h:
                s.stack_mask |= <uint32_t>1 << u
        s.card_fresh = 0
    elif a < A_AIRI:
        k = (a - A_SETUP) // NHEX
        s.loc[NSIDE + k] = (a - A_SETUP) % NHEX
        s.setup_left -= 1
        if s.setup_left == 0:
            s.phase = PH_DRAW
    elif a < A_AIR:
        s.air_used = 1
        s.interdict = a - A_AIRI
        end_card_now(s)
        next_card(s)
    elif a < A_MOVE:
        s.air_used = 1
        s.strike = ST_AIR if a < A_OBA else ST_OBA
        s.target = (a - A_AIR) % NSIDE
        s.firer[0] = NONE
        s.firer[1] = NONE
        end_card_now(s)
        s.phase = PH_COMBAT
    elif a < A_FIRE:
        m = (a - A_MOVE) // NDEST
        d = (a - A_MOVE) % NDEST
        u = MOVER_UNIT[m]
        if card_rank(s.card) > 10 and s.card_fresh:
            end_card_now(s)          # face card: one reserve unit entered
        else:
            use_units(s, u, TIGER if MOVER_TIGER[m] else NONE)
        if d == NHEX:
            s.loc[u] = LOC_EXITED
            s.exits += 1
            if MOVER_TIGER[m]:
                s.loc[TIGER] = LOC_EXITED
                s.exits += 1
        else:
            s.loc[u] = d
            if MOVER_TIGER[m]:
                s.loc[TIGER] = d
        if MOVER_TIGER[m]:
            s.stack_mask &= ~(<uint32_t>1 << TIGER)
        after_use(s)
    else:
        fs = (a - A_FIRE) // NSIDE
        s.firer[0] = FSET_A[fs]
        s.firer[1] = FSET_B[fs]
        s.target = (1 - s.active) * NSIDE + (a - A_FIRE) % NSIDE
        s.strike = ST_GROUND
        use_units(s, FSET_A[fs], FSET_B[fs])
        s.phase = PH_COMBAT

# ---------------------------------------------------------------- chance ----
cdef int m_chance_outcomes(const void *state, ard_action *out, double *probs) noexcept nogil:
    cdef const MState *s = <const MState *>state
    cdef int i, n = 0, total = deck_total(s)
    if (s.phase != PH_DRAW and s.phase != PH_COMBAT) or total == 0:
        return 0
    for i in range(NCLASS):
        if s.deck[i]:
            out[n] = i
            probs[n] = <double>s.deck[i] / total
            n += 1
    return n

cdef ard_action m_sample_chance(const void *state, ard_rng *rng) noexcept nogil:
    cdef const MState *s = <const MState *>state
    cdef int i, total = deck_total(s), x
    if total == 0:
        return 0
    x = <int>ard_rng_below(rng, total)
    for i in range(NCLASS):
        x -= s.deck[i]
        if x < 0:
            return i
    return JOKER

# ------------------------------------------------------ returns, evaluate ----
cdef void m_returns(const void *state, double *out) noexcept nogil:
    cdef const MState *s = <const MState *>state
    ard_returns_for_winner(s.winner if s.phase == PH_OVER else -1, out)

cdef double m_evaluate_classic(const void *state, int player) noexcept nogil:
    """The hand-set evaluation (now the feature "classic", _features.pxi).
    German prospects: exits (5 win), westward progress of German units
    weighted by their strength, material on both sides, and time left; a
    smooth squash to [-1, 1]. From `player`'s point of view."""
    cdef const MState *s = <const MState *>state
    cdef double g = 0.0, progress, mat_g = 0.0, mat_u = 0.0, strength, turns_left, x
    cdef int u, h
    if s.phase == PH_OVER:
        x = 1.0 if s.winner == 0 else -1.0
        return x if player == 0 else -x
    turns_left = S_TURNS - s.turn + 1.0
    for u in range(NSIDE):
        h = s.loc[u]
        if h == LOC_DEAD or h == LOC_EXITED:
            continue
        strength = 0.6 if (s.reduced >> u) & 1 else 1.0
        if u == TIGER:
            strength *= 0.7          # the Tiger counts for an exit like any unit
        mat_g += strength
        if on_map(h):
            progress = (COLS - hex_col(h)) / (COLS - 1.0)
            g += 0.45 * strength * progress * progress * (0.5 + 0.5 * min(1.0, turns_left / 3.0))
    for u in range(NSIDE, NU):
        if s.loc[u] != LOC_DEAD:
            mat_u += 0.6 if (s.reduced >> u) & 1 else 1.0
    x = s.exits + g + 0.25 * (mat_g - 0.8 * mat_u) - S_EXITS * 0.55 - 0.15 * turns_left * 0.0
    # few German units left to exit: the US is safe
    if mat_g + s.exits < S_EXITS:
        x -= 2.0
    x = x / 2.0
    x = x / (1.0 + fabs(x))
    if x > 0.99:
        x = 0.99
    if x < -0.99:
        x = -0.99
    return x if player == 0 else -x

include "_features.pxi"

# ------------------------------------------------------------------ hash ----
cdef uint64_t m_hash(const void *state) noexcept nogil:
    cdef const uint8_t *p = <const uint8_t *>state
    cdef uint64_t h = 0x9E3779B97F4A7C15ULL, w
    cdef int i, n = sizeof(MState) - 1          # the viewer byte does not matter to play
    for i in range(n):
        h ^= p[i]
        h *= 0x100000001B3ULL
        h ^= h >> 29
    h ^= h >> 32
    h *= 0xD6E8FEB86659FD93ULL
    h ^= h >> 32
    return h

# ------------------------------------------------ views (no hidden info) ----
cdef void m_observe(const void *state, int player, void *out_view) noexcept nogil:
    if out_view != state:
        memcpy(out_view, state, sizeof(MState))
    (<MState *>out_view).viewer = player

cdef void m_determinize(void *view, int player, ard_rng *rng) noexcept nogil:
    (<MState *>view).viewer = -1

cdef int m_viewer(const void *state) noexcept nogil:
    return (<const MState *>state).viewer

cdef int m_action_visible(const void *state, ard_action action, int player) noexcept nogil:
    return 1

# -------------------------------------------------------------- validate ----
cdef inline int fail(char *msg, int msglen, const char *text) noexcept nogil:
    return ard_fail(msg, msglen, text)  # game.h

cdef int m_validate(const void *state, char *msg, int msglen) noexcept nogil:
    cdef const MState *s = <const MState *>state
    cdef int u, h, k, n, r, side, total, t
    cdef int count[2][NHEX]
    if s.viewer < -1 or s.viewer > 1:
        return fail(msg, msglen, "viewer must be -1, 0 or 1")
    if s.setup_free > 1 or s.strike_variant > 1:
        return fail(msg, msglen, "parameter bytes must be 0 or 1")
    if s.turn < 1 or s.turn > S_TURNS:
        return fail(msg, msglen, "turn out of range")
    if s.phase > PH_OVER:
        return fail(msg, msglen, "unknown phase")
    memset(count, 0, sizeof(count))
    n = 0
    for u in range(NU):
        h = s.loc[u]
        side = side_of(u)
        if on_map(h):
            if u != TIGER:
                count[side][h] += 1
            else:
                count[side][h] += 0
        elif h == LOC_EXITED:
            if side != 0:
                return fail(msg, msglen, "a US unit cannot exit")
            n += 1
        elif h != LOC_RESERVE and h != LOC_DEAD:
            return fail(msg, msglen, "unit location is not a hex, reserve, exited or eliminated")
        if (h == LOC_RESERVE or h == LOC_DEAD) and (s.reduced >> u) & 1:
            return fail(msg, msglen, "a unit in reserve or eliminated cannot be reduced")
        if side == 1 and h == LOC_RESERVE and not U_REINF[u] and s.phase != PH_SETUP:
            return fail(msg, msglen, "a non-reinforcement US unit is off the map after setup")
        if side == 1 and U_REINF[u] and on_map(h) and s.turn < S_REINF_TURN:
            return fail(msg, msglen, "a US reinforcement is on the map before its entry turn")
    if s.reduced >> NU:
        return fail(msg, msglen, "reduced bits beyond the last unit")
    for u in range(NU):
        h = s.loc[u]
        if on_map(h):
            if count[0][h] > 2 or count[1][h] > 2:
                return fail(msg, msglen, "more than 2 units in a hex")
            if enemy_in(s, side_of(u), h):
                return fail(msg, msglen, "German and US units share a hex")
    if n != s.exits:
        return fail(msg, msglen, "exits does not match the exited units")
    total = 0
    for k in range(NCLASS):
        if s.deck[k] > (1 if k == JOKER else 2):
            return fail(msg, msglen, "more cards of a class than the deck holds")
        total += s.deck[k]
    if s.drawn > 3 or s.air_used > 1 or s.card_fresh > 1 or s.active > 1:
        return fail(msg, msglen, "flag byte out of range")
    if s.interdict != NONE and (s.interdict >= NHEX or not s.air_used):
        return fail(msg, msglen, "interdiction without a valid hex or without the air marker used")
    if s.stack_mask >> NU:
        return fail(msg, msglen, "stack mask beyond the last unit")
    if s.phase == PH_OVER:
        if s.winner > 1:
            return fail(msg, msglen, "a finished game needs a winner")
        return 0
    if s.winner != NONE:
        return fail(msg, msglen, "winner set while the game is on")
    if s.phase == PH_SETUP:
        if not s.setup_free:
            return fail(msg, msglen, "setup phase with setup=historical")
        if s.turn != 1 or total != 53 or s.drawn:
            return fail(msg, msglen, "setup phase after play began")
        if s.reduced or s.air_used or s.exits:
            return fail(msg, msglen, "setup phase with a unit reduced, a unit exited or the air marker used")
        for u in range(NSIDE):
            if s.loc[u] != LOC_RESERVE:
                return fail(msg, msglen, "German units on the map during setup")
        k = 0
        for t in range(NSIDE):
            u = NSIDE + t
            if U_REINF[u]:
                if s.loc[u] != LOC_RESERVE:
                    return fail(msg, msglen, "a US reinforcement placed in the setup")
            elif s.loc[u] == LOC_RESERVE:
                k += 1
            elif not on_map(s.loc[u]) or hex_col(s.loc[u]) == S_FORBID:
                return fail(msg, msglen, "a placed US unit is not on an allowed hex (not the forbidden column)")
        if k == 0:
            return fail(msg, msglen, "setup phase with every US unit placed")
        if s.setup_left != k:
            return fail(msg, msglen, "setup_left does not match the US units still to place")
    elif s.setup_left != 0:
        return fail(msg, msglen, "setup_left must be 0 outside the setup phase")
    if s.phase == PH_DRAW or s.phase == PH_COMBAT:
        if total == 0:
            return fail(msg, msglen, "a card must be drawn but the deck is empty")
    if s.phase == PH_ACT or s.phase == PH_COMBAT or s.phase == PH_REDRAW:
        if s.card >= JOKER or (s.card & 1) != s.active or not ((s.drawn >> s.active) & 1):
            return fail(msg, msglen, "the current card does not match the acting side")
    elif s.card != NONE or s.acts_left or s.stack_mask or s.card_fresh:
        return fail(msg, msglen, "card fields set between cards")
    if s.phase == PH_ACT or s.phase == PH_COMBAT or s.phase == PH_REDRAW:
        r = card_rank(s.card)
        if r <= 10:
            if s.acts_left > (r + 1) // 2 or s.stack_mask:
                return fail(msg, msglen, "activations left exceed the card")
            if s.card_fresh and s.acts_left != (r + 1) // 2:
                return fail(msg, msglen, "a fresh card with activations spent")
            if s.phase == PH_ACT and s.acts_left == 0:
                return fail(msg, msglen, "acting on a used-up card")
        else:
            if s.acts_left:
                return fail(msg, msglen, "a face card has no counted activations")
            if s.card_fresh and s.stack_mask:
                return fail(msg, msglen, "a fresh face card has no stack yet")
            if s.phase == PH_ACT and not s.card_fresh and not s.stack_mask:
                return fail(msg, msglen, "acting on a used-up face card")
        for u in range(NU):
            if (s.stack_mask >> u) & 1 and (side_of(u) != s.active or not on_map(s.loc[u])):
                return fail(msg, msglen, "stack mask holds a unit that cannot act")
    if s.phase == PH_COMBAT or s.phase == PH_REDRAW:
        t = s.target
        if t >= NU or side_of(t) == s.active or not on_map(s.loc[t]):
            return fail(msg, msglen, "attack target is not an enemy unit on the map")
        if s.strike > ST_OBA:
            return fail(msg, msglen, "unknown strike kind")
        if s.strike == ST_GROUND:
            for k in range(2):
                u = s.firer[k]
                if u == NONE and k == 1:
                    continue
                if u >= NU or side_of(u) != s.active or not on_map(s.loc[u]):
                    return fail(msg, msglen, "firer is not an own unit on the map")
            if s.firer[0] == s.firer[1]:
                return fail(msg, msglen, "the same unit twice among the firers")
        elif s.active != 1 or not s.air_used or s.firer[0] != NONE or s.firer[1] != NONE:
            return fail(msg, msglen, "air/OBA strike fields inconsistent")
    elif s.firer[0] != NONE or s.firer[1] != NONE or s.target != NONE or s.strike:
        return fail(msg, msglen, "attack fields set with no attack pending")
    return 0

# -------------------------------------------------------------- notation ----
cdef int rank_text(int r, char *buf) noexcept nogil:
    """'A', '2'..'10', 'J', 'Q', 'K' into buf (4 bytes)."""
    if r == 1:
        return snprintf(buf, 4, "A")
    if r <= 10:
        return snprintf(buf, 4, "%d", r)
    return snprintf(buf, 4, "%c", b"JQK"[r - 11])

cdef int hex_text(int h, char *buf) noexcept nogil:
    return snprintf(buf, 5, "%02d%02d", h // ROWS + 1, h % ROWS + 1)

cdef int m_action_to_string(const void *state, ard_action action, char *buf, int buflen) noexcept nogil:
    cdef int a = action, m, d, fs, b
    cdef char hx[8]
    if a < 0 or a >= NUM_ACTIONS:
        return -1
    if a < JOKER:
        rank_text(card_rank(a), hx)
        return snprintf(buf, buflen, "%s%s", hx, "r" if a & 1 else "b")
    if a == JOKER:
        return snprintf(buf, buflen, "joker")
    if a == A_PASS:
        return snprintf(buf, buflen, "pass")
    if a == A_REDRAW:
        return snprintf(buf, buflen, "redraw")
    if a == A_MISS:
        return snprintf(buf, buflen, "miss")
    if a < A_SETUP:
        hex_text(a - A_STACK, hx)
        return snprintf(buf, buflen, "stack %s", hx)
    if a < A_AIRI:
        hex_text((a - A_SETUP) % NHEX, hx)
        return snprintf(buf, buflen, "setup %s %s", U_ID[NSIDE + (a - A_SETUP) // NHEX], hx)
    if a < A_AIR:
        hex_text(a - A_AIRI, hx)
        return snprintf(buf, buflen, "airi %s", hx)
    if a < A_OBA:
        return snprintf(buf, buflen, "air %s", U_ID[a - A_AIR])
    if a < A_MOVE:
        return snprintf(buf, buflen, "oba %s", U_ID[a - A_OBA])
    if a < A_FIRE:
        m = (a - A_MOVE) // NDEST
        d = (a - A_MOVE) % NDEST
        if d == NHEX:
            snprintf(hx, 8, "exit")
        else:
            hex_text(d, hx)
        if MOVER_TIGER[m]:
            return snprintf(buf, buflen, "%s+%s-%s", U_ID[MOVER_UNIT[m]], U_ID[TIGER], hx)
        return snprintf(buf, buflen, "%s-%s", U_ID[MOVER_UNIT[m]], hx)
    fs = (a - A_FIRE) // NSIDE
    b = FSET_B[fs]
    d = (1 - side_of(FSET_A[fs])) * NSIDE + (a - A_FIRE) % NSIDE
    if b == NONE:
        return snprintf(buf, buflen, "%sx%s", U_ID[FSET_A[fs]], U_ID[d])
    return snprintf(buf, buflen, "%s+%sx%s", U_ID[FSET_A[fs]], U_ID[b], U_ID[d])

cdef int find_unit(const char *t, int n) noexcept nogil:
    """Unit index of the id t[0:n], or -1."""
    cdef int u
    if n <= 0 or n > 8:
        return -1
    for u in range(NU):
        if <int>strlen(U_ID[u]) == n and strncmp(U_ID[u], t, n) == 0:
            return u
    return -1

cdef int parse_hex(const char *t, int n) noexcept nogil:
    cdef int i, col, row
    if n != 4:
        return -1
    for i in range(4):
        if t[i] < b'0' or t[i] > b'9':
            return -1
    col = (t[0] - 48) * 10 + (t[1] - 48)
    row = (t[2] - 48) * 10 + (t[3] - 48)
    if col < 1 or col > COLS or row < 1 or row > ROWS:
        return -1
    return (col - 1) * ROWS + row - 1

cdef int parse_mover(const char *t, int n) noexcept nogil:
    """'u' or 'u+tiger' / 'tiger+u' -> mover index, or -1."""
    cdef int i, a, b, m
    for i in range(n):
        if t[i] == b'+':
            a = find_unit(t, i)
            b = find_unit(t + i + 1, n - i - 1)
            if a == TIGER:
                a = b
            elif b != TIGER:
                return -1
            if a < 0 or a == TIGER:
                return -1
            return TIGER_MOVER[a]
    return find_unit(t, n)

cdef ard_action parse_fire(const char *t, int n) noexcept nogil:
    cdef int i, j, x = -1, a, b = NONE, tg, fs, tmp
    for i in range(n):
        if t[i] == b'x':
            x = i
            break
    if x < 0:
        return -1
    tg = find_unit(t + x + 1, n - x - 1)
    if tg < 0:
        return -1
    a = -1
    for j in range(x):
        if t[j] == b'+':
            a = find_unit(t, j)
            b = find_unit(t + j + 1, x - j - 1)
            if b < 0:
                return -1
            break
    if a == -1 and b == NONE:
        a = find_unit(t, x)
    if a < 0 or a == b:
        return -1
    if b != NONE and b < a:
        tmp = a
        a = b
        b = tmp
    if b != NONE and side_of(a) != side_of(b):
        return -1
    if side_of(tg) == side_of(a):
        return -1
    for fs in range(NFSET):
        if FSET_A[fs] == a and FSET_B[fs] == b:
            return A_FIRE + fs * NSIDE + tg % NSIDE
    return -1

cdef ard_action m_string_to_action(const void *state, const char *text) noexcept nogil:
    cdef int n = <int>strlen(text), r, i, dash, m, d, u, h
    if n == 0 or n > 40:
        return -1
    if strcmp(text, "pass") == 0:
        return A_PASS
    if strcmp(text, "redraw") == 0:
        return A_REDRAW
    if strcmp(text, "miss") == 0:
        return A_MISS
    if strcmp(text, "joker") == 0:
        return JOKER
    cdef char rk[4]
    if n <= 3 and (text[n - 1] == b'r' or text[n - 1] == b'b'):
        for r in range(1, 14):
            rank_text(r, rk)
            if <int>strlen(rk) == n - 1 and strncmp(rk, text, n - 1) == 0:
                return (r - 1) * 2 + (1 if text[n - 1] == b'r' else 0)
    if strncmp(text, "stack ", 6) == 0:
        h = parse_hex(text + 6, n - 6)
        return -1 if h < 0 else A_STACK + h
    if strncmp(text, "airi ", 5) == 0:
        h = parse_hex(text + 5, n - 5)
        return -1 if h < 0 else A_AIRI + h
    if strncmp(text, "air ", 4) == 0 or strncmp(text, "oba ", 4) == 0:
        u = find_unit(text + 4, n - 4)
        if u < 0 or side_of(u) != 0:
            return -1
        return (A_AIR if text[0] == b'a' else A_OBA) + u
    if strncmp(text, "setup ", 6) == 0:
        if n < 12 or text[n - 5] != b' ':
            return -1
        u = find_unit(text + 6, n - 11)
        h = parse_hex(text + n - 4, 4)
        if u < NSIDE or h < 0:
            return -1
        return A_SETUP + (u - NSIDE) * NHEX + h
    dash = -1
    for i in range(n):
        if text[i] == b'-':
            dash = i
    if dash > 0:
        if n - dash - 1 == 4 and strcmp(text + dash + 1, "exit") == 0:
            d = NHEX
        else:
            d = parse_hex(text + dash + 1, n - dash - 1)
        if d >= 0:
            m = parse_mover(text, dash)
            if m >= 0:
                return A_MOVE + m * NDEST + d
    return parse_fire(text, n)

# ---------------------------------------------------------------- vtable ----
cdef ard_game VTABLE
VTABLE.name = "mortain"
VTABLE.abi_version = ARD_ABI_VERSION
VTABLE.flags = ARD_FLAG_CHANCE
VTABLE.state_size = sizeof(MState)
VTABLE.params_size = sizeof(MParams)
VTABLE.num_actions = NUM_ACTIONS
VTABLE.max_legal = MAX_LEGAL
VTABLE.max_game_length = 0       # set from the scenario's turns in _install_scenario
VTABLE.init = m_init
VTABLE.validate = m_validate
VTABLE.current_player = m_current_player
VTABLE.legal_actions = m_legal_actions
VTABLE.apply = m_apply
VTABLE.chance_outcomes = m_chance_outcomes
VTABLE.sample_chance = m_sample_chance
VTABLE.returns = m_returns
VTABLE.evaluate = m_evaluate
VTABLE.hash = m_hash
VTABLE.observe = m_observe
VTABLE.determinize = m_determinize
VTABLE.viewer = m_viewer
VTABLE.action_visible = m_action_visible
VTABLE.action_to_string = m_action_to_string
VTABLE.string_to_action = m_string_to_action
VTABLE.num_features = MFEAT
VTABLE.feature_names = M_FEATURE_NAMES
VTABLE.features = m_features
VTABLE.weights = M_WEIGHTS


def capsule():
    """The ard_game vtable as a PyCapsule named 'ardsearch.game'."""
    return PyCapsule_New(<void *>&VTABLE, ARD_CAPSULE_NAME, NULL)

include "_tables.pxi"
include "_pyapi.pxi"
