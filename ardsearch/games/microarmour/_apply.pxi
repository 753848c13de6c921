# Micro Armour engine: vtable: applying chance outcomes and decisions.
# Included by _engine.pyx (one module, split by concern).
# ----------------------------------------------------------------- vtable: apply
cdef void apply_chance(MaState *s, int k, ard_action action) noexcept nogil:
    cdef int p, g, v, t, bx, by
    if is_art_chance(k):
        art_apply_chance(s, k, action)       # hook: artillery fire (_artillery.pxi)
        return
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
            formation_broke(s, p)            # plays on (_command.pxi)
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
    elif k == N_BLDG:
        building_result(s, s.bld_area, action - A_CRT)     # _buildings.pxi
        building_roll_done(s)
    elif k == N_MINE:
        mine_apply(s, action)                # _minefields.pxi
    elif k == N_BREACH:
        breach_apply(s, action)              # _minefields.pxi
    elif k == N_REVEAL:
        reveal_apply(s, action)              # _minefields.pxi
    elif k == N_CRT:
        v = action - A_CRT if action < A_CRT_OUT else action - A_CRT_OUT
        g = atk_slot(s, s.atk_cur)
        t = s.atk_target
        spend_ammo(s, g, t, s.atk_kind, action >= A_CRT_OUT)   # _weapons_extra.pxi
        if s.atk_kind == K_ASSAULT:
            if v == 3 or (v == 2 and (s.st[t].flags & F_S)):
                s.atk_hit = 2                # a D result: the defender must retreat
        elif v >= 1 and v <= 3:
            s.atk_hit = 1
        bx = s.st[t].x
        by = s.st[t].y
        if artillery_fire(s, g, t, s.atk_kind):
            # artillery attacks the building area its target stands in (RULES.md, Buildings)
            attack_building(s, bx, by, TY_HE[eff_type(s, g, t)], 0)
        apply_result(s, t, v)
        flame_hit(s, g, t, s.atk_kind, v)    # _stand_types.pxi
        s.hot = 0
        if s.bld_area == NONE:
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
            ghq_replaced(s, p)
        command_done(s)
    elif k == N_GHQQUAL or k == N_HQREP or k == N_RISING:
        apply_command(s, k, action)
    elif k == N_SIGHT:
        sight_apply(s, action)               # _weather.pxi
    elif k == N_INIT:
        s.init_side = action - A_INIT
        s.phase = PH_LEAD
    elif k == N_ORDERS:
        s.orders[orders_side(s)] = action - A_ORDERS
        s.ord_count += 1
        skip_dead_orders(s)
    elif k == N_MVROLL:
        g = s.mover
        if action == A_N1:
            s.orders[side_of(g)] += 1        # Intuitive Action: the order is not spent
        elif action == A_N20:
            s.orders[side_of(g)] = 0         # Conflicting Orders: the orders left are lost
        if action == A_OK or action == A_N1:
            s.mv_sub = M_STEP
            s.st[g].steps = 0
            s.st[g].mp = move_allowance(s, g)     # _stand_types.pxi: horses
            s.st[g].mp -= min(s.st[g].mp, load_paid(s, g))     # _transport.pxi: it loaded this turn
            if not off_table(s, g):
                mine_after_roll(s)                # leaving a minefield marker reveals it (_minefields.pxi)
            entry_move(s, g)                      # _entry.pxi: the first inch onto the table (no marker left)
        else:
            end_attempt_failed(s)
    elif k == N_LOADROLL:
        load_result(s, action)               # _transport.pxi
    elif k == N_STOPCHK:
        if action != A_OK:
            s.mv_flags |= 2
        after_opportunity(s)
    elif k == N_RECOVER:
        g = s.rec_next
        if action == A_N1:
            # contract: "a modified success removes S; only a natural 1 removes D": the
            # natural 1 always rallies D, and recovers S only if 1 + the stand's
            # modifiers is a success too (_chance.pxi: recovery_level)
            if recovery_level(s, g) >= 1:
                s.st[g].flags &= ~F_S
            s.st[g].flags &= ~F_D
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
    carry_along(s, g)                        # _transport.pxi
    s.mv_sub = M_STEP
    after_step(s)


cdef void ma_apply(void *state, ard_action action) noexcept nogil:
    apply_action(<MaState *>state, action)
    spot_update(<MaState *>state)            # hook: hidden set-up and spotting (_spotting.pxi)


cdef void apply_action(MaState *s, ard_action action) noexcept nogil:
    cdef int k = node(s), p, f, t, g, d, c, o
    if k == N_OVER:
        return
    if k == N_AIR or k == N_AIRCH:
        air_apply(s, action)                 # hook: airstrikes
        return
    if k == N_DROP_PLOT or k == N_DROP:
        drop_apply(s, action)                # hook: paratroop drops (_drop.pxi)
        return
    if k == N_PREREG:
        prereg_apply(s, action)              # hook: pre-registered points (_prereg.pxi)
        return
    if k == N_HQDELAY:
        hq_delay_apply(s, action)            # hook: a lost paratroop HQ's delay (_drop.pxi)
        command_done(s)
        return
    if units_apply(s, k, action):            # hook: special stand types
        return
    if k == N_SHOWN:
        shown_apply(s, action)              # hook: hidden set-up (_spotting.pxi)
        return
    if k == N_FLARE:
        flare_apply(s, action)               # _weather.pxi
        return
    if node_player(s, k) == ARD_CHANCE:     # ma_current_player(), its node known
        apply_chance(s, k, action)
        return
    if A_SHOW <= action < A_SHOW + 16:
        show_apply(s, action)                # hook: hidden set-up (_spotting.pxi)
        return
    if k == N_APPOINT:
        apply_command(s, k, action)
        return
    if k == N_PLOT:
        plot_apply(s, action)                # hook: artillery plots (_artillery.pxi)
        return
    if k == N_LEAD:
        s.first = s.init_side if action == A_LEAD else 1 - s.init_side
        s.phase = PH_POSTURE
        s.to_move = s.first
        s.passed = 0
        return
    p = s.to_move
    if action >= A_LOAD:
        transport_apply(s, k, action)        # _transport.pxi: load / unload
        return
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
        if o >= 0 and side_of(o) != side_of(g) and not brushes_aside(s, g, o):
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
        carry_along(s, t)
        if not retreat_hits_from(s, 0):     # hook: impact markers where it retreats to (_artillery.pxi)
            close_done(s)
        return
    t = (1 - p) * 16 + (action - A_ASSAULT) % 16
    s.ctarget = t
    s.st[t].flags |= F_MOVED                # pinned: it may not move this phase
    if action < A_OVERRUN:
        s.mv_sub = M_CLOSE
        if s.st[t].posture == P_FIRING and not is_mounted(s, t) and combat_diff(s, t, g, K_ASLDEF) >= CRT_MIN:
            start_attack(s, side_of(t), K_ASLDEF, t, g)
        else:
            start_attack(s, p, K_ASSAULT, g, t)
        return
    c = overrun_cost(s, g, t)
    s.st[g].mp -= c if c > 0 else s.st[g].mp
    # the overrunner passes over the target and finishes adjacent, beyond it
    s.st[g].facing = octant(<int>s.st[t].x - <int>s.st[g].x, <int>s.st[t].y - <int>s.st[g].y)
    s.st[g].x = overrun_x(s, g, t)
    s.st[g].y = overrun_y(s, g, t)
    carry_along(s, g)
    if can_fire(s, t, g, K_OVR_OF):
        s.mv_sub = M_OVR_OFASK
        s.to_move = side_of(t)
    else:
        s.mv_sub = M_OVR_DEFROLL
