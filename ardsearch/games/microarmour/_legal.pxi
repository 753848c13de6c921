# Micro Armour engine: vtable: init, the player to move, legal actions.
# Included by _engine.pyx (one module, split by concern).
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
    s.options = prm.options & OPT_ALL
    s.scn = prm.scn if prm.scn < NSCN else 0
    s.df_options = prm.df_options & DF_ALL
    s.bld_area = NONE
    air_init(s)                              # hook: aircraft ordnance and plots
    for g in range(MAXBAT):                  # hook: artillery (_artillery.pxi)
        s.smoke_left[g] = BAT_SMOKE[s.scn][g]
        s.ms[g].last_code = NOCODE if BAT_ON[s.scn][g] else 0
    mine_init(s)                             # hook: the minefield record sheet (_minefields.pxi)
    units_init(s)                            # hook: special stand types
    groups_init(s)                           # hook: movement groups
    for p in range(2):
        s.ghq_qual[p] = prm.quality[p]
        for v in range(10):
            s.deck[p][v] = FULL_DECK[v]
        s.ghq_slot[p] = NONE
        for g in range(p * 16, p * 16 + 16):
            if SC_START[s.scn][g].type != NONE and TY_ROLE[SC_START[s.scn][g].type] == 2:
                s.ghq_slot[p] = g
            if SC_START[s.scn][g].type != NONE and TY_ROLE[SC_START[s.scn][g].type] == 1:
                s.hq_mask |= <uint32_t>1 << g
    memcpy(s.st, SC_START[s.scn], sizeof(Stand) * NSLOT)
    support_slots(s)                         # _weapons_extra.pxi
    weather_init(s, prm)                     # _weather.pxi: weather, ground, night
    if prm.deploy == 1:
        for g in range(NSLOT):
            if s.st[g].type != NONE and not TY_BOAT[s.st[g].type]:     # a boat stays on its water
                if SC_EDGE[s.scn][side_of(g)] == 0:                    # from its own edge toward the enemy's
                    s.st[g].x += CLOSE_SHIFT
                else:
                    s.st[g].x -= CLOSE_SHIFT
    entry_init(s, prm.deploy)                # hook: stands entering from the table edge
    drop_init(s, prm)                        # hook: the paratroop landing group waits (_drop.pxi)
    prereg_init(s)                           # hook: no pre-registered point recorded yet (_prereg.pxi)
    transport_init(s, prm)                   # _transport.pxi: the scenario's cargo aboard
    start_turn(s)
    hidden_init(s)                           # _spotting.pxi: hidden markers, spotting at set-up


cdef int ma_current_player(const void *state) noexcept nogil:
    cdef const MaState *s = <const MaState *>state
    return node_player(s, node(s))

cdef int node_player(const MaState *s, int n) noexcept nogil:
    """ma_current_player() of a state waiting at node n (apply_action has n: speed)."""
    if n == N_OVER:
        return ARD_TERMINAL
    if n in (N_CARD0, N_CARD1, N_BRK0, N_BRK1, N_TOFIRE, N_CRT, N_INIT, N_ORDERS, N_MVROLL,
             N_STOPCHK, N_RECOVER, N_PASSCHK, N_OVR_DEFROLL, N_OVR_HIT1, N_OVR_ATKROLL, N_OVR_HIT2,
             N_REPLACE, N_GHQQUAL, N_HQREP, N_RISING, N_BLDG, N_ART_REVEAL, N_ART_ARRIVE, N_ART_DEVIATE,
             N_ART_SCATTER, N_ART_HIT, N_ART_MOVEHIT, N_MINE, N_BREACH, N_REVEAL,
             N_LOADROLL, N_ART_RETREATHIT, N_PRESHOW):
        return ARD_CHANCE
    if n == N_APPOINT:
        return command_side(s, CMD_APPOINT)
    if n == N_AIRCH or n == N_FLAME or n == N_GROLL or n == N_SIGHT or n == N_SHOWN or n == N_DROP or n == N_HQDELAY:
        return ARD_CHANCE
    if n == N_DROP_PLOT:
        return drop_side(s)                  # _drop.pxi
    if n == N_PREREG:
        return prereg_side(s)                # _prereg.pxi
    if n == N_FLRET:
        return side_of(s.fl_target)
    if n == N_FLARE:
        return flare_side(s)                 # _weather.pxi
    if n == N_AIR:
        return air_side(s, s.air_cur)
    if n == N_PLOT:
        return bat_side(plot_battery(s))
    if n == N_DECL:
        return s.atk_side
    if n == N_LEAD:
        return s.init_side
    return s.to_move


cdef int ma_legal_actions(const void *state, ard_action *out) noexcept nogil:
    cdef const MaState *s = <const MaState *>state
    cdef int k = node(s), n = legal_actions(s, k, out)     # speed: node() found once
    if s.hid:
        if k == N_POSTURE or k == N_FIRE or k == N_MOVE:
            n += show_actions(s, s.to_move, out + n)     # _spotting.pxi: a marker may show itself (last: increasing)
    return n

