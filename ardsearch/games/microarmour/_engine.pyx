# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Micro Armour: The Game - WWII: the C engine behind the ardsearch game ABI.

Rules: ardsearch/games/microarmour/RULES.md (from shared/games/microarmour.md,
issue one). Everything the search calls is a `noexcept nogil` C function in
the static vtable MA_GAME, exported by capsule(). The charts, the weapons data
and the scenario (map, stands, their ids) never change during a game: they are
read from the TOML files by _data.py and copied into static C tables at import
(install()); the state holds only what changes, plus the game parameters.
"""
from libc.stdint cimport uint8_t, int8_t, uint16_t, int32_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset
from libc.math cimport atan2, M_PI
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.pycapsule cimport PyCapsule_New

from ardsearch.game cimport (ard_game, ard_fail, ard_hash_bytes, ard_rng, ard_action, ard_rng_seed, ard_rng_below, ard_rng_double,
                             ARD_ABI_VERSION, ARD_CHANCE, ARD_TERMINAL, ARD_HIDDEN_OUTCOME,
                             ARD_FLAG_CHANCE, ARD_FLAG_HIDDEN)

import numpy as np
from ardsearch.games.microarmour import _data

# ----------------------------------------------------------------- constants
cdef enum:
    NSLOT = 32          # stand slots: 0..15 side 0 (German), 16..31 side 1 (Soviet)
    NONE = 255
    WMAX = 40
    HMAX = 30
    MAXTYPES = 32
    MAXTERRAIN = 16
    CLOSE_SHIFT = 9     # deployment=close: both sides start this much nearer the centre

cdef enum:  # dense action numbers (RULES.md, Notation)
    A_FIRE = 0          # + firer_local * 16 + target_local
    A_GO = 256
    A_PASS = 257
    A_LEAD = 258
    A_FOLLOW = 259
    A_POSTURE = 260     # + local * 2 + (0 movement, 1 fire/move)
    A_ORDER = 292       # + local
    A_INDEP = 308       # + local
    A_STEP = 324        # + direction
    A_STOP = 332        # + facing
    A_OK = 340          # chance: cohesion success
    A_FAIL = 341        # chance: cohesion failure
    A_N1 = 342          # chance: natural 1 (recovery)
    A_N20 = 343         # chance: natural 20 (recovery)
    A_CRT = 344         # + result 0 '-', 1 S, 2 (S), 3 D, 4 E
    A_INIT = 349        # + side winning initiative
    A_ORDERS = 351      # + orders 0..5
    A_CARD = 357        # + card value - 1 (1..10)
    A_BRK_NO = 367
    A_BRK_YES = 368
    A_ASSAULT = 369     # + target local: close assault by the mover
    A_OVERRUN = 385     # + target local: overrun by the mover
    A_RETREAT = 401     # + direction: a close-assaulted stand's 1" retreat
    NUM_ACTIONS = 409
    MAX_LEGAL = 260     # 16 x 16 fire declarations + go / pass
    # Per turn: 2 initiative/lead, <= 34 posture, <= 32 firer resolutions (each
    # stand rolls to fire once a turn) with their declarations, go's, 2 rolls and
    # passes (<= 200), 2 orders, <= 42 movement attempts of <= 60 steps each with
    # an opportunity question per step (<= 5200), close combats (<= 8 nodes per
    # attempt), <= 34 recovery/replacement rolls: 6000; cards <= 4 x 32 per game.
    MAX_GAME_LENGTH = 6000 * 50 + 200

cdef enum:  # phases of a turn
    PH_INIT = 0         # chance: initiative
    PH_LEAD = 1         # initiative player: lead or follow
    PH_POSTURE = 2
    PH_FIRE = 3
    PH_ORDERS = 4       # chance: movement orders, first player then the other
    PH_MOVE = 5
    PH_RECOVER = 6      # chance: one recovery roll per S/D stand
    PH_OVER = 7

cdef enum:  # node kinds (what the state waits for)
    N_OVER = 0
    N_CARD0 = 1
    N_CARD1 = 2
    N_BRK0 = 3
    N_BRK1 = 4
    N_TOFIRE = 5
    N_CRT = 6
    N_DECL = 7
    N_INIT = 8
    N_LEAD = 9
    N_POSTURE = 10
    N_FIRE = 11
    N_ORDERS = 12
    N_MOVE = 13
    N_MVROLL = 14
    N_STEP = 15
    N_OFASK = 16
    N_STOPCHK = 17
    N_CFASK = 18
    N_RECOVER = 19
    N_PASSCHK = 20      # chance: nerve roll to pass through enemy armour
    N_RETREAT = 21      # the assaulted player picks the retreat square
    N_OVR_OFASK = 22    # the overrun defender: range-0 opportunity fire or pass
    N_OVR_DEFROLL = 23  # chance: overrun defender cohesion
    N_OVR_HIT1 = 24     # chance: overrunner's attack on the +5 column
    N_OVR_ATKROLL = 25  # chance: overrunner cohesion
    N_OVR_HIT2 = 26     # chance: defender's attack on the +2/+3 column
    N_REPLACE = 27      # chance: a lost GHQ's replacement roll

cdef enum:  # stand flags
    F_ALIVE = 1
    F_S = 2             # suppressed
    F_D = 4             # disorganized
    F_FIRED = 8         # rolled 'to fire' this turn
    F_MOVED = 16        # moved this movement phase
    F_INDEP = 32        # tried its independent move this phase
    F_OFSUF = 64        # suffered its opportunity attack this phase
    F_WRECK = 128       # dead armoured vehicle: a wreck on its square

cdef enum:  # postures
    P_FIRING = 0
    P_MOVE = 1
    P_FIREMOVE = 2

cdef enum:  # attack kinds and steps
    K_STANDARD = 0
    K_OPPORTUNITY = 1
    K_COVERING = 2
    K_ASLDEF = 3        # close assault: the firing-posture defender strikes the assaulter
    K_ASSAULT = 4       # close assault: the assaulter attacks
    K_OVR_OF = 5        # overrun: the defender's range-0 opportunity fire
    S_NONE = 0
    S_DECLARE = 1
    S_TOFIRE = 2
    S_CRT = 3

cdef enum:  # mover sub-states
    M_NONE = 0
    M_ROLL = 1
    M_STEP = 2
    M_OFASK = 3
    M_STOPCHK = 4
    M_CFASK = 5
    M_PASSCHK = 6       # nerve roll before passing through enemy armour (direction in mv_dir)
    M_CLOSE = 7         # a close assault is being fought (the attack fields hold it)
    M_RETREAT = 8
    M_OVR_OFASK = 9
    M_OVR_DEFROLL = 10
    M_OVR_HIT1 = 11
    M_OVR_ATKROLL = 12
    M_OVR_HIT2 = 13

cdef enum:  # defence classes
    D_ARMOUR = 0
    D_UNARMOURED = 1
    D_PERSONNEL = 2


# One stand, 8 bytes.
cdef packed struct Stand:
    uint8_t type                 # weapons table index; NONE for an empty slot
    uint8_t x                    # square, inches from the south-west corner
    uint8_t y
    uint8_t facing               # 0..7: n ne e se s sw w nw
    uint8_t flags                # F_*
    uint8_t posture              # P_FIRING, P_MOVE, P_FIREMOVE
    uint8_t mp                   # half-MP left while moving
    uint8_t steps                # inches moved in the current move


# The state. Packed, pointer-free, 400 bytes (50 words); copied with memcpy,
# hashed and serialized as its bytes.
cdef packed struct MaState:
    # parameters (fixed for the game)
    uint8_t turns                # game length in turns
    uint8_t det                  # determination level, percent (break points)
    uint8_t coh[2]               # force cohesion levels
    int8_t quality[2]            # GHQ quality (-2..+3)
    # whose information this is
    int8_t viewer                # -1 full state, 0/1 the owner of this view
    # the turn
    uint8_t phase                # PH_*
    uint8_t turn                 # 1..turns
    uint8_t init_side            # initiative winner this turn
    uint8_t first                # who acts first in this turn's phases
    uint8_t to_move              # player to decide in alternating phases
    uint8_t passed               # bit p: player p passed this phase
    uint8_t ord_count            # movement-order rolls made this turn (0..2)
    uint8_t orders[2]            # movement orders left
    # the attack being declared or resolved
    uint8_t atk_side             # attacking player
    uint8_t atk_kind             # K_*
    uint8_t atk_target           # target slot or NONE
    uint8_t atk_step             # S_*
    uint8_t atk_cur              # firer (local index) being resolved
    uint8_t atk_hit              # an S, (S) or D result landed (opportunity fire)
    uint16_t atk_firers          # declared firers (bit = local index)
    # the stand moving
    uint8_t mover                # slot or NONE
    uint8_t mv_sub               # M_*
    uint8_t mv_flags             # bit 0: ordered attempt, bit 1: stopped by opportunity fire
    uint8_t rec_next             # next slot to roll recovery for
    uint16_t of_firers           # the last opportunity firers (covering fire targets)
    # break points (hidden information: the card totals)
    uint8_t cards_pending[2]     # cards still to draw for losses
    uint8_t brk_pending          # bit p: p's break check is due
    uint8_t broken               # bit p: p's formation broke
    uint8_t ncards[2]            # cards drawn (public)
    uint8_t ncards_ok[2]         # cards drawn at p's last passed break check (public)
    uint16_t total[2]            # card totals (0 in a view for the opponent)
    uint8_t deck[2][10]          # cards left by value 1..10 (0 in a view for the opponent)
    int8_t winner                # -1 none, 0/1, 2 draw
    uint8_t reserved             # always 0
    # close combat, command, options
    uint8_t ctarget              # the stand being close assaulted or overrun, or NONE
    uint8_t mv_dir               # the step waiting on a pass-through roll
    uint8_t ghq_slot[2]          # the stand acting as each side's GHQ; NONE when lost
    uint8_t rep_pending          # bit p: p's GHQ replacement roll is due (marker removal)
    uint8_t options              # bit 0: Hot Shot, bit 1: Low Ammunition (optional rules)
    uint8_t hot                  # the firer being resolved rolled a natural 1 (Hot Shot)
    uint8_t reserved2            # always 0
    # Low Ammunition optional rule
    uint32_t low_ammo            # bit g: stand g is low on ammunition (for the rest of the game)
    uint32_t reserved3           # always 0
    uint16_t fired_at_by[32]     # bit l: enemy stand l rolled to fire at stand g this turn
    Stand st[32]


cdef packed struct MaParams:
    uint8_t turns
    uint8_t det
    uint8_t coh[2]
    int8_t quality[2]
    uint8_t deploy               # 0 scenario edges, 1 close (each side CLOSE_SHIFT inches nearer)
    uint8_t options              # bit 0: Hot Shot, bit 1: Low Ammunition

assert sizeof(Stand) == 8
assert sizeof(MaState) == 400, "MaState layout changed: update hash, RULES.md and tests"

# ----------------------------------------------------------------- static tables (filled by install)
cdef int MAP_W = 0, MAP_H = 0, SIGHTING = 20, NTERRAIN = 0, NTYPES = 0, NRANGE = 0, NORD = 0, ORD_MAX = 0
cdef int VILLAGE_T = -1
cdef uint8_t TER[HMAX][WMAX]
cdef uint8_t VDIST[HMAX][WMAX]              # inches (king moves) to the nearest village square
cdef uint8_t T_COST[MAXTERRAIN][4]          # half-MP per inch by class, 0 impassable
cdef int8_t T_COH[MAXTERRAIN]
cdef int8_t T_CRT[MAXTERRAIN]
cdef uint8_t T_BLOCK[MAXTERRAIN]
cdef uint8_t WR1_COST[4]
cdef uint8_t WR2_COST[4]
cdef int WR1_COH = 0, WR1_CRT = 0, WR2_COH = 0, WR2_CRT = 0
cdef int R_MAX[16]
cdef int R_MOD[16]
cdef int CRT_MIN = -3, CRT_MAX = 9, CRT_E = 1, CRT_D = 3, CRT_SS = 5, CRT_S = 7
cdef int ORD_AT[10]
cdef int ORD_N[10]
cdef uint8_t TY_AP[MAXTYPES]
cdef uint8_t TY_HE[MAXTYPES]
cdef uint8_t TY_DV[MAXTYPES]
cdef uint8_t TY_DEF[MAXTYPES]
cdef uint8_t TY_RANGE[MAXTYPES]
cdef uint8_t TY_MP[MAXTYPES]
cdef uint8_t TY_CLASS[MAXTYPES]             # 0 W, 1 T, 2 F, 3 A
cdef uint8_t TY_ROLE[MAXTYPES]              # 0 unit, 1 HQ, 2 GHQ
cdef uint8_t TY_OPEN[MAXTYPES]
cdef uint8_t TY_RECON[MAXTYPES]
cdef uint8_t TY_CAVALRY[MAXTYPES]           # doubles its value close assaulting non-vehicles
cdef uint8_t TY_ENGINEER[MAXTYPES]          # a further -3 to close assault CRT rolls
cdef int REPLACE_MOD[2]                     # lost-GHQ replacement roll modifier by nationality
cdef Stand START[NSLOT]                     # the scenario's deployment
cdef char NAMES[NSLOT][8]                   # stand ids for notation
cdef int DEF_TURNS = 12
cdef int DEF_COH[2]
cdef int DEF_QUAL[2]
cdef int DX[8]
cdef int DY[8]
DX[:] = [0, 1, 1, 1, 0, -1, -1, -1]
DY[:] = [1, 1, 0, -1, -1, -1, 0, 1]
cdef const char *DIR_NAMES[8]
DIR_NAMES[:] = [b"n", b"ne", b"e", b"se", b"s", b"sw", b"w", b"nw"]
cdef const char *CRT_NAMES[5]
CRT_NAMES[:] = [b"-", b"S", b"(S)", b"D", b"E"]
# 2D6: ways to roll each total 2..12, out of 36
cdef int TWO_D6[13]
TWO_D6[:] = [0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]
cdef uint8_t FULL_DECK[10]
FULL_DECK[:] = [4, 4, 4, 4, 4, 4, 4, 4, 4, 16]   # ace = 1, 2..10, J Q K = 10

CHARTS = None
WEAPONS = None
SCENARIO = None
STAND_IDS = []
SIDE_KEYS = ("german", "soviet")


def install(scenario="introductory"):
    """Reads the data files (validated, ValueError naming file and key) and
    fills the static tables."""
    global MAP_W, MAP_H, SIGHTING, NTERRAIN, NTYPES, NRANGE, NORD, ORD_MAX, VILLAGE_T
    global WR1_COH, WR1_CRT, WR2_COH, WR2_CRT, CRT_MIN, CRT_MAX, CRT_E, CRT_D, CRT_SS, CRT_S
    global DEF_TURNS, CHARTS, WEAPONS, SCENARIO, STAND_IDS, SIDE_KEYS
    charts = _data.load_charts()
    weapons = _data.load_weapons()
    sc = _data.load_scenario(scenario, charts, weapons)
    NTERRAIN = len(charts["terrain"])
    VILLAGE_T = -1
    for i, t in enumerate(charts["terrain"]):
        for c in range(4):
            T_COST[i][c] = t["cost"][c]
        T_COH[i] = t["cohesion"]
        T_CRT[i] = t["crt"]
        T_BLOCK[i] = t["blocks_los"]
        if t["name"] == "buildings":
            VILLAGE_T = i
    w = charts["wreck"]
    for c in range(4):
        WR1_COST[c] = w["one_cost"][c]
        WR2_COST[c] = w["two_cost"][c]
    WR1_COH, WR1_CRT, WR2_COH, WR2_CRT = w["one_cohesion"], w["one_crt"], w["two_cohesion"], w["two_crt"]
    NRANGE = min(16, len(charts["range"]))
    for i in range(NRANGE):
        R_MAX[i], R_MOD[i] = charts["range"][i]
    c = charts["crt"]
    CRT_MIN, CRT_MAX, CRT_E, CRT_D, CRT_SS, CRT_S = c["min_cd"], c["max_cd"], c["e"], c["d"], c["ss"], c["s"]
    NORD = min(10, len(charts["orders_at"]))
    for i in range(NORD):
        ORD_AT[i] = charts["orders_at"][i]
        ORD_N[i] = charts["orders_n"][i]
    ORD_MAX = charts["orders_max"]
    NTYPES = len(weapons)
    for i, t in enumerate(weapons):
        TY_AP[i], TY_HE[i], TY_DV[i] = t["ap"], t["he"], t["dv"]
        TY_DEF[i] = "AUP".index(t["defence"])
        TY_RANGE[i], TY_MP[i] = t["range"], t["mp"]
        TY_CLASS[i] = "WTFA".index(t["move"])
        TY_ROLE[i] = ("unit", "hq", "ghq").index(t["role"])
        TY_OPEN[i], TY_RECON[i] = t["open_top"], t["recon"]
        TY_CAVALRY[i], TY_ENGINEER[i] = t["cavalry"], t["engineer"]
    MAP_W, MAP_H = sc["width"], sc["height"]
    for y in range(MAP_H):
        for x in range(MAP_W):
            TER[y][x] = sc["grid"][y][x]
    village = [(x, y) for y in range(MAP_H) for x in range(MAP_W) if TER[y][x] == VILLAGE_T]
    for y in range(MAP_H):
        for x in range(MAP_W):
            VDIST[y][x] = min([max(abs(x - vx), abs(y - vy)) for vx, vy in village] or [0])
    SIGHTING = sc["sighting"]
    DEF_TURNS = sc["turns"]
    ids = [""] * NSLOT
    memset(START, 0, sizeof(START))
    for g in range(NSLOT):
        START[g].type = NONE
    for p in range(2):
        DEF_COH[p] = sc["sides"][p]["cohesion"]
        DEF_QUAL[p] = sc["sides"][p]["quality"]
        REPLACE_MOD[p] = sc["sides"][p]["replace_mod"]
        for l, s in enumerate(sc["stands"][p]):
            g = p * 16 + l
            START[g].type = s["type"]
            START[g].x, START[g].y, START[g].facing = s["x"], s["y"], s["facing"]
            START[g].flags = F_ALIVE
            ids[g] = s["id"]
    for g in range(NSLOT):
        b = ids[g].encode()
        memset(NAMES[g], 0, 8)
        for i in range(len(b)):
            NAMES[g][i] = b[i]
    STAND_IDS = ids
    SIDE_KEYS = tuple(sd["key"] for sd in sc["sides"])
    CHARTS, WEAPONS, SCENARIO = charts, weapons, sc

install()

# ----------------------------------------------------------------- small helpers
cdef inline int side_of(int g) noexcept nogil:
    return g >> 4

cdef inline bint alive(const MaState *s, int g) noexcept nogil:
    return s.st[g].type != NONE and (s.st[g].flags & F_ALIVE) != 0

cdef inline int iabs(int v) noexcept nogil:
    return -v if v < 0 else v

cdef inline int dist(const MaState *s, int a, int b) noexcept nogil:
    cdef int dx = iabs(<int>s.st[a].x - <int>s.st[b].x), dy = iabs(<int>s.st[a].y - <int>s.st[b].y)
    return dx if dx > dy else dy

cdef inline bint on_map(int x, int y) noexcept nogil:
    return 0 <= x < MAP_W and 0 <= y < MAP_H

cdef int wrecks_at(const MaState *s, int x, int y) noexcept nogil:
    cdef int g, n = 0
    for g in range(NSLOT):
        if s.st[g].type != NONE and (s.st[g].flags & F_WRECK) and s.st[g].x == x and s.st[g].y == y:
            n += 1
    return n

cdef int occupant(const MaState *s, int x, int y, int skip) noexcept nogil:
    cdef int g
    for g in range(NSLOT):
        if g != skip and alive(s, g) and s.st[g].x == x and s.st[g].y == y:
            return g
    return -1

cdef int terrain_coh(const MaState *s, int x, int y) noexcept nogil:
    cdef int w = wrecks_at(s, x, y), m = T_COH[TER[y][x]]
    if w >= 2:
        return m + WR2_COH
    if w == 1:
        return m + WR1_COH
    return m

cdef int terrain_crt(const MaState *s, int x, int y) noexcept nogil:
    cdef int w = wrecks_at(s, x, y), m = T_CRT[TER[y][x]]
    if w >= 2:
        return m + WR2_CRT
    if w == 1:
        return m + WR1_CRT
    return m

cdef int move_cost(const MaState *s, int g, int x, int y) noexcept nogil:
    """Half-MP to enter (x, y) for stand g; 0 if impassable."""
    cdef int c = TY_CLASS[s.st[g].type], base = T_COST[TER[y][x]][c], w
    if base == 0:
        return 0
    w = wrecks_at(s, x, y)
    if w >= 2:
        return WR2_COST[c] if WR2_COST[c] > base else base
    if w == 1:
        # a wreck costs its own rate (or the terrain's, if dearer); no road rate
        return WR1_COST[c] if WR1_COST[c] > base else base
    return base

cdef inline int range_mod(int d) noexcept nogil:
    cdef int i
    for i in range(NRANGE):
        if d <= R_MAX[i]:
            return R_MOD[i]
    return R_MOD[NRANGE - 1] + (d - R_MAX[NRANGE - 1] + 4) // 5

cdef inline int cohesion_mods(const MaState *s, int g) noexcept nogil:
    cdef int m = 0
    if s.st[g].flags & F_S:
        m += 4
    if s.st[g].flags & F_D:
        m += 3
    return m

cdef inline double p_pass(int coh, int mod) noexcept nogil:
    """P(1D20 + mod <= coh)."""
    cdef int k = coh - mod
    if k <= 0:
        return 0.0
    if k >= 20:
        return 1.0
    return k / 20.0


# ----------------------------------------------------------------- line of sight
cdef bint blocks(const MaState *s, int x, int y, bint target_personnel) noexcept nogil:
    cdef int g
    if T_BLOCK[TER[y][x]]:
        return 1
    g = occupant(s, x, y, -1)
    if g >= 0:
        if TY_DEF[s.st[g].type] != D_PERSONNEL or target_personnel:
            return 1
    return 0

cdef bint has_los(const MaState *s, int a, int b) noexcept nogil:
    """Centre to centre over squares: every square strictly between blocks or
    not; where the line runs exactly through a corner both squares beside it
    count and either blocks (ambiguous LOS favours the defender)."""
    cdef int x = s.st[a].x, y = s.st[a].y, tx = s.st[b].x, ty = s.st[b].y
    cdef int nx = iabs(tx - x), ny = iabs(ty - y)
    cdef int sx = 1 if tx > x else -1, sy = 1 if ty > y else -1
    cdef int ix = 0, iy = 0, lhs, rhs
    cdef bint pers = TY_DEF[s.st[b].type] == D_PERSONNEL
    while ix < nx or iy < ny:
        lhs = (1 + 2 * ix) * ny
        rhs = (1 + 2 * iy) * nx
        if lhs == rhs:
            if blocks(s, x + sx, y, pers) or blocks(s, x, y + sy, pers):
                return 0
            x += sx
            y += sy
            ix += 1
            iy += 1
        elif lhs < rhs:
            x += sx
            ix += 1
        else:
            y += sy
            iy += 1
        if x == tx and y == ty:
            return 1
        if blocks(s, x, y, pers):
            return 0
    return 1


# ----------------------------------------------------------------- fire
cdef int octant(int dx, int dy) noexcept nogil:
    """Direction 0..7 (n ne e se s sw w nw) whose 45-degree cone holds (dx, dy)."""
    cdef double ang = atan2(<double>dx, <double>dy) * 4.0 / M_PI   # 0 = north, clockwise
    cdef int o = <int>(ang + 8.5) % 8
    return o

cdef inline bint close_kind(int kind) noexcept nogil:
    return kind == K_ASLDEF or kind == K_ASSAULT or kind == K_OVR_OF

cdef int defence(const MaState *s, int f, int t, int kind) noexcept nogil:
    cdef int ty = s.st[t].type, dv = TY_DV[ty], o, diff
    if TY_DEF[ty] == D_ARMOUR:
        if close_kind(kind):
            dv = (dv + 1) // 2          # close assault / overrun: armour keeps 50%
        else:
            o = octant(<int>s.st[f].x - <int>s.st[t].x, <int>s.st[f].y - <int>s.st[t].y)
            diff = (o - s.st[t].facing + 8) % 8
            if not (diff == 0 or diff == 1 or diff == 7):
                dv = (dv + 1) // 2      # side/rear: half, rounded up
    elif TY_DEF[ty] == D_PERSONNEL and s.st[t].posture != P_FIRING:
        dv = (dv + 1) // 2
    return dv

cdef inline int combat_diff(const MaState *s, int f, int t, int kind) noexcept nogil:
    cdef bint armoured = TY_DEF[s.st[t].type] == D_ARMOUR
    cdef int fp = TY_AP[s.st[f].type] if armoured else TY_HE[s.st[f].type]
    if kind == K_ASSAULT and TY_CAVALRY[s.st[f].type] and not armoured:
        fp *= 2
    return fp - defence(s, f, t, kind)

cdef int tofire_mod(const MaState *s, int f, int t, int kind) noexcept nogil:
    cdef int m = cohesion_mods(s, f)
    if kind == K_ASLDEF or kind == K_ASSAULT:
        return m                        # close assault: terrain ignored
    if s.st[f].posture == P_FIREMOVE:
        m += 3
    if kind == K_COVERING:
        m += 3
    if not (s.st[t].flags & F_FIRED) and dist(s, f, t) > 1:
        m += terrain_coh(s, s.st[t].x, s.st[t].y)
    return m

cdef inline int crt_mod(const MaState *s, int f, int t, int kind) noexcept nogil:
    if kind == K_ASLDEF or kind == K_ASSAULT:
        return -3 - (3 if TY_ENGINEER[s.st[f].type] else 0)
    if kind == K_OVR_OF:
        return range_mod(0) + terrain_crt(s, s.st[t].x, s.st[t].y)
    return range_mod(dist(s, f, t)) + terrain_crt(s, s.st[t].x, s.st[t].y)

cdef bint engaged_elsewhere(const MaState *s, int f, int t) noexcept nogil:
    """f touches enemies along a base edge and t is not one of them."""
    cdef int e, q = 1 - side_of(f), touching = 0
    for e in range(q * 16, q * 16 + 16):
        if alive(s, e) and iabs(<int>s.st[e].x - <int>s.st[f].x) + iabs(<int>s.st[e].y - <int>s.st[f].y) == 1:
            if e == t:
                return 0
            touching = 1
    return touching

cdef bint can_fire(const MaState *s, int f, int t, int kind) noexcept nogil:
    """Stand f may attack t in an attack of this kind."""
    cdef int d
    if not alive(s, f) or not alive(s, t) or side_of(f) == side_of(t):
        return 0
    if s.st[f].flags & F_FIRED:
        return 0
    if (s.low_ammo >> f) & 1 and not ((s.fired_at_by[f] >> (t & 15)) & 1):
        return 0                         # low on ammunition: only fire back
    if kind == K_OVR_OF:
        return (f == s.ctarget and t == s.mover and s.st[f].posture != P_MOVE
                and combat_diff(s, f, t, kind) >= CRT_MIN)
    if kind == K_COVERING:
        if s.st[f].posture != P_FIRING:
            return 0
    elif s.st[f].posture == P_MOVE:
        return 0
    d = dist(s, f, t)
    if d > TY_RANGE[s.st[f].type] or d > SIGHTING:
        return 0
    if combat_diff(s, f, t, kind) < CRT_MIN:
        return 0
    if engaged_elsewhere(s, f, t):
        return 0
    return has_los(s, f, t)

cdef void crt_table(int cd, int m, double *p) noexcept nogil:
    """p[0..4]: probabilities of '-', S, (S), D, E on column cd with 2D6 + m."""
    cdef int r, k, res
    if cd > CRT_MAX:
        cd = CRT_MAX
    for k in range(5):
        p[k] = 0.0
    for r in range(2, 13):
        k = r + m
        if k <= cd + CRT_E:
            res = 4
        elif k <= cd + CRT_D:
            res = 3
        elif k <= cd + CRT_SS:
            res = 2
        elif k <= cd + CRT_S:
            res = 1
        else:
            res = 0
        p[res] += TWO_D6[r] / 36.0

cdef int crt_probs(const MaState *s, int f, int t, int kind, int hot, double *p) noexcept nogil:
    """p[0..4] for firer f on target t (a Hot Shot shifts two columns)."""
    cdef int cd = combat_diff(s, f, t, kind)
    if cd > CRT_MAX:
        cd = CRT_MAX
    if hot:
        cd += 2
    crt_table(cd, crt_mod(s, f, t, kind), p)
    return 0


# ----------------------------------------------------------------- losses and break points
cdef inline int bp_units(const MaState *s, int p) noexcept nogil:
    """(armed stands + 2 per HQ + 3 per GHQ) of p's formation, at full strength."""
    cdef int g, n = 0, role
    for g in range(p * 16, p * 16 + 16):
        if s.st[g].type == NONE:
            continue
        role = TY_ROLE[s.st[g].type]
        if role == 2:
            n += 3
        elif role == 1:
            n += 2
        elif TY_AP[s.st[g].type] + TY_HE[s.st[g].type] > 0:
            n += 1
    return n

