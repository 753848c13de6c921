# Micro Armour engine: minefields, real and dummy markers (RULES.md "Minefields").
# Included by _engine.pyx (one module, split by concern).
#
# Where the markers are is static scenario data (scenarios/*.toml [[minefield]]),
# public; what each one is (dummy or a real field of some kind) is the layer's
# secret, held in the state (mf_kind, 2 bits a marker) so that a view can hide it
# and determinize can deal it again. How many real fields of each kind a side laid
# is public (the scenario's forces); which markers they are is not.
#
# Hooks: step_cost (a marker square the mover could not stop on is not entered),
# the N_STEP legal actions (a stand that entered an enemy marker must stop),
# move_mod (+3 to leave one), the N_MVROLL apply (a stand that passed leaves and
# the marker is revealed: a dummy is removed, a real field attacks it: M_MINE,
# node N_MINE), observe / determinize, validate, init.
cdef enum:
    MAXMF = 16          # minefield markers per scenario (16-bit masks)
    MK_DUMMY = 0
    MK_HASTY = 1
    MK_STANDARD = 2
    MK_CONC = 3
    N_MINE = 42         # chance: a real minefield's attack on the stand leaving it (or breaching it: a natural 20)
    N_BREACH = 43       # chance: a breaching stand's cohesion roll (marker removal)
    N_REVEAL = 44       # chance: what the marker the mover leaves turns out to be (`mine:<kind>`)
    M_REVEAL = 16       # mover sub-state: that reveal is due
    M_MINE = 15         # mover sub-state: that attack is due

cdef const char *MINE_NAMES[4]
MINE_NAMES[:] = [b"mine:dummy", b"mine:hasty", b"mine:standard", b"mine:concentrated"]
cdef int MF_COL[4]                          # CRT column by kind (charts.toml [minefield.column])
cdef int MF_LEAVE = 3                       # cohesion modifier to leave a marker
cdef int MF_NEED[2][4]                      # breaching successes by [engineer, vehicle][kind]
cdef int SC_NMF[MAXSCN]
cdef uint8_t SC_MFX[MAXSCN][MAXMF]
cdef uint8_t SC_MFY[MAXSCN][MAXMF]
cdef uint8_t SC_MFSIDE[MAXSCN][MAXMF]       # the side that laid it
cdef uint32_t SC_MFKIND0[MAXSCN]            # the record sheet: every marker's kind at the start
cdef uint8_t SC_MFCOUNT[MAXSCN][2][4]       # markers of each kind by side (public)
cdef uint8_t SC_MFIDX[MAXSCN][HMAX][WMAX]   # marker on a square, NONE if none


cdef inline int mf_kind_of(const MaState *s, int i) noexcept nogil:
    return (s.mf_kind >> (2 * i)) & 3

cdef inline int mine_marker(const MaState *s, int x, int y, int p) noexcept nogil:
    """The marker still on (x, y) laid by the enemy of side p, or -1 (a
    side's own minefields do not stop it: it has the record sheet)."""
    cdef int i = SC_MFIDX[s.scn][y][x]
    if i == NONE or (s.mf_gone >> i) & 1 or SC_MFSIDE[s.scn][i] == p:
        return -1
    return i

cdef inline bint mine_step_ok(const MaState *s, int g, int x, int y) noexcept nogil:
    """A stand entering an enemy marker must stop there: not onto one held
    by another stand."""
    return mine_marker(s, x, y, side_of(g)) < 0 or occupant(s, x, y, g) < 0

cdef inline bint mine_must_stop(const MaState *s, int g) noexcept nogil:
    """The mover entered an enemy marker this move: it must stop."""
    return s.st[g].steps > 0 and mine_marker(s, s.st[g].x, s.st[g].y, side_of(g)) >= 0

cdef inline int mine_leave_mod(const MaState *s, int g) noexcept nogil:
    """+3 to the movement roll of a stand on an enemy marker (to leave it)."""
    return MF_LEAVE if mine_marker(s, s.st[g].x, s.st[g].y, side_of(g)) >= 0 else 0

cdef void mine_after_roll(MaState *s) noexcept nogil:
    """The mover passed its roll to leave a marker: a marker not yet revealed
    is revealed (N_REVEAL, an outcome both players see, so a view learns it as
    the owner's record sheet says); a revealed real field attacks at once."""
    cdef int g = s.mover, i = mine_marker(s, s.st[g].x, s.st[g].y, side_of(g))
    if i < 0:
        return
    s.mf_cur = i
    s.mv_sub = M_MINE if (s.mf_shown >> i) & 1 else M_REVEAL

