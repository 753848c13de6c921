# Micro Armour engine: airstrikes (RULES.md "Airstrikes"): aircraft present up
# to 3 turns, strafing or bombing in the Artillery Fire/Air Strike phase, bomb
# points pre-plotted in the Joint Plot phase (hidden from the opponent) unless a
# Forward Air Support Coordinator comes through, AA stands' modifiers, deviation.
# Included by _engine.pyx (one module, split by concern). The rest of the engine
# calls in through the hooks marked "hook" (node, legal, chance, apply, phase
# flow here; observe/determinize, evaluation, notation, validate in _air_view.pxi).

cdef enum:  # air_step: what an airstrike (or its plot) waits for
    AS_NONE = 0
    AS_FASC = 1         # chance: the Forward Air Support Coordinator's cohesion roll
    AS_CHOOSE = 2       # the owner: strafe a stand, bomb a point or pass
    AS_AA = 3           # chance: the AA stands' total modifier (each passes cohesion or not)
    AS_ATTACK = 4       # chance: the strike's 'to attack' cohesion roll
    AS_DEVIATE = 5      # chance: the 'to deviate' cohesion roll
    AS_DIR = 6          # chance: 1D8 deviation direction
    AS_DIST = 7         # chance: 1D6 (bomb) or 1D6/2 (strafe) inches
    AS_CRT = 8          # chance: the CRT roll against the next stand under the strike
    AS_PLOT = 9         # the owner, in the Joint Plot phase: plot next turn's bomb point or pass
    AS_BLDG = 10        # a bomb's roll against the building area on pattern square air_sq (N_BLDG)

cdef enum:
    PLOT_NONE = 255     # plot_x: no bomb point
    PLOT_HIDDEN = 254   # plot_x in a view: the opponent's plot decision, unseen (a point or none)
    BLOCK_W = 14        # plot blocks per row in the action numbering (WMAX / 3, rounded up)
    N_AIR = 32          # node: an aircraft owner's decision (strike or plot); after the command nodes 28-31
    N_AIRCH = 33        # node: an airstrike chance event

# per scenario: the aircraft (scenarios/*.toml [[aircraft]])
cdef int AIR_N[MAXSCN]
cdef uint8_t AIR_SIDE[MAXSCN][NAIR]
cdef uint8_t AIR_ARRIVE[MAXSCN][NAIR]       # its first turn
cdef uint8_t AIR_TURNS[MAXSCN][NAIR]        # turns present (1..3)
cdef uint8_t AIR_ORD[MAXSCN][NAIR]          # ordnance loads (bombings)
cdef uint8_t AIR_STRAFE[MAXSCN][NAIR]       # strafing firepower
cdef uint8_t AIR_BOMBFP[MAXSCN][NAIR]       # bomb firepower
cdef uint8_t AIR_FASC[MAXSCN][NAIR]         # a Forward Air Support Coordinator by nation and date
cdef uint8_t AIR_PLOT_X[MAXSCN][NAIR]       # bomb point plotted before play (PLOT_NONE: none)
cdef uint8_t AIR_PLOT_Y[MAXSCN][NAIR]
cdef int BOMB_R = 1                          # the bomb pattern: squares within BOMB_R of the point (charts.toml [air])
AIR_IDS = []                                 # by scenario: aircraft ids


cdef void install_air_charts(object charts):
    global BOMB_R
    BOMB_R = charts["air"]["bomb_radius"]


cdef void install_air(int k, object sc):
    cdef int a
    planes = sc["aircraft"]
    AIR_N[k] = len(planes)
    for a in range(NAIR):
        AIR_SIDE[k][a] = AIR_ARRIVE[k][a] = AIR_TURNS[k][a] = AIR_ORD[k][a] = 0
        AIR_STRAFE[k][a] = AIR_BOMBFP[k][a] = AIR_FASC[k][a] = 0
        AIR_PLOT_X[k][a] = AIR_PLOT_Y[k][a] = PLOT_NONE
    for a, pl in enumerate(planes):
        AIR_SIDE[k][a] = pl["side"]
        AIR_ARRIVE[k][a] = pl["arrive"]
        AIR_TURNS[k][a] = pl["turns"]
        AIR_ORD[k][a] = pl["ordnance"]
        AIR_STRAFE[k][a] = pl["strafe"]
        AIR_BOMBFP[k][a] = pl["bomb"]
        AIR_FASC[k][a] = pl["fasc"]
        if pl["plot"] is not None:
            AIR_PLOT_X[k][a], AIR_PLOT_Y[k][a] = pl["plot"]
    while len(AIR_IDS) <= k:
        AIR_IDS.append([])
    AIR_IDS[k] = [pl["id"] for pl in planes]


