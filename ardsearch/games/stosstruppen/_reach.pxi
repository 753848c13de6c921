# Where a unit may move, as bitboards. The same shortest paths as reach() in
# _rules.pxi (costs in half squares, slow terrain, friends passed and enemies
# never, wire stops, one trench crossing for non-foot units, and the doubled
# move of a unit that stays on the road), but all squares first reached at one
# cost are expanded together: a few dozen word operations per cost level
# instead of a queue walk over every square. The move generator and
# start_move() only need the sets; reach() is still used for the one thing the
# sets do not give: which trench square a crossing uses.

cdef inline void step_from(const Masks *mk, const BB *src, const BB *enter, const BB *slow,
                           BB *level, int c, int allow) noexcept nogil:
    """The steps from the squares src, at cost c, to the enterable squares:
    level[c + 2], level[c + 4] into slow terrain. (Roads do not make a step
    cheaper here: a move that leaves the road uses normal movement; road_sets()
    adds the doubled moves that stay on it.)"""
    cdef BB near
    cdef int k
    bb_dilate(src, &mk.board, &near)
    if c + 2 <= allow:
        for k in range(BB_WORDS):
            level[c + 2].w[k] |= near.w[k] & enter.w[k] & ~slow.w[k]
    if c + 4 <= allow:
        for k in range(BB_WORDS):
            level[c + 4].w[k] |= near.w[k] & enter.w[k] & slow.w[k]


cdef inline void cross_from(const Masks *mk, const BB *src, const BB *occupied, const BB *enter,
                            const BB *slow, BB *level, int c, int allow) noexcept nogil:
    """Non-foot units: from src at cost c over one empty trench square to the
    squares beyond it, at c + 2 plus the step. (A square beyond that is also
    where the crossing started is reached here too, but it already has the
    lower cost without a crossing, so no set reach_sets() gives changes.)"""
    cdef BB trench, beyond
    cdef int k
    bb_dilate(src, &mk.board, &trench)
    for k in range(BB_WORDS):
        trench.w[k] &= mk.trench.w[k] & ~occupied.w[k]
    if not bb_any(&trench):
        return
    bb_dilate(&trench, &mk.board, &beyond)
    for k in range(BB_WORDS):
        level[c + 4].w[k] |= beyond.w[k] & enter.w[k] & ~slow.w[k]
    if c + 6 <= allow:
        for k in range(BB_WORDS):
            level[c + 6].w[k] |= beyond.w[k] & enter.w[k] & slow.w[k]


cdef inline void road_sets(const Masks *mk, int start, int steps, const BB *enter, const BB *stop,
                           BB *r0) noexcept nogil:
    """Movement E, "All units starting and ending on roads double their
    movement": a unit starting on a road adds to r0 the road squares it
    reaches in up to `steps` (twice its move) steps along road squares only
    (RULES.md: the whole path, start and end included, on the road). Same
    limits as other moves: enterable squares (no enemy), wire stops."""
    cdef BB seen, cur, nxt
    cdef int k, n
    if not bb_has(&mk.road, start):
        return
    bb_clear(&seen)
    bb_set(&seen, start)
    cur = seen
    for n in range(steps):
        for k in range(BB_WORDS):
            cur.w[k] &= ~stop.w[k]
        bb_dilate(&cur, &mk.road, &nxt)
        for k in range(BB_WORDS):
            nxt.w[k] &= enter.w[k] & ~seen.w[k]
        if not bb_any(&nxt):
            break
        for k in range(BB_WORDS):
            seen.w[k] |= nxt.w[k]
        cur = nxt
    for k in range(BB_WORDS):
        r0.w[k] |= seen.w[k]


cdef void reach_sets(const StState *s, int i, const BB *enemy, const BB *occupied,
                     BB *r0, BB *r1) noexcept nogil:
    """The squares unit i reaches within its allowance: r0 those with
    cost0 < 255 in reach(), r1 (skipped when NULL) those with cost1 < 255,
    except that r1 may also hold squares of r0. Its own square is in r0.
    enemy, occupied: the squares of the enemy's units and of all units."""
    cdef const Masks *mk = &SM[s.scenario]
    cdef const UType *ut = utype(s, i)
    cdef int allow = 2 * ut.move, start = s.u[i].sq, c, k
    cdef bint cross = r1 != NULL and not ut.foot
    cdef const BB *slow = &mk.slow[1 if ut.foot else 0]
    # the squares reached at each cost, not yet settled (data.py: move <= 8,
    # so costs run 0..16); lv1 after a trench crossing
    cdef BB lv0[17]
    cdef BB lv1[17]
    cdef BB enter, stop, fresh
    bb_clear(r0)
    if r1 != NULL:
        bb_clear(r1)
    if start >= NSQ:
        return
    for k in range(BB_WORDS):
        enter.w[k] = mk.enter[1 if ut.foot else 0].w[k] & ~enemy.w[k]
        # non-tanks go no further from a wire square they entered
        stop.w[k] = 0 if ut.tank else mk.wire.w[k]
    stop.w[start >> 6] &= ~((<uint64_t>1) << (start & 63))
    memset(lv0, 0, (allow + 1) * sizeof(BB))
    if cross:
        memset(lv1, 0, (allow + 1) * sizeof(BB))
    bb_set(&lv0[0], start)
    for c in range(allow + 1):
        for k in range(BB_WORDS):
            fresh.w[k] = lv0[c].w[k] & ~r0.w[k]
        if bb_any(&fresh):
            for k in range(BB_WORDS):
                r0.w[k] |= fresh.w[k]
                fresh.w[k] &= ~stop.w[k]
            step_from(mk, &fresh, &enter, slow, lv0, c, allow)
            if cross and c + 4 <= allow:
                cross_from(mk, &fresh, occupied, &enter, slow, lv1, c, allow)
        if not cross:
            continue
        for k in range(BB_WORDS):
            fresh.w[k] = lv1[c].w[k] & ~r1.w[k]
        if bb_any(&fresh):
            for k in range(BB_WORDS):
                r1.w[k] |= fresh.w[k]
                fresh.w[k] &= ~stop.w[k]
            step_from(mk, &fresh, &enter, slow, lv1, c, allow)
    # a move that starts and ends on the road and stays on it is doubled
    road_sets(mk, start, allow, &enter, &stop, r0)


cdef void unit_squares(const StState *s, int enemy_side, BB *enemy, BB *occupied) noexcept nogil:
    """The squares of enemy_side's units, and of all units."""
    cdef int i, sq
    bb_clear(enemy)
    bb_clear(occupied)
    for i in range(NUNITS):
        sq = s.u[i].sq
        if sq < NSQ:
            bb_set(occupied, sq)
            if side_of(i) == enemy_side:
                bb_set(enemy, sq)
