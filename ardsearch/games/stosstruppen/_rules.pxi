# The rules: geometry, movement, fire, assault, rally, the Sequence deck and
# victory. All nogil, allocation-free helpers over StState.

# ----------------------------------------------------------------- geometry
cdef inline int cheb(int a, int b) noexcept nogil:
    cdef int dx = a % STRIDE - b % STRIDE, dy = a // STRIDE - b // STRIDE
    if dx < 0:
        dx = -dx
    if dy < 0:
        dy = -dy
    return dx if dx > dy else dy


cdef inline bint has_los(const Scn *sc, int a, int b) noexcept nogil:
    return (sc.los[a][b >> 3] >> (b & 7)) & 1


cdef inline bint in_arc(int facing, int a, int b) noexcept nogil:
    """b lies in the 45-degree arc looking `facing` from a (design: forward
    distance f >= 1 and 2 * |lateral| <= f + 1, which holds the 3 squares in
    front and widens one column every two squares)."""
    cdef int dx = b % STRIDE - a % STRIDE, dy = b // STRIDE - a // STRIDE, f, l
    if facing == 0:
        f = dy
        l = dx
    elif facing == 1:
        f = dx
        l = dy
    elif facing == 2:
        f = -dy
        l = dx
    else:
        f = -dx
        l = dy
    if l < 0:
        l = -l
    return f >= 1 and 2 * l <= f + 1


cdef inline const Scn *scn(const StState *s) noexcept nogil:
    return &SC[s.scenario]


cdef inline const UType *utype(const StState *s, int i) noexcept nogil:
    return &UT[s.u[i].type]


cdef inline bint alive(const StState *s, int i) noexcept nogil:
    return s.u[i].sq != NOSQ


cdef inline int side_of(int i) noexcept nogil:
    return i // UPS


cdef int unit_at(const StState *s, int sq) noexcept nogil:
    cdef int i
    for i in range(NUNITS):
        if s.u[i].sq == sq:
            return i
    return -1


cdef bint enemy_adjacent(const StState *s, int side, int sq) noexcept nogil:
    cdef int j, base = (1 - side) * UPS
    for j in range(base, base + UPS):
        if s.u[j].sq != NOSQ and cheb(s.u[j].sq, sq) == 1:
            return True
    return False


cdef int alive_count(const StState *s, int p) noexcept nogil:
    cdef int i, n = 0
    for i in range(p * UPS, p * UPS + UPS):
        if s.u[i].sq != NOSQ:
            n += 1
    return n


cdef bint demoralised(const StState *s, int p) noexcept nogil:
    """Lost at least half of the original units, fractions rounded up."""
    cdef int n = scn(s).nunits[p]
    return 2 * (n - alive_count(s, p)) >= n


cdef double morale_pass(const StState *s, int p) noexcept nogil:
    """1d6 passes on 4+ (Green), 3+ (Regular), 2+ (Veteran); Demoralised -1."""
    cdef int need = 4 - scn(s).morale[p] + (1 if demoralised(s, p) else 0)
    return (7 - need) / 6.0


cdef void update_spotting(StState *s) noexcept nogil:
    """Spotted for the game once an enemy unit is within 2 squares."""
    cdef int i, j, base
    for i in range(NUNITS):
        if s.u[i].sq == NOSQ or s.u[i].st & ST_SPOTTED:
            continue
        base = (1 - side_of(i)) * UPS
        for j in range(base, base + UPS):
            if s.u[j].sq != NOSQ and cheb(s.u[j].sq, s.u[i].sq) <= 2:
                s.u[i].st |= ST_SPOTTED
                break


cdef void eliminate(StState *s, int i) noexcept nogil:
    s.u[i].sq = NOSQ
    s.u[i].st = 0
    s.u[i].tk = 0
    if side_of(i) == scn(s).attacker and alive_count(s, side_of(i)) == 0:
        # an attacker with no units can hold no objective, so the defender has
        # won ("otherwise the British win"): the game ends at once. A defender
        # with no units has not lost yet: the attacker must still hold an
        # objective at the end of a turn (end_turn), and may fail to by the last.
        s.winner = 1 - side_of(i)
        s.phase = PH_OVER
        s.pend = P_NONE