cdef inline bint over_bp(const MaState *s, int p, int total) noexcept nogil:
    # total > units x det% x 7, in integers
    return total * 100 > bp_units(s, p) * s.det * 7

cdef void eliminate(MaState *s, int g) noexcept nogil:
    cdef int p = side_of(g), role = TY_ROLE[s.st[g].type]
    s.st[g].flags &= ~(F_ALIVE | F_S | F_D)
    if s.ghq_slot[p] == g:
        s.ghq_slot[p] = NONE             # no orders until replaced
    if TY_DEF[s.st[g].type] == D_ARMOUR:
        s.st[g].flags |= F_WRECK
    s.cards_pending[p] += 3 if role == 2 else (2 if role == 1 else 1)

cdef void apply_result(MaState *s, int t, int res) noexcept nogil:
    """CRT result res (0 '-', 1 S, 2 (S), 3 D, 4 E) on stand t."""
    if res == 4:
        eliminate(s, t)
    elif res == 3 or (res == 2 and (s.st[t].flags & F_S)):
        if s.st[t].flags & F_D:
            eliminate(s, t)
        else:
            s.st[t].flags |= F_D
    elif res == 1 or res == 2:
        s.st[t].flags |= F_S


# ----------------------------------------------------------------- phase flow
cdef int node(const MaState *s) noexcept nogil:
    if s.phase == PH_OVER:
        return N_OVER
    if s.cards_pending[0]:
        return N_CARD0
    if s.cards_pending[1]:
        return N_CARD1
    if s.brk_pending & 1:
        return N_BRK0
    if s.brk_pending & 2:
        return N_BRK1
    if s.atk_step == S_TOFIRE:
        return N_TOFIRE
    if s.atk_step == S_CRT:
        return N_CRT
    if s.atk_step == S_DECLARE:
        return N_DECL
    if s.phase == PH_INIT:
        return N_INIT
    if s.phase == PH_LEAD:
        return N_LEAD
    if s.phase == PH_POSTURE:
        return N_POSTURE
    if s.phase == PH_FIRE:
        return N_FIRE
    if s.phase == PH_ORDERS:
        return N_ORDERS
    if s.phase == PH_MOVE:
        if s.mover == NONE:
            return N_MOVE
        if s.mv_sub == M_ROLL:
            return N_MVROLL
        if s.mv_sub == M_STEP:
            return N_STEP
        if s.mv_sub == M_OFASK:
            return N_OFASK
        if s.mv_sub == M_STOPCHK:
            return N_STOPCHK
        if s.mv_sub == M_CFASK:
            return N_CFASK
        if s.mv_sub == M_PASSCHK:
            return N_PASSCHK
        if s.mv_sub == M_RETREAT:
            return N_RETREAT
        if s.mv_sub == M_OVR_OFASK:
            return N_OVR_OFASK
        if s.mv_sub == M_OVR_DEFROLL:
            return N_OVR_DEFROLL
        if s.mv_sub == M_OVR_HIT1:
            return N_OVR_HIT1
        if s.mv_sub == M_OVR_ATKROLL:
            return N_OVR_ATKROLL
        return N_OVR_HIT2
    if s.rec_next != NONE:
        return N_RECOVER
    return N_REPLACE

