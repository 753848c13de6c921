# Included by _engine.pyx: the vtable's init, whose decision it is, and the legal moves.

# ------------------------------------------------------------------ init ----
cdef void m_init(void *state, const void *params, uint64_t seed) noexcept nogil:
    cdef MState *s = <MState *>state
    cdef const MParams *p = <const MParams *>params
    cdef int u, k
    memset(s, 0, sizeof(MState))
    s.setup_free = p.setup_free
    s.strike_variant = p.strike_variant
    for u in range(NU):
        s.loc[u] = LOC_RESERVE
    for k in range(NSIDE):
        if not s.setup_free and HIST[k] != NONE:
            s.loc[NSIDE + k] = HIST[k]
    s.card = NONE
    s.interdict = NONE
    s.firer[0] = NONE
    s.firer[1] = NONE
    s.target = NONE
    s.winner = NONE
    s.viewer = -1
    s.turn = 1
    reset_deck(s)
    if s.setup_free and SETUP_UNITS > 0:
        s.setup_left = SETUP_UNITS     # every one of them is in reserve
        s.phase = PH_SETUP
    else:
        s.phase = PH_DRAW

cdef void reset_deck(MState *s) noexcept nogil:
    cdef int i
    for i in range(JOKER):
        s.deck[i] = 2
    s.deck[JOKER] = 1

# --------------------------------------------------------------- players ----
cdef int m_current_player(const void *state) noexcept nogil:
    cdef const MState *s = <const MState *>state
    if s.phase == PH_OVER:
        return ARD_TERMINAL
    if s.phase == PH_DRAW or s.phase == PH_COMBAT:
        return ARD_CHANCE
    if s.phase == PH_SETUP:
        return 1
    return s.active

# ---------------------------------------------------------- legal moves ----
cdef inline int air_card(int c) noexcept nogil:
    """A red odd number (A, 3, 5, 7, 9) or a Jack allows the Air marker; other red cards OBA."""
    cdef int r = card_rank(c)
    return r == 11 or (r <= 9 and (r & 1))

cdef int fire_cost(const MState *s, int a, int b) noexcept nogil:
    """Activations a fire by a (and b) spends on a number card: one per firer,
    except that the Tiger joins a German unit in its hex for free."""
    if b == NONE:
        return 1
    if (a == TIGER or b == TIGER) and s.loc[a] == s.loc[b]:
        return 1
    return 2

cdef int stack_may_fire(const MState *s, int a, int b) noexcept nogil:
    """In a face-card stack activation: every firer is in the stack, or is
    the Tiger joining a stack unit in its hex for free."""
    cdef uint32_t m = s.stack_mask
    if b == NONE:
        return (m >> a) & 1
    if ((m >> a) & 1) and ((m >> b) & 1):
        return 1
    if a == TIGER and ((m >> b) & 1) and s.loc[a] == s.loc[b]:
        return 1
    if b == TIGER and ((m >> a) & 1) and s.loc[a] == s.loc[b]:
        return 1
    return 0

cdef inline int in_range(int f, int t) noexcept nogil:
    """May a unit in hex f fire at hex t? Tabulated in RANGE by build_geometry."""
    cdef int d = DIST[f][t]
    return d <= (3 if T_HILL[f] else 2) and LOS[f][t]

cdef int move_dests(const MState *s, const Occupancy *o, int m, ard_action *out) noexcept nogil:
    """Writes the move actions of mover m (hexes, then exit), increasing; ignores card limits."""
    cdef int u = MOVER_UNIT[m], h = s.loc[u], n
    cdef const HexSet *dests
    if h == LOC_RESERVE:
        if MOVER_TIGER[m]:
            return 0
        if side_of(u) == 1 and not (U_REINF[u] and s.turn >= S_REINF_TURN):
            return 0
        dests = &ENTRY[side_of(u)]
    elif not on_map(h):
        return 0
    elif MOVER_TIGER[m] and s.loc[TIGER] != h:
        return 0
    else:
        dests = &NEIGH_SET[h]
    # the Tiger does not count for stacking; a unit moving with it is tested as itself
    n = emit_hexes(hs_minus(dests, &o.enemy if u == TIGER else &o.closed), A_MOVE + m * NDEST, out)
    if side_of(u) == 0 and on_map(h) and hex_col(h) == S_XCOL:
        out[n] = A_MOVE + m * NDEST + NHEX
        n += 1
    return n

cdef int mover_allowed(const MState *s, int m) noexcept nogil:
    """May mover m (of the acting side) act under the current card (number, face-fresh or stack)?"""
    cdef int u = MOVER_UNIT[m]
    if card_rank(s.card) <= 10:
        return s.acts_left >= 1
    if s.card_fresh:
        return 1     # one unit: a reserve unit enters, or one on the map acts (the Tiger may ride)
    return (s.stack_mask >> u) & 1