# ----------------------------------------------------------------- movement
cdef inline bint may_enter(const Scn *sc, const UType *ut, int sq) noexcept nogil:
    """Terrain a unit type may end a step on (trench crossings aside)."""
    cdef int t = sc.terrain[sq]
    if ut.foot:
        return True
    return not (t == T_BUILDINGS or t == T_MARSH or t == T_BUNKER or t == T_TRENCH)


cdef inline int step_cost(const Scn *sc, const UType *ut, int a, int b) noexcept nogil:
    """Cost in half squares of the step a -> b: 2, 4 into woods, ford, marsh
    (foot) and craters (non-foot). Roads are not cheaper step by step: only a
    move that stays on the road is doubled (reach(), road_sets())."""
    cdef int t = sc.terrain[b]
    if t == T_WOODS or t == T_FORD or t == T_MARSH:
        return 4
    if t == T_CRATERS and not ut.foot:
        return 4
    return 2


cdef bint can_move(const StState *s, int i) noexcept nogil:
    cdef const Unit *u = &s.u[i]
    cdef const UType *ut
    # an empty slot has type NOTYPE (255): test the square before indexing UT[32]
    if u.sq == NOSQ or u.type == NOTYPE:
        return False
    ut = &UT[u.type]
    if ut.move == 0 or (u.st & (ST_STATUS | ST_ACTED | ST_STUCK)):
        return False
    if u.tk & TK_IMMOB:
        return False
    if ut.star and (u.st & ST_FIRED):
        return False
    if not ut.foot and scn(s).terrain[u.sq] == T_TRENCH:
        return False            # non-foot units starting in a trench may not leave it
    return True


cdef void reach(const StState *s, int i, uint8_t *cost0, uint8_t *cost1, uint8_t *crossed,
                int only) noexcept nogil:
    """Cheapest cost (half squares) of unit i to every square with no test
    (cost0) and over one trench square (cost1; non-foot units only;
    crossed[] the trench square used: among the cheapest paths, the lowest
    square index; with only >= 0 the crossing may use trench square `only`
    alone). 255 = unreachable. Friends are passed through, enemies never;
    neither kind of path enters wire unless the unit is a tank (one test a
    move: wire paths are reach_sets()'s rw). The move generator uses
    reach_sets() (_reach.pxi), the same paths as square sets (and the
    doubled road moves, which never lead to a crossing); this is kept for
    the trench square of a crossing move (crossing_square())."""
    cdef const Scn *sc = scn(s)
    cdef const UType *ut = utype(s, i)
    cdef int allow = 2 * ut.move, side = side_of(i)
    cdef int queue[512]
    cdef int head = 0, tail = 0, node, layer, a, b, m, d, d2, c, nc, bx, by, mx, my
    cdef uint8_t blocked[192]        # enemies, and wire for a non-tank
    cdef uint8_t inq[512]
    memset(blocked, 0, sizeof(blocked))
    memset(inq, 0, sizeof(inq))
    for a in range((1 - side) * UPS, (1 - side) * UPS + UPS):
        if s.u[a].sq != NOSQ:
            blocked[s.u[a].sq] = 1
    if not ut.tank:
        for a in range(NSQ):
            if sc.flags[a] & F_WIRE:
                blocked[a] = 1
    memset(cost0, 255, NSQ)
    memset(cost1, 255, NSQ)
    memset(crossed, 255, NSQ)
    cost0[s.u[i].sq] = 0
    queue[tail] = s.u[i].sq
    tail += 1
    while head != tail:
        node = queue[head]
        head = (head + 1) & 511
        inq[node] = 0
        layer = node >> 8
        a = node & 255
        c = cost1[a] if layer else cost0[a]
        for d in range(8):
            bx = a % STRIDE + DX[d]
            by = a // STRIDE + DY[d]
            if bx < 0 or by < 0 or bx >= sc.width or by >= sc.height:
                continue
            b = by * STRIDE + bx
            if blocked[b]:
                continue
            if may_enter(sc, ut, b):
                nc = c + step_cost(sc, ut, a, b)
                if nc <= allow:
                    if layer == 0 and nc < cost0[b]:
                        cost0[b] = nc
                        if not inq[b]:
                            inq[b] = 1
                            queue[tail] = b
                            tail = (tail + 1) & 511
                    elif layer == 1 and (nc < cost1[b] or (nc == cost1[b] and crossed[a] < crossed[b])):
                        cost1[b] = nc
                        crossed[b] = crossed[a]
                        if not inq[256 + b]:
                            inq[256 + b] = 1
                            queue[tail] = 256 + b
                            tail = (tail + 1) & 511
            elif (layer == 0 and not ut.foot and sc.terrain[b] == T_TRENCH and unit_at(s, b) < 0
                    and (only < 0 or b == only)):
                # a non-foot unit crosses one empty trench square in a single move
                # (empty: failing the test leaves it there)
                m = b
                for d2 in range(8):
                    mx = m % STRIDE + DX[d2]
                    my = m // STRIDE + DY[d2]
                    if mx < 0 or my < 0 or mx >= sc.width or my >= sc.height:
                        continue
                    b = my * STRIDE + mx
                    if b == a or blocked[b] or not may_enter(sc, ut, b):
                        continue
                    nc = c + 2 + step_cost(sc, ut, m, b)
                    if nc <= allow and (nc < cost1[b] or (nc == cost1[b] and m < crossed[b])):
                        cost1[b] = nc
                        crossed[b] = m
                        if not inq[256 + b]:
                            inq[256 + b] = 1
                            queue[tail] = 256 + b
                            tail = (tail + 1) & 511