cdef inline int ghq_alive(const MaState *s, int p) noexcept nogil:
    return s.ghq_slot[p] < NSLOT and alive(s, s.ghq_slot[p])

cdef int first_hq(const MaState *s, int p) noexcept nogil:
    cdef int g
    for g in range(p * 16, p * 16 + 16):
        if alive(s, g) and TY_ROLE[s.st[g].type] == 1:
            return g
    return -1

cdef inline bint needs_replacement(const MaState *s, int p) noexcept nogil:
    """A lost GHQ is replaced by an HQ's cohesion roll; not at cohesion 12 or less."""
    return not ghq_alive(s, p) and s.coh[p] > 12 and first_hq(s, p) >= 0

cdef void start_turn(MaState *s) noexcept nogil:
    cdef int g
    s.phase = PH_INIT
    s.passed = 0
    s.ord_count = 0
    s.orders[0] = 0
    s.orders[1] = 0
    for g in range(NSLOT):
        s.fired_at_by[g] = 0
        s.st[g].flags &= ~(F_FIRED | F_MOVED | F_INDEP | F_OFSUF)
        s.st[g].posture = P_FIRING
        s.st[g].mp = 0
        s.st[g].steps = 0

cdef void finish_game(MaState *s) noexcept nogil:
    """End of the last turn: whoever holds the village (more stands on its squares) wins."""
    cdef int g, n[2]
    n[0] = 0
    n[1] = 0
    for g in range(NSLOT):
        if alive(s, g) and TER[s.st[g].y][s.st[g].x] == VILLAGE_T:
            n[side_of(g)] += 1
    s.phase = PH_OVER
    s.winner = 0 if n[0] > n[1] else (1 if n[1] > n[0] else 2)

cdef void next_recovery(MaState *s, int start) noexcept nogil:
    cdef int g, p
    for g in range(start, NSLOT):
        if alive(s, g) and (s.st[g].flags & (F_S | F_D)):
            s.rec_next = g
            return
    s.rec_next = NONE
    s.rep_pending = 0
    for p in range(2):
        if needs_replacement(s, p):
            s.rep_pending |= 1 << p
    if s.rep_pending == 0:
        end_of_turn(s)

cdef void end_of_turn(MaState *s) noexcept nogil:
    if s.turn >= s.turns:
        finish_game(s)
    else:
        s.turn += 1
        start_turn(s)

cdef void end_phase(MaState *s) noexcept nogil:
    cdef int g
    s.passed = 0
    s.to_move = s.first
    if s.phase == PH_POSTURE:
        s.phase = PH_FIRE
    elif s.phase == PH_FIRE:
        s.phase = PH_ORDERS
        s.ord_count = 0
        skip_dead_orders(s)
    elif s.phase == PH_MOVE:
        s.phase = PH_RECOVER
        next_recovery(s, 0)

cdef inline int orders_side(const MaState *s) noexcept nogil:
    return s.first if s.ord_count == 0 else 1 - s.first

cdef void skip_dead_orders(MaState *s) noexcept nogil:
    """A side without its GHQ gets no orders (no roll)."""
    cdef int g
    while s.phase == PH_ORDERS:
        if s.ord_count >= 2:
            s.phase = PH_MOVE
            s.to_move = s.first
            s.passed = 0
            for g in range(NSLOT):
                s.st[g].flags &= ~F_OFSUF
            return
        if ghq_alive(s, orders_side(s)):
            return
        s.orders[orders_side(s)] = 0
        s.ord_count += 1

cdef void alternate(MaState *s) noexcept nogil:
    """After one player's attack, attempt or mark: the other acts unless they passed."""
    cdef int q = 1 - s.to_move
    if not (s.passed >> q) & 1:
        s.to_move = q
    elif (s.passed >> s.to_move) & 1:
        end_phase(s)

cdef void do_pass(MaState *s) noexcept nogil:
    s.passed |= 1 << s.to_move
    if s.passed == 3:
        end_phase(s)
    else:
        s.to_move = 1 - s.to_move


# ----------------------------------------------------------------- attacks
cdef inline int atk_slot(const MaState *s, int local) noexcept nogil:
    return s.atk_side * 16 + local

cdef void advance_attack(MaState *s) noexcept nogil:
    """Next declared firer to resolve (from atk_cur on), or the end of the attack."""
    cdef int l
    if alive(s, s.atk_target):
        for l in range(s.atk_cur, 16):
            if (s.atk_firers >> l) & 1 and alive(s, atk_slot(s, l)):
                s.atk_cur = l
                s.atk_step = S_TOFIRE
                return
    finish_attack(s)

