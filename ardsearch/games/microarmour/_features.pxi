# Micro Armour engine: the evaluation as features (game ABI 2; RULES.md,
# "Evaluation features": a design choice, not a rule). features(s, p) measures
# each quantity for p and for the enemy and writes p's minus the enemy's, so
# features(s, 0) = -features(s, 1); evaluate() = tanh(W . f / 2) with W from
# data/eval.toml (the core fills MA_WEIGHTS at import). Included by
# _engine.pyx after _eval.pxi (the classic evaluation, feature 0).

cdef enum:
    MA_NFEAT = 21

cdef const char *MA_FEATURE_NAMES[MA_NFEAT]
_ma_feature_names = [b"classic", b"armour", b"soft", b"infantry", b"command", b"village_hold",
                     b"village_hold_late", b"village_near", b"margin", b"broken", b"disrupted",
                     b"threats", b"incoming", b"to_enter", b"cargo", b"hidden", b"promise", b"promise_fix",
                     b"village_path", b"village_markers", b"mined"]
for _k in range(MA_NFEAT):
    MA_FEATURE_NAMES[_k] = _ma_feature_names[_k]
FEATURE_NAMES_PY = tuple(n.decode() for n in _ma_feature_names)

# Compiled-in defaults: classic alone (the evaluation as it was); the shipped
# data/eval.toml replaces them at import.
cdef double MA_WEIGHTS[MA_NFEAT]
for _k in range(MA_NFEAT):
    MA_WEIGHTS[_k] = 1.0 if _k == 0 else 0.0


cdef inline double ma_atanh2(double v) noexcept nogil:
    """2 atanh(v), v clamped to [-0.999, 0.999]: the classic value as a logit,
    so that weights {classic: 1} give back exactly the old evaluate()."""
    if v > 0.999:
        v = 0.999
    elif v < -0.999:
        v = -0.999
    return log((1.0 + v) / (1.0 - v))


# Inches to the nearest village square along king moves that tracked or foot
# stands of side p can make: a stream is crossed only at its fords and bridges,
# and the enemy's minefield markers (every one on its record sheet at the
# start, design: the table is fixed at load, so a marker removed later still
# counts) are walked round, per scenario, side and square: the feature
# `village_path`. Filled at install from the map (install_scenario's hook); a
# square no such path reaches keeps the straight distance (SC_VDIST).
cdef uint8_t SC_VPATH[MAXSCN][2][HMAX][WMAX]


def fill_village_paths(int k):
    """For each side, breadth-first from every village square of scenario k
    over squares a tracked or foot stand may enter (T_COST of class T or F
    not 0) that hold no enemy minefield marker; a square left out (a stream,
    a marker) gets 1 + its nearest reached neighbour's distance, so a stand on
    a marker or a boat on a stream still has one; at most 255."""
    cdef int W = SC_W[k], H = SC_H[k], x, y, nx, ny, t, p, i
    far = 1 << 20
    for p in range(2):
        walk = [[T_COST[SC_TER[k][y][x]][1] != 0 or T_COST[SC_TER[k][y][x]][2] != 0 for x in range(W)]
                for y in range(H)]
        for i in range(SC_NMF[k]):
            if SC_MFSIDE[k][i] != p:
                walk[SC_MFY[k][i]][SC_MFX[k][i]] = False
        d = [[far] * W for _ in range(H)]
        todo = [(x, y) for y in range(H) for x in range(W) if SC_TER[k][y][x] == VILLAGE_T]
        for x, y in todo:
            d[y][x] = 0
        i = 0
        while i < len(todo):
            x, y = todo[i]
            i += 1
            for nx in range(max(0, x - 1), min(W, x + 2)):
                for ny in range(max(0, y - 1), min(H, y + 2)):
                    if walk[ny][nx] and d[ny][nx] == far:
                        d[ny][nx] = d[y][x] + 1
                        todo.append((nx, ny))
        for y in range(H):
            for x in range(W):
                t = d[y][x]
                if t == far and not walk[y][x]:
                    t = min([d[ny][nx] for nx in range(max(0, x - 1), min(W, x + 2))
                             for ny in range(max(0, y - 1), min(H, y + 2)) if walk[ny][nx]] + [far]) + 1
                if t >= far:
                    t = SC_VDIST[k][y][x]
                SC_VPATH[k][p][y][x] = min(255, t)


