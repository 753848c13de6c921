# Where a unit may move, as bitboards. The same shortest paths as reach() in
# _rules.pxi (costs in half squares, slow terrain, friends passed and enemies
# never, one obstacle a move: wire passed after a Morale test, or one trench
# crossing for non-foot units; and the doubled move of a unit that stays on
# the road), but all squares first reached at one cost are expanded together:
# a few dozen word operations per cost level instead of a queue walk over
# every square. The move generator and start_move() only need the sets;
# reach() is still used for the one thing the sets do not give: which trench
# square a crossing uses.

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


cdef inline void cross_from(const Masks *mk, const BB *src, const BB *blocked, const BB *enter,
                            const BB *slow, BB *level, int c, int allow) noexcept nogil:
    """Non-foot units: from src at cost c over one trench square not in
    `blocked` (empty, and no wire for a non-tank) to the squares beyond it,
    at c + 2 plus the step. (A square beyond that is also
    where the crossing started is reached here too, but it already has the
    lower cost without a crossing, so no set reach_sets() gives changes.)"""
    cdef BB trench, beyond
    cdef int k
    bb_dilate(src, &mk.board, &trench)
    for k in range(BB_WORDS):
        trench.w[k] &= mk.trench.w[k] & ~blocked.w[k]
    if not bb_any(&trench):
        return
    bb_dilate(&trench, &mk.board, &beyond)
    for k in range(BB_WORDS):
        level[c + 4].w[k] |= beyond.w[k] & enter.w[k] & ~slow.w[k]
    if c + 6 <= allow:
        for k in range(BB_WORDS):
            level[c + 6].w[k] |= beyond.w[k] & enter.w[k] & slow.w[k]


cdef inline void road_sets(const Masks *mk, int start, int steps, const BB *enter, const BB *wire,
                           BB *r0, BB *rw) noexcept nogil:
    """Movement E, "All units starting and ending on roads double their
    movement": a unit starting on a road adds the road squares it reaches in
    up to `steps` (twice its move) steps along road squares only (RULES.md:
    the whole path, start and end included, on the road): to r0 those whose
    path enters no square of `wire`, to rw those it reaches through wire
    (Obstacles A: after a Morale test). Same limits as other moves:
    enterable squares (no enemy). wire is empty for a tank."""
    cdef BB seen0, seenw, cur0, curw, nxt0, nxtw
    cdef int k, n
    if not bb_has(&mk.road, start):
        return
    bb_clear(&seen0)
    bb_clear(&seenw)
    bb_clear(&curw)
    bb_set(&seen0, start)
    cur0 = seen0
    for n in range(steps):
        bb_dilate(&cur0, &mk.road, &nxt0)
        bb_dilate(&curw, &mk.road, &nxtw)
        for k in range(BB_WORDS):
            nxtw.w[k] = (nxtw.w[k] | (nxt0.w[k] & wire.w[k])) & enter.w[k] & ~seenw.w[k] & ~seen0.w[k]
            nxt0.w[k] &= enter.w[k] & ~wire.w[k] & ~seen0.w[k]
        if not (bb_any(&nxt0) or bb_any(&nxtw)):
            break
        for k in range(BB_WORDS):
            seen0.w[k] |= nxt0.w[k]
            seenw.w[k] |= nxtw.w[k]
        cur0 = nxt0
        curw = nxtw
    for k in range(BB_WORDS):
        r0.w[k] |= seen0.w[k]
        rw.w[k] |= seenw.w[k]


cdef void reach_sets(const StState *s, int i, const BB *enemy, const BB *occupied,
                     BB *r0, BB *rw, BB *rt) noexcept nogil:
    """The squares unit i reaches within its allowance: r0 with no test, rw
    through wire (non-tanks, Obstacles A: a Morale test to pass; the path
    may enter any number of wire squares and end on one), rt over one
    trench square (non-foot units, Obstacles B). One test a move: a wire
    path never crosses a trench, a trench crossing never enters wire. rw
    and rt may also hold squares of r0. Its own square is in r0. enemy,
    occupied: the squares of the enemy's units and of all units."""
    cdef const Masks *mk = &SM[s.scenario]
    cdef const UType *ut = utype(s, i)
    cdef int allow = 2 * ut.move, start = s.u[i].sq, c, k
    cdef bint cross = not ut.foot, wired = not ut.tank and bb_any(&mk.wire)
    cdef const BB *slow = &mk.slow[1 if ut.foot else 0]
    # the squares reached at each cost, not yet settled (data.py: move <= 8,
    # so costs run 0..16); lvw through wire, lvt after a trench crossing
    cdef BB lv0[17]
    cdef BB lvw[17]
    cdef BB lvt[17]
    cdef BB enter, free, into_wire, wire, blocked, fresh
    bb_clear(r0)
    bb_clear(rw)
    bb_clear(rt)
    if start >= NSQ:
        return
    for k in range(BB_WORDS):
        wire.w[k] = mk.wire.w[k] if wired else 0
        enter.w[k] = mk.enter[1 if ut.foot else 0].w[k] & ~enemy.w[k]
        free.w[k] = enter.w[k] & ~wire.w[k]         # a step that takes no test
        into_wire.w[k] = enter.w[k] & wire.w[k]
        blocked.w[k] = occupied.w[k] | wire.w[k]    # trench squares a crossing may not use
    memset(lv0, 0, (allow + 1) * sizeof(BB))
    if wired:
        memset(lvw, 0, (allow + 1) * sizeof(BB))
    if cross:
        memset(lvt, 0, (allow + 1) * sizeof(BB))
    bb_set(&lv0[0], start)
    for c in range(allow + 1):
        for k in range(BB_WORDS):
            fresh.w[k] = lv0[c].w[k] & ~r0.w[k]
        if bb_any(&fresh):
            for k in range(BB_WORDS):
                r0.w[k] |= fresh.w[k]
            step_from(mk, &fresh, &free, slow, lv0, c, allow)
            if wired:
                step_from(mk, &fresh, &into_wire, slow, lvw, c, allow)
            if cross and c + 4 <= allow:
                cross_from(mk, &fresh, &blocked, &free, slow, lvt, c, allow)
        if wired:
            # a square already reached with no test needs no wire path on from it
            for k in range(BB_WORDS):
                fresh.w[k] = lvw[c].w[k] & ~rw.w[k] & ~r0.w[k]
            if bb_any(&fresh):
                for k in range(BB_WORDS):
                    rw.w[k] |= fresh.w[k]
                step_from(mk, &fresh, &enter, slow, lvw, c, allow)
        if cross:
            for k in range(BB_WORDS):
                fresh.w[k] = lvt[c].w[k] & ~rt.w[k]
            if bb_any(&fresh):
                for k in range(BB_WORDS):
                    rt.w[k] |= fresh.w[k]
                step_from(mk, &fresh, &free, slow, lvt, c, allow)
    # a move that starts and ends on the road and stays on it is doubled
    road_sets(mk, start, allow, &enter, &wire, r0, rw)


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