cdef bint any_fire(const MaState *s, int p, int target, int kind, uint16_t targets_mask) noexcept nogil:
    cdef int f, t
    for f in range(p * 16, p * 16 + 16):
        if not alive(s, f) or (s.st[f].flags & F_FIRED):
            continue
        if target >= 0:
            if can_fire(s, f, target, kind):
                return 1
        else:
            for t in range(16):
                if (targets_mask >> t) & 1 and can_fire(s, f, (1 - p) * 16 + t, kind):
                    return 1
    return 0

cdef void resume_mover(MaState *s) noexcept nogil:
    if s.mv_flags & 2:
        end_move(s)
    else:
        s.mv_sub = M_STEP
        s.to_move = side_of(s.mover)

cdef void after_opportunity(MaState *s) noexcept nogil:
    cdef int p = side_of(s.mover)
    if any_fire(s, p, -1, K_COVERING, s.of_firers):
        s.mv_sub = M_CFASK
        s.to_move = p
    else:
        resume_mover(s)

cdef void start_attack(MaState *s, int side, int kind, int firer, int target) noexcept nogil:
    """A close-combat attack with one firer, straight to its rolls."""
    s.atk_side = side
    s.atk_kind = kind
    s.atk_target = target
    s.atk_firers = <uint16_t>(1 << (firer & 15))
    s.atk_cur = 0
    s.atk_hit = 0
    s.hot = 0
    advance_attack(s)

cdef void close_done(MaState *s) noexcept nogil:
    s.ctarget = NONE
    end_move(s)

cdef bint retreat_ok(const MaState *s, int d, int a, int dir) noexcept nogil:
    """Stand d may retreat 1" in direction dir, away from assaulter a."""
    cdef int x = s.st[d].x + DX[dir], y = s.st[d].y + DY[dir], dx, dy
    if not on_map(x, y) or move_cost(s, d, x, y) == 0 or occupant(s, x, y, d) >= 0:
        return 0
    dx = iabs(x - <int>s.st[a].x)
    dy = iabs(y - <int>s.st[a].y)
    return (dx if dx > dy else dy) > dist(s, d, a)

cdef bint any_retreat(const MaState *s, int d, int a) noexcept nogil:
    cdef int dir
    for dir in range(8):
        if retreat_ok(s, d, a, dir):
            return 1
    return 0

cdef void finish_close(MaState *s, int kind, int hit) noexcept nogil:
    cdef int m = s.mover, t = s.ctarget
    if kind == K_ASLDEF:
        if alive(s, m) and alive(s, t):
            start_attack(s, side_of(m), K_ASSAULT, m, t)
        else:
            close_done(s)
    elif kind == K_ASSAULT:
        if hit == 2 and alive(s, t) and alive(s, m):
            if any_retreat(s, t, m):
                s.mv_sub = M_RETREAT
                s.to_move = side_of(t)
                return
            eliminate(s, t)          # cannot retreat: eliminated
        close_done(s)
    else:                            # K_OVR_OF
        if alive(s, m) and alive(s, t):
            s.mv_sub = M_OVR_DEFROLL
        else:
            close_done(s)

cdef void finish_attack(MaState *s) noexcept nogil:
    cdef int kind = s.atk_kind, hit = s.atk_hit
    s.atk_step = S_NONE
    s.atk_firers = 0
    s.atk_cur = 0
    s.atk_hit = 0
    s.hot = 0
    s.atk_target = NONE
    if kind == K_STANDARD:
        alternate(s)
        return
    if close_kind(kind):
        finish_close(s, kind, hit)
    elif not alive(s, s.mover):
        end_move(s)
    elif kind == K_OPPORTUNITY:
        if hit:
            s.mv_sub = M_STOPCHK
        else:
            after_opportunity(s)
    else:
        resume_mover(s)

cdef void declare(MaState *s, int p, int f_local, int t_local, int kind) noexcept nogil:
    if s.atk_step == S_NONE:
        s.atk_side = p
        s.atk_kind = kind
        s.atk_target = (1 - p) * 16 + t_local
        s.atk_firers = 0
        s.atk_step = S_DECLARE
        s.atk_hit = 0
    s.atk_firers |= <uint16_t>(1 << f_local)


# ----------------------------------------------------------------- movement
cdef bint can_stop_on(const MaState *s, int g, int x, int y) noexcept nogil:
    return occupant(s, x, y, g) < 0

cdef int step_cost(const MaState *s, int g, int d) noexcept nogil:
    """Half-MP the step in direction d costs, or -1 if it is not allowed."""
    cdef int x = s.st[g].x + DX[d], y = s.st[g].y + DY[d], c, o, e, cx, cy, left, ce
    if not on_map(x, y):
        return -1
    c = move_cost(s, g, x, y)
    if c == 0:
        return -1
    if c > s.st[g].mp:
        if s.st[g].steps > 0 or s.st[g].mp == 0:
            return -1
        c = s.st[g].mp          # a stand allowed to move moves at least 1"
    o = occupant(s, x, y, g)
    if o >= 0:
        if side_of(o) != side_of(g):
            # only a vehicle passes an enemy vehicle (after a nerve roll, from
            # a square it could halt on); other enemies block: overrun them
            if not (TY_DEF[s.st[g].type] == D_ARMOUR and TY_DEF[s.st[o].type] == D_ARMOUR
                    and can_stop_on(s, g, s.st[g].x, s.st[g].y)):
                return -1
        # passing through: there must be MP left to step off again
        left = s.st[g].mp - c
        for e in range(8):
            cx = x + DX[e]
            cy = y + DY[e]
            if on_map(cx, cy) and occupant(s, cx, cy, g) < 0:
                ce = move_cost(s, g, cx, cy)
                if ce > 0 and ce <= left:
                    return c
        return -1
    return c

cdef bint can_move(const MaState *s, int g) noexcept nogil:
    return (alive(s, g) and s.st[g].posture != P_FIRING and not (s.st[g].flags & F_MOVED)
            and TY_MP[s.st[g].type] > 0)

cdef bint can_assault(const MaState *s, int m, int t) noexcept nogil:
    """Close assault: infantry in movement posture with MP left, ending adjacent."""
    return (alive(s, t) and side_of(t) != side_of(m) and TY_DEF[s.st[m].type] == D_PERSONNEL
            and s.st[m].posture == P_MOVE and s.st[m].mp > 0 and dist(s, m, t) == 1
            and can_stop_on(s, m, s.st[m].x, s.st[m].y) and combat_diff(s, m, t, K_ASSAULT) >= CRT_MIN)

cdef int overrun_cost(const MaState *s, int m, int t) noexcept nogil:
    """MP an overrun of t costs m (entering t's square), or -1 if not allowed:
    vehicles overrun non-vehicles, not into blocking terrain (woods, buildings)."""
    cdef int c
    if (not alive(s, t) or side_of(t) == side_of(m) or TY_DEF[s.st[m].type] != D_ARMOUR
            or TY_DEF[s.st[t].type] == D_ARMOUR or dist(s, m, t) != 1
            or not can_stop_on(s, m, s.st[m].x, s.st[m].y) or T_BLOCK[TER[s.st[t].y][s.st[t].x]]):
        return -1
    c = move_cost(s, m, s.st[t].x, s.st[t].y)
    if c == 0 or s.st[m].mp == 0:
        return -1
    if c > s.st[m].mp:
        if s.st[m].steps > 0:
            return -1
        c = s.st[m].mp
    return c

cdef void end_move(MaState *s) noexcept nogil:
    cdef int g = s.mover
    if g != NONE and alive(s, g):
        s.st[g].flags |= F_MOVED
        s.st[g].mp = 0
    s.mover = NONE
    s.mv_sub = M_NONE
    s.mv_flags = 0
    s.mv_dir = 0
    s.of_firers = 0
    s.to_move = side_of(g) if g != NONE else s.to_move
    alternate(s)

cdef void end_attempt_failed(MaState *s) noexcept nogil:
    cdef int g = s.mover
    s.mover = NONE
    s.mv_sub = M_NONE
    s.mv_flags = 0
    s.mv_dir = 0
    s.to_move = side_of(g)
    alternate(s)

cdef int move_mod(const MaState *s, int g) noexcept nogil:
    cdef int m = cohesion_mods(s, g)
    if not (s.mv_flags & 1) and not TY_RECON[s.st[g].type]:
        m += 3                   # independent move
    if TY_ROLE[s.st[g].type] != 0:
        m -= 2                   # an HQ/GHQ in the group
    return m

cdef void after_step(MaState *s) noexcept nogil:
    """Opportunity fire may halt the mover where it could end its move."""
    cdef int g = s.mover, q = 1 - side_of(g)
    if (not (s.st[g].flags & F_OFSUF) and can_stop_on(s, g, s.st[g].x, s.st[g].y)
            and any_fire(s, q, g, K_OPPORTUNITY, 0)):
        s.mv_sub = M_OFASK
        s.to_move = q


# ----------------------------------------------------------------- vtable: init, player, legal
cdef void ma_init(void *state, const void *params, uint64_t seed) noexcept nogil:
    cdef MaState *s = <MaState *>state
    cdef const MaParams *prm = <const MaParams *>params
    cdef int p, v, g
    memset(s, 0, sizeof(MaState))
    s.turns = prm.turns
    s.det = prm.det
    s.coh[0] = prm.coh[0]
    s.coh[1] = prm.coh[1]
    s.quality[0] = prm.quality[0]
    s.quality[1] = prm.quality[1]
    s.viewer = -1
    s.turn = 1
    s.winner = -1
    s.atk_target = NONE
    s.mover = NONE
    s.rec_next = NONE
    s.ctarget = NONE
    s.options = prm.options & 3
    for p in range(2):
        for v in range(10):
            s.deck[p][v] = FULL_DECK[v]
        s.ghq_slot[p] = NONE
        for g in range(p * 16, p * 16 + 16):
            if START[g].type != NONE and TY_ROLE[START[g].type] == 2:
                s.ghq_slot[p] = g
    memcpy(s.st, START, sizeof(START))
    if prm.deploy == 1:
        for g in range(NSLOT):
            if s.st[g].type != NONE:
                if side_of(g) == 0:
                    s.st[g].x += CLOSE_SHIFT
                else:
                    s.st[g].x -= CLOSE_SHIFT
    start_turn(s)


cdef int ma_current_player(const void *state) noexcept nogil:
    cdef const MaState *s = <const MaState *>state
    cdef int n = node(s)
    if n == N_OVER:
        return ARD_TERMINAL
    if n in (N_CARD0, N_CARD1, N_BRK0, N_BRK1, N_TOFIRE, N_CRT, N_INIT, N_ORDERS, N_MVROLL,
             N_STOPCHK, N_RECOVER, N_PASSCHK, N_OVR_DEFROLL, N_OVR_HIT1, N_OVR_ATKROLL, N_OVR_HIT2,
             N_REPLACE):
        return ARD_CHANCE
    if n == N_DECL:
        return s.atk_side
    if n == N_LEAD:
        return s.init_side
    return s.to_move