# ----------------------------------------------------------------- shared helpers (other families may use them)
# A broken formation's aircraft are gone (digest, Break points: 'airstrikes cancelled'):
# side_broken(s, p) of _command.pxi, the one test of a break every family asks.

cdef inline int indirect_defence(const MaState *s, int t) noexcept nogil:
    """Defence against an artillery or air attack (digest: 'Against artillery
    and air attacks armour keeps 50%, or 25% if open-topped'), rounded up;
    personnel not in firing posture halve theirs as against any fire."""
    cdef int ty = s.st[t].type, dv = TY_DV[ty]
    if TY_DEF[ty] == D_ARMOUR:
        return (dv + 3) // 4 if TY_OPEN[ty] else (dv + 1) // 2
    if TY_DEF[ty] == D_PERSONNEL and s.st[t].posture != P_FIRING:
        return (dv + 1) // 2
    return dv


# ----------------------------------------------------------------- who may do what
cdef inline int air_side(const MaState *s, int a) noexcept nogil:
    return AIR_SIDE[s.scn][a]

cdef inline bint air_present(const MaState *s, int a, int turn) noexcept nogil:
    """Aircraft a flies in this turn (its 1st..3rd) and its formation is not broken."""
    return (a < AIR_N[s.scn] and AIR_ARRIVE[s.scn][a] <= turn < AIR_ARRIVE[s.scn][a] + AIR_TURNS[s.scn][a]
            and not side_broken(s, air_side(s, a)))

cdef inline bint air_bomb_turn(const MaState *s, int a, int turn) noexcept nogil:
    """Bombs only in its turns 2-3, with an ordnance load left."""
    return (air_present(s, a, turn) and turn > AIR_ARRIVE[s.scn][a] and s.ordnance[a] > 0
            and AIR_BOMBFP[s.scn][a] > 0)

cdef inline bint plot_ready(const MaState *s, int a) noexcept nogil:
    return s.plot_turn[a] == s.turn and s.plot_x[a] != PLOT_NONE

cdef inline bint any_enemy(const MaState *s, int p) noexcept nogil:
    cdef int g
    for g in range((1 - p) * 16, (1 - p) * 16 + 16):
        if alive(s, g):
            return 1
    return 0

cdef bint air_can_strike(const MaState *s, int a) noexcept nogil:
    """Aircraft a has something to decide in this turn's air strike phase."""
    if not air_present(s, a, s.turn) or not any_enemy(s, air_side(s, a)):
        return 0
    if AIR_STRAFE[s.scn][a] > 0:
        return 1
    # a plot decision for this turn (a point or none: the opponent cannot tell) or a FASC
    return air_bomb_turn(s, a, s.turn) and (s.plot_turn[a] == s.turn or AIR_FASC[s.scn][a])

cdef bint air_can_plot(const MaState *s, int a) noexcept nogil:
    """Aircraft a's owner may plot next turn's bomb point now (none plotted for it yet)."""
    return (s.turn < s.turns and air_bomb_turn(s, a, s.turn + 1) and s.plot_turn[a] != s.turn + 1
            and not side_broken(s, air_side(s, a)))

cdef inline int n_blocks_x(const MaState *s) noexcept nogil:
    return (SC_W[s.scn] + 1) // 3

cdef inline int n_blocks_y(const MaState *s) noexcept nogil:
    return (SC_H[s.scn] + 1) // 3