def _village_path_table(int k, int p=0):
    """Scenario k's SC_VPATH for side p as rows (y from 0) of inches (tests)."""
    return [[SC_VPATH[k][p][y][x] for x in range(SC_W[k])] for y in range(SC_H[k])]


cdef void village_corrections(const MaState *s, int p, double *path, double *markers) noexcept nogil:
    """Two corrections of the classic village race (village_score) for side p,
    in its units. `path`: for every live stand that is not a dummy, its term at
    the walking distance (SC_VPATH) minus its term at the straight one: the
    classic race credits a stand on the wrong bank of a stream as if it could
    wade across (a stream is impassable but at fords and bridges, RULES.md
    Movement) and a stand behind a minefield belt as if it could walk through
    (a marker stops it and attacks it, RULES.md Minefields), so a search saw
    no gain in making for a crossing the enemy has not mined (the outpost: the
    Germans piled up at the bridge, whose far bank is all markers). `markers`:
    minus the whole term of a dummy (it holds and takes nothing: "A dummy ...
    never counts for ... the village") and minus the hold bonus of a hidden
    stand on a village square (a marker holds no village at the end, RULES.md
    Hidden set-up and spotting; it counts 1, as one `show` from holding). The
    search's states are determinized (they know each marker); in a view the
    enemy's markers are all taken as real and hidden. With both weights at
    0.076 (the classic race's weight in the logit, 2 x 0.95 x 0.04) the race
    counts what the end of the game counts."""
    cdef int g
    cdef double hold = village_hold_bonus(s), dS, dP
    path[0] = 0.0
    markers[0] = 0.0
    for g in range(p * 16, p * 16 + 16):
        if not alive(s, g):
            continue
        dS = SC_VDIST[s.scn][s.st[g].y][s.st[g].x]
        if is_dummy(s, g):
            markers[0] -= race_term(s, g, dS, hold)
            continue
        if dS == 0:
            if is_hidden(s, g):
                markers[0] -= hold
            continue
        dP = SC_VPATH[s.scn][p][s.st[g].y][s.st[g].x]
        if dP != dS:
            path[0] += race_term(s, g, dP, hold) - race_term(s, g, dS, hold)


cdef int stands_on_mines(const MaState *s, int p) noexcept nogil:
    """p's live stands on the table standing on an enemy minefield marker still
    there (revealed or not: the markers' squares are public). Such a stand has
    stopped (RULES.md Minefields: "a stand that steps onto an enemy marker must
    stop there"), needs +3 on its roll to leave and then takes the field's
    attack, and no friend may step onto its square: at a crossing whose far
    bank is all markers (the outpost's bridge) it closes the way for the rest.
    The feature `mined` weighs that against the attack the search sees."""
    cdef int g, n = 0
    if SC_NMF[s.scn] == 0:
        return 0
    for g in range(p * 16, p * 16 + 16):
        if alive(s, g) and not off_table(s, g) and s.carrier[g] == NONE \
                and mine_marker(s, s.st[g].x, s.st[g].y, p) >= 0:
            n += 1
    return n


cdef inline bint on_board(const MaState *s, int g) noexcept nogil:
    """A live, real stand on the table (not off it, not aboard a vehicle)."""
    return alive(s, g) and not is_dummy(s, g) and not off_table(s, g) and s.carrier[g] == NONE


cdef inline double break_margin(const MaState *s, int p) noexcept nogil:
    """Room left before p's break point, as a share of it (1 untouched, 0 at
    the point, negative beyond); the opponent's hidden card total is taken at
    its expectation (85/13 a card), as the classic evaluation does."""
    cdef double expect, limit = bp_units(s, p) * s.det * 7 / 100.0
    if hidden_from_view(s, p):
        expect = s.ncards[p] * 85.0 / 13.0
    else:
        expect = s.total[p]
    if limit <= 0.0:
        return 0.0
    return (limit - expect) / limit