cdef int ma_legal_actions(const void *state, ard_action *out) noexcept nogil:
    cdef const MaState *s = <const MaState *>state
    cdef int k = node(s), n = 0, p, f, t, l, g, d, q
    if k == N_LEAD:
        out[0] = A_LEAD
        out[1] = A_FOLLOW
        return 2
    p = s.to_move
    if k == N_POSTURE:
        out[n] = A_PASS
        n += 1
        for l in range(16):
            g = p * 16 + l
            if alive(s, g) and s.st[g].posture == P_FIRING and TY_MP[s.st[g].type] > 0:
                out[n] = A_POSTURE + 2 * l
                out[n + 1] = A_POSTURE + 2 * l + 1
                n += 2
        return n
    if k == N_FIRE:
        for f in range(16):
            for t in range(16):
                if can_fire(s, p * 16 + f, (1 - p) * 16 + t, K_STANDARD):
                    out[n] = A_FIRE + f * 16 + t
                    n += 1
        out[n] = A_PASS
        return n + 1
    if k == N_DECL:
        p = s.atk_side
        t = s.atk_target & 15
        for f in range(16):
            if not (s.atk_firers >> f) & 1 and can_fire(s, p * 16 + f, s.atk_target, s.atk_kind):
                out[n] = A_FIRE + f * 16 + t
                n += 1
        out[n] = A_GO
        return n + 1
    if k == N_OFASK:
        t = s.mover & 15
        for f in range(16):
            if can_fire(s, p * 16 + f, s.mover, K_OPPORTUNITY):
                out[n] = A_FIRE + f * 16 + t
                n += 1
        out[n] = A_PASS
        return n + 1
    if k == N_CFASK:
        for f in range(16):
            for t in range(16):
                if (s.of_firers >> t) & 1 and can_fire(s, p * 16 + f, (1 - p) * 16 + t, K_COVERING):
                    out[n] = A_FIRE + f * 16 + t
                    n += 1
        out[n] = A_PASS
        return n + 1
    if k == N_MOVE:
        out[n] = A_PASS
        n += 1
        for l in range(16):
            g = p * 16 + l
            if can_move(s, g) and s.orders[p] > 0 and ghq_alive(s, p):
                out[n] = A_ORDER + l
                n += 1
        for l in range(16):
            g = p * 16 + l
            if can_move(s, g) and not (s.st[g].flags & F_INDEP):
                out[n] = A_INDEP + l
                n += 1
        return n
    if k == N_STEP:
        g = s.mover
        for d in range(8):
            if step_cost(s, g, d) > 0:
                out[n] = A_STEP + d
                n += 1
        if can_stop_on(s, g, s.st[g].x, s.st[g].y):
            for d in range(8):
                out[n] = A_STOP + d
                n += 1
        for t in range(16):
            if can_assault(s, g, (1 - p) * 16 + t):
                out[n] = A_ASSAULT + t
                n += 1
        for t in range(16):
            if overrun_cost(s, g, (1 - p) * 16 + t) > 0:
                out[n] = A_OVERRUN + t
                n += 1
        return n
    if k == N_RETREAT:
        for d in range(8):
            if retreat_ok(s, s.ctarget, s.mover, d):
                out[n] = A_RETREAT + d
                n += 1
        return n
    if k == N_OVR_OFASK:
        if can_fire(s, s.ctarget, s.mover, K_OVR_OF):
            out[n] = A_FIRE + (s.ctarget & 15) * 16 + (s.mover & 15)
            n += 1
        out[n] = A_PASS
        return n + 1
    return 0


# ----------------------------------------------------------------- vtable: chance
cdef inline int card_side(int k) noexcept nogil:
    return 0 if k == N_CARD0 or k == N_BRK0 else 1

cdef inline bint hidden_from_view(const MaState *s, int p) noexcept nogil:
    return s.viewer >= 0 and s.viewer != p

cdef double view_break_estimate(const MaState *s, int p) noexcept nogil:
    """In a view that does not know p's total: a rough chance that p breaks now
    (expected card 85/13 each); only used to weight the view's chance node."""
    cdef double expect = s.ncards[p] * 85.0 / 13.0
    cdef double limit = bp_units(s, p) * s.det * 7 / 100.0
    cdef double x = 0.5 + (expect - limit) / 20.0
    if x < 0.05:
        return 0.05
    if x > 0.95:
        return 0.95
    return x

cdef int natural_outcomes(int c, bint hot, bint low, ard_action *a, double *pr) noexcept nogil:
    """A 'to fire' roll where rolls 1..c pass and natural rolls matter: with Hot
    Shot a passing natural 1 is `c:n1`; with Low Ammunition a natural 20 is
    `c:n20` (a failure that leaves the firer low on ammunition)."""
    cdef int r, ok = 0, bad = 0, n = 0
    for r in range(1, 21):
        if (r == 1 and hot and r <= c) or (r == 20 and low):
            continue
        if r <= c:
            ok += 1
        else:
            bad += 1
    if ok:
        a[n] = A_OK
        pr[n] = ok / 20.0
        n += 1
    if bad:
        a[n] = A_FAIL
        pr[n] = bad / 20.0
        n += 1
    if hot and c >= 1:
        a[n] = A_N1
        pr[n] = 0.05
        n += 1
    if low:
        a[n] = A_N20
        pr[n] = 0.05
        n += 1
    return n

cdef int two_outcomes(double p_ok, ard_action *a, double *pr) noexcept nogil:
    if p_ok >= 1.0:
        a[0] = A_OK
        pr[0] = 1.0
        return 1
    if p_ok <= 0.0:
        a[0] = A_FAIL
        pr[0] = 1.0
        return 1
    a[0] = A_OK
    pr[0] = p_ok
    a[1] = A_FAIL
    pr[1] = 1.0 - p_ok
    return 2

cdef int ma_chance_outcomes(const void *state, ard_action *a, double *pr) noexcept nogil:
    cdef const MaState *s = <const MaState *>state
    cdef int k = node(s), n = 0, p, v, left, i, r, q, c, mod, g, f, t, m, okn
    cdef double probs[10]
    cdef double crt[5]
    cdef double pa, pt, pb
    if k == N_CARD0 or k == N_CARD1:
        p = card_side(k)
        left = 0
        for v in range(10):
            probs[v] = FULL_DECK[v] if hidden_from_view(s, p) else s.deck[p][v]
            left += <int>probs[v]
        for v in range(10):
            if probs[v] > 0:
                a[n] = A_CARD + v
                pr[n] = probs[v] / left
                n += 1
        return n
    if k == N_BRK0 or k == N_BRK1:
        p = card_side(k)
        if hidden_from_view(s, p):
            pb = view_break_estimate(s, p)
            a[0] = A_BRK_NO
            pr[0] = 1.0 - pb
            a[1] = A_BRK_YES
            pr[1] = pb
            return 2
        a[0] = A_BRK_YES if over_bp(s, p, s.total[p]) else A_BRK_NO
        pr[0] = 1.0
        return 1
    if k == N_TOFIRE:
        f = atk_slot(s, s.atk_cur)
        mod = tofire_mod(s, f, s.atk_target, s.atk_kind)
        if not (s.options & 3):
            return two_outcomes(p_pass(s.coh[s.atk_side], mod), a, pr)
        return natural_outcomes(s.coh[s.atk_side] - mod, s.options & 1, s.options & 2, a, pr)
    if k == N_CRT or k == N_OVR_HIT1 or k == N_OVR_HIT2:
        if k == N_CRT:
            crt_probs(s, atk_slot(s, s.atk_cur), s.atk_target, s.atk_kind, s.hot, crt)
        elif k == N_OVR_HIT1:
            crt_table(5, 0, crt)              # the overrunner's attack on the +5 column
        else:
            crt_table(3 if TY_AP[s.st[s.ctarget].type] >= 5 else 2, 0, crt)
        for r in range(5):
            if crt[r] > 0:
                a[n] = A_CRT + r
                pr[n] = crt[r]
                n += 1
        return n
    if k == N_PASSCHK:
        return two_outcomes(p_pass(s.coh[side_of(s.mover)], cohesion_mods(s, s.mover) + 3), a, pr)
    if k == N_OVR_DEFROLL:
        return two_outcomes(p_pass(s.coh[side_of(s.ctarget)], cohesion_mods(s, s.ctarget)), a, pr)
    if k == N_OVR_ATKROLL:
        mod = cohesion_mods(s, s.mover)
        if TY_DEF[s.st[s.ctarget].type] == D_PERSONNEL and TY_AP[s.st[s.ctarget].type] >= 2:
            mod += 3
        return two_outcomes(p_pass(s.coh[side_of(s.mover)], mod), a, pr)
    if k == N_REPLACE:
        p = 0 if s.rep_pending & 1 else 1
        g = first_hq(s, p)
        return two_outcomes(p_pass(s.coh[p], REPLACE_MOD[p] + cohesion_mods(s, g)), a, pr)
    if k == N_INIT:
        # 1D6 + cohesion each, ties rerolled
        pa = 0.0
        pt = 0.0
        for i in range(1, 7):
            for r in range(1, 7):
                if i + s.coh[0] > r + s.coh[1]:
                    pa += 1.0
                elif i + s.coh[0] == r + s.coh[1]:
                    pt += 1.0
        pb = 36.0 - pa - pt
        if pb == 0:
            a[0] = A_INIT
            pr[0] = 1.0
            return 1
        if pa == 0:
            a[0] = A_INIT + 1
            pr[0] = 1.0
            return 1
        a[0] = A_INIT
        pr[0] = pa / (pa + pb)
        a[1] = A_INIT + 1
        pr[1] = pb / (pa + pb)
        return 2
    if k == N_ORDERS:
        q = s.quality[orders_side(s)]
        for v in range(ORD_MAX + 1):
            probs[v] = 0.0
        for r in range(2, 13):
            probs[orders_for(r + q)] += TWO_D6[r] / 36.0
        for v in range(ORD_MAX + 1):
            if probs[v] > 0:
                a[n] = A_ORDERS + v
                pr[n] = probs[v]
                n += 1
        return n
    if k == N_MVROLL:
        return two_outcomes(p_pass(s.coh[side_of(s.mover)], move_mod(s, s.mover)), a, pr)
    if k == N_STOPCHK:
        return two_outcomes(p_pass(s.coh[side_of(s.mover)], cohesion_mods(s, s.mover)), a, pr)
    if k == N_RECOVER:
        g = s.rec_next
        mod = recovery_mod(s, g)
        c = s.coh[side_of(g)] - mod          # rolls r with r <= c succeed
        if c > 19:
            c = 19
        okn = c - 1 if c >= 2 else 0         # successes among rolls 2..19
        if okn > 0:
            a[n] = A_OK
            pr[n] = okn / 20.0
            n += 1
        if okn < 18:
            a[n] = A_FAIL
            pr[n] = (18 - okn) / 20.0
            n += 1
        a[n] = A_N1
        pr[n] = 0.05
        a[n + 1] = A_N20
        pr[n + 1] = 0.05
        return n + 2
    return 0

cdef int orders_for(int roll) noexcept nogil:
    cdef int i
    for i in range(NORD):
        if roll <= ORD_AT[i]:
            return ORD_N[i]
    return ORD_MAX

cdef int recovery_mod(const MaState *s, int g) noexcept nogil:
    cdef int m = cohesion_mods(s, g), h
    for h in range(side_of(g) * 16, side_of(g) * 16 + 16):
        if (h != g and alive(s, h) and TY_ROLE[s.st[h].type] != 0 and not (s.st[h].flags & F_S)
                and dist(s, g, h) <= 1):
            return m - 1
    return m

cdef ard_action ma_sample_chance(const void *state, ard_rng *rng) noexcept nogil:
    cdef ard_action acts[16]
    cdef double probs[16]
    cdef int n = ma_chance_outcomes(state, acts, probs), i
    cdef double u = ard_rng_double(rng)
    if n == 0:
        return -1                        # not a chance node
    for i in range(n - 1):
        u -= probs[i]
        if u < 0:
            return acts[i]
    return acts[n - 1]