cdef inline bint preplot_turn(const MaState *s, int a) noexcept nogil:
    """a's plot for this turn is the scenario's point plotted before play: it
    has one and this is its first bombing turn (the joint plot never plots
    that turn: air_init filled it)."""
    return (a < AIR_N[s.scn] and AIR_PLOT_X[s.scn][a] != PLOT_NONE
            and s.plot_turn[a] == AIR_ARRIVE[s.scn][a] + 1)

cdef inline bint block_ok(const MaState *s, int b) noexcept nogil:
    """Plot points are the centres of the table's 3" blocks, (1 + 3i, 1 + 3j)."""
    return 0 <= b < BLOCK_W * 10 and b % BLOCK_W < n_blocks_x(s) and b // BLOCK_W < n_blocks_y(s)


# ----------------------------------------------------------------- hook: the phase flow
cdef void air_init(MaState *s) noexcept nogil:
    """hook (ma_init): full ordnance loads; the scenario's bomb points plotted
    before play, for each aircraft's first bombing turn."""
    cdef int a
    for a in range(NAIR):
        s.ordnance[a] = AIR_ORD[s.scn][a] if a < AIR_N[s.scn] else 0
        s.plot_x[a] = PLOT_NONE
        s.plot_y[a] = PLOT_NONE
        s.plot_turn[a] = 0
        if a < AIR_N[s.scn] and AIR_PLOT_X[s.scn][a] != PLOT_NONE:
            s.plot_x[a] = AIR_PLOT_X[s.scn][a]
            s.plot_y[a] = AIR_PLOT_Y[s.scn][a]
            s.plot_turn[a] = AIR_ARRIVE[s.scn][a] + 1

cdef void air_next(MaState *s, int start) noexcept nogil:
    """The next aircraft from `start` on that strikes this turn (FASC roll first
    where due), or the end of the air strike phase."""
    cdef int a
    s.air_sq = 0
    s.air_mod = 0
    s.air_dir = 0
    s.air_kind = 0
    s.air_x = 0
    s.air_y = 0
    for a in range(start, NAIR):
        if air_can_strike(s, a):
            s.air_cur = a
            if AIR_FASC[s.scn][a] and air_bomb_turn(s, a, s.turn):
                s.air_step = AS_FASC
            else:
                s.air_step = AS_CHOOSE
            return
    # the phase is over: plots for this turn that were not flown expire
    for a in range(NAIR):
        if s.plot_turn[a] == s.turn:
            s.plot_turn[a] = 0
            s.plot_x[a] = PLOT_NONE
            s.plot_y[a] = PLOT_NONE
    s.air_step = AS_NONE
    s.air_cur = 0
    s.air_fasc = 0

cdef void air_phase_begin(MaState *s) noexcept nogil:
    """hook (end_phase, posture -> fire): phase 3, Artillery Fire/Air Strike,
    comes before standard fire."""
    air_next(s, 0)

cdef void plot_next(MaState *s, int start) noexcept nogil:
    cdef int a
    for a in range(start, NAIR):
        if air_can_plot(s, a) and any_enemy(s, air_side(s, a)):
            s.air_cur = a
            s.air_step = AS_PLOT
            return
    s.air_step = AS_NONE
    s.air_cur = 0
    joint_plot_air_done(s)                   # the artillery plots of the same phase, then orders

cdef bint air_plot_begin(MaState *s) noexcept nogil:
    """hook (end_phase, fire -> orders): phase 5, Joint Plot, for the bombs of
    next turn. Returns 1 if a plot decision is due (the orders follow it)."""
    cdef int a
    for a in range(NAIR):
        if air_can_plot(s, a) and any_enemy(s, air_side(s, a)):
            s.phase = PH_PLOT
            plot_next(s, a)
            return 1
    return 0


cdef void air_formation_broke(MaState *s, int p) noexcept nogil:
    """hook (formation_broke): "airstrikes cancelled" from the moment p's formation breaks.
    The next aircraft is picked as soon as a strike's last CRT roll is made, before the loss
    cards that can break a side: an aircraft of p picked so (its FASC roll or choice to come),
    or p's own strike still attacking (a bomb that deviated onto p's stands), is passed over."""
    if s.air_step == AS_NONE or air_side(s, s.air_cur) != p:
        return
    if s.air_step == AS_PLOT:
        plot_next(s, s.air_cur)              # (no loss comes in the joint plot phase)
    else:
        air_next(s, s.air_cur)               # skips every aircraft of a broken side

