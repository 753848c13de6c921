# Micro Armour engine: constants, the stand and state structs, and the static tables filled from the data files at import.
# Included by _engine.pyx (one module, split by concern).
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
    # indirect artillery and smoke (ma-art, _artillery.pxi)
    A_HOLD = 409        # joint plot: no new mission for this battery
    A_PLOT = 410        # + plot code (kind * NTGT + target): plot a mission for this battery
    A_LAND_NONE = 698   # chance: no fire from this battery lands this turn
    A_LAND = 699        # + plot code: chance (public): this battery's plotted fire is due
    A_DEV = 987         # + direction * 8 + inches - 1: chance: where deviated fire lands
    NUM_ACTIONS = 1051
    MAX_LEGAL = 290     # a plot decision or a view's landing node: 288 codes + 1; 16 x 16 fire + 2
    # Per turn: 2 initiative/lead, <= 34 posture, <= 32 firer resolutions (each
    # stand rolls to fire once a turn) with their declarations, go's, 2 rolls and
    # passes (<= 200), 2 orders, <= 42 movement attempts of <= 60 steps each with
    # an opportunity question per step (<= 5200), close combats (<= 8 nodes per
    # attempt), <= 34 recovery/replacement rolls: 6000; cards <= 4 x 32 per game.
    # Artillery (ma-art): per turn 8 landings of <= 7 nodes, 8 plots, and an
    # impact attack per marker (<= 24) for a step into an impact area: 7000.
    MAX_GAME_LENGTH = 7000 * 50 + 200

cdef enum:  # phases of a turn
    PH_INIT = 0         # chance: initiative
    PH_LEAD = 1         # initiative player: lead or follow
    PH_POSTURE = 2
    PH_FIRE = 3
    PH_ORDERS = 4       # chance: movement orders, first player then the other
    PH_MOVE = 5
    PH_RECOVER = 6      # chance: one recovery roll per S/D stand
    PH_OVER = 7
    PH_ART = 8          # artillery fire (issue two; only in scenarios with artillery)
    PH_PLOT = 9         # joint plot (ditto)

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
    N_ART_REVEAL = 28   # chance (public): does this battery's plotted fire land now, and where aimed
    N_ART_ARRIVE = 29   # chance: 'to arrive' cohesion roll
    N_ART_DEVIATE = 30  # chance: 'to deviate' cohesion roll (c:ok, c:fail, c:n20)
    N_ART_SCATTER = 31  # chance: 1D8 direction and 1D8/2 inches (doubled on a natural 20)
    N_ART_HIT = 32      # chance: an impact marker's attack on the stand under it
    N_PLOT = 33         # joint plot: one battery's hidden plot decision
    N_ART_MOVEHIT = 34  # chance: an impact marker's attack on a stand moving into it

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
    M_ART = 14          # the mover entered an impact area: the markers attack it

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


# One battery's fire mission (indirect artillery and smoke, _artillery.pxi), 12 bytes.
cdef packed struct Mission:
    uint8_t state                # MS_*
    uint16_t code                # plot code: kind (0 HE, 1 smoke) * NTGT + target
    uint8_t plot_turn            # turn of the battery's last plot decision
    uint8_t land_turn            # turn the plotted fire is due (MS_PLOTTED)
    uint8_t x                    # the point of impact (MS_ACTIVE)
    uint8_t y
    uint8_t left                 # turns the markers stay, this one included (MS_ACTIVE)
    uint8_t doubled              # a natural 20 on the deviation roll: the scatter is doubled
    uint16_t last_code           # code of the battery's last fire that landed (adjusted fire); NOCODE
    uint8_t reserved             # always 0


# The state. Packed, pointer-free, 512 bytes (64 words); copied with memcpy,
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
    # Indirect artillery and smoke (ma-art: _artillery.pxi)
    uint8_t scn                  # scenario index (SCENARIO_NAMES; 0 introductory)
    uint8_t art_seq              # artillery fire / joint plot: position in the battery order (0..8)
    uint8_t art_step             # AS_*: what the current battery's fire waits for
    uint8_t art_mk               # marker being resolved (section; for a mover battery * 3 + section)
    uint8_t reserved4[4]         # always 0
    uint8_t smoke_left[8]        # smoke missions left, per battery
    Mission ms[8]                # per battery: 0..3 German, 4..7 Soviet
    Stand st[32]


cdef packed struct MaParams:
    uint8_t turns
    uint8_t det
    uint8_t coh[2]
    int8_t quality[2]
    uint8_t deploy               # 0 scenario edges, 1 close (each side CLOSE_SHIFT inches nearer)
    uint8_t options              # bit 0: Hot Shot, bit 1: Low Ammunition
    uint8_t scn                  # scenario index (ma-art)

assert sizeof(Stand) == 8
assert sizeof(MaState) == 512, "MaState layout changed: update hash, RULES.md and tests"

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
    install_artillery(charts, weapons, sc)      # every scenario's batteries (_artillery.pxi)