cdef bint near_hq(const StState *s, int i) noexcept nogil:
    cdef int j, p = side_of(i)
    for j in range(p * UPS, p * UPS + UPS):
        if s.u[j].sq != NOSQ and UT[s.u[j].type].hq and cheb(s.u[j].sq, s.u[i].sq) <= 3:
            return True
    return False


cdef inline bint in_question(const StState *s, int j, int away_from, int a) noexcept nogil:
    """Whether enemy slot j is the enemy in question of a fall back from
    square a: unit away_from, or with -1 any enemy next to a."""
    return s.u[j].sq != NOSQ and (j == away_from or (away_from < 0 and cheb(s.u[j].sq, a) == 1))


cdef bint next_to_questioned(const StState *s, int i, int away_from, int sq) noexcept nogil:
    """Whether square sq is next to the enemy in question of unit i's fall back."""
    cdef int j, base = (1 - side_of(i)) * UPS
    for j in range(base, base + UPS):
        if in_question(s, j, away_from, s.u[i].sq) and cheb(s.u[j].sq, sq) == 1:
            return True
    return False


cdef void fall_back(StState *s, int i, int away_from) noexcept nogil:
    """A failed test next to the enemy (Assault B: "moved back 5cm from the
    enemy unit in question, if possible towards the own table edge, if not to
    any position not adjacent to a enemy unit"): one square, first one row
    nearer the own edge and off the enemy in question (unit away_from, or with
    -1 every enemy next to the unit), else any square no enemy is next to,
    nearest the own edge; of equals, the step most nearly straight away from
    the enemy in question, then the lowest square index. No such square, or
    an immobilised unit: it stays."""
    cdef const Scn *sc = scn(s)
    cdef const UType *ut = utype(s, i)
    cdef int a = s.u[i].sq, side = side_of(i), d, j, bx, by, b, dist, tier
    cdef int here = a // STRIDE if side == 0 else sc.height - 1 - a // STRIDE
    cdef int best = -1, best_tier = 9, best_dist = 99, ax = 0, ay = 0, base = (1 - side) * UPS
    cdef double score, best_score = 0.0
    if (s.u[i].st & ST_STUCK) or (s.u[i].tk & TK_IMMOB):
        return
    # the direction straight away from the enemy in question (a sum of steps)
    for j in range(base, base + UPS):
        if in_question(s, j, away_from, a):
            ax += a % STRIDE - s.u[j].sq % STRIDE
            ay += a // STRIDE - s.u[j].sq // STRIDE
    for d in range(8):
        bx = a % STRIDE + DX[d]
        by = a // STRIDE + DY[d]
        if bx < 0 or by < 0 or bx >= sc.width or by >= sc.height:
            continue
        b = by * STRIDE + bx
        if unit_at(s, b) >= 0 or not may_enter(sc, ut, b):
            continue
        if (sc.flags[b] & F_WIRE) and not ut.tank:
            continue
        dist = by if side == 0 else sc.height - 1 - by
        if dist < here and not next_to_questioned(s, i, away_from, b):
            tier = 0                    # back, towards the own table edge
        elif not enemy_adjacent(s, side, b):
            tier = 1                    # any position no enemy is next to
        else:
            continue
        # the cosine between the step and the away direction, times |away|
        score = DX[d] * ax + DY[d] * ay
        if DX[d] != 0 and DY[d] != 0:
            score = score / 1.4142135623730951
        if (tier < best_tier or (tier == best_tier and dist < best_dist)
                or (tier == best_tier and dist == best_dist
                    and (score > best_score or (score == best_score and b < best)))):
            best = b
            best_tier = tier
            best_dist = dist
            best_score = score
    if best >= 0:
        s.u[i].sq = best
        s.u[i].st |= ST_SPOTTED
        update_spotting(s)