cdef int reveal_outcomes(const MaState *s, ard_action *a, double *pr) noexcept nogil:
    """The marker's kind: certain in a state that knows it; in the opponent's
    view, the kinds not yet seen (the side's counts less the revealed
    markers') spread over its unrevealed markers."""
    cdef int i = s.mf_cur, q = SC_MFSIDE[s.scn][s.mf_cur], k, j, hidden = 0, n = 0
    cdef int left[4]
    if s.viewer < 0 or s.viewer == q:
        a[0] = A_MINE + mf_kind_of(s, i)
        pr[0] = 1.0
        return 1
    for k in range(4):
        left[k] = SC_MFCOUNT[s.scn][q][k]
    for j in range(SC_NMF[s.scn]):
        if SC_MFSIDE[s.scn][j] != q:
            continue
        if ((s.mf_shown | s.mf_gone) >> j) & 1:
            if left[mf_kind_of(s, j)] > 0:
                left[mf_kind_of(s, j)] -= 1
        else:
            hidden += 1
    for k in range(4):
        if left[k] > 0 and hidden > 0:
            a[n] = A_MINE + k
            pr[n] = left[k] / <double>hidden
            n += 1
    if n == 0:
        a[0] = A_MINE
        pr[0] = 1.0
        n = 1
    return n

cdef void reveal_apply(MaState *s, ard_action action) noexcept nogil:
    """The marker is what the outcome says: a dummy is removed and the move
    goes on; a real field stays (revealed) and attacks the mover (N_MINE)."""
    cdef int i = s.mf_cur, k = action - A_MINE
    s.mf_kind = (s.mf_kind & ~(<uint32_t>3 << (2 * i))) | (<uint32_t>k << (2 * i))
    if k == MK_DUMMY:
        s.mf_gone |= <uint16_t>(1 << i)
        s.mf_cur = NONE
        s.mv_sub = M_STEP
    else:
        s.mf_shown |= <uint16_t>(1 << i)
        s.mv_sub = M_MINE

cdef int mine_outcomes(const MaState *s, ard_action *a, double *pr) noexcept nogil:
    """The attack on the field's fixed column: 2D6, no modifiers."""
    cdef double p[5]
    cdef int r, n = 0
    crt_table(MF_COL[mf_kind_of(s, s.mf_cur)], 0, p)
    for r in range(5):
        if p[r] > 0:
            a[n] = A_CRT + r
            pr[n] = p[r]
            n += 1
    return n

cdef void mine_apply(MaState *s, ard_action action) noexcept nogil:
    """The result lands on the mover; only an unharmed stand moves on (design:
    any S, (S) or D result halts it in the field). In the marker removal phase
    it lands on the breaching stand, and the next breaching roll follows."""
    cdef int g = s.mover, res = action - A_CRT
    if s.mf_bnext != NONE:
        g = s.mf_bnext
        apply_result(s, g, res)
        s.mf_cur = NONE
        if not breach_next(s, g + 1):
            recovery_done(s)
        return
    apply_result(s, g, res)
    s.mf_cur = NONE
    if res == 0 and alive(s, g):
        s.mv_sub = M_STEP
    else:
        end_move(s)

cdef void mine_init(MaState *s) noexcept nogil:
    s.mf_kind = SC_MFKIND0[s.scn]
    s.mf_cur = NONE
    s.mf_bnext = NONE


# ----------------------------------------------------------------- breaching
cdef inline int breach_need(const MaState *s, int g, int k) noexcept nogil:
    """Successes stand g needs to clear a field of kind k; 0 if it cannot
    breach (neither engineers nor a mine-clearing vehicle)."""
    cdef int t = s.st[g].type, e = MF_NEED[0][k] if TY_ENGINEER[t] else 0, v = MF_NEED[1][k] if TY_MINECLEAR[t] else 0
    if e and v:
        return e if e < v else v
    return e if e else v

