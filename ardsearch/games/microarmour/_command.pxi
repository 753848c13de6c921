# Micro Armour engine: command and morale (RULES.md, "Broken formations" and "Marker removal:
# recovery and command"): a broken formation plays on (-5 cohesion except for movement, fires
# only if fired on, moves only toward its own edge), the rising cohesion checks of the enemy of
# a broken side, lost HQ and GHQ replacement, a new GHQ's quality on 1D20, and the optional
# natural-roll rules of the ordered movement roll (Intuitive Action, Conflicting Orders).
# Included by _engine.pyx (one module, split by concern).

cdef enum:  # cmd_pending bits (shifted left by the side)
    CMD_QUAL = 1        # a new GHQ's quality roll
    CMD_HQREP = 4       # a lost HQ's replacement roll
    CMD_APPOINT = 16    # the side appoints the stand that takes the HQ post
    CMD_RISE = 64       # the rising cohesion check

cdef enum:  # end_cause
    END_NONE = 0
    END_LAST_TURN = 1   # the last turn ended
    END_RISING = 2      # the enemy of a broken side failed its rising cohesion check
    END_BOTH_BROKEN = 3 # both formations broke: the village decides at once

# Filled by install_command() from charts.toml [command] and the scenario (no initializers:
# install() runs at import before this file's module-level code would).
cdef int BROKEN_COH, RISE_STEP, NQUAL
cdef int QUAL_AT[20]                        # a new GHQ's quality: QUAL_V[i] for a 1D20 roll <= QUAL_AT[i]
cdef int QUAL_V[20]
cdef int SC_EDGE[MAXSCN][2]                 # by scenario: each side's friendly edge, 0 west, 1 east


cdef void install_command_charts(object charts):
    global BROKEN_COH, RISE_STEP, NQUAL
    cmd = charts["command"]
    BROKEN_COH = cmd["broken_cohesion"]
    RISE_STEP = cmd["rising_step"]
    NQUAL = len(cmd["ghq_quality_at"])
    for i in range(NQUAL):
        QUAL_AT[i] = cmd["ghq_quality_at"][i]
        QUAL_V[i] = cmd["ghq_quality"][i]


cdef void install_command(int k, object sc):
    """The scenario's part (index k): each side's friendly edge."""
    for p in range(2):
        SC_EDGE[k][p] = ("west", "east").index(sc["sides"][p]["edge"])


# ----------------------------------------------------------------- broken formations
cdef inline bint side_broken(const MaState *s, int p) noexcept nogil:
    """p's formation has broken (each side is one formation in the scenarios: its break is
    also "all of a side's formations"). Shared helper: plots and airstrikes ask it too."""
    return (s.broken >> p) & 1

cdef inline int coh_eff(const MaState *s, int p) noexcept nogil:
    """p's cohesion level for every roll but movement: 5 lower once broken."""
    return s.coh[p] - BROKEN_COH if side_broken(s, p) else s.coh[p]

cdef inline int edge_dist(const MaState *s, int p, int x) noexcept nogil:
    return x if SC_EDGE[s.scn][p] == 0 else SC_W[s.scn] - 1 - x

cdef inline bint broken_step_ok(const MaState *s, int g, int d) noexcept nogil:
    """A broken formation's stand moves only toward its own edge: each step nearer to it."""
    cdef int p = side_of(g)
    if not side_broken(s, p):
        return 1
    return edge_dist(s, p, s.st[g].x + DX[d]) < edge_dist(s, p, s.st[g].x)

cdef inline bint fires_back_only(const MaState *s, int f) noexcept nogil:
    """f may fire only at stands that fired at it this turn: low on ammunition, or broken."""
    return ((s.low_ammo >> f) & 1) or side_broken(s, side_of(f))


# ----------------------------------------------------------------- command units
cdef inline bint is_command(const MaState *s, int g) noexcept nogil:
    """g is an HQ or the GHQ now (-2 to its movement roll, -1 to adjacent recovery rolls)."""
    return ((s.hq_mask >> g) & 1) or s.ghq_slot[side_of(g)] == g

cdef bint can_appoint(const MaState *s, int g) noexcept nogil:
    return alive(s, g) and not is_command(s, g)