cdef int threat_pairs(const MaState *s, int p) noexcept nogil:
    """(p's stand, enemy stand) pairs where the enemy stand, shown and on the
    table, is within the p stand's range and line of sight."""
    cdef int f, t, n = 0
    for f in range(p * 16, p * 16 + 16):
        if not on_board(s, f) or is_hidden(s, f) or TY_RANGE[s.st[f].type] == 0:
            continue
        for t in range((1 - p) * 16, (1 - p) * 16 + 16):
            if not on_board(s, t) or is_hidden(s, t):
                continue
            if dist(s, f, t) <= fire_range(s, f, t) and has_los(s, f, t):
                n += 1
    return n


cdef inline int material_class(int ty) noexcept nogil:
    """The material feature a stand type counts in: 4 command, 1 armour, 2 soft, 3 infantry."""
    if TY_ROLE[ty] != 0:
        return 4
    if TY_DEF[ty] == D_ARMOUR:
        return 1
    if TY_DEF[ty] == D_UNARMOURED:
        return 2
    return 3


cdef void side_counts(const MaState *s, int p, double *m, bint want_vil) noexcept nogil:
    """p's raw counts, in feature order (m[0] unused): material by defence
    class (x0.85 suppressed, x0.6 disorganized; a paratroop stand still in the
    aircraft at its airborne_share), command stands, village
    squares held (shown stands: a marker holds nothing), nearness of the
    rest to the village, suppressed or disorganized stands, stands still off
    the table, stands carried, hidden markers."""
    cdef int g, ty, d
    cdef double k
    for g in range(MA_NFEAT):
        m[g] = 0.0
    for g in range(p * 16, p * 16 + 16):
        if not alive(s, g):
            if s.drop_wait and (s.drop_wait >> g) & 1:     # in the aircraft: its expected share (_eval.pxi)
                m[material_class(s.st[g].type)] += airborne_share(s, g)
            continue
        if is_hidden(s, g):
            m[15] += 1.0
        if off_table(s, g):
            m[13] += 1.0
            continue
        if is_dummy(s, g):
            continue
        ty = s.st[g].type
        if s.carrier[g] != NONE:
            m[14] += 1.0
        k = 1.0
        if s.st[g].flags & F_S:
            k = 0.85
        if s.st[g].flags & F_D:
            k = 0.6
        if s.st[g].flags & (F_S | F_D):
            m[10] += 1.0
        m[material_class(ty)] += k
        if want_vil:
            d = SC_VDIST[s.scn][s.st[g].y][s.st[g].x]
            if d == 0:
                if not is_hidden(s, g):
                    m[5] += 1.0
            elif d < 20:
                m[7] += 1.0 - d / 20.0


cdef void race_scores(const MaState *s, int p, double *promise, double *fix) noexcept nogil:
    """The classic village race (_eval.pxi village_score) credits half of what
    a stand may still move this turn as already gained (`promise`: that credit
    alone), before its movement roll and even once its side has passed in the
    movement phase (a player who passed does not act again in the phase). So
    to a search, passing keeps the credit for nothing while trying to move
    risks losing it on a failed roll (the meeting scenario: mcts passed every
    movement phase as the Germans, bench/README.md). `fix` is what corrects
    that: minus the whole credit of a side that has passed in the movement
    phase, else minus the credit times the chance the stand's roll fails (an
    ordered roll while the side has orders left, else independent, +3);
    weights {classic: 1, promise_fix: 0.076} (the village race's weight in the
    classic value's logit, 2 x 0.95 x 0.04) count the credit at its worth."""
    cdef int g, mods
    cdef double d, d0, r, c, q, v = 0.0, vq = 0.0
    cdef bint passed = s.phase == PH_MOVE and (s.passed >> p) & 1
    for g in range(p * 16, p * 16 + 16):
        if not alive(s, g):
            continue
        d0 = SC_VDIST[s.scn][s.st[g].y][s.st[g].x]
        if d0 == 0:
            continue
        r = reach(s, g)
        if r <= 0.0:
            continue
        d = d0 - 0.5 * r
        if d < 0.5:
            d = 0.5
        if d >= 20:
            continue
        c = (20.0 - d if d0 >= 20 else d0 - d) / 20.0
        v += c
        if passed:
            q = 0.0
        elif s.st[g].mp:
            q = 1.0                      # its move has begun
        else:
            mods = cohesion_mods(s, g) + weather_move_mod(s, g)
            if s.phase == PH_MOVE and s.orders[p] == 0 and not TY_RECON[s.st[g].type]:
                mods += 3                # no orders left: an independent move
            q = p_pass(s.coh[p], mods)
        vq += c * q
    promise[0] = v
    fix[0] = vq - v