cdef int breach_field(const MaState *s, int g) noexcept nogil:
    """The field stand g may breach this marker removal phase, or -1: a
    revealed real enemy field on its square, the stand an engineer or a
    mine-clearing vehicle that stayed in place this turn (did not move)."""
    cdef int i
    if not alive(s, g) or s.st[g].flags & F_MOVED or s.carrier[g] != NONE:
        return -1                        # design: cargo does no engineering work aboard its carrier
    i = mine_marker(s, s.st[g].x, s.st[g].y, side_of(g))
    if i < 0 or not (s.mf_shown >> i) & 1 or breach_need(s, g, mf_kind_of(s, i)) == 0:
        return -1
    return i

cdef bint breach_next(MaState *s, int start) noexcept nogil:
    """The next stand (from slot start) with an engineering roll due (a
    breach, clearing a wreck off a road: _obstacles.pxi, a bridge or an AT
    ditch: _engineering.pxi): 1 if one is."""
    cdef int g
    for g in range(start, NSLOT):
        if breach_field(s, g) >= 0 or wreck_task(s, g) or terrain_task(s, g) >= 0:   # _engineering.pxi
            s.mf_bnext = g
            return 1
    s.mf_bnext = NONE
    return 0

cdef int breach_outcomes(const MaState *s, ard_action *a, double *pr) noexcept nogil:
    """1D20 + the stand's modifiers <= cohesion: `c:n1` clears the field at
    once, `c:n20` sets it off (a mine attack), else `c:ok` / `c:fail`."""
    cdef int g = s.mf_bnext, c = coh_eff(s, side_of(g)) - cohesion_mods(s, g), okn, n = 0
    if breach_field(s, g) < 0:          # clearing a wreck, a bridge or a ditch: one plain cohesion roll
        return two_outcomes(p_pass(coh_eff(s, side_of(g)), cohesion_mods(s, g)), a, pr)
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

cdef void breach_apply(MaState *s, ard_action action) noexcept nogil:
    cdef int g = s.mf_bnext, i = breach_field(s, g)
    if i < 0:                            # clearing a wreck off the road, else a bridge or a ditch
        if action == A_OK:
            if wreck_task(s, g):
                clear_wrecks(s, s.st[g].x, s.st[g].y)
            else:
                terrain_task_success(s, g)   # _engineering.pxi
        if not breach_next(s, g + 1):
            recovery_done(s)
        return
    if action == A_N20:
        s.mf_cur = i                     # the field attacks the stand (N_MINE)
        return
    if action == A_OK:
        s.mf_breach[i] += 1
    if action == A_N1 or s.mf_breach[i] >= breach_need(s, g, mf_kind_of(s, i)):
        s.mf_shown &= ~(<uint16_t>(1 << i))
        s.mf_gone |= <uint16_t>(1 << i)  # cleared: the marker is removed
        s.mf_breach[i] = 0
    if not breach_next(s, g + 1):
        recovery_done(s)


# ----------------------------------------------------------------- hidden information
cdef void mine_observe(MaState *v, int player) noexcept nogil:
    """The opponent's markers not yet revealed show no kind (MK_DUMMY)."""
    cdef int i
    for i in range(SC_NMF[v.scn]):
        if SC_MFSIDE[v.scn][i] != player and not ((v.mf_shown | v.mf_gone) >> i) & 1:
            v.mf_kind &= ~(<uint32_t>3 << (2 * i))

cdef void mine_determinize(MaState *s, int player, ard_rng *rng) noexcept nogil:
    """Deals the opponent's unrevealed markers the kinds not yet seen (the
    side's public counts less the revealed ones), in a random order."""
    cdef int q = 1 - player, i, k, n = 0, j, t
    cdef int left[4]
    cdef int idx[MAXMF]
    cdef int kinds[MAXMF]
    for k in range(4):
        left[k] = SC_MFCOUNT[s.scn][q][k]
    for i in range(SC_NMF[s.scn]):
        if SC_MFSIDE[s.scn][i] != q:
            continue
        if ((s.mf_shown | s.mf_gone) >> i) & 1:
            if left[mf_kind_of(s, i)] > 0:
                left[mf_kind_of(s, i)] -= 1
        else:
            idx[n] = i
            n += 1
    j = 0
    for k in range(4):
        while left[k] > 0 and j < n:
            kinds[j] = k
            j += 1
            left[k] -= 1
    while j < n:
        kinds[j] = MK_DUMMY
        j += 1
    for i in range(n - 1, 0, -1):
        j = <int>ard_rng_below(rng, i + 1)
        t = kinds[i]
        kinds[i] = kinds[j]
        kinds[j] = t
    for i in range(n):
        s.mf_kind = (s.mf_kind & ~(<uint32_t>3 << (2 * idx[i]))) | (<uint32_t>kinds[i] << (2 * idx[i]))


