# Included by _engine.pyx: the roads' geometry (lead units, who may clash,
# flank or fire the mortar at what) and the changes a move makes to them
# (placing, rotating, retreating, clashing, the end of a turn).

# ----------------------------------------------------------------- geometry
cdef inline int lead_unit(const ArdState *s, int p, int r) noexcept nogil:
    return s.line[p][r][s.count[p][r] - 1]


cdef inline int full_stock(const ArdState *s, int t) noexcept nogil:
    if s.variant == 1 and t >= U_GENERAL:
        return 0
    return FULL_STOCK[t]


cdef inline bint special_allowed(const ArdState *s, int p) noexcept nogil:
    """No special unit of p on the board (each exists once: in stock or on board)."""
    return (s.variant == 0 and s.stock[p][U_GENERAL] + s.stock[p][U_SPY]
            + s.stock[p][U_CMDTANK] + s.stock[p][U_MORTAR] == 4)


cdef int find_unit(const ArdState *s, int p, int t, int *road, int *depth) noexcept nogil:
    """Road and depth (tiles from p's block to its rear tile) of p's unit of type t."""
    cdef int r, i, d
    for r in range(NROADS):
        d = 0
        for i in range(s.count[p][r]):
            if s.line[p][r][i] == t:
                road[0] = r
                depth[0] = d
                return 1
            d += UNIT_LEN[s.line[p][r][i]]
    return 0


cdef int unit_at_depth(const ArdState *s, int q, int r, int depth) noexcept nogil:
    """Index of q's unit on road r covering the tile `depth` tiles from q's block, or -1."""
    cdef int i, d = 0
    if depth >= s.length[q][r]:
        return -1
    for i in range(s.count[q][r]):
        d += UNIT_LEN[s.line[q][r][i]]
        if depth < d:
            return i
    return -1


cdef inline bint can_clash(const ArdState *s, int p, int r) noexcept nogil:
    cdef int o = 1 - p
    return (s.count[p][r] > 0 and s.count[o][r] > 0
            and s.length[p][r] + s.length[o][r] == s.road_length
            and BEATS[lead_unit(s, p, r)][lead_unit(s, o, r)] >= 0)


cdef int flank_target(const ArdState *s, int p, int kroad, int kdepth, int target) noexcept nogil:
    """Index of the enemy infantry unit p's command tank (road kroad, rear tile at
    kdepth) can flank on road `target`, or -1. The arrows are on the tank's tile
    nearest the enemy."""
    cdef int o = 1 - p, i
    if target < 0 or target >= NROADS or (s.conquered[o] >> target) & 1:
        return -1
    i = unit_at_depth(s, o, target, s.road_length - 1 - (kdepth + 2))
    if i < 0 or not IS_INFANTRY[s.line[o][target][i]]:
        return -1
    return i


cdef inline int mortar_road(int p, int r) noexcept nogil:
    """The road the mortar on road r aims at: two to its owner's left."""
    return r - 2 if p == 0 else r + 2


cdef int mortar_target(const ArdState *s, int p, int mroad, int mdepth) noexcept nogil:
    """Index of the enemy private p's mortar (road mroad, rear tile at mdepth) can shoot, or -1."""
    cdef int o = 1 - p, target = mortar_road(p, mroad), i
    if target < 0 or target >= NROADS or (s.conquered[o] >> target) & 1:
        return -1
    i = unit_at_depth(s, o, target, s.road_length - 1 - (mdepth + 1))
    if i < 0 or s.line[o][target][i] != U_PRIVATE:
        return -1
    return i


cdef bint any_attack(const ArdState *s, int p) noexcept nogil:
    """Whether p has a clash, flank or mortar shot available."""
    cdef int r, road, depth
    for r in range(NROADS):
        if can_clash(s, p, r):
            return 1
    if s.variant == 0:
        if s.stock[p][U_CMDTANK] == 0 and find_unit(s, p, U_CMDTANK, &road, &depth):
            if (flank_target(s, p, road, depth, road - 1) >= 0
                    or flank_target(s, p, road, depth, road + 1) >= 0):
                return 1
        if s.stock[p][U_MORTAR] == 0 and find_unit(s, p, U_MORTAR, &road, &depth):
            if mortar_target(s, p, road, depth) >= 0:
                return 1
    return 0


# ----------------------------------------------------------------- changes
cdef void truncate_line(ArdState *s, int q, int r, int keep) noexcept nogil:
    """Return q's units on road r from index `keep` to the front to q's stock."""
    cdef int i, t
    for i in range(keep, s.count[q][r]):
        t = s.line[q][r][i]
        s.stock[q][t] += 1
        s.length[q][r] -= UNIT_LEN[t]
        s.line[q][r][i] = 0
    s.count[q][r] = keep


cdef void check_conquest_win(ArdState *s, int p) noexcept nogil:
    cdef int c = s.conquered[p], card = s.objective[p]
    if POPCOUNT[c] >= 3 or (1 <= card <= NCARDS and (c & CARD_MASK[card]) == CARD_MASK[card]):
        s.phase = PH_OVER
        s.winner = p


cdef void end_turn(ArdState *s) noexcept nogil:
    cdef int c0, c1
    if s.to_move != s.starter:        # the second turn of the round is over
        if s.round >= s.max_rounds:
            c0 = POPCOUNT[s.conquered[0]]
            c1 = POPCOUNT[s.conquered[1]]
            s.phase = PH_OVER
            s.winner = 0 if c0 > c1 else (1 if c1 > c0 else WIN_DRAW)
            return
        s.round += 1
    s.to_move = 1 - s.to_move
    s.ap = START_AP


cdef void place_unit(ArdState *s, int p, int t, int r) noexcept nogil:
    s.line[p][r][s.count[p][r]] = t
    s.count[p][r] += 1
    s.length[p][r] += UNIT_LEN[t]
    s.stock[p][t] -= 1
    s.ap -= 1
    if s.length[p][r] == s.road_length:
        s.conquered[p] |= 1 << r
        check_conquest_win(s, p)


cdef void rotate_line(ArdState *s, int p, int r) noexcept nogil:
    """The rearmost unit goes to the front; the others shift back."""
    cdef int n = s.count[p][r]
    cdef uint8_t rear = s.line[p][r][0]
    memmove(&s.line[p][r][0], &s.line[p][r][1], n - 1)
    s.line[p][r][n - 1] = rear
    s.ap -= 2


cdef void retreat_lead(ArdState *s, int p, int r) noexcept nogil:
    cdef int o = 1 - p
    if s.count[o][r] > 0 and s.length[p][r] + s.length[o][r] == s.road_length:
        s.ap -= 3                       # blocked: front touches the enemy
    else:
        s.ap -= 2
    truncate_line(s, p, r, s.count[p][r] - 1)


cdef void clash(ArdState *s, int p, int r) noexcept nogil:
    cdef int o = 1 - p
    cdef int a = lead_unit(s, p, r)
    cdef int n = s.count[o][r], removed = 0
    if BEATS[a][lead_unit(s, o, r)] == 0:      # equal: only the two leading units go
        truncate_line(s, o, r, n - 1)
        truncate_line(s, p, r, s.count[p][r] - 1)
        return
    while n > 0 and BEATS[a][s.line[o][r][n - 1]] > 0:
        n -= 1
        removed += 1
        if a == U_SPY and removed == 2:         # the spy takes two units at most
            break
    truncate_line(s, o, r, n)