cdef int legal_actions(const MaState *s, int k, ard_action *out) noexcept nogil:
    """The legal actions of s waiting at node k = node(s)."""
    cdef int n = 0, p, f, t, l, g, d, q, touch
    cdef uint16_t tm, adj
    cdef uint32_t near, wm
    cdef LosMemo memo                # speed: the fire lists trace many lines over one position
    memo.ready = 0
    if k == N_AIR:
        return air_legal(s, out)             # hook: airstrikes
    if k == N_DROP_PLOT:
        return drop_legal(s, out)            # hook: paratroop drops (_drop.pxi)
    if k == N_PREREG:
        return prereg_legal(s, out)          # hook: pre-registered points (_prereg.pxi)
    if k == N_FLARE:
        out[0] = A_PASS                      # _weather.pxi: pass or fire a flare
        out[1] = A_FLARE
        return 2
    if k == N_PLOT:
        return plot_legal_actions(s, out)    # hook: artillery plots
    if k == N_FLRET:
        return flame_legal(s, out)           # hook: special stand types
    if k == N_LEAD:
        out[0] = A_LEAD
        out[1] = A_FOLLOW
        return 2
    if k == N_APPOINT:
        p = command_side(s, CMD_APPOINT)
        for l in range(16):
            if can_appoint(s, p * 16 + l):
                out[n] = A_APPOINT + l
                n += 1
        return n
    p = s.to_move
    if k == N_POSTURE:
        out[n] = A_PASS
        n += 1
        for l in range(16):
            g = p * 16 + l
            if alive(s, g) and s.st[g].posture == P_FIRING and TY_MP[s.st[g].type] > 0 and not carried(s, g) and not is_hidden(s, g):
                out[n] = A_POSTURE + 2 * l
                out[n + 1] = A_POSTURE + 2 * l + 1
                n += 2
        return groups_legal_posture(s, p, out, n)   # hook: a whole group's posture
    if k == N_FIRE:
        tm = fired_at_mask(s, 1 - p)             # speed: each firer and target tested once
        for f in range(16):
            if not may_fire(s, p * 16 + f, K_STANDARD):
                continue
            touch = TOUCH_UNKNOWN                # can_fire_pair finds the firer's contacts once
            for t in range(16):
                if (tm >> t) & 1 and can_fire_pair(s, p * 16 + f, (1 - p) * 16 + t, K_STANDARD, &memo, &touch):
                    out[n] = A_FIRE + f * 16 + t
                    n += 1
        out[n] = A_PASS
        return n + 1
    if k == N_DECL:
        p = s.atk_side
        t = s.atk_target & 15
        for f in range(16):
            if not (s.atk_firers >> f) & 1 and can_fire_m(s, p * 16 + f, s.atk_target, s.atk_kind, &memo):
                out[n] = A_FIRE + f * 16 + t
                n += 1
        out[n] = A_GO
        return n + 1
    if k == N_OFASK:
        t = s.mover & 15
        for f in range(16):
            if can_fire_m(s, p * 16 + f, s.mover, K_OPPORTUNITY, &memo):
                out[n] = A_FIRE + f * 16 + t
                n += 1
        out[n] = A_PASS
        return n + 1
    if k == N_CFASK:
        tm = s.of_firers & fired_at_mask(s, 1 - p)
        for f in range(16):
            if not may_fire(s, p * 16 + f, K_COVERING):
                continue
            touch = TOUCH_UNKNOWN
            for t in range(16):
                if (tm >> t) & 1 and can_fire_pair(s, p * 16 + f, (1 - p) * 16 + t, K_COVERING, &memo, &touch):
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
        n = groups_legal_move(s, p, out, n)         # hook: group movement attempts
        return n + transport_legal(s, k, p, out + n)     # _transport.pxi: dismounts
    if k == N_STEP:
        g = s.mover
        # speed: the stands about the mover and the wrecks, found once for its 8 steps
        near = standing_in(s, s.st[g].x - 2, s.st[g].y - 2, s.st[g].x + 2, s.st[g].y + 2)
        wm = wreck_slots(s)
        if not mine_must_stop(s, g):            # _minefields.pxi
            for d in range(8):
                if step_cost_in(s, g, d, near, wm) > 0:
                    out[n] = A_STEP + d
                    n += 1
        if occupant_of(s, near, s.st[g].x, s.st[g].y, g) < 0:     # can_stop_on(s, g, its square)
            for d in range(8):
                out[n] = A_STOP + d
                n += 1
        # speed: the mover's own tests once, not per target, and only the live enemies
        # next to it tried (both attacks need one: dist 1)
        adj = adjacent_enemies(s, g)
        if adj and may_assault(s, g):
            for t in range(16):
                if (adj >> t) & 1 and can_assault(s, g, (1 - p) * 16 + t):
                    out[n] = A_ASSAULT + t
                    n += 1
        if adj and may_overrun(s, g) and not mine_must_stop(s, g):
            for t in range(16):
                if (adj >> t) & 1 and overrun_cost(s, g, (1 - p) * 16 + t) > 0:
                    out[n] = A_OVERRUN + t
                    n += 1
        n = units_legal_step(s, g, out, n)      # hook: mount / dismount
        return n + transport_legal(s, k, p, out + n)     # _transport.pxi: boarding, dropping off
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