cdef int next_adjacent_enemy(const StState *s, int mover, int sq, int start) noexcept nogil:
    """The first enemy unit of `mover` from slot `start` on (slot order) that
    stands next to square sq (the square the mover arrived on)."""
    cdef int j, base = (1 - side_of(mover)) * UPS
    for j in range(start if start > base else base, base + UPS):
        if s.u[j].sq != NOSQ and cheb(s.u[j].sq, sq) == 1:
            return j
    return -1


cdef void arrive_at(StState *s, int i, int sq) noexcept nogil:
    """Unit i ends a move on sq: spotted, tank facing, then the tests for moving
    next to the enemy. psq keeps the arrival square while they run: the enemy
    units next to it test whether the mover passed or fell back."""
    cdef int a = s.u[i].sq, dx = sq % STRIDE - a % STRIDE, dy = sq // STRIDE - a // STRIDE
    cdef int facing, adx = dx if dx > 0 else -dx, ady = dy if dy > 0 else -dy
    if utype(s, i).tank:
        if ady >= adx:
            facing = 0 if dy > 0 else 2
        else:
            facing = 1 if dx > 0 else 3
        s.u[i].tk = (s.u[i].tk & 63) | (facing << TK_FACING_SHIFT)
    s.u[i].sq = sq
    s.u[i].st |= ST_MOVED | ST_SPOTTED
    update_spotting(s)
    s.psq = sq
    s.pend = P_ADJ_MOVER if next_adjacent_enemy(s, i, sq, 0) >= 0 else P_NONE


cdef void continue_move(StState *s) noexcept nogil:
    if s.pflags & PF_HQ:
        s.pend = P_HQTEST
    elif s.pflags & PF_CROSS:
        s.pend = P_CROSS
    else:
        arrive_at(s, s.pu, s.psq)


