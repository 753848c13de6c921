# Micro Armour engine: the turn sequence: which node the state waits for, phase and turn changes.
# Included by _engine.pyx (one module, split by concern).
# ----------------------------------------------------------------- phase flow
cdef int node(const MaState *s) noexcept nogil:
    if s.phase == PH_OVER:
        return N_OVER
    if s.spot_due:
        return N_SHOWN                      # _spotting.pxi: what a spotted marker is, first
    if s.cards_pending[0]:
        return N_CARD0
    if s.cards_pending[1]:
        return N_CARD1
    if s.brk_pending & 1:
        return N_BRK0
    if s.brk_pending & 2:
        return N_BRK1
    if s.bld_area != NONE:
        return N_BLDG                    # _buildings.pxi: an artillery roll on a building area
    if s.fl_step:
        return units_node(s)             # _stand_types.pxi: a flame vehicle's hit
    if s.atk_step == S_TOFIRE:
        return N_TOFIRE
    if s.atk_step == S_CRT:
        return N_CRT
    if s.atk_step == S_DECLARE:
        return N_DECL
    if s.air_step:
        return air_node(s)                   # hook: airstrikes (_air.pxi)
    if s.drop_step:
        return N_DROP_PLOT if s.drop_step == DS_PLOT else N_DROP   # hook: paratroop drops (_drop.pxi)
    if s.phase == PH_ART:
        return art_node(s)                   # hook: artillery fire (_artillery.pxi)
    if s.phase == PH_PLOT:
        return N_PLOT                        # hook: artillery plots (_artillery.pxi)
    if s.phase == PH_INIT:
        if prereg_due(s):
            return N_PREREG                  # before turn 1: pre-registered points (_prereg.pxi)
        if sight_due(s):
            return N_SIGHT                   # weather and night (_weather.pxi)
        return N_FLARE if flare_side(s) >= 0 else N_INIT      # flares (_weather.pxi)
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
            return N_GROLL if s.grp_step == GS_ROLL else N_MOVE      # _groups.pxi: a group's roll
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
        if s.mv_sub == M_ART:
            return N_ART_MOVEHIT
        if s.mv_sub == M_MINE:
            return N_MINE                    # _minefields.pxi: a real field attacks the stand leaving it
        if s.mv_sub == M_REVEAL:
            return N_REVEAL                  # _minefields.pxi: the marker it leaves is revealed
        if s.mv_sub == M_LOADROLL:
            return N_LOADROLL                # _transport.pxi
        if s.mv_sub == M_ART_RETREAT:
            return N_ART_RETREATHIT
        return N_OVR_HIT2
    if s.rec_next != NONE:
        return N_RECOVER
    if s.mf_bnext != NONE:
        return N_MINE if s.mf_cur != NONE else N_BREACH     # _minefields.pxi: breaching
    return command_node(s)

cdef inline int ghq_alive(const MaState *s, int p) noexcept nogil:
    return s.ghq_slot[p] < NSLOT and alive(s, s.ghq_slot[p])

cdef int first_hq(const MaState *s, int p) noexcept nogil:
    cdef int g
    for g in range(p * 16, p * 16 + 16):
        if alive(s, g) and (s.hq_mask >> g) & 1:
            return g
    return -1

cdef inline bint needs_replacement(const MaState *s, int p) noexcept nogil:
    """A lost GHQ is replaced by an HQ's cohesion roll; not at cohesion 12 or less."""
    return not ghq_alive(s, p) and coh_eff(s, p) > 12 and first_hq(s, p) >= 0

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
    buildings_new_turn(s)
    flares_new_turn(s)                       # _weather.pxi: last turn's flares burn out
    s.tr_loaded = 0                          # _transport.pxi: loading costs are for the turn
    drop_turn_begin(s)                       # _drop.pxi: the drop turn opens with the landings

cdef void finish_game(MaState *s) noexcept nogil:
    """The end: with exactly one side broken the other wins (the scenario's "break the
    enemy"); otherwise whoever holds the village (more stands on its squares) wins."""
    cdef int g, n[2]
    s.phase = PH_OVER
    if s.broken == 1 or s.broken == 2:
        s.winner = 1 if s.broken == 1 else 0
        return
    n[0] = 0
    n[1] = 0
    for g in range(NSLOT):
        if holds_ground(s, g) and ter(s, s.st[g].x, s.st[g].y) == VILLAGE_T:   # a dummy holds nothing
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
    if breach_next(s, 0):                    # hook: engineers' breaching rolls (_minefields.pxi)
        return
    recovery_done(s)

cdef void recovery_done(MaState *s) noexcept nogil:
    """After the recovery and breaching rolls: the command rolls, or the next turn."""
    cdef int p
    s.rep_pending = 0
    for p in range(2):
        if needs_replacement(s, p):
            s.rep_pending |= 1 << p
    command_due(s)
    if s.rep_pending == 0 and s.cmd_pending == 0 and not hq_delay_due(s):   # _drop.pxi: the HQ delay roll
        end_of_turn(s)

cdef void end_of_turn(MaState *s) noexcept nogil:
    markers_age(s)
    hq_delay_turn_end(s)                     # _drop.pxi: a lost paratroop HQ's delay counts down
    if s.turn >= s.turns:
        s.end_cause = END_LAST_TURN
        finish_game(s)
    else:
        s.turn += 1
        start_turn(s)

cdef void end_phase(MaState *s) noexcept nogil:
    cdef int g
    s.passed = 0
    s.to_move = s.first
    if s.phase == PH_POSTURE:
        if not start_artillery(s):           # hook: phase 3, artillery fire first (_artillery.pxi)
            fire_phase_begin(s)
    elif s.phase == PH_FIRE:
        joint_plot_begin(s)                  # phase 5
    elif s.phase == PH_MOVE:
        entry_close(s)                       # _entry.pxi: the rest are placed on their entry squares
        s.phase = PH_RECOVER
        positions_marker_removal(s)          # hook: empty light positions vanish (_obstacles.pxi)
        next_recovery(s, 0)

cdef void fire_phase_begin(MaState *s) noexcept nogil:
    """Phase 3 goes on after the artillery fire (if any) with the air strikes,
    then the standard fire (RULES.md, Turn sequence)."""
    s.phase = PH_FIRE
    s.passed = 0
    s.to_move = s.first
    air_phase_begin(s)                       # hook: air strikes before standard fire (_air.pxi)

cdef void joint_plot_begin(MaState *s) noexcept nogil:
    """Phase 5, Joint Plot: one phase of hidden decisions, the air bomb plots
    (_air.pxi) then the artillery plots (_artillery.pxi); then the orders.
    A paratroop drop zone (_drop.pxi) is plotted first."""
    if not drop_plot_begin(s):
        joint_plot_drop_done(s)

cdef void joint_plot_drop_done(MaState *s) noexcept nogil:
    """The drop zone (if any) is plotted: the air bomb plots, then the artillery plots."""
    if not air_plot_begin(s):
        joint_plot_air_done(s)

cdef void joint_plot_air_done(MaState *s) noexcept nogil:
    """The air bomb plots of the joint plot phase are made: the artillery plots, or the orders."""
    if not art_plot_begin(s):
        begin_orders(s)

cdef void begin_orders(MaState *s) noexcept nogil:
    s.phase = PH_ORDERS
    s.ord_count = 0
    skip_dead_orders(s)

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
            half_loads_complete(s)           # _transport.pxi: two-turn loads begun last turn
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
