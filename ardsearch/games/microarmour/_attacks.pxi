# Micro Armour engine: declared attacks, opportunity fire, overruns and close assaults as they resolve.
# Included by _engine.pyx (one module, split by concern).
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
    cdef int f, t, touch
    cdef LosMemo memo                   # speed: many lines over one position
    memo.ready = 0
    if target < 0:
        targets_mask &= fired_at_mask(s, 1 - p)     # speed: each target's own tests once
    for f in range(p * 16, p * 16 + 16):
        if not alive(s, f) or (s.st[f].flags & F_FIRED):
            continue
        if target >= 0:
            if can_fire_m(s, f, target, kind, &memo):
                return 1
        else:
            if not may_fire(s, f, kind):
                continue
            touch = TOUCH_UNKNOWN
            for t in range(16):
                if (targets_mask >> t) & 1 and can_fire_pair(s, f, (1 - p) * 16 + t, kind, &memo, &touch):
                    return 1
    return 0

cdef void resume_mover(MaState *s) noexcept nogil:
    if s.mv_flags & 2 or not alive(s, s.mover):     # stopped, or lost to the opportunity fire
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
    if not on_map(s, x, y) or move_cost(s, d, x, y) == 0 or occupant(s, x, y, d) >= 0:
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
    elif kind == K_OPPORTUNITY and hit and alive(s, s.mover):
        s.mv_sub = M_STOPCHK
    else:
        # covering fire: every unfired firing-posture stand may answer the opportunity
        # fire, even when it eliminated the mover ("Opportunity fire in turn triggers
        # covering fire"); then the move goes on, or ends (resume_mover)
        after_opportunity(s)

cdef void declare(MaState *s, int p, int f_local, int t_local, int kind) noexcept nogil:
    if s.atk_step == S_NONE:
        s.atk_side = p
        s.atk_kind = kind
        s.atk_target = (1 - p) * 16 + t_local
        s.atk_firers = 0
        s.atk_step = S_DECLARE
        s.atk_hit = 0
    s.atk_firers |= <uint16_t>(1 << f_local)
