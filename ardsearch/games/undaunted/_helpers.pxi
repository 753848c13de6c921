# Included by _engine.pyx: small helpers on the state: card zones, the public record of a hand
# (RULES.md, Hidden information), positions, points, the end of the game and
# the chance of a hit.

# ----------------------------------------------------------------- small helpers
cdef inline int popcount32(uint32_t x) noexcept nogil:
    cdef int n = 0
    while x:
        x &= x - 1
        n += 1
    return n


cdef inline int lowbit(uint32_t x) noexcept nogil:
    cdef int i = 0
    while not (x >> i) & 1:
        i += 1
    return i


cdef inline int zone_sum(const uint8_t *z) noexcept nogil:
    cdef int i, n = 0
    for i in range(NCARD):
        n += z[i]
    return n


cdef inline int hand_total(const UState *s, int a) noexcept nogil:
    return zone_sum(s.army[a].hand) + s.army[a].unknown_hand


cdef inline int deck_count(const UState *s, int a) noexcept nogil:
    return zone_sum(s.army[a].deck) - s.army[a].unknown_hand


cdef inline bint can_play(const UState *s, int a, int c) noexcept nogil:
    """The card may be in a's hand: known there, or possible among the unknown
    cards (not when the record says the hand holds none now)."""
    cdef const Army *ar = &s.army[a]
    if ar.hand[c] > 0:
        return True
    if ar.unknown_hand == 0 or ar.deck[c] == 0:
        return False
    return not (ar.kblocks > 0 and ar.kdirty and (ar.kpin[ar.kblocks - 1] >> c) & 1)


# ---- the public record of a hand (RULES.md, Hidden information) -----------
cdef inline int rec_unknown(const Army *ar) noexcept nogil:
    """Cards of the hand that came from hidden draws and are still there."""
    cdef int k, c, n = 0, last
    if ar.kblocks == 0:
        return 0
    last = (ar.kblocks - 1) * NCARD
    for k in range(ar.kblocks):
        n += ar.kdraws[k]
    for c in range(NCARD):
        n -= ar.klo[last + c]
    return n


cdef inline void rec_reset(Army *ar) noexcept nogil:
    ar.kblocks = 0
    ar.kdirty = 0
    memset(ar.kdraws, 0, sizeof(ar.kdraws))
    memset(ar.kpin, 0, sizeof(ar.kpin))
    memset(ar.klo, 0, sizeof(ar.klo))


cdef inline int rec_table(const Army *ar) noexcept nogil:
    cdef int k, t = 1
    for k in range(ar.kblocks):
        t *= ar.kdraws[k] + 1
    return t


cdef void rec_merge_last(Army *ar) noexcept nogil:
    """Joins the last two blocks, forgetting the inferences between them (a
    relaxation: only when the record is full, see RULES.md)."""
    cdef int k = ar.kblocks - 1, c
    if k < 1:
        return
    ar.kdraws[k - 1] += ar.kdraws[k]
    ar.kpin[k - 1] = ar.kpin[k]
    for c in range(NCARD):
        ar.klo[(k - 1) * NCARD + c] = ar.klo[k * NCARD + c]
        ar.klo[k * NCARD + c] = 0
    ar.kdraws[k] = 0
    ar.kpin[k] = 0
    ar.kblocks -= 1


cdef void rec_draw(Army *ar) noexcept nogil:
    """One hidden draw into the hand."""
    cdef int k
    if ar.kblocks == 0:
        rec_reset(ar)
        ar.kblocks = 1
        ar.kdraws[0] = 1
        return
    if ar.kdirty:
        ar.kdirty = 0
        if ar.kblocks < MAXB and rec_table(ar) * 2 <= TMAX:
            k = ar.kblocks
            memcpy(&ar.klo[k * NCARD], &ar.klo[(k - 1) * NCARD], NCARD)
            ar.kpin[k] = 0
            ar.kdraws[k] = 1
            ar.kblocks += 1
            return
        ar.kpin[ar.kblocks - 1] = 0                 # no room: the draw joins the last block
    k = ar.kblocks - 1
    while ar.kblocks > 1 and rec_table(ar) // (ar.kdraws[k] + 1) * (ar.kdraws[k] + 2) > TMAX:
        rec_merge_last(ar)
        k = ar.kblocks - 1
    if ar.kdraws[k] < 255:
        ar.kdraws[k] += 1


cdef void rec_remove(Army *ar, int c) noexcept nogil:
    """A card c left the hand openly (played, bid, revealed, a casualty)."""
    if ar.known[c] > 0:
        ar.known[c] -= 1
        return
    if ar.kblocks == 0:
        return
    ar.klo[(ar.kblocks - 1) * NCARD + c] += 1
    ar.kdirty = 1
    if rec_unknown(ar) <= 0:
        rec_reset(ar)


cdef inline void rec_exclude(Army *ar, int c) noexcept nogil:
    """The hand holds no card c now (a casualty from elsewhere, a larger reveal)."""
    if ar.kblocks == 0:
        return
    ar.kpin[ar.kblocks - 1] |= <uint16_t>(1 << c)
    ar.kdirty = 1