# ----------------------------------------------------------------- hook: node, player, legal
cdef inline int air_node(const MaState *s) noexcept nogil:
    if s.air_step == AS_CHOOSE or s.air_step == AS_PLOT:
        return N_AIR
    return N_AIRCH

cdef int air_legal(const MaState *s, ard_action *out) noexcept nogil:
    """Legal actions in increasing order: pass, then strafes, then bomb points
    (or plot points)."""
    cdef int a = s.air_cur, p = air_side(s, a), n = 0, l, g, b, k
    cdef uint8_t point[WMAX * HMAX]
    out[n] = A_PASS
    n += 1
    if s.air_step == AS_PLOT:
        for b in range(BLOCK_W * 10):
            if block_ok(s, b):
                out[n] = A_PLOT + b
                n += 1
        return n
    if AIR_STRAFE[s.scn][a] > 0:
        for l in range(16):
            g = (1 - p) * 16 + l
            # cargo: strafe its carrier; no unspotted marker, no stand off the table (nothing seen there)
            if alive(s, g) and not carried(s, g) and not is_hidden(s, g) and not off_table(s, g):
                out[n] = A_STRAFE + l
                n += 1
    if not air_bomb_turn(s, a, s.turn):
        return n
    memset(point, 0, sizeof(point))
    if s.plot_turn[a] == s.turn and s.plot_x[a] == PLOT_HIDDEN:
        # a view: the opponent's plotted point is unknown, any block centre;
        # on its first bombing turn, the scenario's point plotted before play
        # too (any square, not only a centre), else a view could not replay it
        for b in range(BLOCK_W * 10):
            if block_ok(s, b):
                point[(1 + 3 * (b // BLOCK_W)) * WMAX + 1 + 3 * (b % BLOCK_W)] = 1
        if preplot_turn(s, a):
            point[AIR_PLOT_Y[s.scn][a] * WMAX + AIR_PLOT_X[s.scn][a]] = 1
    elif plot_ready(s, a):
        point[s.plot_y[a] * WMAX + s.plot_x[a]] = 1
    if (s.air_fasc >> a) & 1:
        for l in range(16):
            g = (1 - p) * 16 + l
            if alive(s, g) and not is_hidden(s, g) and not off_table(s, g):
                point[s.st[g].y * WMAX + s.st[g].x] = 1
    for k in range(WMAX * HMAX):
        if point[k]:
            out[n] = A_BOMB + k
            n += 1
    return n


# ----------------------------------------------------------------- hook: chance
cdef int aa_distribution(const MaState *s, double *dist) noexcept nogil:
    """dist[m], m = 0..12: the AA stands' total modifier to the current strike.
    Every live AA stand of the side under attack within its weapon range of the
    aimed point rolls cohesion (own S/D; a broken side's -5, as every roll but
    movement); each that passes adds its class
    (+2 at 40mm or less, +1 larger). Returns the highest possible total."""
    cdef int q = 1 - air_side(s, s.air_cur), g, m, top = 0, b, dx, dy, d
    cdef double pp, nxt[13]
    for m in range(13):
        dist[m] = 0.0
    dist[0] = 1.0
    for g in range(q * 16, q * 16 + 16):
        if not alive(s, g) or TY_AA[s.st[g].type] == 0 or is_hidden(s, g) or off_table(s, g):
            continue                         # a marker does not fire (design: it would show itself)
        dx = iabs(<int>s.st[g].x - <int>s.air_x)
        dy = iabs(<int>s.st[g].y - <int>s.air_y)
        d = dx if dx > dy else dy
        if d > TY_RANGE[s.st[g].type]:
            continue
        b = TY_AA[s.st[g].type]
        pp = p_pass(coh_eff(s, q), cohesion_mods(s, g))   # a broken formation's -5 (_command.pxi)
        for m in range(13):
            nxt[m] = dist[m] * (1.0 - pp)
        for m in range(13 - b):
            nxt[m + b] += dist[m] * pp
        for m in range(13):
            dist[m] = nxt[m]
        if top + b <= 12:
            top += b
    return top

cdef int air_target_at(const MaState *s, int k) noexcept nogil:
    """The live stand on square k of the strike's pattern (strafe: the point
    itself; bomb: (2R+1)^2 squares, row by row from the south-west), or -1."""
    cdef int r = BOMB_R if s.air_kind == 1 else 0, w = 2 * r + 1, x, y
    x = <int>s.air_x - r + k % w
    y = <int>s.air_y - r + k // w
    if not on_map(s, x, y):
        return -1
    return shell_occupant(s, x, y)                 # _entry.pxi: never a stand off the table

cdef inline int air_fp(const MaState *s) noexcept nogil:
    return AIR_BOMBFP[s.scn][s.air_cur] if s.air_kind == 1 else AIR_STRAFE[s.scn][s.air_cur]

cdef void air_crt_probs(const MaState *s, int t, double *p) noexcept nogil:
    """The CRT against stand t: firepower - artillery/air defence, on the
    lowest column at worst (air attacks like artillery always roll); the
    target's terrain CRT modifier, no range modifier."""
    cdef int cd = air_fp(s) - indirect_defence(s, t)
    if cd < CRT_MIN:
        cd = CRT_MIN
    crt_table(cd, terrain_crt(s, s.st[t].x, s.st[t].y) + ip_crt(s, t), p)

cdef int air_chance(const MaState *s, ard_action *a, double *pr) noexcept nogil:
    cdef int n = 0, m, p = air_side(s, s.air_cur)
    cdef double dist[13]
    cdef double crt[5]
    if s.air_step == AS_FASC:
        return two_outcomes(p_pass(s.coh[p], 0), a, pr)
    if s.air_step == AS_AA:
        aa_distribution(s, dist)
        for m in range(13):
            if dist[m] > 0.0:
                a[n] = A_AA + m
                pr[n] = dist[m]
                n += 1
        return n
    if s.air_step == AS_ATTACK or s.air_step == AS_DEVIATE:
        return two_outcomes(p_pass(s.coh[p], s.air_mod), a, pr)
    if s.air_step == AS_DIR:
        for m in range(8):
            a[m] = A_DIR + m
            pr[m] = 0.125
        return 8
    if s.air_step == AS_DIST:
        if s.air_kind == 1:          # bombs: 1D6 inches
            for m in range(6):
                a[m] = A_DIST + m
                pr[m] = 1.0 / 6.0
            return 6
        for m in range(3):           # strafing: 1D6/2, rounded up (1..3)
            a[m] = A_DIST + m
            pr[m] = 1.0 / 3.0
        return 3
    if s.air_step == AS_CRT:
        air_crt_probs(s, air_target_at(s, s.air_sq), crt)
        for m in range(5):
            if crt[m] > 0:
                a[n] = A_CRT + m
                pr[n] = crt[m]
                n += 1
        return n
    return 0


# ----------------------------------------------------------------- hook: apply
cdef void air_attacks_from(MaState *s, int k) noexcept nogil:
    """The next stand under the strike from pattern square k on; after the
    stands, a bomb's building areas; then the next aircraft."""
    cdef int r = BOMB_R if s.air_kind == 1 else 0, w = 2 * r + 1, j
    if k == 0:
        for j in range(w * w):               # unspotted markers under the strike are shown first
            if air_target_at(s, j) >= 0:
                shell_reveal(s, air_target_at(s, j))       # _spotting.pxi
    while k < w * w:
        if air_target_at(s, k) >= 0:
            s.air_sq = k
            s.air_step = AS_CRT
            return
        k += 1
    air_buildings_from(s, 0)

cdef void air_buildings_from(MaState *s, int r) noexcept nogil:
    """Bombs attack the building areas and light/medium improved positions
    under their pattern (digest, Improved positions: "Artillery and bombs
    attack building areas"; positions "DV 5" / "DV 8"), square by square after
    the stands' rolls (r = 2 x square + 0 its building area, + 1 its
    position), as a direct-fire attack's building roll follows its CRT roll;
    strafing attacks none. Then the next aircraft."""
    cdef int w = 2 * BOMB_R + 1, x, y, k
    if s.air_kind == 1:
        while r < 2 * w * w:
            k = r // 2
            x = <int>s.air_x - BOMB_R + k % w
            y = <int>s.air_y - BOMB_R + k // w
            if r % 2 == 0:
                attack_building(s, x, y, AIR_BOMBFP[s.scn][s.air_cur], 0)    # _buildings.pxi
            else:
                attack_position(s, x, y, AIR_BOMBFP[s.scn][s.air_cur], 0)    # _obstacles.pxi
            if s.bld_area != NONE:
                s.air_sq = k
                s.air_step = AS_BLDG
                return
            r += 1
    air_next(s, s.air_cur + 1)

cdef void air_after_aa(MaState *s) noexcept nogil:
    s.air_step = AS_ATTACK

cdef void air_strike(MaState *s, int kind, int x, int y) noexcept nogil:
    """The owner's decision made: the AA roll (if any AA stand is in range), then 'to attack'."""
    cdef double dist[13]
    s.air_kind = kind
    s.air_x = x
    s.air_y = y
    s.air_mod = 0
    if kind == 1:
        s.ordnance[s.air_cur] -= 1
        if s.plot_turn[s.air_cur] == s.turn:
            s.plot_turn[s.air_cur] = 0       # the plot is flown (revealed by the bomb's point)
            s.plot_x[s.air_cur] = PLOT_NONE
            s.plot_y[s.air_cur] = PLOT_NONE
    if aa_distribution(s, dist) > 0:
        s.air_step = AS_AA
    else:
        s.air_step = AS_ATTACK

cdef void air_apply(MaState *s, ard_action action) noexcept nogil:
    cdef int a = s.air_cur, t, b, x, y
    if s.air_step == AS_PLOT:
        s.plot_turn[a] = s.turn + 1          # decided (the opponent's view: hidden)
        if action == ARD_HIDDEN_OUTCOME:
            s.plot_x[a] = PLOT_HIDDEN
            s.plot_y[a] = PLOT_HIDDEN
        elif action == A_PASS:
            s.plot_x[a] = PLOT_NONE
            s.plot_y[a] = PLOT_NONE
        else:
            b = action - A_PLOT
            s.plot_x[a] = 1 + 3 * (b % BLOCK_W)
            s.plot_y[a] = 1 + 3 * (b // BLOCK_W)
        plot_next(s, a + 1)
        return
    if s.air_step == AS_CHOOSE:
        if action == A_PASS:
            air_next(s, a + 1)
        elif action < A_BOMB:
            t = (1 - air_side(s, a)) * 16 + action - A_STRAFE
            air_strike(s, 0, s.st[t].x, s.st[t].y)
        else:
            b = action - A_BOMB
            air_strike(s, 1, b % WMAX, b // WMAX)
        return
    if s.air_step == AS_FASC:
        if action == A_OK:
            s.air_fasc |= <uint8_t>(1 << a)
        s.air_step = AS_CHOOSE
    elif s.air_step == AS_AA:
        s.air_mod = action - A_AA
        s.air_step = AS_ATTACK
    elif s.air_step == AS_ATTACK:
        if action == A_OK:
            s.air_step = AS_DEVIATE
        else:
            air_next(s, a + 1)               # the strike fails: no attack
    elif s.air_step == AS_DEVIATE:
        if action == A_OK:
            air_attacks_from(s, 0)           # on target
        else:
            s.air_step = AS_DIR
    elif s.air_step == AS_DIR:
        s.air_dir = action - A_DIR
        s.air_step = AS_DIST
    elif s.air_step == AS_DIST:
        if deviate(s, s.air_x, s.air_y, s.air_dir, action - A_DIST + 1, &x, &y):
            s.air_x = x
            s.air_y = y
            air_attacks_from(s, 0)
        else:
            air_next(s, a + 1)               # off the table: lands nowhere
    elif s.air_step == AS_CRT:
        t = air_target_at(s, s.air_sq)
        apply_result(s, t, action - A_CRT)
        air_attacks_from(s, s.air_sq + 1)