cdef bint hq_replacement_possible(const MaState *s, int p) noexcept nogil:
    """A lost HQ post is filled by a cohesion roll; not at cohesion 12 or less, and only if a
    stand is there to take it (nor a lost paratroop HQ's post during its delay, _drop.pxi)."""
    cdef int g
    if s.hq_lost[p] <= hq_posts_held(s, p) or coh_eff(s, p) <= 12:
        return 0
    for g in range(p * 16, p * 16 + 16):
        if can_appoint(s, g):
            return 1
    return 0

cdef void command_due(MaState *s) noexcept nogil:
    """After the recovery rolls: the HQ replacement and rising check rolls due this phase
    (the GHQ's is rep_pending)."""
    cdef int p
    s.cmd_pending = 0
    for p in range(2):
        if hq_replacement_possible(s, p):
            s.cmd_pending |= CMD_HQREP << p
        if side_broken(s, 1 - p) and not side_broken(s, p):
            s.cmd_pending |= CMD_RISE << p

cdef int command_node(const MaState *s) noexcept nogil:
    """The marker removal phase's command roll due next (after the recovery rolls)."""
    if hq_delay_due(s):
        return N_HQDELAY                 # _drop.pxi: a lost paratroop HQ's delay, first
    if s.cmd_pending & (CMD_QUAL * 3):
        return N_GHQQUAL
    if s.rep_pending:
        return N_REPLACE
    if s.cmd_pending & (CMD_APPOINT * 3):
        return N_APPOINT
    if s.cmd_pending & (CMD_HQREP * 3):
        return N_HQREP
    return N_RISING

cdef inline int command_side(const MaState *s, int bit) noexcept nogil:
    return 0 if s.cmd_pending & bit else 1

cdef void command_done(MaState *s) noexcept nogil:
    if s.phase != PH_OVER and s.rep_pending == 0 and s.cmd_pending == 0 and not hq_delay_due(s):
        end_of_turn(s)

cdef void ghq_replaced(MaState *s, int p) noexcept nogil:
    """An HQ takes over as GHQ: its HQ post is now empty, and the new GHQ's quality is rolled."""
    cdef int g = first_hq(s, p)
    s.ghq_slot[p] = g
    s.hq_mask &= ~(<uint32_t>1 << g)
    s.hq_lost[p] += 1
    s.cmd_pending |= CMD_QUAL << p
    if hq_replacement_possible(s, p):
        s.cmd_pending |= CMD_HQREP << p

cdef void command_lost(MaState *s, int g) noexcept nogil:
    """A stand is lost: an HQ post it held is empty."""
    if (s.hq_mask >> g) & 1:
        s.hq_mask &= ~(<uint32_t>1 << g)
        s.hq_lost[side_of(g)] += 1
        hq_delay_start(s, g)             # _drop.pxi: a paratroop HQ's post waits 1D8/2 turns

cdef int quality_outcomes(ard_action *a, double *pr) noexcept nogil:
    cdef int i, lo = 0, n = 0, q
    cdef int faces[6]
    for q in range(6):
        faces[q] = 0
    for i in range(NQUAL):
        faces[QUAL_V[i] + 2] += QUAL_AT[i] - lo
        lo = QUAL_AT[i]
    for q in range(6):                   # outcomes in increasing action order
        if faces[q]:
            a[n] = A_QUAL + q
            pr[n] = faces[q] / 20.0
            n += 1
    return n

cdef int command_outcomes(const MaState *s, int k, ard_action *a, double *pr) noexcept nogil:
    cdef int p
    if k == N_GHQQUAL:
        return quality_outcomes(a, pr)
    if k == N_HQREP:
        p = command_side(s, CMD_HQREP)
        return two_outcomes(p_pass(coh_eff(s, p), SC_REPL[s.scn][p]), a, pr)
    p = command_side(s, CMD_RISE)
    return two_outcomes(p_pass(s.coh[p], RISE_STEP * (s.rise_n[p] + 1)), a, pr)