cdef int crossing_square(const StState *s, int i, int dest) noexcept nogil:
    """The trench square unit i crosses on its move to dest (Obstacles B: a
    failing unit "is immobilized there in that trench"): of the squares that
    give the cheapest crossing path, the one nearest the straight line from
    its square to dest, then the lowest square index. Run once, when such a
    move starts, so trying each trench square in turn costs the search
    nothing."""
    cdef const Scn *sc = scn(s)
    cdef uint8_t cost0[192]
    cdef uint8_t cost1[192]
    cdef uint8_t crossed[192]
    cdef int a = s.u[i].sq, m, off, best = -1, best_off = 1 << 30, cheapest
    cdef int lx = dest % STRIDE - a % STRIDE, ly = dest // STRIDE - a // STRIDE
    reach(s, i, cost0, cost1, crossed, -1)
    cheapest = cost1[dest]
    for m in range(NSQ):
        if sc.terrain[m] != T_TRENCH or m % STRIDE >= sc.width or m // STRIDE >= sc.height:
            continue
        if cheb(m, a) > utype(s, i).move:
            continue
        reach(s, i, cost0, cost1, crossed, m)
        if cost1[dest] != cheapest:
            continue
        # twice the area between the line a -> dest and m: the distance from
        # the line times its (common) length
        off = (m % STRIDE - a % STRIDE) * ly - (m // STRIDE - a // STRIDE) * lx
        if off < 0:
            off = -off
        if off < best_off:
            best = m
            best_off = off
    return best


cdef void start_move(StState *s, int i, int dest) noexcept nogil:
    cdef BB enemy, occupied, r0, rw, rt
    unit_squares(s, 1 - side_of(i), &enemy, &occupied)
    reach_sets(s, i, &enemy, &occupied, &r0, &rw, &rt)
    s.u[i].st |= ST_ACTED
    s.pu = i
    s.psq = dest
    s.paux = 0
    s.pflags = 0
    if not near_hq(s, i):
        s.pflags |= PF_HQ
    # one test a move (Obstacles A and B), none if a path needs none; of a
    # wire path and a trench crossing, the wire (design: failing it costs the
    # move, failing the trench the unit)
    if bb_has(&rw, dest) and not bb_has(&r0, dest):
        s.pflags |= PF_CROSS
    elif not bb_has(&r0, dest):
        s.pflags |= PF_CROSS | PF_TRENCH
        s.paux = crossing_square(s, i, dest)
    continue_move(s)


# ----------------------------------------------------------------- fire
cdef int tank_weapon(const StState *s, int i, int t) noexcept nogil:
    """The weapon tank i uses on unit t: 1 main, 2 secondary, 0 none left."""
    cdef const UType *ut = utype(s, i)
    cdef uint8_t tk = s.u[i].tk
    cdef bint armoured = UT[s.u[t].type].tank
    if ut.main and not (tk & (TK_MAIN_OUT | TK_MAIN_FIRED)) and (ut.main_at or not armoured):
        return 1
    if ut.secondary and not (tk & (TK_SEC_OUT | TK_SEC_FIRED)) and not armoured:
        return 2
    return 0


cdef bint can_fire_at(const StState *s, int i, int t) noexcept nogil:
    cdef const Scn *sc = scn(s)
    cdef const Unit *u = &s.u[i]
    cdef const UType *ut
    cdef const UType *tt
    cdef int a = u.sq, b, dist, ter
    # empty slots (type NOTYPE) have no square: test it before indexing UT[32]
    if a == NOSQ or s.u[t].sq == NOSQ or (u.st & ST_STATUS) == 2:
        return False
    ut = &UT[u.type]
    b = s.u[t].sq
    tt = &UT[s.u[t].type]
    dist = cheb(a, b)
    if ut.tank:
        if tank_weapon(s, i, t) == 0:
            return False
        if not ut.all_round and not in_arc(u.tk >> TK_FACING_SHIFT, a, b):
            return False
    else:
        if u.st & ST_FIRED or ut.fire == 0:
            return False
        if ut.star and (u.st & ST_MOVED):
            return False
        if tt.tank and (ut.at == 0 or (ut.at_no_long and dist >= 8)):
            return False
        if sc.terrain[a] == T_BUNKER and not in_arc(sc.aperture[a], a, b):
            return False
    ter = sc.terrain[b]
    if (ter == T_WOODS or ter == T_BUILDINGS) and not (s.u[t].st & ST_SPOTTED):
        return False
    return has_los(sc, a, b)


cdef int fire_die(const StState *s, int i, int t, bint secondary) noexcept nogil:
    cdef const UType *ut = utype(s, i)
    if ut.tank:
        return ut.secondary if secondary else ut.main
    return ut.at if UT[s.u[t].type].tank else ut.fire


cdef int fire_mod(const StState *s, int i, int t) noexcept nogil:
    cdef const UType *ut = utype(s, i)
    cdef int dist = cheb(s.u[i].sq, s.u[t].sq), m = 0, ter = scn(s).terrain[s.u[t].sq]
    if dist <= 2:
        m += 1
    elif dist >= 8:
        m -= 1
    # the terrain modifiers count against tanks too (a penetration is "die +
    # modifiers vs the tank's Armour"): a mortar's plunging fire on a tank in
    # craters or stuck in a trench; tanks never stand in buildings or bunkers
    if ut.plunging and (ter == T_TRENCH or ter == T_CRATERS):
        m += 1
    if ut.direct and (ter == T_BUILDINGS or ter == T_BUNKER):
        m += 1
    return m


cdef double beat_prob(int die, int mod, int need) noexcept nogil:
    """P(1d<die> + mod > need)."""
    cdef int f, n = 0
    if die <= 0:
        return 0.0
    for f in range(1, die + 1):
        if f + mod > need:
            n += 1
    return n / <double>die


cdef int table_outcome(int roll) noexcept nogil:
    """The anti-tank hit table (design): 1-2 main out, 3-4 secondary out,
    5 immobilised, 6 and more destroyed (the roll with the Schneider's +2)."""
    if roll <= 2:
        return A_T_MAIN
    if roll <= 4:
        return A_T_SEC
    return A_T_IMMOB if roll == 5 else A_T_KILL


cdef int attack_outcomes(const StState *s, int t, double p, ard_action *acts, double *probs) noexcept nogil:
    """Outcomes of one attack on unit t that succeeds with probability p (a hit
    on a soldier, a penetration of a tank): miss, hit, or for an undamaged tank
    the anti-tank hit table (1d6 + bonus: 1-2 main out, 3-4 secondary out,
    5 immobilised, 6+ destroyed). Zero-probability outcomes are left out."""
    cdef int n = 0, f, k
    cdef int cnt[4]
    cdef const UType *tt = utype(s, t)
    # in increasing action order: hit, miss, then the tank results
    if p > 0.0 and not tt.tank:
        acts[n] = A_HIT
        probs[n] = p
        n += 1
    if p < 1.0:
        acts[n] = A_MISS
        probs[n] = 1.0 - p
        n += 1
    if p > 0.0 and tt.tank:
        if s.u[t].tk & TK_DAMAGED:
            acts[n] = A_T_KILL
            probs[n] = p
            n += 1
        else:
            cnt[0] = cnt[1] = cnt[2] = cnt[3] = 0
            for f in range(1, 7):
                cnt[table_outcome(f + tt.bonus) - A_T_MAIN] += 1
            for k in range(4):
                if cnt[k]:
                    acts[n] = A_T_MAIN + k
                    probs[n] = p * cnt[k] / 6.0
                    n += 1
    return n


cdef void hit_unit(StState *s, int t, int outcome, bint artillery) noexcept nogil:
    """Effect of a hit (RULES.md, Effect of hits) or a tank table result."""
    cdef int status = s.u[t].st & ST_STATUS
    if outcome == A_MISS:
        return
    if outcome == A_HIT:
        if status and IS_OPEN[scn(s).terrain[s.u[t].sq]]:
            eliminate(s, t)
        elif artillery:
            s.u[t].st = (s.u[t].st & ~ST_STATUS) | 2
        elif status == 0:
            s.u[t].st |= 1
    elif outcome == A_T_KILL:
        eliminate(s, t)
    elif outcome == A_T_MAIN:
        s.u[t].tk |= TK_MAIN_OUT | TK_DAMAGED
    elif outcome == A_T_SEC:
        s.u[t].tk |= TK_SEC_OUT | TK_DAMAGED
    elif outcome == A_T_IMMOB:
        s.u[t].tk |= TK_IMMOB | TK_DAMAGED


# ----------------------------------------------------------------- markers
cdef inline int mk_kind(const StState *s, int m) noexcept nogil:
    return s.mk[m][0] & 127


cdef int next_armed_marker(const StState *s, int start) noexcept nogil:
    cdef int m, p = s.card // 4
    for m in range(start if start > p * MPS else p * MPS, p * MPS + MPS):
        if s.mk[m][0] & MK_ARMED:
            return m
    return -1


cdef int blast_radius(int kind) noexcept nogil:
    return 4 if kind == MK_GAS else 2


cdef int blast_die(int kind) noexcept nogil:
    if kind == MK_GAS:
        return 10
    if kind == MK_FIGHTER:
        return 8
    if kind == MK_BOMBER:
        return 12
    return 20


cdef void test_markers_from(StState *s, int start) noexcept nogil:
    cdef int m = next_armed_marker(s, start)
    if m >= 0:
        s.pend = P_ARRIVE
        s.paux = m
    else:
        s.pend = P_NONE
        s.paux = 0


cdef void blast_from(StState *s, int start) noexcept nogil:
    """Next unit (slot order, friend or foe) the arrived marker paux attacks;
    the marker is discarded after the last."""
    cdef int i, m = s.paux, sq = s.mk[m][1], r = blast_radius(mk_kind(s, m))
    for i in range(start, NUNITS):
        if s.u[i].sq != NOSQ and cheb(s.u[i].sq, sq) <= r:
            s.pend = P_BLAST
            s.pt = i
            return
    s.mk[m][0] = MK_NONE
    s.mk[m][1] = NOSQ
    s.pt = 0
    test_markers_from(s, m + 1)


cdef int stock_marker(const StState *s, int p, int kind) noexcept nogil:
    cdef int m
    for m in range(p * MPS, p * MPS + MPS):
        if s.mk[m][0] == kind:
            return m
    return -1


# ----------------------------------------------------------------- assault
cdef void dist_add_d3(double *dist, int *hi) noexcept nogil:
    """dist (values 0..hi) convolved with 1d3."""
    cdef double out[40]
    cdef int v, k
    for v in range(hi[0] + 4):
        out[v] = 0.0
    for v in range(hi[0] + 1):
        if dist[v] > 0.0:
            for k in range(1, 4):
                out[v + k] += dist[v] / 3.0
    hi[0] += 3
    for v in range(hi[0] + 1):
        dist[v] = out[v]


cdef void assault_odds(const StState *s, int i, int t, double *win, double *loss, double *tie) noexcept nogil:
    """Melee: attacker die (+1d3 against pinned, +2d3 against suppressed)
    against defender die (+1d3 in a trench or bunker unless attacked along a
    connected trench: a trench defender attacked from a neighbouring trench
    square, diagonal included, gets no bonus; a tank with an armament out
    rolls half its die, rounded up)."""
    cdef double da[40]
    cdef double dd[40]
    cdef int ha, hd, v, w, k, status = s.u[t].st & ST_STATUS
    cdef const Scn *sc = scn(s)
    cdef const UType *tt = utype(s, t)
    cdef int ter = sc.terrain[s.u[t].sq], die = utype(s, i).melee
    for v in range(40):
        da[v] = 0.0
        dd[v] = 0.0
    ha = die
    for v in range(1, die + 1):
        da[v] = 1.0 / die
    for k in range(status):
        dist_add_d3(da, &ha)
    die = tt.melee
    if tt.tank and (s.u[t].tk & (TK_MAIN_OUT | TK_SEC_OUT)):
        # halving a die: the faces 1..n become ceil(f / 2)
        hd = (die + 1) // 2
        for v in range(1, die + 1):
            dd[(v + 1) // 2] += 1.0 / die
    else:
        hd = die
        for v in range(1, die + 1):
            dd[v] = 1.0 / die
    # the attacker is one of the 8 neighbours (can_assault): a trench square
    # next to a trench square, diagonal included, is a connected trench
    if ter == T_BUNKER or (ter == T_TRENCH and sc.terrain[s.u[i].sq] != T_TRENCH):
        dist_add_d3(dd, &hd)
    win[0] = loss[0] = tie[0] = 0.0
    for v in range(ha + 1):
        if da[v] == 0.0:
            continue
        for w in range(hd + 1):
            if v > w:
                win[0] += da[v] * dd[w]
            elif v < w:
                loss[0] += da[v] * dd[w]
            else:
                tie[0] += da[v] * dd[w]


cdef inline bint in_contact(int a, int b) noexcept nogil:
    """a and b are neighbours: one of the 8 squares around (Chebyshev 1)."""
    return cheb(a, b) == 1


cdef bint can_assault(const StState *s, int i, int t) noexcept nogil:
    """Contract: "Unpinned, unsuppressed foot units in contact (adjacent
    square) with an enemy may assault, once each per phase; a unit may be
    assaulted from each side", with "Distance is Chebyshev (diagonal = 1)":
    the assaulter stands on any of the target's 8 neighbours, so up to 8
    units assault one target (Assault B: a unit that moved adjacent, diagonal
    included, "may assault in the next assault phase")."""
    cdef const Unit *u = &s.u[i]
    if u.sq == NOSQ or s.u[t].sq == NOSQ or not UT[u.type].assault:
        return False
    if u.st & (ST_STATUS | ST_ACTED):
        return False
    return in_contact(u.sq, s.u[t].sq)


# ----------------------------------------------------------------- rally
cdef void rally_from(StState *s, int start) noexcept nogil:
    cdef int i, p = s.card // 4
    for i in range(start if start > p * UPS else p * UPS, p * UPS + UPS):
        if s.u[i].sq != NOSQ and (s.u[i].st & ST_STATUS):
            s.pend = P_RALLY
            s.pt = i
            return
    s.pend = P_NONE
    s.pt = 0
    end_phase(s)


# ----------------------------------------------------------------- sequence and victory
cdef int objectives_held(const StState *s, int p) noexcept nogil:
    cdef int i, n = 0
    for i in range(p * UPS, p * UPS + UPS):
        if s.u[i].sq != NOSQ and (scn(s).flags[s.u[i].sq] & F_OBJECTIVE):
            n += 1
    return n


cdef void end_turn(StState *s) noexcept nogil:
    """Victory at the end of a turn (scenario terms), then the next turn. The
    demoralisation win is tested first, at the end of every turn including
    the last; the objective count only decides the last turn otherwise."""
    cdef const Scn *sc = scn(s)
    cdef int a = sc.attacker, d = 1 - a, held = objectives_held(s, a), i
    if demoralised(s, d) and held >= 1:
        s.winner = a
    elif s.turn >= s.turns:
        s.winner = a if held >= sc.obj_needed else d
    if s.winner != WIN_NONE:
        s.phase = PH_OVER
        return
    for i in range(NUNITS):
        s.u[i].st &= ~(ST_MOVED | ST_FIRED | ST_ACTED)
        s.u[i].tk &= ~(TK_MAIN_FIRED | TK_SEC_FIRED)
    s.turn += 1
    s.drawn = 0
    s.card = 0
    s.phase = PH_DRAW


cdef void end_phase(StState *s) noexcept nogil:
    cdef int m, p = s.card // 4
    if s.phase == PH_FIRE:
        # markers placed in this Fire phase test from the next own Fire phase on
        for m in range(p * MPS, p * MPS + MPS):
            if MK_BARRAGE <= mk_kind(s, m) <= MK_CAS:
                s.mk[m][0] |= MK_ARMED
    s.pend = P_NONE
    s.pu = s.pt = s.psq = s.paux = s.pflags = 0
    if s.drawn == 0xFF:
        end_turn(s)
    else:
        s.card = 0
        s.phase = PH_DRAW


cdef void start_phase(StState *s, int card) noexcept nogil:
    cdef int i
    s.card = card
    s.drawn |= <uint8_t>(1 << card)
    s.phase = PH_MOVE + card % 4
    for i in range(NUNITS):
        s.u[i].st &= ~ST_ACTED
    if s.phase == PH_FIRE:
        test_markers_from(s, 0)
