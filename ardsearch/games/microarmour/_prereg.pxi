# Micro Armour engine: pre-registered target points (RULES.md "Indirect artillery",
# Pre-registered target points; contract: "pre-registered targets as hidden
# information"). Before turn 1 each side with points to record records them one by one
# (the German side first), each a plot cell, hidden from the opponent. A call on a point
# (`plot he pre1`) is a plot like any other; when it lands, a public chance event
# `prereg x,y` shows the point to both (probability 1 in a full state; in a view that
# has not seen it, every cell it could be equally likely), as `drop x,y` shows a drop zone.
# Included by _engine.pyx after _artillery.pxi (whose code_point() reads the points here).

# per scenario: the plot cells whose aiming square is on the table (code_point's test), as a
# list and by cell; static (install_table_cells), so the legal lists and the deals below
# never trace the table (speed: determinize runs once an ISMCTS iteration)
cdef uint8_t TABLE_CELLS[MAXSCN][NCELLS]
cdef int TABLE_N[MAXSCN]
cdef uint8_t CELL_ON[MAXSCN][NCELLS]


cdef void install_table_cells(int k) noexcept:
    """hook (install_artillery, after PLOT_GRID is read): scenario k's cells on its table."""
    cdef int c
    TABLE_N[k] = 0
    for c in range(NCELLS):
        CELL_ON[k][c] = (c % NCELLX) * PLOT_GRID < SC_W[k] and (c // NCELLX) * PLOT_GRID < SC_H[k]
        if CELL_ON[k][c]:
            TABLE_CELLS[k][TABLE_N[k]] = c
            TABLE_N[k] += 1


# ----------------------------------------------------------------- helpers
cdef inline int pre_slot(int p, int i) noexcept nogil:
    return p * 4 + i

cdef inline bint cell_on_table(const MaState *s, int c) noexcept nogil:
    """A plot cell whose aiming square is on this table (code_point of a cell code)."""
    return 0 <= c < NCELLS and CELL_ON[s.scn][c]

cdef inline bint pre_known(const MaState *s, int p, int i) noexcept nogil:
    """Side p's point i is recorded and known to this state (not PLOT_NONE or PLOT_HIDDEN)."""
    return 0 <= i < PRE_N[s.scn][p] and s.pre_cell[pre_slot(p, i)] < NCELLS

cdef inline bint pre_hidden(const MaState *s, int p, int i) noexcept nogil:
    return 0 <= i < PRE_N[s.scn][p] and s.pre_cell[pre_slot(p, i)] == PLOT_HIDDEN

cdef int prereg_side(const MaState *s) noexcept nogil:
    """The side whose next point is to be recorded (the German side first), or -1."""
    cdef int p, i
    for p in range(2):
        for i in range(PRE_N[s.scn][p]):
            if s.pre_cell[pre_slot(p, i)] == PLOT_NONE:
                return p
    return -1

cdef inline bint prereg_due(const MaState *s) noexcept nogil:
    """Before turn 1 (its initiative phase), points are still to be recorded."""
    return s.turn == 1 and s.phase == PH_INIT and prereg_side(s) >= 0

cdef bint cell_taken(const MaState *s, int p, int c) noexcept nogil:
    """Side p has a known point on cell c already."""
    cdef int i
    for i in range(PRE_N[s.scn][p]):
        if s.pre_cell[pre_slot(p, i)] == c:
            return 1
    return 0

cdef int free_cells(const MaState *s, int p, ard_action *out) noexcept nogil:
    """The cells on the table side p has no known point on, as A_PREREG actions."""
    cdef int i, c, n = 0
    for i in range(TABLE_N[s.scn]):
        c = TABLE_CELLS[s.scn][i]
        if not cell_taken(s, p, c):
            out[n] = A_PREREG + c
            n += 1
    return n


# ----------------------------------------------------------------- hooks: the flow
cdef void prereg_init(MaState *s) noexcept nogil:
    """hook (ma_init): nothing recorded; the first node is the German side's first point."""
    memset(s.pre_cell, PLOT_NONE, 8)
    s.pre_shown = 0

cdef int prereg_legal(const MaState *s, ard_action *out) noexcept nogil:
    """Any plot cell on the table the side has not recorded already (design: the digest
    sets no limit on where; two points on one cell would be one point)."""
    return free_cells(s, prereg_side(s), out)

cdef void prereg_apply(MaState *s, ard_action action) noexcept nogil:
    """The side's next point: the cell, or PLOT_HIDDEN in the opponent's view."""
    cdef int p = prereg_side(s), i
    if p < 0:
        return
    for i in range(PRE_N[s.scn][p]):
        if s.pre_cell[pre_slot(p, i)] == PLOT_NONE:
            s.pre_cell[pre_slot(p, i)] = PLOT_HIDDEN if action == ARD_HIDDEN_OUTCOME else action - A_PREREG
            return

cdef inline int preshow_index(const MaState *s, int code) noexcept nogil:
    return code % NTGT - NCELLS

cdef int preshow_chance(const MaState *s, ard_action *a, double *pr) noexcept nogil:
    """The called point is seen: certainly its cell in a full state; in a view that has
    not seen it, any cell its side could have recorded there, all equally likely."""
    cdef int b = seq_battery(s, s.art_seq), p = bat_side(b), i = preshow_index(s, s.ms[b].code), n, c
    if pre_known(s, p, i):
        a[0] = A_PREREG + s.pre_cell[pre_slot(p, i)]
        pr[0] = 1.0
        return 1
    n = free_cells(s, p, a)
    for c in range(n):
        pr[c] = 1.0 / n
    return n

cdef void preshow_apply(MaState *s, ard_action action) noexcept nogil:
    cdef int b = seq_battery(s, s.art_seq), p = bat_side(b), i = preshow_index(s, s.ms[b].code)
    s.pre_cell[pre_slot(p, i)] = action - A_PREREG
    s.pre_shown |= 1 << pre_slot(p, i)
    s.art_step = AR_ARRIVE

cdef inline bint preshow_due(const MaState *s, int b) noexcept nogil:
    """Battery b's fire, just revealed, is a call on a point not seen by both yet."""
    cdef int code = s.ms[b].code
    return code_prereg(code) and not (s.pre_shown >> pre_slot(bat_side(b), preshow_index(s, code))) & 1


# ----------------------------------------------------------------- hooks: hidden information
cdef void prereg_observe(MaState *v, int player) noexcept nogil:
    """The opponent's recorded points read PLOT_HIDDEN until a call on them lands."""
    cdef int q = 1 - player, i
    for i in range(PRE_N[v.scn][q]):
        if v.pre_cell[pre_slot(q, i)] < NCELLS and not (v.pre_shown >> pre_slot(q, i)) & 1:
            v.pre_cell[pre_slot(q, i)] = PLOT_HIDDEN

cdef void prereg_determinize(MaState *s, int player, ard_rng *rng) noexcept nogil:
    """Each hidden point of the opponent: a cell on the table that side has no other
    point on, all equally likely (design: no model of where a player registers). By
    rejection: a cell of the table drawn at random, again while the side holds it (at
    most 3 of the table's cells are held, so about one draw; every free cell stays
    equally likely)."""
    cdef int q = 1 - player, i, c, n = TABLE_N[s.scn]
    for i in range(PRE_N[s.scn][q]):
        if s.pre_cell[pre_slot(q, i)] == PLOT_HIDDEN:
            c = TABLE_CELLS[s.scn][ard_rng_below(rng, n)]
            while cell_taken(s, q, c):
                c = TABLE_CELLS[s.scn][ard_rng_below(rng, n)]
            s.pre_cell[pre_slot(q, i)] = c


# ----------------------------------------------------------------- hook: validation
cdef int prereg_validate(const MaState *s, char *msg, int msglen) noexcept nogil:
    """Points only within the scenario's count, on the table, distinct; recorded in order
    (the German side's first) and all recorded once turn 1 has begun; hidden only in the
    opponent's view; seen only once recorded and known."""
    cdef int p, i, c, j
    cdef bint open_slot = 0
    for p in range(2):
        for i in range(4):
            c = s.pre_cell[pre_slot(p, i)]
            if i >= PRE_N[s.scn][p]:
                if c != PLOT_NONE or (s.pre_shown >> pre_slot(p, i)) & 1:
                    return fail(msg, msglen, b"a pre-registered point beyond the scenario's count")
                continue
            if c == PLOT_NONE:
                if (s.pre_shown >> pre_slot(p, i)) & 1:
                    return fail(msg, msglen, b"a pre-registered point seen before it was recorded")
                if s.turn != 1 or s.phase != PH_INIT:
                    return fail(msg, msglen, b"a pre-registered point not recorded after turn 1 began")
                open_slot = 1
                continue
            if open_slot:
                return fail(msg, msglen, b"a pre-registered point recorded out of order (the German side first, "
                            b"each side's points in turn)")
            if c == PLOT_HIDDEN:
                if s.viewer != 1 - p or (s.pre_shown >> pre_slot(p, i)) & 1:
                    return fail(msg, msglen, b"a hidden pre-registered point outside the opponent's view, or seen")
                continue
            if not cell_on_table(s, c):
                return fail(msg, msglen, b"a pre-registered point that is not a plot cell on the table")
            for j in range(i):
                if s.pre_cell[pre_slot(p, j)] == c:
                    return fail(msg, msglen, b"two pre-registered points of one side on one cell")
            if s.viewer == 1 - p and not (s.pre_shown >> pre_slot(p, i)) & 1:
                return fail(msg, msglen, b"the opponent's unseen pre-registered point in a view")
    return 0

cdef int preshow_validate(const MaState *s, int b, char *msg, int msglen) noexcept nogil:
    """AR_PRESHOW: the battery's plotted fire is a call on a point not seen yet."""
    if s.ms[b].state != MS_PLOTTED or not preshow_due(s, b):
        return fail(msg, msglen, b"a pre-registered point shown for fire that is no call on an unseen point")
    return 0


# ----------------------------------------------------------------- hook: notation
cdef int prereg_to_string(const MaState *s, ard_action a, char *tmp) noexcept nogil:
    """`prereg x,y`: the cell's aiming square."""
    cdef int x = 0, y = 0, c = a - A_PREREG
    if not code_point(s, 0, c, &x, &y):
        x = (c % NCELLX) * PLOT_GRID + PLOT_GRID // 2
        y = (c // NCELLX) * PLOT_GRID + PLOT_GRID // 2
    return put_point(tmp, put_text(tmp, 0, b"prereg "), x, y)

cdef ard_action prereg_from_string(const MaState *s, const char *t, int n) noexcept nogil:
    """-1 for malformed `prereg` notation, -2 for text that is not."""
    cdef int c
    if n > 7 and word_is(t, 7, b"prereg "):
        c = parse_cell(s, t + 7, n - 7)
        return A_PREREG + c if c >= 0 else -1
    return -2


# ----------------------------------------------------------------- the structured state
cdef object _prereg_dict(const MaState *s):
    """artillery.prereg: per side, its points in order: {at: [x, y] | "hidden" | null, shown}."""
    cdef int p, i, c, x, y
    out = {}
    for p in range(2):
        pts = []
        for i in range(PRE_N[s.scn][p]):
            c = s.pre_cell[pre_slot(p, i)]
            at = None if c == PLOT_NONE else "hidden" if c == PLOT_HIDDEN else None
            if c < NCELLS:
                x = y = 0
                code_point(s, 0, c, &x, &y)
                at = [x, y]
            pts.append({"at": at, "shown": bool((s.pre_shown >> pre_slot(p, i)) & 1)})
        out[SIDE_KEYS[p]] = pts
    return out


cdef int _prereg_from_dict(object a, MaState *s) except -1:
    """artillery.prereg back into s. A dict without it (written before the points were
    recorded in play) past the recording gets the scenario's own points, as then."""
    cdef int p, i, c
    pre = a.get("prereg") if isinstance(a, dict) else None
    if pre is None:
        if s.turn > 1 or s.phase != PH_INIT:
            for p in range(2):
                for i in range(PRE_N[s.scn][p]):
                    s.pre_cell[pre_slot(p, i)] = PRE_CELL[s.scn][p][i]
        return 0
    if not isinstance(pre, dict):
        raise ValueError("artillery.prereg: expected {german: [{at, shown}], soviet: [...]}")
    for p in range(2):
        pts = pre.get(SIDE_KEYS[p], [])
        key = f"artillery.prereg.{SIDE_KEYS[p]}"
        if not isinstance(pts, list) or len(pts) > PRE_N[s.scn][p]:
            raise ValueError(f"{key}: expected a list of at most {PRE_N[s.scn][p]} points "
                             f"(this side's pre-registered points in this scenario)")
        for i, d in enumerate(pts):
            if not isinstance(d, dict):
                raise ValueError(f"{key}[{i}]: expected {{at: [x, y] | \"hidden\" | null, shown: bool}}")
            at = d.get("at")
            if at is None:
                c = PLOT_NONE
            elif at == "hidden":
                c = PLOT_HIDDEN
            else:
                c = _cell_from(s, at, f"{key}[{i}].at", ', "hidden" or null')
            s.pre_cell[pre_slot(p, i)] = c
            if d.get("shown", False):
                s.pre_shown |= 1 << pre_slot(p, i)
    return 0


cdef int _cell_from(const MaState *s, object at, str key, str others="") except -1:
    """The plot cell whose aiming square is [x, y] (a point or a mission's target), else
    ValueError naming the key; `others` lists what else the key may be."""
    cdef int c, x, y
    if isinstance(at, list) and len(at) == 2:
        for c in range(NCELLS):
            if code_point(s, 0, c, &x, &y) and [x, y] == list(at):
                return c
    raise ValueError(f"{key}={at!r}: expected [x, y], the aiming square of a plot cell "
                     f"(x, y = {PLOT_GRID}k + {PLOT_GRID // 2}, on the table){others}")
