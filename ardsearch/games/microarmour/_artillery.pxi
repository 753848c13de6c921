# Micro Armour engine: indirect artillery and smoke (RULES.md, Indirect artillery):
# off-board batteries as scenario data, the Joint Plot phase (hidden plots),
# the Artillery Fire phase (landing, 'to arrive' and 'to deviate' rolls,
# deviation, sheafs of impact markers, their attacks), stands moving into an
# impact area, smoke and impact markers blocking LOS (+3 to fire into or out).
# Included by _engine.pyx after the files it uses (board, fire, flow).
#
# A battery slot b (0..7) belongs to side b >> 2 (scenario order within the side).
# A plot code is kind * NTGT + target: kind 0 high explosive, 1 smoke; target
# 0..139 a plot cell (cy * NCELLX + cx; its aiming square is the cell's centre),
# 140..143 the side's pre-registered target point 0..3.

cdef enum:
    MAXBAT = 8
    NCELLX = 14         # cells per row in the code (40" / 3" rounded up)
    NCELLS = 140
    NTGT = 144          # 140 cells + 4 pre-registered points
    NCODE = 288         # 2 kinds x NTGT (the action ranges in _tables.pxi count them)
    NOCODE = 0xFFFF     # no fire has landed yet (last_code)
    # mission states
    MS_NONE = 0
    MS_HELD = 1         # the battery's last decision was to hold (kept until it could have landed)
    MS_PLOTTED = 2      # fire plotted, not landed yet
    MS_HIDDEN = 3       # a view: the opponent decided unseen (HELD or PLOTTED)
    MS_ACTIVE = 4       # markers on the table
    # art_step: what the current battery's fire waits for
    AR_REVEAL = 0
    AR_ARRIVE = 1
    AR_DEVIATE = 2
    AR_SCATTER = 3
    AR_HIT = 4
    AR_BLDG = 5         # the building roll under marker art_mk (N_BLDG, _buildings.pxi)
    AR_PRESHOW = 6      # a call on a pre-registered point not seen yet: the point is shown (N_PRESHOW, _prereg.pxi)

# ----------------------------------------------------------------- per-scenario tables (install_artillery)
cdef uint8_t BAT_ON[MAXSCN][MAXBAT]
cdef uint8_t BAT_HE[MAXSCN][MAXBAT]
cdef uint8_t BAT_SECT[MAXSCN][MAXBAT]
cdef uint8_t BAT_OPEN[MAXSCN][MAXBAT]
cdef uint8_t BAT_OBS[MAXSCN][MAXBAT]       # the FO's stand slot
cdef uint8_t BAT_BARRAGE[MAXSCN][MAXBAT]
cdef uint8_t BAT_DUR[MAXSCN][MAXBAT]
cdef uint8_t BAT_SMOKE[MAXSCN][MAXBAT]     # smoke missions at the start
cdef uint8_t BAT_STAND[MAXSCN][MAXBAT]     # an on-board 'I' stand's slot, or NONE (off-board)
cdef uint8_t BAT_ANY[MAXSCN]
cdef uint8_t BAT_END[MAXSCN]             # one past the scenario's last battery (marker_at's loop, speed)
cdef uint8_t ART_DELAY[MAXSCN][2]
cdef uint8_t PRE_N[MAXSCN][2]              # pre-registered points each side records (_prereg.pxi)
cdef uint8_t PRE_CELL[MAXSCN][2][4]        # the scenario's own: the bots' book, and dicts written before recording
cdef uint8_t SC_TBLK[MAXSCN][HMAX * WMAX]  # blocking terrain by square (y * WMAX + x), for plot LOS
cdef int PLOT_GRID = 3, PREREG_MOD = -2, ADJ_MOD = -2, BARRAGE_COLS = 2, SMOKE_TURNS = 2

BATTERY_IDS = [[""] * MAXBAT for _ in range(MAXSCN)]


cdef install_artillery_charts(charts):
    """charts.toml [artillery]: the design values shared by every scenario."""
    global PLOT_GRID, PREREG_MOD, ADJ_MOD, BARRAGE_COLS, SMOKE_TURNS
    a = charts["artillery"]
    PLOT_GRID, PREREG_MOD, ADJ_MOD = a["plot_grid"], a["prereg_mod"], a["adjusted_mod"]
    BARRAGE_COLS, SMOKE_TURNS = a["barrage_columns"], a["smoke_turns"]