cdef inline int fire_at(const MState *s, int number, int a, int b, uint32_t targets,
                        ard_action *out) noexcept nogil:
    """Writes the fire actions of a (and b) at `targets` (bit t: enemy unit t of its side)
    if the card lets them fire; returns the count."""
    cdef int n = 0, base
    if number:
        if fire_cost(s, a, b) > s.acts_left:
            return 0
    elif s.card_fresh:
        # face card, no stack named: one unit fires, the Tiger may join it free in its
        # hex; two other units firing together are a stack (`stack <hex>` first)
        if fire_cost(s, a, b) != 1:
            return 0
    elif not stack_may_fire(s, a, b):
        return 0
    base = A_FIRE + FSET_OF[a][a if b == NONE else b] * NSIDE
    while targets:
        out[n] = base + __builtin_ctzll(targets)
        n += 1
        targets &= targets - 1
    return n

cdef int fire_actions(const MState *s, const Occupancy *o, int number, ard_action *out) noexcept nogil:
    """Writes the fire actions of the acting side in fire-set order (singles,
    then pairs a < b), each with its targets in increasing order."""
    cdef int side = s.active, lo = side * NSIDE, elo = (1 - side) * NSIDE
    cdef int i, j, k, t, f, h, nf = 0, n = 0
    cdef uint64_t w
    cdef uint32_t targets
    cdef HexSet seen
    cdef uint16_t enemy_at[NHEX]   # bit t: enemy unit elo+t is in the hex; valid on o.enemy only
    cdef uint32_t reach[NSIDE]     # bit t: own unit lo+i may fire at enemy unit elo+t
    cdef int firer[NSIDE]          # own units with a target, increasing
    for t in range(NSIDE):
        h = s.loc[elo + t]
        if on_map(h):
            enemy_at[h] = 0
    for t in range(NSIDE):
        h = s.loc[elo + t]
        if on_map(h):
            enemy_at[h] |= 1 << t
    for i in range(NSIDE):
        reach[i] = 0
        f = s.loc[lo + i]
        if not on_map(f):
            continue
        seen.w[0] = RANGE[f].w[0] & o.enemy.w[0]
        seen.w[1] = RANGE[f].w[1] & o.enemy.w[1]
        for k in range(2):
            w = seen.w[k]
            while w:
                reach[i] |= enemy_at[64 * k + __builtin_ctzll(w)]
                w &= w - 1
        if reach[i]:
            firer[nf] = i
            nf += 1
    # a unit without a target is in no fire set that has one
    for i in range(nf):
        n += fire_at(s, number, lo + firer[i], NONE, reach[firer[i]], out + n)
    for i in range(nf):
        for j in range(i + 1, nf):
            targets = reach[firer[i]] & reach[firer[j]]
            if targets:
                n += fire_at(s, number, lo + firer[i], lo + firer[j], targets, out + n)
    return n

cdef int m_legal_actions(const void *state, ard_action *out) noexcept nogil:
    cdef const MState *s = <const MState *>state
    cdef int n = 0, k, h, u, m, j, number, total
    cdef Occupancy occ
    cdef HexSet free_hexes
    if s.phase == PH_SETUP:
        # any unplaced non-CC US unit, in any order, on any hex outside the
        # forbidden column with room under the stacking limit (no German is on
        # the map yet, and no US unit is the Tiger, so `closed` is the full hexes)
        occupancy(s, 1, &occ)
        free_hexes = hs_minus(&SETUP_HEXES, &occ.closed)
        for k in range(NSIDE):
            u = NSIDE + k
            if s.loc[u] == LOC_RESERVE and not U_REINF[u]:
                n += emit_hexes(free_hexes, A_SETUP + k * NHEX, out + n)
        return n
    if s.phase == PH_REDRAW:
        if deck_total(s) > 0:
            out[n] = A_REDRAW
            n += 1
        out[n] = A_MISS
        return n + 1
    if s.phase != PH_ACT:
        return 0
    total = deck_total(s)
    occupancy(s, s.active, &occ)
    out[n] = A_PASS
    n += 1
    number = card_rank(s.card) <= 10
    if not number and s.card_fresh:
        n += emit_hexes(occ.own, A_STACK, out + n)
    # US Air / OBA: instead of ground activations, once per turn
    if s.active == 1 and s.card_fresh and not s.air_used:
        if air_card(s.card):
            n += emit_hexes(occ.enemy, A_AIRI, out + n)   # hexes holding German units
        if total > 0:
            for u in range(NSIDE):
                if on_map(s.loc[u]):
                    out[n] = (A_AIR if air_card(s.card) else A_OBA) + u
                    n += 1
    for j in range(SIDE_NMOVERS[s.active]):
        m = SIDE_MOVERS[s.active][j]
        if mover_allowed(s, m):
            n += move_dests(s, &occ, m, out + n)
    if total == 0:
        return n
    return n + fire_actions(s, &occ, number, out + n)