cdef inline bint counts_wanted(const double *w) noexcept nogil:
    """Whether a feature made of side_counts has a weight (all do for
    features(), whose w is NULL): material by class, command, the village
    hold and nearness, disrupted stands, stands to enter, cargo, hidden."""
    cdef int k
    if w == NULL:
        return 1
    for k in range(1, 16):
        if k not in (8, 9, 11, 12) and w[k] != 0.0:   # those four are not made of the counts
            return 1
    return 0


cdef void ma_features_w(const MaState *s, int player, double *f, const double *w) noexcept nogil:
    """All features into f (w NULL), or only those with a non-zero weight in w
    (the others are left 0): evaluate() runs at every search leaf and should
    not pay for line-of-sight threats it gives no weight."""
    cdef double a[MA_NFEAT]
    cdef double b[MA_NFEAT]
    cdef int i, q = 1 - player
    cdef double frac = s.turn / <double>(s.turns if s.turns else 1)
    cdef double pa, ra, pb, rb
    for i in range(MA_NFEAT):
        f[i] = 0.0
    if ard_feature_wanted(w, 0):
        f[0] = ma_atanh2(ma_evaluate_classic(s, player))
    if counts_wanted(w):
        side_counts(s, player, a, 1)
        side_counts(s, q, b, 1)
        for i in range(1, 5):
            f[i] = (a[i] - b[i]) / 4.0
        f[5] = (a[5] - b[5]) / 2.0
        f[6] = f[5] * frac
        f[7] = (a[7] - b[7]) / 4.0
        f[10] = (b[10] - a[10]) / 4.0
        f[13] = (b[13] - a[13]) / 4.0
        f[14] = (a[14] - b[14]) / 4.0
        f[15] = (a[15] - b[15]) / 4.0
    if ard_feature_wanted(w, 8):
        f[8] = break_margin(s, player) - break_margin(s, q)
    f[9] = <double>side_broken(s, q) - <double>side_broken(s, player)
    if ard_feature_wanted(w, 11):
        f[11] = (threat_pairs(s, player) - threat_pairs(s, q)) / 8.0
    if ard_feature_wanted(w, 12):
        f[12] = (incoming_fire(s, player) + air_threat(s, player) + pending_attack_value(s, player)) / 4.0
    if ard_feature_wanted(w, 16) or ard_feature_wanted(w, 17):
        race_scores(s, player, &pa, &ra)
        race_scores(s, q, &pb, &rb)
        f[16] = pa - pb
        f[17] = ra - rb
    if ard_feature_wanted(w, 18) or ard_feature_wanted(w, 19):
        village_corrections(s, player, &pa, &ra)
        village_corrections(s, q, &pb, &rb)
        f[18] = pa - pb
        f[19] = ra - rb
    if ard_feature_wanted(w, 20):
        f[20] = (stands_on_mines(s, q) - stands_on_mines(s, player)) / 4.0


cdef void ma_features(const void *state, int player, double *out) noexcept nogil:
    ma_features_w(<const MaState *>state, player, out, NULL)


cdef bint classic_only() noexcept nogil:
    return ard_weight_alone(MA_WEIGHTS, MA_NFEAT, 0) and MA_WEIGHTS[0] == 1.0


cdef double ma_evaluate(const void *state, int player) noexcept nogil:
    cdef const MaState *s = <const MaState *>state
    cdef double f[MA_NFEAT]
    if s.phase == PH_OVER or classic_only():
        return ma_evaluate_classic(state, player)   # the result itself; or weights {classic: 1}
    ma_features_w(s, player, f, MA_WEIGHTS)
    return ard_linear_value(MA_WEIGHTS, f, MA_NFEAT)


def evaluate_classic(bytes raw, int player):
    """The classic (pre-features) evaluation of a raw state (tests)."""
    if len(raw) != sizeof(MaState):
        raise ValueError(f"a raw Micro Armour state is {sizeof(MaState)} bytes, not {len(raw)}: "
                         f"pass state.raw()")
    return ma_evaluate_classic(<const char *>raw, player)