cdef void apply_command(MaState *s, int k, ard_action action) noexcept nogil:
    cdef int p
    if k == N_GHQQUAL:
        p = command_side(s, CMD_QUAL)
        s.cmd_pending &= ~(CMD_QUAL << p)
        s.ghq_qual[p] = action - A_QUAL - 2
    elif k == N_HQREP:
        p = command_side(s, CMD_HQREP)
        s.cmd_pending &= ~(CMD_HQREP << p)
        if action == A_OK:
            s.cmd_pending |= CMD_APPOINT << p
    elif k == N_APPOINT:
        p = command_side(s, CMD_APPOINT)
        s.cmd_pending &= ~(CMD_APPOINT << p)
        s.hq_mask |= <uint32_t>1 << (p * 16 + action - A_APPOINT)
        s.hq_lost[p] -= 1
    else:
        p = command_side(s, CMD_RISE)
        s.cmd_pending &= ~(CMD_RISE << p)
        if action == A_OK:
            s.rise_n[p] += 1
        else:
            s.end_cause = END_RISING           # the enemy stops fighting: the battle is over
            s.phase = PH_OVER
            s.winner = p
    command_done(s)

cdef void formation_broke(MaState *s, int p) noexcept nogil:
    s.broken |= 1 << p
    s.brk_turn[p] = s.turn
    air_formation_broke(s, p)            # _air.pxi: its airstrikes are cancelled at once
    if s.broken == 3:
        s.end_cause = END_BOTH_BROKEN
        finish_game(s)


# ----------------------------------------------------------------- natural movement rolls
cdef int move_roll_outcomes(const MaState *s, ard_action *a, double *pr) noexcept nogil:
    """The movement roll; on an ordered roll with the optional rules, a passing natural 1 is
    `c:n1` (Intuitive Action) and a natural 20 `c:n20` (Conflicting Orders, a failure)."""
    cdef int p = side_of(s.mover), c = s.coh[p] - move_mod(s, s.mover)
    if not (s.mv_flags & 1) or not (s.options & (OPT_INTUITIVE | OPT_CONFLICT)):
        return two_outcomes(p_pass(s.coh[p], move_mod(s, s.mover)), a, pr)
    return natural_outcomes(c, s.options & OPT_INTUITIVE, s.options & OPT_CONFLICT, a, pr)


# ----------------------------------------------------------------- validation of the fields above
cdef int validate_command(const MaState *s, char *msg, int msglen) noexcept nogil:
    cdef int p, g
    if s.reserved4 != 0 or s.end_cause > END_BOTH_BROKEN:
        return fail(msg, msglen, b"command bookkeeping out of range")
    if (s.end_cause != END_NONE) != (s.phase == PH_OVER):
        return fail(msg, msglen, b"an end cause without the end, or the end without one")
    for p in range(2):
        if s.ghq_qual[p] < -2 or s.ghq_qual[p] > 3:
            return fail(msg, msglen, b"a GHQ quality outside -2..3")
        if s.hq_lost[p] > 16 or s.rise_n[p] > 50:
            return fail(msg, msglen, b"HQ posts lost or rising checks out of range")
        if side_broken(s, p) != (s.brk_turn[p] != 0) or s.brk_turn[p] > s.turn:
            return fail(msg, msglen, b"a break turn that does not match the broken formations")
        if s.rise_n[p] and not side_broken(s, 1 - p):
            return fail(msg, msglen, b"rising cohesion checks with no broken enemy")
        if side_broken(s, p) and s.cards_pending[p]:
            return fail(msg, msglen, b"a broken formation drawing cards")
    for g in range(NSLOT):
        if (s.hq_mask >> g) & 1 and (not alive(s, g) or s.ghq_slot[side_of(g)] == g):
            return fail(msg, msglen, b"an HQ post held by a lost stand or by the GHQ")
    if s.cmd_pending:
        if s.phase != PH_RECOVER or s.rec_next != NONE:
            return fail(msg, msglen, b"command rolls due outside the marker removal phase")
        for p in range(2):
            if (s.cmd_pending >> p) & CMD_QUAL and not ghq_alive(s, p):
                return fail(msg, msglen, b"a GHQ quality roll with no GHQ")
            if (s.cmd_pending >> p) & CMD_HQREP and not hq_replacement_possible(s, p):
                return fail(msg, msglen, b"an HQ replacement roll that is not due")
            if (s.cmd_pending >> p) & CMD_APPOINT and not hq_replacement_possible(s, p):
                return fail(msg, msglen, b"an HQ appointment with no post or no stand to take it")
            if (s.cmd_pending >> p) & CMD_RISE and not (side_broken(s, 1 - p) and not side_broken(s, p)):
                return fail(msg, msglen, b"a rising cohesion check with no broken enemy")
    return 0