# ----------------------------------------------------------------- vtable: apply
cdef void apply_chance(MaState *s, int k, ard_action action) noexcept nogil:
    cdef int p, g, v
    if k == N_CARD0 or k == N_CARD1:
        p = card_side(k)
        s.ncards[p] += 1
        if action != ARD_HIDDEN_OUTCOME and not hidden_from_view(s, p):
            v = action - A_CARD
            if s.deck[p][v] > 0:
                s.deck[p][v] -= 1
            s.total[p] += v + 1
        s.cards_pending[p] -= 1
        if s.cards_pending[p] == 0:
            s.brk_pending |= 1 << p
    elif k == N_BRK0 or k == N_BRK1:
        p = card_side(k)
        s.brk_pending &= ~(1 << p)
        if action == A_BRK_YES:
            s.broken |= 1 << p
            s.phase = PH_OVER
            s.winner = 1 - p
        else:
            s.ncards_ok[p] = s.ncards[p]
    elif k == N_TOFIRE:
        g = atk_slot(s, s.atk_cur)
        if s.atk_kind != K_ASLDEF and s.atk_kind != K_ASSAULT:
            s.st[g].flags |= F_FIRED         # close assault is not fire
            s.fired_at_by[s.atk_target] |= <uint16_t>(1 << (g & 15))
        if action == A_N20:
            s.low_ammo |= <uint32_t>1 << g
        if action == A_OK or action == A_N1:
            s.atk_step = S_CRT
            s.hot = 1 if action == A_N1 else 0
        else:
            s.atk_cur += 1
            advance_attack(s)
    elif k == N_CRT:
        v = action - A_CRT
        if s.atk_kind == K_ASSAULT:
            if v == 3 or (v == 2 and (s.st[s.atk_target].flags & F_S)):
                s.atk_hit = 2                # a D result: the defender must retreat
        elif v >= 1 and v <= 3:
            s.atk_hit = 1
        apply_result(s, s.atk_target, v)
        s.hot = 0
        s.atk_cur += 1
        advance_attack(s)
    elif k == N_PASSCHK:
        if action == A_OK:
            do_step(s, s.mv_dir)
        else:
            end_move(s)                      # halts adjacent
    elif k == N_OVR_DEFROLL:
        s.mv_sub = M_OVR_ATKROLL if action == A_OK else M_OVR_HIT1
    elif k == N_OVR_HIT1:
        apply_result(s, s.ctarget, action - A_CRT)
        if alive(s, s.ctarget):
            s.mv_sub = M_OVR_ATKROLL
        else:
            close_done(s)
    elif k == N_OVR_ATKROLL:
        if action == A_OK:
            close_done(s)
        else:
            s.mv_sub = M_OVR_HIT2
    elif k == N_OVR_HIT2:
        apply_result(s, s.mover, action - A_CRT)
        close_done(s)
    elif k == N_REPLACE:
        p = 0 if s.rep_pending & 1 else 1
        s.rep_pending &= ~(1 << p)
        if action == A_OK:
            s.ghq_slot[p] = first_hq(s, p)
        if s.rep_pending == 0:
            end_of_turn(s)
    elif k == N_INIT:
        s.init_side = action - A_INIT
        s.phase = PH_LEAD
    elif k == N_ORDERS:
        s.orders[orders_side(s)] = action - A_ORDERS
        s.ord_count += 1
        skip_dead_orders(s)
    elif k == N_MVROLL:
        g = s.mover
        if action == A_OK:
            s.mv_sub = M_STEP
            s.st[g].steps = 0
            s.st[g].mp = 2 * TY_MP[s.st[g].type] if s.st[g].posture == P_MOVE else 2 * (TY_MP[s.st[g].type] // 2)
        else:
            end_attempt_failed(s)
    elif k == N_STOPCHK:
        if action != A_OK:
            s.mv_flags |= 2
        after_opportunity(s)
    elif k == N_RECOVER:
        g = s.rec_next
        if action == A_N1:
            s.st[g].flags &= ~(F_S | F_D)
        elif action == A_OK:
            s.st[g].flags &= ~F_S
        elif action == A_N20:
            apply_result(s, g, 2)
        next_recovery(s, g + 1)


cdef void do_step(MaState *s, int d) noexcept nogil:
    cdef int g = s.mover, c = step_cost(s, g, d)
    if c < 0:
        c = s.st[g].mp
    s.st[g].mp -= c
    s.st[g].x += DX[d]
    s.st[g].y += DY[d]
    s.st[g].facing = d
    s.st[g].steps += 1
    s.mv_sub = M_STEP
    after_step(s)


cdef void ma_apply(void *state, ard_action action) noexcept nogil:
    cdef MaState *s = <MaState *>state
    cdef int k = node(s), p, f, t, g, d, c, o
    if k == N_OVER:
        return
    if ma_current_player(state) == ARD_CHANCE:
        apply_chance(s, k, action)
        return
    if k == N_LEAD:
        s.first = s.init_side if action == A_LEAD else 1 - s.init_side
        s.phase = PH_POSTURE
        s.to_move = s.first
        s.passed = 0
        return
    p = s.to_move
    if action == A_PASS:
        if k == N_OFASK:
            s.mv_sub = M_STEP
            s.to_move = side_of(s.mover)
        elif k == N_OVR_OFASK:
            s.mv_sub = M_OVR_DEFROLL
        elif k == N_CFASK:
            resume_mover(s)
        else:
            do_pass(s)
        return
    if action == A_GO:
        if s.atk_kind == K_OPPORTUNITY:
            s.of_firers = s.atk_firers
            s.st[s.mover].flags |= F_OFSUF
        s.atk_cur = 0
        advance_attack(s)
        return
    if action < A_GO:
        f = (action - A_FIRE) // 16
        t = (action - A_FIRE) % 16
        if k == N_DECL:
            declare(s, s.atk_side, f, t, s.atk_kind)
        elif k == N_OFASK:
            declare(s, p, f, t, K_OPPORTUNITY)
        elif k == N_CFASK:
            declare(s, p, f, t, K_COVERING)
        elif k == N_OVR_OFASK:
            declare(s, p, f, t, K_OVR_OF)
        else:
            declare(s, p, f, t, K_STANDARD)
        return
    if action < A_ORDER:
        g = p * 16 + (action - A_POSTURE) // 2
        s.st[g].posture = P_MOVE if (action - A_POSTURE) % 2 == 0 else P_FIREMOVE
        alternate(s)
        return
    if action < A_STEP:
        if action < A_INDEP:
            g = p * 16 + action - A_ORDER
            s.orders[p] -= 1
            s.mv_flags = 1
        else:
            g = p * 16 + action - A_INDEP
            s.orders[p] = 0                  # going independent forfeits the orders left
            s.st[g].flags |= F_INDEP
            s.mv_flags = 0
        s.mover = g
        s.mv_sub = M_ROLL
        return
    g = s.mover
    if action < A_STOP:
        d = action - A_STEP
        o = occupant(s, s.st[g].x + DX[d], s.st[g].y + DY[d], g)
        if o >= 0 and side_of(o) != side_of(g):
            s.mv_sub = M_PASSCHK            # passing enemy armour: nerve roll first
            s.mv_dir = d
            return
        do_step(s, d)
        return
    if action < A_OK:
        s.st[g].facing = action - A_STOP
        end_move(s)
        return
    if action >= A_RETREAT:
        t = s.ctarget
        s.st[t].x += DX[action - A_RETREAT]
        s.st[t].y += DY[action - A_RETREAT]
        close_done(s)
        return
    t = (1 - p) * 16 + (action - A_ASSAULT) % 16
    s.ctarget = t
    s.st[t].flags |= F_MOVED                # pinned: it may not move this phase
    if action < A_OVERRUN:
        s.mv_sub = M_CLOSE
        if s.st[t].posture == P_FIRING and combat_diff(s, t, g, K_ASLDEF) >= CRT_MIN:
            start_attack(s, side_of(t), K_ASLDEF, t, g)
        else:
            start_attack(s, p, K_ASSAULT, g, t)
        return
    c = overrun_cost(s, g, t)
    s.st[g].mp -= c if c > 0 else s.st[g].mp
    if can_fire(s, t, g, K_OVR_OF):
        s.mv_sub = M_OVR_OFASK
        s.to_move = side_of(t)
    else:
        s.mv_sub = M_OVR_DEFROLL


# ----------------------------------------------------------------- vtable: returns, evaluate, hash
cdef void ma_returns(const void *state, double *out) noexcept nogil:
    cdef const MaState *s = <const MaState *>state
    out[0] = 0.0
    out[1] = 0.0
    if s.phase == PH_OVER and (s.winner == 0 or s.winner == 1):
        out[s.winner] = 1.0
        out[1 - s.winner] = -1.0

cdef double stand_value(const MaState *s, int g) noexcept nogil:
    cdef int ty = s.st[g].type
    cdef double v = 1.0 + (TY_AP[ty] + TY_HE[ty] + TY_DV[ty]) / 10.0
    if TY_ROLE[ty] != 0:
        v += 1.0
    if s.st[g].flags & F_S:
        v *= 0.85
    if s.st[g].flags & F_D:
        v *= 0.6
    return v

cdef double side_score(const MaState *s, int p) noexcept nogil:
    """Material (stands alive, hurt by S/D) and room left before the break
    point, in material units."""
    cdef int g
    cdef double mat = 0.0, expect, limit
    for g in range(p * 16, p * 16 + 16):
        if alive(s, g):
            mat += stand_value(s, g)
    if hidden_from_view(s, p):
        expect = s.ncards[p] * 85.0 / 13.0
    else:
        expect = s.total[p]
    limit = bp_units(s, p) * s.det * 7 / 100.0
    return mat - 4.0 * expect / (limit + 1.0)

cdef double reach(const MaState *s, int g) noexcept nogil:
    """Inches stand g may still move this turn: its movement points once its
    move has started, else what its posture promises before the movement
    phase is over (nothing after a failed or finished move)."""
    cdef int flags = s.st[g].flags
    if s.phase > PH_MOVE or flags & F_MOVED:
        return 0.0
    if s.st[g].mp:
        return s.st[g].mp / 2.0
    if flags & F_INDEP:
        return 0.0
    if s.st[g].posture == P_MOVE:
        return TY_MP[s.st[g].type]
    if s.st[g].posture == P_FIREMOVE:
        return TY_MP[s.st[g].type] // 2
    return 0.0

cdef double village_score(const MaState *s, int p) noexcept nogil:
    """The scenario's victory condition, seen from afar: each live stand
    counts by how near it is to the village (linear, so every inch gained is
    worth the same and a one-step search sees it; half of what it may still
    move this turn counts as gained, so that postures and orders that lead to
    movement show at once), a stand in the village counts fully and more so
    as the last turn nears."""
    cdef int g
    cdef double d, v = 0.0, hold = 0.5 + 0.5 * s.turn / (s.turns if s.turns else 1)
    for g in range(p * 16, p * 16 + 16):
        if not alive(s, g):
            continue
        d = VDIST[s.st[g].y][s.st[g].x]
        if d == 0:
            v += 1.0 + hold
            continue
        d -= 0.5 * reach(s, g)
        if d < 0.5:
            d = 0.5
        if d < 20:
            v += 1.0 - d / 20.0
    return v

cdef double pending_attack_value(const MaState *s, int player) noexcept nogil:
    """Expected damage of the declared attack (so a one-ply search sees it)."""
    cdef int l, f
    cdef double crt[5], v = 0.0, pf, val
    if s.atk_step == S_NONE or s.atk_target == NONE or not alive(s, s.atk_target):
        return 0.0
    val = stand_value(s, s.atk_target)
    for l in range(16):
        if (s.atk_firers >> l) & 1:
            f = s.atk_side * 16 + l
            if not alive(s, f):
                continue
            if s.atk_step == S_CRT and l == s.atk_cur:
                pf = 1.0
            elif l < s.atk_cur or (s.st[f].flags & F_FIRED):
                continue
            else:
                pf = p_pass(s.coh[s.atk_side], tofire_mod(s, f, s.atk_target, s.atk_kind))
            crt_probs(s, f, s.atk_target, s.atk_kind, s.hot if l == s.atk_cur else 0, crt)
            v += pf * val * (crt[4] + 0.6 * crt[3] + 0.3 * crt[2] + 0.15 * crt[1])
    return v if s.atk_side == player else -v

cdef double ma_evaluate(const void *state, int player) noexcept nogil:
    cdef const MaState *s = <const MaState *>state
    cdef double a, b, e
    if s.phase == PH_OVER:
        if s.winner == player:
            return 1.0
        if s.winner == 1 - player:
            return -1.0
        return 0.0
    a = side_score(s, player)
    b = side_score(s, 1 - player)
    # Material as a share of the whole, plus the village race: one inch
    # nearer for one stand is worth about 0.002, a stand in the village 0.05
    # to 0.08 (the game is won there; material only matters on the way).
    e = (a - b + pending_attack_value(s, player)) / (a + b + 10.0) \
        + 0.04 * (village_score(s, player) - village_score(s, 1 - player))
    if e > 1.0:
        e = 1.0
    if e < -1.0:
        e = -1.0
    return 0.95 * e

cdef uint64_t ma_hash(const void *state) noexcept nogil:
    return ard_hash_bytes(state, sizeof(MaState))


# ----------------------------------------------------------------- vtable: hidden information
cdef void ma_observe(const void *state, int player, void *out_view) noexcept nogil:
    cdef MaState *v = <MaState *>out_view
    cdef int q = 1 - player
    if out_view != state:
        memcpy(out_view, state, sizeof(MaState))
    v.total[q] = 0
    memset(v.deck[q], 0, 10)
    v.viewer = player

cdef int draw_sequence(int n, ard_rng *rng, uint8_t *deck, int *cards) noexcept nogil:
    """Draws n cards without replacement from deck (counts by value), into cards."""
    cdef int i, v, left = 0, u
    for v in range(10):
        left += deck[v]
    for i in range(n):
        u = <int>ard_rng_below(rng, left)
        for v in range(10):
            if u < deck[v]:
                break
            u -= deck[v]
        deck[v] -= 1
        left -= 1
        cards[i] = v + 1
    return 0

cdef void ma_determinize(void *view, int player, ard_rng *rng) noexcept nogil:
    """Fill the opponent's card total and deck with a draw of ncards cards that
    kept every passed break check (the first ncards_ok cards sum to at most the
    break point) and, if it broke, exceeds it."""
    cdef MaState *s = <MaState *>view
    cdef int q = 1 - player, n, ok, tries, i, sum_ok, tot, v
    cdef uint8_t deck[10]
    cdef int cards[64]
    s.viewer = -1
    if player != 0 and player != 1:
        return
    n = s.ncards[q]
    ok = s.ncards_ok[q]
    if n > 52:
        n = 52
    for tries in range(2000):
        memcpy(deck, FULL_DECK, 10)
        draw_sequence(n, rng, deck, cards)
        sum_ok = 0
        tot = 0
        for i in range(n):
            tot += cards[i]
            if i < ok:
                sum_ok += cards[i]
        if over_bp(s, q, sum_ok):
            continue
        if (s.broken >> q) & 1 and not over_bp(s, q, tot):
            continue
        break
    else:
        # every try failed: the lowest cards for the checked part, the highest for the rest
        memcpy(deck, FULL_DECK, 10)
        tot = 0
        v = 0
        for i in range(n):
            if i < ok:
                v = 0
                while deck[v] == 0:
                    v += 1
            else:
                v = 9
                while deck[v] == 0:
                    v -= 1
            deck[v] -= 1
            tot += v + 1
    memcpy(s.deck[q], deck, 10)
    s.total[q] = tot

cdef int ma_viewer(const void *state) noexcept nogil:
    return (<const MaState *>state).viewer

cdef int ma_action_visible(const void *state, ard_action action, int player) noexcept nogil:
    cdef const MaState *s = <const MaState *>state
    cdef int k = node(s)
    if k == N_CARD0 or k == N_CARD1:
        return 1 if player == card_side(k) else 0
    return 1


# ----------------------------------------------------------------- notation
cdef int put_text(char *buf, int pos, const char *text) noexcept nogil:
    cdef int i = 0
    while text[i] and pos < 31:
        buf[pos] = text[i]
        pos += 1
        i += 1
    return pos

cdef int put_int(char *buf, int pos, int v) noexcept nogil:
    if v >= 10:
        buf[pos] = c'0' + v // 10
        pos += 1
    buf[pos] = c'0' + v % 10
    return pos + 1

cdef const char *name_of(int g) noexcept nogil:
    if NAMES[g][0]:
        return &NAMES[g][0]
    return b"#"

cdef int actor(const MaState *s) noexcept nogil:
    cdef int k = node(s)
    if k == N_DECL:
        return s.atk_side
    if k == N_LEAD:
        return s.init_side
    return s.to_move & 1

cdef int ma_action_to_string(const void *state, ard_action a, char *buf, int buflen) noexcept nogil:
    cdef const MaState *s = <const MaState *>state
    cdef char tmp[40]
    cdef int n = 0, p = actor(s), f, t
    if a == ARD_HIDDEN_OUTCOME:
        n = put_text(tmp, 0, b"?")
    elif a < 0 or a >= NUM_ACTIONS:
        return -1
    elif a < A_GO:
        f = p * 16 + (a - A_FIRE) // 16
        t = (1 - p) * 16 + (a - A_FIRE) % 16
        n = put_text(tmp, 0, b"fire ")
        n = put_text(tmp, n, name_of(f))
        n = put_text(tmp, n, b">")
        n = put_text(tmp, n, name_of(t))
    elif a == A_GO:
        n = put_text(tmp, 0, b"go")
    elif a == A_PASS:
        n = put_text(tmp, 0, b"pass")
    elif a == A_LEAD:
        n = put_text(tmp, 0, b"lead")
    elif a == A_FOLLOW:
        n = put_text(tmp, 0, b"follow")
    elif a < A_ORDER:
        f = p * 16 + (a - A_POSTURE) // 2
        n = put_text(tmp, 0, b"posture ")
        n = put_text(tmp, n, name_of(f))
        n = put_text(tmp, n, b" move" if (a - A_POSTURE) % 2 == 0 else b" firemove")
    elif a < A_INDEP:
        n = put_text(tmp, 0, b"order ")
        n = put_text(tmp, n, name_of(p * 16 + a - A_ORDER))
    elif a < A_STEP:
        n = put_text(tmp, 0, b"indep ")
        n = put_text(tmp, n, name_of(p * 16 + a - A_INDEP))
    elif a < A_STOP:
        n = put_text(tmp, 0, b"step ")
        n = put_text(tmp, n, DIR_NAMES[a - A_STEP])
    elif a < A_OK:
        n = put_text(tmp, 0, b"stop ")
        n = put_text(tmp, n, DIR_NAMES[a - A_STOP])
    elif a == A_OK:
        n = put_text(tmp, 0, b"c:ok")
    elif a == A_FAIL:
        n = put_text(tmp, 0, b"c:fail")
    elif a == A_N1:
        n = put_text(tmp, 0, b"c:n1")
    elif a == A_N20:
        n = put_text(tmp, 0, b"c:n20")
    elif a < A_INIT:
        n = put_text(tmp, 0, b"crt:")
        n = put_text(tmp, n, CRT_NAMES[a - A_CRT])
    elif a < A_ORDERS:
        n = put_text(tmp, 0, b"init:G" if a == A_INIT else b"init:S")
    elif a < A_CARD:
        n = put_text(tmp, 0, b"orders:")
        n = put_int(tmp, n, a - A_ORDERS)
    elif a < A_BRK_NO:
        n = put_text(tmp, 0, b"card:")
        n = put_int(tmp, n, a - A_CARD + 1)
    elif a == A_BRK_NO:
        n = put_text(tmp, 0, b"brk:no")
    elif a == A_BRK_YES:
        n = put_text(tmp, 0, b"brk:yes")
    elif a < A_OVERRUN:
        n = put_text(tmp, 0, b"assault ")
        n = put_text(tmp, n, name_of((1 - p) * 16 + a - A_ASSAULT))
    elif a < A_RETREAT:
        n = put_text(tmp, 0, b"overrun ")
        n = put_text(tmp, n, name_of((1 - p) * 16 + a - A_OVERRUN))
    else:
        n = put_text(tmp, 0, b"retreat ")
        n = put_text(tmp, n, DIR_NAMES[a - A_RETREAT])
    if n >= buflen:
        return -1
    memcpy(buf, tmp, n)
    buf[n] = 0
    return n

cdef bint word_is(const char *t, int n, const char *word) noexcept nogil:
    cdef int i = 0
    while i < n and word[i] and t[i] == word[i]:
        i += 1
    return i == n and word[i] == 0

cdef int find_name(const char *t, int n) noexcept nogil:
    cdef int g
    if n <= 0 or n > 7:
        return -1
    for g in range(NSLOT):
        if NAMES[g][0] and word_is(t, n, NAMES[g]):
            return g
    return -1

cdef int find_dir(const char *t, int n) noexcept nogil:
    cdef int d
    for d in range(8):
        if word_is(t, n, DIR_NAMES[d]):
            return d
    return -1

cdef ard_action ma_string_to_action(const void *state, const char *text) noexcept nogil:
    cdef const MaState *s = <const MaState *>state
    cdef int start = 0, n = 0, i, sp, g, h, d, p = actor(s)
    cdef const char *t
    while text[start] == c' ' or text[start] == c'\t':
        start += 1
    t = text + start
    while t[n]:
        n += 1
    while n > 0 and (t[n - 1] == c' ' or t[n - 1] == c'\t' or t[n - 1] == c'\n' or t[n - 1] == c'\r'):
        n -= 1
    if n == 0:
        return -1
    if word_is(t, n, b"?"):
        return ARD_HIDDEN_OUTCOME
    if word_is(t, n, b"go"):
        return A_GO
    if word_is(t, n, b"pass"):
        return A_PASS
    if word_is(t, n, b"lead"):
        return A_LEAD
    if word_is(t, n, b"follow"):
        return A_FOLLOW
    if word_is(t, n, b"c:ok"):
        return A_OK
    if word_is(t, n, b"c:fail"):
        return A_FAIL
    if word_is(t, n, b"c:n1"):
        return A_N1
    if word_is(t, n, b"c:n20"):
        return A_N20
    if word_is(t, n, b"init:G"):
        return A_INIT
    if word_is(t, n, b"init:S"):
        return A_INIT + 1
    if word_is(t, n, b"brk:no"):
        return A_BRK_NO
    if word_is(t, n, b"brk:yes"):
        return A_BRK_YES
    for i in range(5):
        if n > 4 and word_is(t, 4, b"crt:") and word_is(t + 4, n - 4, CRT_NAMES[i]):
            return A_CRT + i
    if n == 8 and word_is(t, 7, b"orders:") and c'0' <= t[7] <= c'9':
        return A_ORDERS + (t[7] - c'0') if t[7] - c'0' <= 5 else -1
    if n > 5 and word_is(t, 5, b"card:"):
        if n == 6 and c'1' <= t[5] <= c'9':
            return A_CARD + t[5] - c'1'
        if n == 7 and t[5] == c'1' and t[6] == c'0':
            return A_CARD + 9
        return -1
    # commands with a word after them
    sp = 0
    while sp < n and t[sp] != c' ':
        sp += 1
    if sp >= n - 1:
        return -1
    if word_is(t, sp, b"step") or word_is(t, sp, b"stop") or word_is(t, sp, b"retreat"):
        d = find_dir(t + sp + 1, n - sp - 1)
        if d < 0:
            return -1
        if t[0] == c'r':
            return A_RETREAT + d
        return (A_STEP if t[2] == c'e' else A_STOP) + d
    if word_is(t, sp, b"assault") or word_is(t, sp, b"overrun"):
        g = find_name(t + sp + 1, n - sp - 1)
        if g < 0 or side_of(g) == p:
            return -1
        return (A_ASSAULT if t[0] == c'a' else A_OVERRUN) + (g & 15)
    if word_is(t, sp, b"order") or word_is(t, sp, b"indep"):
        g = find_name(t + sp + 1, n - sp - 1)
        if g < 0 or side_of(g) != p:
            return -1
        return (A_ORDER if t[0] == c'o' else A_INDEP) + (g & 15)
    if word_is(t, sp, b"posture"):
        i = sp + 1
        while i < n and t[i] != c' ':
            i += 1
        g = find_name(t + sp + 1, i - sp - 1)
        if g < 0 or side_of(g) != p or i >= n:
            return -1
        if word_is(t + i + 1, n - i - 1, b"move"):
            return A_POSTURE + 2 * (g & 15)
        if word_is(t + i + 1, n - i - 1, b"firemove"):
            return A_POSTURE + 2 * (g & 15) + 1
        return -1
    if word_is(t, sp, b"fire"):
        i = sp + 1
        while i < n and t[i] != c'>':
            i += 1
        g = find_name(t + sp + 1, i - sp - 1)
        if i >= n:
            return -1
        h = find_name(t + i + 1, n - i - 1)
        if g < 0 or h < 0 or side_of(g) != p or side_of(h) == p:
            return -1
        return A_FIRE + (g & 15) * 16 + (h & 15)
    return -1


# ----------------------------------------------------------------- validation
cdef inline int fail(char *msg, int msglen, const char *text) noexcept nogil:
    return ard_fail(msg, msglen, text)  # game.h

cdef int ma_validate(const void *state, char *msg, int msglen) noexcept nogil:
    cdef const MaState *s = <const MaState *>state
    cdef int g, p, v, cnt, k, l, o
    if s.turns < 1 or s.turns > 50:
        return fail(msg, msglen, b"turns is outside 1..50")
    if s.det < 1 or s.det > 100:
        return fail(msg, msglen, b"determination is outside 1..100")
    for p in range(2):
        if s.coh[p] < 5 or s.coh[p] > 20:
            return fail(msg, msglen, b"cohesion is outside 5..20")
        if s.quality[p] < -2 or s.quality[p] > 3:
            return fail(msg, msglen, b"GHQ quality is outside -2..3")
        cnt = 0
        l = 0
        for v in range(10):
            if s.deck[p][v] > FULL_DECK[v]:
                return fail(msg, msglen, b"a deck holds more cards of a value than a pack")
            cnt += FULL_DECK[v] - s.deck[p][v]
            l += s.deck[p][v]
        if s.viewer != 1 - p and cnt != s.ncards[p]:
            return fail(msg, msglen, b"cards drawn do not match the deck")
        # a view of the opponent keeps no trace of their cards: observe() zeroes
        # their deck counts and their total
        if s.viewer == 1 - p and (l != 0 or s.total[p] != 0):
            return fail(msg, msglen, b"a view holds the opponent's cards")
        if (s.ncards_ok[p] > s.ncards[p] or s.ncards[p] + s.cards_pending[p] > 52
                or s.cards_pending[p] > 40):
            return fail(msg, msglen, b"card counts out of range")
        if s.viewer != 1 - p:
            v = 0
            for k in range(10):
                v += (FULL_DECK[k] - s.deck[p][k]) * (k + 1)
            if v != s.total[p]:
                return fail(msg, msglen, b"card total does not match the deck")
    if s.viewer < -1 or s.viewer > 1:
        return fail(msg, msglen, b"viewer is not -1, 0 or 1")
    if s.phase > PH_OVER:
        return fail(msg, msglen, b"phase out of range")
    if s.turn < 1 or s.turn > s.turns:
        return fail(msg, msglen, b"turn is outside 1..turns")
    if s.init_side > 1 or s.first > 1 or s.to_move > 1 or s.passed > 3 or s.ord_count > 2:
        return fail(msg, msglen, b"turn bookkeeping out of range")
    if s.orders[0] > ORD_MAX or s.orders[1] > ORD_MAX:
        return fail(msg, msglen, b"orders out of range")
    if s.brk_pending > 3 or s.broken > 3 or s.reserved != 0 or s.reserved2 != 0:
        return fail(msg, msglen, b"break bookkeeping out of range")
    if s.reserved3 != 0 or (s.low_ammo != 0 and not (s.options & 2)):
        return fail(msg, msglen, b"low ammunition marked without the Low Ammunition rule")
    for g in range(NSLOT):
        if s.st[g].type == NONE and s.fired_at_by[g] != 0:
            return fail(msg, msglen, b"an empty slot has been fired at")
        if s.st[g].type == NONE and (s.low_ammo >> g) & 1:
            return fail(msg, msglen, b"an empty slot is low on ammunition")
    if s.options > 3 or s.hot > 1 or s.rep_pending > 3 or s.mv_dir > 7:
        return fail(msg, msglen, b"option, Hot Shot or replacement bookkeeping out of range")
    for p in range(2):
        g = s.ghq_slot[p]
        if g != NONE and (g >= NSLOT or side_of(g) != p or START[g].type == NONE
                          or TY_ROLE[START[g].type] == 0):
            return fail(msg, msglen, b"a GHQ slot that is not an HQ or GHQ of its side")
    if s.winner < -1 or s.winner > 2 or ((s.phase == PH_OVER) != (s.winner != -1)):
        return fail(msg, msglen, b"winner does not match the phase")
    for g in range(NSLOT):
        if s.st[g].type == NONE:
            if START[g].type != NONE:
                return fail(msg, msglen, b"a scenario stand slot is empty")
            continue
        if s.st[g].type != START[g].type:
            return fail(msg, msglen, b"a stand's type differs from the scenario")
        if s.st[g].x >= MAP_W or s.st[g].y >= MAP_H or s.st[g].facing > 7 or s.st[g].posture > 2:
            return fail(msg, msglen, b"a stand is off the map or has a bad facing/posture")
        if (s.st[g].flags & F_WRECK) and ((s.st[g].flags & F_ALIVE) or TY_DEF[s.st[g].type] != D_ARMOUR):
            return fail(msg, msglen, b"a wreck that is alive or not an armoured vehicle")
        if s.st[g].mp > 60:
            return fail(msg, msglen, b"movement points out of range")
        if alive(s, g) and occupant(s, s.st[g].x, s.st[g].y, g) >= 0 and g != s.mover:
            if occupant(s, s.st[g].x, s.st[g].y, g) != s.mover:
                return fail(msg, msglen, b"two stands end on one square")
    if s.phase == PH_OVER:
        return 0
    if s.atk_step > S_CRT or s.atk_kind > K_OVR_OF or s.atk_side > 1 or s.atk_cur > 16:
        return fail(msg, msglen, b"attack bookkeeping out of range")
    if s.hot and s.atk_step != S_CRT:
        return fail(msg, msglen, b"a Hot Shot outside a CRT roll")
    if s.ctarget != NONE:
        if (s.ctarget >= NSLOT or s.mover == NONE or s.mover >= NSLOT or s.mv_sub < M_CLOSE
                or side_of(s.ctarget) == side_of(s.mover) or s.st[s.ctarget].type == NONE):
            return fail(msg, msglen, b"a close-combat target without a close combat")
        if s.mv_sub != M_CLOSE and (not alive(s, s.ctarget) or not alive(s, s.mover)):
            return fail(msg, msglen, b"a close combat with a lost stand")
        if dist(s, s.ctarget, s.mover) != 1:
            return fail(msg, msglen, b"a close combat between stands not adjacent")
        if s.mv_sub == M_RETREAT and not any_retreat(s, s.ctarget, s.mover):
            return fail(msg, msglen, b"a retreat with nowhere to go")
        if s.mv_sub == M_CLOSE and (s.atk_step < S_TOFIRE or not (s.atk_kind == K_ASLDEF or s.atk_kind == K_ASSAULT)):
            return fail(msg, msglen, b"a close assault without its attack")
        if s.mv_sub == M_OVR_OFASK and s.atk_step == S_NONE and not can_fire(s, s.ctarget, s.mover, K_OVR_OF):
            return fail(msg, msglen, b"overrun fire asked with no possible firer")
        if s.mv_sub >= M_OVR_DEFROLL and TY_DEF[s.st[s.mover].type] != D_ARMOUR:
            return fail(msg, msglen, b"an overrun by a stand that is not a vehicle")
    elif s.mv_sub >= M_CLOSE:
        return fail(msg, msglen, b"a close-combat step without a target")
    if s.atk_step != S_NONE:
        if s.atk_target >= NSLOT or side_of(s.atk_target) == s.atk_side or s.atk_firers == 0:
            return fail(msg, msglen, b"an attack without target or firers")
        if s.atk_kind == K_STANDARD and s.phase != PH_FIRE:
            return fail(msg, msglen, b"a standard attack outside the fire phase")
        if s.atk_kind != K_STANDARD and (s.phase != PH_MOVE or s.mover == NONE):
            return fail(msg, msglen, b"opportunity or covering fire without a mover")
        if close_kind(s.atk_kind) and s.ctarget == NONE:
            return fail(msg, msglen, b"a close-combat attack without a target")
        if close_kind(s.atk_kind) != (s.mv_sub == M_CLOSE or s.mv_sub == M_OVR_OFASK):
            return fail(msg, msglen, b"an attack of the wrong kind for the mover's step")
        if s.atk_step >= S_TOFIRE and (s.atk_cur >= 16 or not alive(s, s.atk_target)
                                       or not ((s.atk_firers >> s.atk_cur) & 1)
                                       or not alive(s, atk_slot(s, s.atk_cur))):
            return fail(msg, msglen, b"the attack's current firer is not a declared live firer")
    elif s.atk_target != NONE:
        return fail(msg, msglen, b"an attack target without an attack")
    if s.phase == PH_MOVE and s.mover != NONE:
        if s.mover >= NSLOT or s.mv_sub < M_ROLL or s.mv_sub > M_OVR_HIT2:
            return fail(msg, msglen, b"the mover is not a stand")
        if not alive(s, s.mover) and s.mv_sub != M_CLOSE:
            return fail(msg, msglen, b"the mover is not a live stand")
        if s.mv_sub == M_PASSCHK:
            o = occupant(s, s.st[s.mover].x + DX[s.mv_dir], s.st[s.mover].y + DY[s.mv_dir], s.mover)
            if o < 0 or side_of(o) == side_of(s.mover) or step_cost(s, s.mover, s.mv_dir) <= 0:
                return fail(msg, msglen, b"a pass-through roll with no enemy vehicle to pass")
        if s.mv_sub == M_STEP and not can_stop_on(s, s.mover, s.st[s.mover].x, s.st[s.mover].y):
            # passing through a friend: there must be a way off
            for l in range(8):
                if step_cost(s, s.mover, l) > 0:
                    break
            else:
                return fail(msg, msglen, b"the mover is stuck on a friend's square")
        if s.mv_sub != M_STEP and s.mv_sub != M_ROLL and not can_stop_on(s, s.mover, s.st[s.mover].x, s.st[s.mover].y):
            return fail(msg, msglen, b"the mover shares a square outside its step")
        if s.mv_sub == M_OFASK and s.atk_step == S_NONE and not any_fire(s, 1 - side_of(s.mover), s.mover, K_OPPORTUNITY, 0):
            return fail(msg, msglen, b"opportunity fire asked with no possible firer")
        if s.mv_sub == M_CFASK and s.atk_step == S_NONE and not any_fire(s, side_of(s.mover), -1, K_COVERING, s.of_firers):
            return fail(msg, msglen, b"covering fire asked with no possible firer")
    elif s.mover != NONE or s.mv_sub != M_NONE:
        return fail(msg, msglen, b"a mover outside the movement phase")
    if s.phase == PH_RECOVER and s.rec_next != NONE and (s.rec_next >= NSLOT or not alive(s, s.rec_next)
                                                         or not (s.st[s.rec_next].flags & (F_S | F_D))):
        return fail(msg, msglen, b"the recovery roll is for no S/D stand")
    if s.phase == PH_RECOVER and s.rec_next == NONE:
        for p in range(2):
            if (s.rep_pending >> p) & 1 and not needs_replacement(s, p):
                return fail(msg, msglen, b"a GHQ replacement roll that is not due")
        if s.rep_pending == 0:
            return fail(msg, msglen, b"the recovery phase with nothing to roll")
    if s.phase == PH_ORDERS and (s.ord_count >= 2 or not ghq_alive(s, orders_side(s))):
        return fail(msg, msglen, b"an orders roll for a side without its GHQ")
    if msg != NULL and msglen > 0:
        msg[0] = 0
    return 0


# ----------------------------------------------------------------- the vtable
cdef ard_game MA_GAME
MA_GAME.name = "microarmour"
MA_GAME.abi_version = ARD_ABI_VERSION
MA_GAME.flags = ARD_FLAG_CHANCE | ARD_FLAG_HIDDEN
MA_GAME.state_size = sizeof(MaState)
MA_GAME.params_size = sizeof(MaParams)
MA_GAME.num_actions = NUM_ACTIONS
MA_GAME.max_legal = MAX_LEGAL
# per turn: <= 32 marks + 2 passes, <= 32 attacks of <= 17 declarations + 2 rolls each,
# <= 3 movement attempts per stand (orders, independent) with <= 60 steps each and an
# opportunity exchange per step, recovery and cards: 40000 per turn is a loose bound.
MA_GAME.max_game_length = MAX_GAME_LENGTH
MA_GAME.init = ma_init
MA_GAME.validate = ma_validate
MA_GAME.current_player = ma_current_player
MA_GAME.legal_actions = ma_legal_actions
MA_GAME.apply = ma_apply
MA_GAME.chance_outcomes = ma_chance_outcomes
MA_GAME.sample_chance = ma_sample_chance
MA_GAME.returns = ma_returns
MA_GAME.evaluate = ma_evaluate
MA_GAME.hash = ma_hash
MA_GAME.observe = ma_observe
MA_GAME.determinize = ma_determinize
MA_GAME.viewer = ma_viewer
MA_GAME.action_visible = ma_action_visible
MA_GAME.action_to_string = ma_action_to_string
MA_GAME.string_to_action = ma_string_to_action

STATE_SIZE = sizeof(MaState)
PARAMS_SIZE = sizeof(MaParams)
NUM_ACTIONS_PY = NUM_ACTIONS

cdef const char *CAPSULE_NAME = b"ardsearch.game"


def capsule():
    """The vtable as a PyCapsule named "ardsearch.game"."""
    return PyCapsule_New(&MA_GAME, CAPSULE_NAME, NULL)


include "_pyside.pxi"