cdef install_artillery(int k, sc):
    """Scenario k's batteries, nationality delays and pre-registered points
    (install_scenario's hook; _data.py validated them)."""
    cdef int p, l, b, x, y
    memset(BAT_ON[k], 0, MAXBAT)
    memset(BAT_STAND[k], NONE, MAXBAT)
    BAT_ANY[k] = 0
    BAT_END[k] = 0
    PRE_N[k][0] = PRE_N[k][1] = 0
    BATTERY_IDS[k] = [""] * MAXBAT
    for p in range(2):
        ART_DELAY[k][p] = sc["sides"][p]["delay"]
        PRE_N[k][p] = len(sc["sides"][p]["prereg"])
        for i, (x, y) in enumerate(sc["sides"][p]["prereg"]):
            PRE_CELL[k][p][i] = (y // PLOT_GRID) * NCELLX + x // PLOT_GRID    # _data.py: a cell's aiming square
        for l, bat in enumerate(sc["batteries"][p]):
            b = p * 4 + l
            BAT_ON[k][b] = 1
            BAT_ANY[k] = 1
            BAT_END[k] = b + 1
            BAT_HE[k][b], BAT_SECT[k][b], BAT_OPEN[k][b] = bat["he"], bat["sections"], bat["open"]
            BAT_OBS[k][b] = p * 16 + bat["observer"]
            if bat["stand"] is not None:
                BAT_STAND[k][b] = p * 16 + bat["stand"]
            BAT_BARRAGE[k][b], BAT_DUR[k][b], BAT_SMOKE[k][b] = bat["barrage"], bat["duration"], bat["smoke"]
            BATTERY_IDS[k][b] = bat["id"]
    install_table_cells(k)                   # _prereg.pxi: the cells on this table
    memset(SC_TBLK[k], 0, HMAX * WMAX)
    for y in range(SC_H[k]):
        for x in range(SC_W[k]):
            SC_TBLK[k][y * WMAX + x] = T_BLOCK[SC_TER[k][y][x]]


# ----------------------------------------------------------------- small helpers
cdef inline int bat_side(int b) noexcept nogil:
    return b >> 2

cdef inline bint is_art_chance(int k) noexcept nogil:
    """The artillery chance nodes (N_PLOT, between them, is a decision)."""
    return ((N_ART_REVEAL <= k <= N_ART_MOVEHIT and k != N_PLOT) or k == N_ART_RETREATHIT    # 35..41, 51 and 57
            or k == N_PRESHOW)                                                             # (other families' between)

cdef inline bint has_artillery(const MaState *s) noexcept nogil:
    return BAT_ANY[s.scn] != 0

cdef inline int seq_battery(const MaState *s, int i) noexcept nogil:
    """The i-th battery in this turn's order: the first player's, then the other's."""
    return (s.first * 4 + i) & 7

cdef inline int code_kind(int code) noexcept nogil:
    return code // NTGT

cdef inline bint battery_lost(const MaState *s, int b) noexcept nogil:
    """An on-board battery whose stand is lost fires no more (design)."""
    return BAT_STAND[s.scn][b] != NONE and not alive(s, BAT_STAND[s.scn][b])

cdef inline bint code_prereg(int code) noexcept nogil:
    return code % NTGT >= NCELLS

cdef bint code_point(const MaState *s, int p, int code, int *x, int *y) noexcept nogil:
    """The aiming square of a plot code for side p; 0 if it names no square."""
    cdef int t = code % NTGT, cx, cy
    if code < 0 or code >= NCODE:
        return 0
    if t >= NCELLS:
        t -= NCELLS                           # a pre-registered point: its cell, once recorded and known
        if t >= PRE_N[s.scn][p] or s.pre_cell[p * 4 + t] >= NCELLS:
            return 0
        t = s.pre_cell[p * 4 + t]
    cx = t % NCELLX
    cy = t // NCELLX
    x[0] = cx * PLOT_GRID + PLOT_GRID // 2
    y[0] = cy * PLOT_GRID + PLOT_GRID // 2
    if cx * PLOT_GRID >= SC_W[s.scn] or cy * PLOT_GRID >= SC_H[s.scn]:
        return 0
    if x[0] >= SC_W[s.scn]:
        x[0] = SC_W[s.scn] - 1
    if y[0] >= SC_H[s.scn]:
        y[0] = SC_H[s.scn] - 1
    return 1

cdef inline int marker_dx(const MaState *s, int b, int k) noexcept nogil:
    """West-east offset of section k's marker: closed sheaf all on the point,
    open sheaf a line 0, +1, -1 (design)."""
    if not BAT_OPEN[s.scn][b]:
        return 0
    return 0 if k == 0 else (1 if k == 1 else -1)

cdef bint marker_at(const MaState *s, int x, int y) noexcept nogil:
    """An impact or smoke marker lies on (x, y): it blocks LOS (+3 to fire into or out)."""
    cdef int b, k
    for b in range(BAT_END[s.scn]):     # validate() refuses a mission of a battery the scenario lacks
        if s.ms[b].state == MS_ACTIVE and s.ms[b].y == y:
            for k in range(BAT_SECT[s.scn][b]):
                if <int>s.ms[b].x + marker_dx(s, b, k) == x:
                    return 1
    return 0

cdef inline int marker_fire_mod(const MaState *s, int f, int t) noexcept nogil:
    """+3 to fire out of a marker, +3 to fire into one (digest, LOS)."""
    cdef int m = 0
    if not BAT_ANY[s.scn]:
        return 0
    if marker_at(s, s.st[f].x, s.st[f].y):
        m += 3
    if marker_at(s, s.st[t].x, s.st[t].y):
        m += 3
    return m


# ----------------------------------------------------------------- artillery attacks
cdef void art_crt(const MaState *s, int b, int t, double *p) noexcept nogil:
    """p[0..4] of one impact marker's attack on stand t: CD = HE - defence,
    below -3 still on the -3 column, a barrage two columns up, the target's
    terrain CRT modifier and no range modifier; No Effect becomes S."""
    cdef int cd = BAT_HE[s.scn][b] - indirect_defence(s, t)    # _air.pxi: one rule for artillery and air
    if cd < CRT_MIN:
        cd = CRT_MIN
    if cd > CRT_MAX:
        cd = CRT_MAX
    if BAT_BARRAGE[s.scn][b]:
        cd += BARRAGE_COLS
    crt_table(cd, terrain_crt(s, s.st[t].x, s.st[t].y) + ip_crt(s, t), p)   # positions stack (_obstacles.pxi)
    p[1] += p[0]
    p[0] = 0.0

cdef int crt_outcomes(double *crt, ard_action *a, double *pr) noexcept nogil:
    cdef int r, n = 0
    for r in range(5):
        if crt[r] > 0:
            a[n] = A_CRT + r
            pr[n] = crt[r]
            n += 1
    return n

cdef int hit_target(const MaState *s, int b, int k) noexcept nogil:
    """The live stand under battery b's marker k, or -1."""
    cdef int x = <int>s.ms[b].x + marker_dx(s, b, k), y = s.ms[b].y
    if not on_map(s, x, y):
        return -1
    return shell_occupant(s, x, y)                 # _entry.pxi: never a stand off the table

cdef bint art_bldg_from(MaState *s, int b, int r) noexcept nogil:
    """After the stands' attacks: from r (2 x marker + 0 its building area,
    + 1 its improved position) the next intact building area or light/medium
    position under battery b's high-explosive markers is attacked (digest,
    Improved positions: "Artillery and bombs attack building areas"; positions
    "DV 5" / "DV 8"): its roll is N_BLDG (_buildings.pxi); a barrage two
    columns up, as on stands."""
    cdef int x, fp, k
    if code_kind(s.ms[b].code) != 0:
        return 0
    fp = BAT_HE[s.scn][b] + (BARRAGE_COLS if BAT_BARRAGE[s.scn][b] else 0)
    while r < 2 * BAT_SECT[s.scn][b]:
        k = r // 2
        x = <int>s.ms[b].x + marker_dx(s, b, k)
        if r % 2 == 0:
            attack_building(s, x, s.ms[b].y, fp, 0)
        else:
            attack_position(s, x, s.ms[b].y, fp, 0)      # _obstacles.pxi
        if s.bld_area != NONE:
            s.art_mk = k
            s.art_step = AR_BLDG
            return 1
        r += 1
    return 0

cdef void art_building_done(MaState *s, int nxt) noexcept nogil:
    """hook (building_roll_done): the next building area or position under the
    battery's markers (nxt 1: the position on the same marker, 2: the next
    marker), or the next battery."""
    if not art_bldg_from(s, seq_battery(s, s.art_seq), 2 * s.art_mk + nxt):
        art_done(s)

cdef bint find_hit(MaState *s, int b, int k) noexcept nogil:
    """The next marker (from k) of battery b's high-explosive fire with a stand under it.
    From the first (k 0) every unspotted marker under them is shown first (_spotting.pxi)."""
    cdef int j, g
    if code_kind(s.ms[b].code) != 0:
        return 0
    if k == 0:
        for j in range(BAT_SECT[s.scn][b]):
            g = hit_target(s, b, j)
            if g >= 0:
                shell_reveal(s, g)
    while k < BAT_SECT[s.scn][b]:
        if hit_target(s, b, k) >= 0:
            s.art_mk = k
            s.art_step = AR_HIT
            return 1
        k += 1
    return 0


# ----------------------------------------------------------------- the artillery fire phase
cdef void art_next(MaState *s) noexcept nogil:
    """From art_seq on: the next battery with fire to reveal or markers to
    attack with; after the last, the standard fire phase."""
    cdef int b, st
    while s.art_seq < 8:
        b = seq_battery(s, s.art_seq)
        if BAT_ON[s.scn][b]:
            st = s.ms[b].state
            if st == MS_ACTIVE:
                # markers that stay (multi-turn duration) attack again
                if find_hit(s, b, 0) or art_bldg_from(s, b, 0):
                    return
            elif st != MS_NONE:
                s.art_step = AR_REVEAL
                s.art_mk = 0
                return
        s.art_seq += 1
    s.art_seq = 0
    s.art_step = 0
    s.art_mk = 0
    fire_phase_begin(s)                 # _flow.pxi: the air strikes, then standard fire

cdef bint start_artillery(MaState *s) noexcept nogil:
    """Phase 3 after posture, when the scenario has artillery."""
    if not has_artillery(s):
        return 0
    s.phase = PH_ART
    s.art_seq = 0
    art_next(s)
    return 1

cdef inline void art_done(MaState *s) noexcept nogil:
    s.art_seq += 1
    s.art_step = 0
    s.art_mk = 0
    art_next(s)

cdef void art_land(MaState *s, int b, int x, int y) noexcept nogil:
    """The fire lands with its point of impact at (x, y): markers go down and
    high explosive attacks every stand under them."""
    cdef Mission *m = &s.ms[b]
    m.state = MS_ACTIVE
    m.x = x
    m.y = y
    m.doubled = 0
    m.land_turn = 0
    m.last_code = m.code
    if code_kind(m.code) == 1:
        m.left = SMOKE_TURNS
        if s.smoke_left[b] > 0:
            s.smoke_left[b] -= 1
    else:
        m.left = BAT_DUR[s.scn][b]
    if not find_hit(s, b, 0) and not art_bldg_from(s, b, 0):
        art_done(s)

cdef inline void art_lost(MaState *s, int b) noexcept nogil:
    s.ms[b].state = MS_NONE
    s.ms[b].doubled = 0
    s.ms[b].code = 0
    s.ms[b].land_turn = 0
    art_done(s)

cdef int art_roll_mod(const MaState *s, int b, bint deviate) noexcept nogil:
    cdef int m = 0
    if code_prereg(s.ms[b].code):
        m += PREREG_MOD
    if deviate and s.ms[b].last_code == s.ms[b].code:
        m += ADJ_MOD                    # adjusted onto the battery's last landed target
    return m

cdef inline int delay_of(const MaState *s, int b) noexcept nogil:
    return ART_DELAY[s.scn][bat_side(b)]

cdef int art_chance(const MaState *s, int k, ard_action *a, double *pr) noexcept nogil:
    """Outcomes and exact probabilities of the artillery chance nodes."""
    cdef int b, p, c, r, n = 0, code, x, y, d, ok, step
    cdef double crt[5], rest
    if k == N_ART_MOVEHIT or k == N_ART_RETREATHIT:
        b = s.art_mk // 3
        art_crt(s, b, s.mover if k == N_ART_MOVEHIT else s.ctarget, crt)
        return crt_outcomes(crt, a, pr)
    b = seq_battery(s, s.art_seq)
    p = bat_side(b)
    if k == N_ART_REVEAL:
        if battery_lost(s, b):
            a[0] = A_LAND_NONE                   # its stand is lost: nothing lands
            pr[0] = 1.0
            return 1
        if s.ms[b].state == MS_HIDDEN:
            # a view: the opponent's plot is unknown; only weights search on views
            a[0] = A_LAND_NONE
            pr[0] = 0.5
            n = 1
            for code in range(NCODE):
                if ((code_point(s, p, code, &x, &y) or pre_hidden(s, p, preshow_index(s, code)))
                        and (code_kind(code) == 0 or s.smoke_left[b] > 0)):
                    a[n] = A_LAND + code
                    n += 1
            if n == 1:
                pr[0] = 1.0
                return 1
            rest = 0.5 / (n - 1)
            for c in range(1, n):
                pr[c] = rest
            return n
        if s.ms[b].state == MS_PLOTTED and s.ms[b].land_turn == s.turn:
            a[0] = A_LAND + s.ms[b].code
        else:
            a[0] = A_LAND_NONE
        pr[0] = 1.0
        return 1
    if k == N_ART_ARRIVE:
        return two_outcomes(p_pass(coh_eff(s, p), art_roll_mod(s, b, 0)), a, pr)
    if k == N_ART_DEVIATE:
        c = coh_eff(s, p) - art_roll_mod(s, b, 1)   # rolls r <= c succeed, but a natural 20 always fails
        ok = 0
        for r in range(1, 20):
            if r <= c:
                ok += 1
        if ok:
            a[n] = A_OK
            pr[n] = ok / 20.0
            n += 1
        if ok < 19:
            a[n] = A_FAIL
            pr[n] = (19 - ok) / 20.0
            n += 1
        a[n] = A_N20
        pr[n] = 0.05
        return n + 1
    if k == N_ART_SCATTER:
        # 1D8 direction, 1D8/2 inches rounded up (1..4 each 2 in 8), doubled on a natural 20
        step = 2 if s.ms[b].doubled else 1
        for c in range(8):
            for d in range(1, 5):
                a[n] = A_DEV + c * 8 + d * step - 1
                pr[n] = 1.0 / 32.0
                n += 1
        return n
    if k == N_ART_HIT:
        art_crt(s, b, hit_target(s, b, s.art_mk), crt)
        return crt_outcomes(crt, a, pr)
    if k == N_PRESHOW:
        return preshow_chance(s, a, pr)      # _prereg.pxi
    return 0

cdef void art_apply_chance(MaState *s, int k, ard_action action) noexcept nogil:
    cdef int b, p, x, y, t, v
    if k == N_ART_MOVEHIT:
        apply_result(s, s.mover, action - A_CRT)
        move_hits_next(s, s.art_mk + 1)
        return
    if k == N_ART_RETREATHIT:
        apply_result(s, s.ctarget, action - A_CRT)
        if not (alive(s, s.ctarget) and retreat_hits_from(s, s.art_mk + 1)):
            s.art_mk = 0
            close_done(s)
        return
    b = seq_battery(s, s.art_seq)
    p = bat_side(b)
    if k == N_ART_REVEAL:
        if action == A_LAND_NONE:
            # a hold (or, in a view, an unknown decision) is forgotten once any
            # fire from it would have landed
            if battery_lost(s, b):
                s.ms[b].state = MS_NONE          # whatever was plotted is lost with the stand
                s.ms[b].code = 0
                s.ms[b].land_turn = 0
            elif (s.ms[b].state == MS_HELD or s.ms[b].state == MS_HIDDEN) and \
                    s.turn >= <int>s.ms[b].plot_turn + delay_of(s, b):
                s.ms[b].state = MS_NONE
            art_done(s)
            return
        s.ms[b].state = MS_PLOTTED
        s.ms[b].code = action - A_LAND
        s.ms[b].land_turn = s.turn
        s.art_step = AR_PRESHOW if preshow_due(s, b) else AR_ARRIVE    # a call: its point is seen first
    elif k == N_PRESHOW:
        preshow_apply(s, action)             # _prereg.pxi
    elif k == N_ART_ARRIVE:
        if action == A_OK:
            s.art_step = AR_DEVIATE
        else:
            art_lost(s, b)
    elif k == N_ART_DEVIATE:
        if action == A_OK:
            code_point(s, p, s.ms[b].code, &x, &y)
            art_land(s, b, x, y)
        else:
            s.ms[b].doubled = 1 if action == A_N20 else 0
            s.art_step = AR_SCATTER
    elif k == N_ART_SCATTER:
        v = action - A_DEV
        code_point(s, p, s.ms[b].code, &x, &y)
        if deviate(s, x, y, v // 8, v % 8 + 1, &x, &y):
            art_land(s, b, x, y)
        else:
            art_lost(s, b)                  # deviated off the table
    elif k == N_ART_HIT:
        t = hit_target(s, b, s.art_mk)
        apply_result(s, t, action - A_CRT)
        if not find_hit(s, b, s.art_mk + 1) and not art_bldg_from(s, b, 0):
            art_done(s)

cdef int art_node(const MaState *s) noexcept nogil:
    if s.art_step == AR_REVEAL:
        return N_ART_REVEAL
    if s.art_step == AR_ARRIVE:
        return N_ART_ARRIVE
    if s.art_step == AR_DEVIATE:
        return N_ART_DEVIATE
    if s.art_step == AR_SCATTER:
        return N_ART_SCATTER
    if s.art_step == AR_PRESHOW:
        return N_PRESHOW
    return N_ART_HIT


# ----------------------------------------------------------------- stands moving into an impact area
cdef bint move_hits_from(MaState *s, int i) noexcept nogil:
    """The next high-explosive marker (index battery * 3 + section, from i)
    on the mover's square: it attacks the mover."""
    if marker_hits_from(s, s.mover, i):
        s.mv_sub = M_ART
        return 1
    return 0

cdef bint marker_hits_from(MaState *s, int g, int i) noexcept nogil:
    """The next high-explosive marker (battery * 3 + section, from i) on stand
    g's square: art_mk names it; 0 if none."""
    cdef int b, k
    if not BAT_ANY[s.scn]:
        return 0
    while i < MAXBAT * 3:
        b = i // 3
        k = i % 3
        if (s.ms[b].state == MS_ACTIVE and code_kind(s.ms[b].code) == 0 and k < BAT_SECT[s.scn][b]
                and s.ms[b].y == s.st[g].y and <int>s.ms[b].x + marker_dx(s, b, k) == s.st[g].x):
            s.art_mk = i
            return 1
        i += 1
    return 0

cdef bint retreat_hits_from(MaState *s, int i) noexcept nogil:
    """hook (the retreat of a close-assaulted stand): it moved into an impact
    area, so each high-explosive marker there attacks it, as it attacks a
    stand moving in (digest: "and any stand that moves in during the turn")."""
    if marker_hits_from(s, s.ctarget, i):
        s.mv_sub = M_ART_RETREAT
        return 1
    return 0

cdef void move_hits_next(MaState *s, int i) noexcept nogil:
    if alive(s, s.mover) and move_hits_from(s, i):
        return
    s.art_mk = 0
    if not alive(s, s.mover):
        end_move(s)
        return
    s.mv_sub = M_STEP
    after_step_fire(s)


# ----------------------------------------------------------------- the joint plot phase
cdef bint plot_decides(const MaState *s, int b) noexcept nogil:
    """Battery b makes a (hidden) plot decision this phase: it exists, its side
    may plot and it has no markers on the table (all public)."""
    return (BAT_ON[s.scn][b] and s.ms[b].state != MS_ACTIVE and not side_broken(s, bat_side(b))
            and not battery_lost(s, b))

cdef void art_plot_next(MaState *s) noexcept nogil:
    while s.art_seq < 8:
        if plot_decides(s, seq_battery(s, s.art_seq)):
            return
        s.art_seq += 1
    s.art_seq = 0
    begin_orders(s)                     # _flow.pxi: the joint plot phase is over

cdef bint art_plot_begin(MaState *s) noexcept nogil:
    """hook (joint_plot_air_done): the artillery plots of phase 5, Joint Plot,
    after the air bomb plots, when the scenario has batteries."""
    if not has_artillery(s):
        return 0
    s.phase = PH_PLOT
    s.art_seq = 0
    art_plot_next(s)
    return 1

cdef inline int plot_battery(const MaState *s) noexcept nogil:
    return seq_battery(s, s.art_seq)

cdef inline bint plot_within_sight(const MaState *s, int g, int x, int y) noexcept nogil:
    """Point (x, y) lies within stand g's sighting distance of it (sight_reach_xy)."""
    cdef int dx = iabs(<int>s.st[g].x - x), dy = iabs(<int>s.st[g].y - y)
    return (dx if dx > dy else dy) <= sight_reach_xy(s, s.st[g].x, s.st[g].y, x, y)

cdef bint plotter_sees(const MaState *s, int b, int x, int y) noexcept nogil:
    """The battery's FO, or an HQ or GHQ of its side, sees (x, y) (digest:
    "plotted by an FO or HQ with LOS"), within its sighting distance of the point
    (sight_reach_xy, _board.pxi: the turn's sighting, the weather's or the night's
    roll, +5" a level the plotter stands above the point, as fire is limited)."""
    cdef int p = bat_side(b), g
    for g in range(p * 16, p * 16 + 16):
        if alive(s, g) and (g == BAT_OBS[s.scn][b] or is_command(s, g)) and not off_table(s, g):
            if plot_within_sight(s, g, x, y) and has_los_xy(s, s.st[g].x, s.st[g].y, x, y, 0, NULL):
                return 1
    return 0

cdef bint any_plotter(const MaState *s, int b) noexcept nogil:
    cdef int p = bat_side(b), g
    for g in range(p * 16, p * 16 + 16):
        if alive(s, g) and (g == BAT_OBS[s.scn][b] or is_command(s, g)) and not off_table(s, g):
            return 1
    return 0

cdef bint plot_legal(const MaState *s, int b, int code) noexcept nogil:
    cdef int p = bat_side(b), x, y
    if s.ms[b].state != MS_NONE and s.ms[b].state != MS_HELD:
        return 0
    if code_kind(code) == 1 and s.smoke_left[b] == 0:
        return 0
    if not code_point(s, p, code, &x, &y):
        return 0
    if code_prereg(code):
        return any_plotter(s, b)          # a call on a pre-registered point needs no LOS (design)
    return plotter_sees(s, b, x, y)

cdef int plot_legal_actions(const MaState *s, ard_action *out) noexcept nogil:
    """The same set as plot_legal() over every code, fast: each cell's LOS is
    traced once (for both kinds) over a precomputed grid of what blocks."""
    cdef int b = plot_battery(s), p = bat_side(b), code, n = 1, t, g, x, y, kinds, k, c
    cdef uint8_t grid[HMAX * WMAX]
    cdef uint8_t seen[NCELLS]
    cdef bint any_p = 0
    out[0] = A_HOLD
    if s.ms[b].state != MS_NONE and s.ms[b].state != MS_HELD:
        return 1
    memcpy(grid, SC_TBLK[s.scn], HMAX * WMAX)
    for c in range(SC_NBLDG[s.scn]):                     # burning building areas and rubble (_buildings.pxi)
        grid[SC_BY[s.scn][c] * WMAX + SC_BX[s.scn][c]] = square_blocks(s, SC_BX[s.scn][c], SC_BY[s.scn][c])
    for c in range(MAXBAT):                              # impact and smoke markers block
        if s.ms[c].state == MS_ACTIVE:
            for k in range(BAT_SECT[s.scn][c]):
                x = <int>s.ms[c].x + marker_dx(s, c, k)
                if on_map(s, x, s.ms[c].y):
                    grid[s.ms[c].y * WMAX + x] = 1
    for g in range(NSLOT):
        if alive(s, g) and TY_DEF[s.st[g].type] != D_PERSONNEL and not off_table(s, g):
            grid[s.st[g].y * WMAX + s.st[g].x] = 1      # vehicles and weapons block; personnel do not
    memset(seen, 0, NCELLS)
    for g in range(p * 16, p * 16 + 16):
        if not (alive(s, g) and (g == BAT_OBS[s.scn][b] or is_command(s, g))) or off_table(s, g):
            continue
        any_p = 1
        for t in range(NCELLS):
            if not seen[t] and code_point(s, p, t, &x, &y) \
                    and plot_within_sight(s, g, x, y) \
                    and has_los_xy(s, s.st[g].x, s.st[g].y, x, y, 0, grid):
                seen[t] = 1
    kinds = 2 if s.smoke_left[b] > 0 else 1
    for k in range(kinds):
        for t in range(NCELLS):
            if seen[t]:
                out[n] = A_ART_PLOT + k * NTGT + t
                n += 1
        if any_p:
            for t in range(PRE_N[s.scn][p]):
                if pre_known(s, p, t):
                    out[n] = A_ART_PLOT + k * NTGT + NCELLS + t
                    n += 1
    return n

cdef void plot_apply(MaState *s, ard_action action) noexcept nogil:
    cdef int b = plot_battery(s), code
    cdef Mission *m = &s.ms[b]
    if action == ARD_HIDDEN_OUTCOME:
        m.state = MS_HIDDEN                  # a view: the opponent decided, unseen
        m.code = 0
        m.land_turn = 0
    elif action == A_HOLD:
        if m.state == MS_NONE:
            m.state = MS_HELD
    else:
        code = action - A_ART_PLOT
        m.state = MS_PLOTTED
        m.code = code
        m.land_turn = s.turn + (1 if code_prereg(code) else delay_of(s, b))
    m.plot_turn = s.turn
    s.art_seq += 1
    art_plot_next(s)


# ----------------------------------------------------------------- the end of the turn
cdef void markers_age(MaState *s) noexcept nogil:
    """Marker removal: impact and smoke markers whose time is up leave the table."""
    cdef int b
    if not BAT_ANY[s.scn]:
        return
    for b in range(MAXBAT):
        if s.ms[b].state == MS_ACTIVE:
            if s.ms[b].left > 1:
                s.ms[b].left -= 1
            else:
                s.ms[b].state = MS_NONE
                s.ms[b].code = 0
                s.ms[b].left = 0
                s.ms[b].x = 0
                s.ms[b].y = 0


# ----------------------------------------------------------------- hidden plots
cdef inline bint being_revealed(const MaState *s, int b) noexcept nogil:
    """Battery b's fire is landing now: its aim was revealed (land:<code>)."""
    return (s.phase == PH_ART and s.art_seq < 8 and seq_battery(s, s.art_seq) == b
            and s.art_step != AR_REVEAL and s.art_step != AR_HIT)

cdef void art_observe(MaState *v, int q) noexcept nogil:
    """The view hides side q's plot decisions until their fire lands."""
    cdef int b
    for b in range(q * 4, q * 4 + 4):
        if (v.ms[b].state == MS_HELD or v.ms[b].state == MS_PLOTTED) and not being_revealed(v, b):
            v.ms[b].state = MS_HIDDEN
            v.ms[b].code = 0
            v.ms[b].land_turn = 0

cdef void art_determinize(MaState *s, int q, ard_rng *rng) noexcept nogil:
    """Each unknown plot of side q: a hold or, with probability 1/2, a plot
    drawn uniformly from the codes the battery could have plotted, due after
    what the view has seen (design: no model of the opponent's aim)."""
    cdef int b, code, n, x, y, land, tries
    cdef bint revealed_now = s.phase != PH_INIT and s.phase != PH_LEAD and s.phase != PH_POSTURE
    for b in range(q * 4, q * 4 + 4):
        if s.ms[b].state != MS_HIDDEN:
            continue
        s.ms[b].state = MS_HELD
        if ard_rng_below(rng, 2) == 0:
            continue
        for tries in range(20):
            code = <int>ard_rng_below(rng, NCODE)
            if not code_point(s, q, code, &x, &y) or (code_kind(code) == 1 and s.smoke_left[b] == 0):
                continue
            land = s.ms[b].plot_turn + (1 if code_prereg(code) else delay_of(s, b))
            if land < s.turn or (land == s.turn and revealed_now):
                continue
            s.ms[b].state = MS_PLOTTED
            s.ms[b].code = code
            s.ms[b].land_turn = land
            break


# ----------------------------------------------------------------- evaluation: incoming fire
cdef double incoming_fire(const MaState *s, int player) noexcept nogil:
    """Expected harm of high-explosive fire known to be on its way (plotted,
    or markers that stay): roughly a third of each stand's value under the
    aiming point's markers, for the battery's side, against the other."""
    cdef int b, k, x, y, t
    cdef double v = 0.0, w
    if not BAT_ANY[s.scn]:
        return 0.0
    for b in range(MAXBAT):
        if not BAT_ON[s.scn][b] or code_kind(s.ms[b].code) != 0:
            continue
        if s.ms[b].state == MS_PLOTTED:
            if battery_lost(s, b):
                continue
            if not code_point(s, bat_side(b), s.ms[b].code, &x, &y):
                continue
            w = 0.3
        elif s.ms[b].state == MS_ACTIVE and s.ms[b].left > 1:
            x = s.ms[b].x
            y = s.ms[b].y
            w = 0.3
        else:
            continue
        for k in range(BAT_SECT[s.scn][b]):
            if not on_map(s, x + marker_dx(s, b, k), y):
                continue
            t = occupant(s, x + marker_dx(s, b, k), y, -1)
            if t >= 0:
                v += (-w if side_of(t) == player else w) * stand_value(s, t)
    return v


# ----------------------------------------------------------------- validation
cdef int art_validate(const MaState *s, char *msg, int msglen) noexcept nogil:
    cdef int b, p, x, y, g
    cdef const Mission *m
    if s.scn >= NSCN:
        return fail(msg, msglen, b"scenario index is not a loaded scenario")
    if s.art_reserved:
        return fail(msg, msglen, b"reserved artillery byte is not 0")
    if (s.phase == PH_ART or (s.phase == PH_PLOT and s.air_step != AS_PLOT and s.drop_step != DS_PLOT)) \
            and not has_artillery(s):        # (a drop zone plot, _drop.pxi, is in the joint plot phase too)
        return fail(msg, msglen, b"an artillery phase in a scenario without artillery")
    if s.art_seq > 8 or s.art_step > AR_PRESHOW or s.art_mk >= MAXBAT * 3:
        return fail(msg, msglen, b"artillery bookkeeping out of range")
    for b in range(MAXBAT):
        m = &s.ms[b]
        p = bat_side(b)
        if not BAT_ON[s.scn][b]:
            if m.state or m.code or m.plot_turn or m.land_turn or m.x or m.y or m.left or m.doubled \
                    or m.reserved or s.smoke_left[b] or (m.last_code != 0 and m.last_code != NOCODE):
                return fail(msg, msglen, b"a mission for a battery the scenario does not have")
            continue
        if m.state > MS_ACTIVE or m.reserved or m.doubled > 1 or s.smoke_left[b] > BAT_SMOKE[s.scn][b]:
            return fail(msg, msglen, b"a battery's mission bytes out of range")
        if m.code >= NCODE or (m.last_code != NOCODE and m.last_code >= NCODE):
            return fail(msg, msglen, b"a mission's plot code out of range")
        if m.state == MS_HIDDEN and (s.viewer != 1 - p):
            return fail(msg, msglen, b"an unknown plot outside the opponent's view")
        if (m.state == MS_PLOTTED or m.state == MS_ACTIVE) and not code_point(s, p, m.code, &x, &y) \
                and not (s.viewer == 1 - p and pre_hidden(s, p, preshow_index(s, m.code))):
            return fail(msg, msglen, b"a mission aimed at no square of the table")   # (a view: at an unseen point)
        if m.state == MS_PLOTTED and (m.land_turn < s.turn or m.land_turn > s.turn + 3):
            return fail(msg, msglen, b"plotted fire due at an impossible turn")
        if m.state == MS_ACTIVE and (m.x >= SC_W[s.scn] or m.y >= SC_H[s.scn] or m.left < 1 or m.left > 3):
            return fail(msg, msglen, b"impact or smoke markers off the table or out of time")
        if m.state != MS_ACTIVE and (m.x or m.y or m.left):
            return fail(msg, msglen, b"marker bytes for a battery without markers")
        if (m.state != MS_PLOTTED and m.land_turn) or (m.state != MS_PLOTTED and m.state != MS_ACTIVE and m.code):
            return fail(msg, msglen, b"plot bytes for a battery with nothing plotted")
        if m.doubled and not (s.phase == PH_ART and seq_battery(s, s.art_seq) == b and s.art_step == AR_SCATTER):
            return fail(msg, msglen, b"a doubled deviation outside its scatter roll")
    if s.phase == PH_ART:
        if s.art_seq >= 8:
            return fail(msg, msglen, b"the artillery phase past its last battery")
        b = seq_battery(s, s.art_seq)
        m = &s.ms[b]
        if not BAT_ON[s.scn][b]:
            return fail(msg, msglen, b"the artillery phase at a battery the scenario does not have")
        if s.art_step == AR_REVEAL and (m.state == MS_NONE or m.state == MS_ACTIVE):
            return fail(msg, msglen, b"a landing check for a battery with nothing plotted")
        if (s.art_step == AR_ARRIVE or s.art_step == AR_DEVIATE or s.art_step == AR_SCATTER) and \
                m.state != MS_PLOTTED:
            return fail(msg, msglen, b"arrival or deviation rolls for fire not plotted")
        if s.art_step == AR_PRESHOW and preshow_validate(s, b, msg, msglen):
            return 1
        if s.art_step == AR_HIT and (m.state != MS_ACTIVE or code_kind(m.code) != 0
                                     or s.art_mk >= BAT_SECT[s.scn][b] or hit_target(s, b, s.art_mk) < 0):
            return fail(msg, msglen, b"an impact attack with no stand under the marker")
        if s.art_step == AR_BLDG and (m.state != MS_ACTIVE or code_kind(m.code) != 0
                                      or s.art_mk >= BAT_SECT[s.scn][b] or s.bld_area == NONE
                                      or not on_map(s, <int>m.x + marker_dx(s, b, s.art_mk), m.y)
                                      or not roll_square_ok(s, <int>m.x + marker_dx(s, b, s.art_mk), m.y)):
            return fail(msg, msglen, b"an impact's building roll with no building area under the marker")
    if (s.phase == PH_PLOT and s.air_step != AS_PLOT and s.drop_step != DS_PLOT
            and (s.art_seq >= 8 or not plot_decides(s, plot_battery(s)))):
        return fail(msg, msglen, b"a plot decision for a battery that makes none")
    if s.phase == PH_MOVE and s.mover != NONE and (s.mv_sub == M_ART or s.mv_sub == M_ART_RETREAT):
        b = s.art_mk // 3
        g = s.mover if s.mv_sub == M_ART else s.ctarget
        if (g >= NSLOT or s.ms[b].state != MS_ACTIVE or code_kind(s.ms[b].code) != 0
                or s.art_mk % 3 >= BAT_SECT[s.scn][b] or s.ms[b].y != s.st[g].y
                or <int>s.ms[b].x + marker_dx(s, b, s.art_mk % 3) != s.st[g].x):
            return fail(msg, msglen, b"an impact attack on a moving or retreating stand outside the marker")
    return 0


# ----------------------------------------------------------------- notation
cdef int put_point(char *buf, int n, int x, int y) noexcept nogil:
    n = put_int(buf, n, x)
    n = put_text(buf, n, b",")
    return put_int(buf, n, y)

cdef int put_code(const MaState *s, int p, int code, char *buf, int n) noexcept nogil:
    """`he 13,7` / `smoke 13,7` (cell aiming square), `he pre1` (pre-registered point 1)."""
    cdef int x, y, t = code % NTGT
    n = put_text(buf, n, b"he " if code_kind(code) == 0 else b"smoke ")
    if t >= NCELLS:
        n = put_text(buf, n, b"pre")
        return put_int(buf, n, t - NCELLS + 1)
    if not code_point(s, p, code, &x, &y):
        # outside this table: still a name, the cell's
        x = (t % NCELLX) * PLOT_GRID + PLOT_GRID // 2
        y = (t // NCELLX) * PLOT_GRID + PLOT_GRID // 2
    return put_point(buf, n, x, y)

cdef int art_action_to_string(const MaState *s, ard_action a, char *tmp) noexcept nogil:
    """Notation of the artillery actions (RULES.md, Notation), or -1."""
    cdef int n = 0, p, b
    b = seq_battery(s, s.art_seq) if s.art_seq < 8 else 0
    p = bat_side(b)
    if a == A_HOLD:
        return put_text(tmp, 0, b"hold")
    if a >= A_ART_PLOT and a < A_ART_PLOT + NCODE:
        n = put_text(tmp, 0, b"plot ")
        return put_code(s, p, a - A_ART_PLOT, tmp, n)
    if a == A_LAND_NONE:
        return put_text(tmp, 0, b"land:none")
    if a >= A_LAND and a < A_LAND + NCODE:
        n = put_text(tmp, 0, b"land:")
        return put_code(s, p, a - A_LAND, tmp, n)
    if a >= A_DEV and a < A_DEV + 64:
        n = put_text(tmp, 0, b"dev:")
        n = put_text(tmp, n, DIR_NAMES[(a - A_DEV) // 8])
        return put_int(tmp, n, (a - A_DEV) % 8 + 1)
    return -1

cdef int parse_int(const char *t, int n, int *v) noexcept nogil:
    """Digits at t (up to 2): their count, the value in v; 0 if none."""
    cdef int i = 0, r = 0
    while i < n and i < 2 and t[i] >= c'0' and t[i] <= c'9':
        r = r * 10 + (t[i] - c'0')
        i += 1
    v[0] = r
    return i

cdef int parse_code(const MaState *s, int p, const char *t, int n) noexcept nogil:
    """`he 13,7` / `smoke pre1` -> plot code, or -1."""
    cdef int kind, i, j, x, code
    if n > 3 and word_is(t, 3, b"he "):
        kind = 0
        i = 3
    elif n > 6 and word_is(t, 6, b"smoke "):
        kind = 1
        i = 6
    else:
        return -1
    if n - i > 3 and word_is(t + i, 3, b"pre"):
        j = parse_int(t + i + 3, n - i - 3, &x)
        if j == 0 or i + 3 + j != n or x < 1 or x > 4:
            return -1
        return kind * NTGT + NCELLS + x - 1
    code = parse_cell(s, t + i, n - i)
    return kind * NTGT + code if code >= 0 else -1

cdef int parse_cell(const MaState *s, const char *t, int n) noexcept nogil:
    """`13,7`, a plot cell's aiming square on this table -> the cell, or -1."""
    cdef int j, x, y, c, cx, cy
    j = parse_int(t, n, &x)
    if j == 0 or j >= n or t[j] != c',':
        return -1
    t += j + 1
    n -= j + 1
    j = parse_int(t, n, &y)
    if j == 0 or j != n:
        return -1
    for c in range(NCELLS):
        if code_point(s, 0, c, &cx, &cy) and cx == x and cy == y:
            return c
    return -1

cdef int art_string_to_action(const MaState *s, const char *t, int n) noexcept nogil:
    cdef int p, b, code, d, v
    b = seq_battery(s, s.art_seq) if s.art_seq < 8 else 0
    p = bat_side(b)
    if word_is(t, n, b"hold"):
        return A_HOLD
    if word_is(t, n, b"land:none"):
        return A_LAND_NONE
    if n > 5 and word_is(t, 5, b"plot "):
        code = parse_code(s, p, t + 5, n - 5)
        return A_ART_PLOT + code if code >= 0 else -1
    if n > 5 and word_is(t, 5, b"land:"):
        code = parse_code(s, p, t + 5, n - 5)
        return A_LAND + code if code >= 0 else -1
    if n > 4 and word_is(t, 4, b"dev:"):
        for d in range(8):
            v = 0
            while DIR_NAMES[d][v]:
                v += 1
            if n == 4 + v + 1 and word_is(t + 4, v, DIR_NAMES[d]) and t[4 + v] >= c'1' and t[4 + v] <= c'8':
                return A_DEV + d * 8 + (t[4 + v] - c'1')
        return -1
    return -1


# ----------------------------------------------------------------- Python side: structured state
MISSION_STATES = ("none", "held", "plotted", "hidden", "active")
ART_STEPS = ("reveal", "arrive", "deviate", "scatter", "hit", "building", "show_point")
KINDS_ART = ("he", "smoke")


cdef object _code_dict(const MaState *s, int p, int code):
    cdef int x = 0, y = 0
    cdef int t = code % NTGT
    if code < 0 or code >= NCODE:
        return None
    known = code_point(s, p, code, &x, &y)   # not at an opponent's point not seen yet (a view)
    return {"kind": KINDS_ART[code_kind(code)], "target": [x, y] if known else None,
            "prereg": t - NCELLS + 1 if t >= NCELLS else None}


cdef object _artillery_dict(const MaState *s):
    """RULES.md, Structured state: the batteries, their missions and markers
    (null for a scenario without artillery)."""
    cdef int b, p, k, sc = s.scn if s.scn < NSCN else 0
    if not BAT_ANY[sc]:
        return None
    bats = []
    for b in range(MAXBAT):
        if not BAT_ON[sc][b]:
            continue
        p = bat_side(b)
        m = &s.ms[b]
        st = MISSION_STATES[m.state] if m.state <= MS_ACTIVE else str(m.state)
        d = {"id": BATTERY_IDS[sc][b], "side": SIDE_KEYS[p], "smoke_left": s.smoke_left[b], "state": st,
             "plot_turn": m.plot_turn,
             "last": None if m.last_code == NOCODE else _code_dict(s, p, m.last_code)}
        if m.state == MS_PLOTTED or m.state == MS_ACTIVE:
            d["mission"] = _code_dict(s, p, m.code)
        else:
            d["mission"] = None
        d["lands"] = m.land_turn if m.state == MS_PLOTTED else None
        if m.state == MS_ACTIVE:
            d["markers"] = [[m.x + marker_dx(s, b, k), m.y] for k in range(BAT_SECT[sc][b])
                            if 0 <= m.x + marker_dx(s, b, k) < SC_W[s.scn]]
            d["turns_left"] = m.left
        else:
            d["markers"] = []
            d["turns_left"] = 0
        d["doubled"] = bool(m.doubled)
        bats.append(d)
    cur = None
    # no battery is in hand while the aircraft plot (the first part of the joint plot phase)
    if (s.phase == PH_ART or s.phase == PH_PLOT) and s.air_step != AS_PLOT and s.drop_step != DS_PLOT:
        cur = BATTERY_IDS[sc][seq_battery(s, s.art_seq)] if s.art_seq < 8 else None
    return {"batteries": bats, "current": cur, "step": ART_STEPS[s.art_step % 7],
            "marker": s.art_mk, "prereg": _prereg_dict(s)}


cdef int _artillery_from_dict(object a, MaState *s) except -1:
    cdef int b, p, code, x, y, sc = s.scn
    _prereg_from_dict(a, s)                  # _prereg.pxi
    if a is None:
        return 0
    if not isinstance(a, dict) or not isinstance(a.get("batteries", []), list):
        raise ValueError("artillery: expected {batteries: [...], current, step, marker}")
    ids = BATTERY_IDS[sc]
    for i, d in enumerate(a.get("batteries", [])):
        key = f"artillery.batteries[{i}]"
        bid = _get(d, "id", key)
        if bid not in ids or not bid:
            raise ValueError(f"{key}.id={bid!r}: expected a battery of this scenario "
                             f"({', '.join(x for x in ids if x) or 'none'})")
        b = ids.index(bid)
        p = bat_side(b)
        m = &s.ms[b]
        m.state = _choice(d.get("state", "none"), MISSION_STATES, key + ".state")
        s.smoke_left[b] = _int_in(d.get("smoke_left", s.smoke_left[b]), 0, BAT_SMOKE[sc][b], key + ".smoke_left")
        m.plot_turn = _int_in(d.get("plot_turn", 0), 0, 50, key + ".plot_turn")
        m.last_code = NOCODE if d.get("last") is None else _code_from(s, p, d["last"], key + ".last")
        mission = d.get("mission")
        if m.state in (MS_PLOTTED, MS_ACTIVE):
            if mission is None:
                raise ValueError(f"{key}.mission: expected {{kind, target}} for a {MISSION_STATES[m.state]} battery")
            m.code = _code_from(s, p, mission, key + ".mission")
        if m.state == MS_PLOTTED:
            m.land_turn = _int_in(_get(d, "lands", key), 1, 53, key + ".lands")
        if m.state == MS_ACTIVE:
            code_point(s, p, m.code, &x, &y)
            at = d.get("at")
            if at is None and d.get("markers"):
                at = d["markers"][0]
            if at is not None:
                x = _int_in(at[0], 0, SC_W[s.scn] - 1, key + ".at[0]")
                y = _int_in(at[1], 0, SC_H[s.scn] - 1, key + ".at[1]")
            m.x = x
            m.y = y
            m.left = _int_in(d.get("turns_left", 1), 1, 3, key + ".turns_left")
        m.doubled = 1 if d.get("doubled", False) else 0
    cur = a.get("current")
    if cur is not None:
        if cur not in ids or not cur:
            raise ValueError(f"artillery.current={cur!r}: expected a battery of this scenario")
        b = ids.index(cur)
        s.art_seq = (b - s.first * 4) & 7
    s.art_step = _choice(a.get("step", "reveal"), ART_STEPS, "artillery.step")
    s.art_mk = _int_in(a.get("marker", 0), 0, MAXBAT * 3 - 1, "artillery.marker")
    return 0


cdef int _code_from(const MaState *s, int p, object d, str key) except -1:
    if not isinstance(d, dict):
        raise ValueError(f"{key}: expected {{kind: he|smoke, target: [x, y]}} or {{kind, prereg: n}}")
    kind = _choice(d.get("kind"), KINDS_ART, key + ".kind")
    if d.get("prereg") is not None:
        n = _int_in(d["prereg"], 1, PRE_N[s.scn][p], key + ".prereg") if PRE_N[s.scn][p] else None
        if n is None:
            raise ValueError(f"{key}.prereg: this side has no pre-registered target points")
        return kind * NTGT + NCELLS + n - 1
    return kind * NTGT + _cell_from(s, d.get("target"), key + ".target")   # _prereg.pxi


def _plot_codes(raw):
    """Test helper: the legal plot codes of the battery deciding now."""
    cdef MaState s
    load_state(raw, &s)
    return [c for c in range(NCODE) if plot_legal(&s, plot_battery(&s), c)]


def _marker_at(raw, int x, int y):
    cdef MaState s
    load_state(raw, &s)
    return bool(marker_at(&s, x, y))