cdef inline void take_from_hand(UState *s, int a, int c) noexcept nogil:
    """A card of type c leaves a's hand (from the unknown part in a view)."""
    cdef Army *ar = &s.army[a]
    if ar.hand[c] > 0:
        ar.hand[c] -= 1
    elif ar.unknown_hand > 0 and ar.deck[c] > 0:
        ar.deck[c] -= 1
        ar.unknown_hand -= 1


cdef inline int position(const UState *s, int a, int u) noexcept nogil:
    """Where unit u acts from: its token, or its spawn tile if not on the board."""
    cdef int t = s.army[a].token[u]
    return s.army[a].spawn if t == OFF else t


cdef inline bint is_ready(const UState *s, int a, int u) noexcept nogil:
    return not (s.army[a].suppressed >> u) & 1


cdef inline bint has_marker(const UState *s, int a, int t) noexcept nogil:
    return ((s.army[a].scouted | s.army[a].controlled) >> t) & 1


cdef int distance(const UState *s, int a, int b) noexcept nogil:
    """Shortest path in tiles (99 if unconnected)."""
    cdef uint32_t reach, frontier, nxt, f
    cdef int d = 0
    if a == b:
        return 0
    reach = 1u << a
    frontier = reach
    while frontier:
        d += 1
        nxt = 0
        f = frontier
        while f:
            nxt |= s.adj[lowbit(f)]
            f &= f - 1
        nxt &= ~reach
        if (nxt >> b) & 1:
            return d
        reach |= nxt
        frontier = nxt
    return 99


cdef int points(const UState *s, int a) noexcept nogil:
    cdef uint32_t m = s.army[a].controlled
    cdef int n = 0
    while m:
        n += s.objective[lowbit(m)]
        m &= m - 1
    return n


cdef bint rifle_on_board(const UState *s, int a) noexcept nogil:
    cdef int u
    for u in range(U_RIF, U_RIF + 3):
        if s.army[a].token[u] != OFF:
            return True
    return False


cdef bint rifle_cards_left(const UState *s, int a) noexcept nogil:
    """A Rifleman card anywhere but removed: the army can still Control."""
    cdef const Army *ar = &s.army[a]
    cdef int c
    for c in range(C_RIF, C_RIF + 3):
        if ar.deck[c] + ar.hand[c] + ar.discard[c] + ar.play[c] + ar.supply[c] > 0 or ar.bid == c:
            return True
    return False


cdef bint irremediable(const UState *s, int a) noexcept nogil:
    """a can no longer reach its objective points (capture goals only)."""
    cdef int t, total = 0
    if s.army[a].goal != G_CAPTURE:
        return False
    for t in range(s.ntiles):
        total += s.objective[t]
    if total < s.army[a].goal_points:
        return True
    return not rifle_cards_left(s, a) and points(s, a) < s.army[a].goal_points


cdef inline bint immobilized(const UState *s, int a) noexcept nogil:
    return not rifle_on_board(s, a) or irremediable(s, a)


cdef inline void finish(UState *s, int winner, int reason) noexcept nogil:
    s.phase = PH_OVER
    s.winner = winner
    s.end_reason = reason


cdef void finish_on_points(UState *s, int reason) noexcept nogil:
    cdef int p0 = points(s, 0), p1 = points(s, 1)
    finish(s, 0 if p0 > p1 else 1 if p1 > p0 else s.initiative, reason)


cdef bint goal_met(const UState *s, int a) noexcept nogil:
    if s.army[a].goal == G_CAPTURE:
        return points(s, a) >= s.army[a].goal_points
    return not rifle_on_board(s, 1 - a)


cdef void check_end(UState *s) noexcept nogil:
    """The end conditions, checked after every event that can change them;
    the acting player's win is looked at first."""
    cdef int k, p, o
    if s.phase == PH_OVER:
        return
    for k in range(2):
        p = s.to_move if k == 0 else 1 - s.to_move
        if goal_met(s, p):
            finish(s, p, END_OBJECTIVES if s.army[p].goal == G_CAPTURE else END_IMMOBILIZE)
            return
    # Irremediable before both immobilized: "If the opponent's objective was to
    # immobilize, they win immediately", while both immobilized applies only
    # when "no one has won" (rulebook, Special Situations).
    for k in range(2):
        p = s.to_move if k == 0 else 1 - s.to_move
        if irremediable(s, p):
            o = 1 - p
            if s.army[o].goal == G_IMMOBILIZE or points(s, o) > points(s, p):
                finish(s, o, END_IRREMEDIABLE)
                return
    if immobilized(s, 0) and immobilized(s, 1):
        finish_on_points(s, END_BOTH_IMMOBILIZED)


cdef inline int cover_against(const UState *s, int tile, int from_tile, bint explode) noexcept nogil:
    cdef int c = s.cover[tile]
    if c == HILL:
        # "attacked by another hill": a hill other than the defender's own tile;
        # an attacker standing on the same hill tile meets the full 3
        return 1 if explode or (from_tile != tile and s.cover[from_tile] == HILL) else 3
    return c


cdef double hit_probability(int dice, int defence) noexcept nogil:
    """Any of `dice` d10 (faces 0..9) shows >= defence or 0."""
    cdef int succ = 1 + (10 - defence if defence < 10 else 0)
    cdef double miss = 1.0, m
    cdef int i
    if defence <= 1:
        succ = 10
    m = (10 - succ) / 10.0
    for i in range(dice):
        miss *= m
    return 1.0 - miss