# ----------------------------------------------------------------- validation
cdef int validate_minefields(const MaState *s) noexcept nogil:
    """0 if the minefield bytes are consistent with the scenario, else 1."""
    cdef int i, p, k, n = SC_NMF[s.scn], g
    cdef int cnt[2][4]
    if n < MAXMF and (s.mf_shown >> n or s.mf_gone >> n or s.mf_kind >> (2 * n)):
        return 1
    if s.mf_shown & s.mf_gone:
        return 1
    for i in range(MAXMF):
        if s.mf_breach[i] and (i >= n or not (s.mf_shown >> i) & 1 or s.mf_breach[i] >= 9):
            return 1
    for p in range(2):
        for k in range(4):
            cnt[p][k] = 0
    for i in range(n):
        k = mf_kind_of(s, i)
        p = SC_MFSIDE[s.scn][i]
        if (s.mf_shown >> i) & 1 and k == MK_DUMMY:
            return 1                     # removed markers: a revealed dummy or a breached field
        if s.viewer >= 0 and p != s.viewer and not ((s.mf_shown | s.mf_gone) >> i) & 1:
            if k != MK_DUMMY:
                return 1                 # a view keeps nothing of the opponent's hidden markers
            continue
        cnt[p][k] += 1
    for p in range(2):
        if s.viewer >= 0 and p != s.viewer:
            for k in range(1, 4):        # the revealed ones: at most the side's count
                if cnt[p][k] > SC_MFCOUNT[s.scn][p][k]:
                    return 1
        else:
            for k in range(4):
                if cnt[p][k] != SC_MFCOUNT[s.scn][p][k]:
                    return 1
    if s.mf_bnext != NONE:
        g = s.mf_bnext
        if (s.phase != PH_RECOVER or s.rec_next != NONE or g >= NSLOT
                or (breach_field(s, g) < 0 and not wreck_task(s, g) and terrain_task(s, g) < 0)
                or (s.mf_cur != NONE and s.mf_cur != breach_field(s, g))):
            return 1
        return 1 if s.mv_sub == M_MINE or s.mv_sub == M_REVEAL else 0
    if s.mf_cur != NONE:
        g = s.mover
        if (s.mf_cur >= n or (s.mv_sub != M_MINE and s.mv_sub != M_REVEAL) or g >= NSLOT or not alive(s, g)
                or ((s.mf_shown >> s.mf_cur) & 1) != (s.mv_sub == M_MINE) or (s.mf_gone >> s.mf_cur) & 1
                or SC_MFSIDE[s.scn][s.mf_cur] == side_of(g)
                or s.st[g].x != SC_MFX[s.scn][s.mf_cur] or s.st[g].y != SC_MFY[s.scn][s.mf_cur]):
            return 1
    elif s.mv_sub == M_MINE or s.mv_sub == M_REVEAL:
        return 1
    return 0


# ----------------------------------------------------------------- install
cdef install_minefield_charts(charts):
    global MF_LEAVE
    for k in range(4):
        MF_COL[k] = charts["minefield"]["column"][k]
        MF_NEED[0][k] = charts["minefield"]["breach_engineer"][k]
        MF_NEED[1][k] = charts["minefield"]["breach_vehicle"][k]
    MF_LEAVE = charts["minefield"]["leave_mod"]

cdef install_minefields(int k, sc):
    memset(SC_MFIDX[k], NONE, sizeof(uint8_t) * HMAX * WMAX)
    memset(SC_MFCOUNT[k], 0, sizeof(uint8_t) * 8)
    SC_NMF[k] = len(sc["minefields"])
    SC_MFKIND0[k] = 0
    for i, m in enumerate(sc["minefields"]):
        SC_MFX[k][i], SC_MFY[k][i], SC_MFSIDE[k][i] = m["x"], m["y"], m["side"]
        SC_MFKIND0[k] |= <uint32_t>m["kind"] << (2 * i)
        SC_MFCOUNT[k][m["side"]][m["kind"]] += 1
        SC_MFIDX[k][m["y"]][m["x"]] = i
