# The evaluation as features (RULES.md, Evaluation; a design choice, not a
# rule): features(s, p) describes the position from p's side and evaluate()
# is tanh(W . f / 2), so (evaluate + 1) / 2 is the fitted win probability.
# Features are "mine minus yours" (antisymmetric) except where said.
# Weights: data/eval.toml; EVAL_W below holds the same numbers until the
# core's loader fills the table from that file (a test checks they agree).

cdef enum:
    NFEAT = 23
    F_CLASSIC = 0       # the hand-set evaluation of issue 15's start, 2 atanh(v)
    F_RESULT = 1        # a game over inside the chance expectation: +1 won, -1 lost
    F_RIFLES = 2        # foot units (not the HQ) alive, fraction of the scenario's
    F_WEAPONS = 3       # `*` units (HMG, mortars, guns) alive, fraction
    F_TANKS = 4         # tanks: 1 intact, 0.5 damaged, fraction of the scenario's
    F_HQ = 5            # HQ alive (1 / 0)
    F_PINNED = 6        # pinned units, fraction (yours minus mine: good for me)
    F_SUPPRESSED = 7    # suppressed units, fraction (yours minus mine)
    F_OBJECTIVES = 8    # attacker's objectives held / needed (+ for the attacker)
    F_ADVANCE = 9       # attacker's closeness to the objectives (+ for the attacker)
    F_DEMORALISED = 10  # yours minus mine
    F_MORALE = 11       # morale test pass chance, mine minus yours
    F_HQ_COVER = 12     # units within 3 squares of their HQ (move freely), fraction
    F_STOCK = 13        # barrage and CAS markers not yet placed, count
    F_MARKER_HITS = 14  # placed markers: expected loss to your units minus mine
    F_MARKER_HQ = 15    # placed markers: chance they hit your HQ minus mine
    F_FIRE_THREAT = 16  # expected loss to your units from my fire next minus mine
    F_ASSAULT_THREAT = 17  # expected loss from assaults by neighbouring units (8 squares)
    F_ATTACKER = 18     # +1 for the attacker, -1 for the defender (scenario bias)
    F_CLOCK = 19        # turn / turns, + for the attacker
    F_MARGIN = 20       # losses an army can still take before it is demoralised (at most 4) / 4
    F_MORALE_RACE = 21  # the attacker's morale victory in sight (+ for the attacker)
    F_GUARD = 22        # objectives a defender's unit stands on, fraction (+ for the defender):
                        # one unit a square, so the attacker cannot enter them while it stays

cdef const char *FEATURE_NAMES[23]
_feature_names = [b"classic", b"result", b"rifles", b"weapons", b"tanks", b"hq", b"pinned",
                  b"suppressed", b"objectives", b"advance", b"demoralised", b"morale", b"hq_cover",
                  b"stock", b"marker_hits", b"marker_hq", b"fire_threat", b"assault_threat",
                  b"attacker", b"clock", b"margin", b"morale_race", b"guard"]
for _k in range(NFEAT):
    FEATURE_NAMES[_k] = _feature_names[_k]
FEATURE_NAMES_PY = tuple(n.decode() for n in _feature_names)

cdef double EVAL_W[23]


# ----------------------------------------------------------------- the classic evaluation
cdef double unit_value(const StState *s, int i) noexcept nogil:
    cdef const UType *ut = utype(s, i)
    cdef double v = 1.0 + 0.05 * ut.fire + 0.03 * ut.melee
    if ut.tank:
        v = 2.5
        if s.u[i].tk & TK_DAMAGED:
            v = 1.5
    elif ut.hq:
        v = 1.5
    if (s.u[i].st & ST_STATUS) == 1:
        v *= 0.85
    elif (s.u[i].st & ST_STATUS) == 2:
        v *= 0.7
    return v


cdef double full_value(const StState *s, int p) noexcept nogil:
    """The classic value of p's army at full strength."""
    cdef double full = 0.0
    cdef int i
    for i in range(p * UPS, p * UPS + scn(s).nunits[p]):
        full += 1.0 + 0.05 * UT[s.u[i].type].fire + 0.03 * UT[s.u[i].type].melee + (1.5 if UT[s.u[i].type].tank else 0.0)
    return full


cdef double side_strength(const StState *s, int p) noexcept nogil:
    """Surviving combat value, as a fraction of a full-strength army."""
    cdef double have = 0.0, full = full_value(s, p)
    cdef int i
    for i in range(p * UPS, p * UPS + scn(s).nunits[p]):
        if s.u[i].sq != NOSQ:
            have += unit_value(s, i)
    return have / full if full > 0 else 0.0


cdef double advance_score(const StState *s, int a) noexcept nogil:
    """How close the attacker's units stand to the objectives (0..1)."""
    cdef const Scn *sc = scn(s)
    cdef int i, b, d, best, n = 0
    cdef double tot = 0.0
    for i in range(a * UPS, a * UPS + UPS):
        if s.u[i].sq == NOSQ:
            continue
        best = 99
        for b in range(sc.nobj):
            d = cheb(s.u[i].sq, sc.objsq[b])
            if d < best:
                best = d
        tot += 1.0 - best / 16.0
        n += 1
    return tot / n if n else 0.0


cdef double static_eval(const StState *s, int player) noexcept nogil:
    """The hand-set evaluation before issue 15 (feature `classic`)."""
    cdef const Scn *sc = scn(s)
    cdef int a = sc.attacker, d = 1 - a
    cdef double v, held = objectives_held(s, a)
    v = 2.0 * (side_strength(s, a) - side_strength(s, d))
    v += 0.8 * held / sc.obj_needed + 0.4 * advance_score(s, a) - 0.6
    if demoralised(s, d):
        v += 0.5
    if demoralised(s, a):
        v -= 0.5
    v = v / (1.0 + (v if v > 0 else -v))
    return 0.95 * (v if player == a else -v)


# ----------------------------------------------------------------- threats
cdef double hit_loss(const StState *s, int t, double full) noexcept nogil:
    """What one hit costs unit t's army, as a fraction of its full value: the
    whole unit when the hit eliminates (a pinned or suppressed unit in the
    open, a damaged tank), else a third of it (pinned or suppressed, or a
    tank's first penetration: a weapon out, immobilised or, on a high roll,
    destroyed). `full`: the full value of t's army (full_value)."""
    cdef double v = unit_value(s, t) / full
    if UT[s.u[t].type].tank:
        return v if s.u[t].tk & TK_DAMAGED else v / 3.0
    if (s.u[t].st & ST_STATUS) and IS_OPEN[scn(s).terrain[s.u[t].sq]]:
        return v
    return v / 3.0


cdef int defence(const StState *s, int t) noexcept nogil:
    """The number an attack must beat: the armour of a tank, else the
    protection of the target's square."""
    if UT[s.u[t].type].tank:
        return UT[s.u[t].type].armour
    return PV[scn(s).terrain[s.u[t].sq]]


cdef double marker_hit_prob(const StState *s, int m, int t) noexcept nogil:
    """The chance that placed marker m hits unit t if it arrived now (0 out of
    its radius); CAS averages its two aircraft."""
    cdef int kind = mk_kind(s, m), need = defence(s, t)
    if kind < MK_BARRAGE or cheb(s.mk[m][1], s.u[t].sq) > blast_radius(kind):
        return 0.0
    if kind == MK_CAS:
        return 0.5 * beat_prob(8, 0, need) + 0.5 * beat_prob(12, 0, need)
    return beat_prob(blast_die(kind), 0, need)


cdef double threat_die_prob(const StState *s, int i, int t) noexcept nogil:
    """The chance that unit i hits unit t when it next fires (Fire A-D, Tanks
    A-B), whatever it did this turn: 0 if it cannot fire at t at all
    (suppressed, no weapon for a tank, out of arc, unspotted in cover, no
    line of sight)."""
    cdef const Scn *sc = scn(s)
    cdef const Unit *u = &s.u[i]
    cdef const UType *ut = &UT[u.type]
    cdef const UType *tt = &UT[s.u[t].type]
    cdef int a = u.sq, b = s.u[t].sq, die, ter
    if (u.st & ST_STATUS) == 2:
        return 0.0
    if ut.tank:
        if ut.main and not (u.tk & TK_MAIN_OUT) and (ut.main_at or not tt.tank):
            die = ut.main
        elif ut.secondary and not (u.tk & TK_SEC_OUT) and not tt.tank:
            die = ut.secondary
        else:
            return 0.0
        if not ut.all_round and not in_arc(u.tk >> TK_FACING_SHIFT, a, b):
            return 0.0
    else:
        die = ut.at if tt.tank else ut.fire
        if die == 0 or (tt.tank and ut.at_no_long and cheb(a, b) >= 8):
            return 0.0
        if sc.terrain[a] == T_BUNKER and not in_arc(sc.aperture[a], a, b):
            return 0.0
    ter = sc.terrain[b]
    if (ter == T_WOODS or ter == T_BUILDINGS) and not (s.u[t].st & ST_SPOTTED):
        return 0.0
    if not has_los(sc, a, b):
        return 0.0
    return beat_prob(die, fire_mod(s, i, t), defence(s, t))


cdef double fire_threat(const StState *s, int q, double full) noexcept nogil:
    """Expected loss to q's army if every enemy unit fired at once: per
    target, the chance at least one shooter hits times what a hit costs.
    Halved when the shooters' Fire card has been played this turn (their next
    chance is next turn, after q's own phases)."""
    cdef int t, i, k, n = 0, e = 1 - q
    cdef int shooters[16]
    cdef double miss, tot = 0.0
    for i in range(e * UPS, e * UPS + UPS):
        if s.u[i].sq != NOSQ and (s.u[i].st & ST_STATUS) != 2:
            shooters[n] = i
            n += 1
    for t in range(q * UPS, q * UPS + UPS):
        if s.u[t].sq == NOSQ:
            continue
        miss = 1.0
        for k in range(n):
            miss *= 1.0 - threat_die_prob(s, shooters[k], t)
        if miss < 1.0:
            tot += (1.0 - miss) * hit_loss(s, t, full)
    if (s.drawn >> (e * 4 + 1)) & 1 and not (s.card == e * 4 + 1 and s.phase == PH_FIRE):
        tot *= 0.5
    return tot


cdef double assault_threat(const StState *s, int q, double full) noexcept nogil:
    """Expected loss to q's army from assaults by enemy units on any of the
    8 neighbouring squares (contract: "in contact (adjacent square)",
    Chebyshev; can_assault): per target the best attacker's chance to win,
    times the unit's value (the loser is eliminated)."""
    cdef int t, i, e = 1 - q
    cdef double win, loss, tie, best, tot = 0.0
    for t in range(q * UPS, q * UPS + UPS):
        if s.u[t].sq == NOSQ:
            continue
        best = 0.0
        for i in range(e * UPS, e * UPS + UPS):
            if s.u[i].sq == NOSQ or not UT[s.u[i].type].assault or (s.u[i].st & ST_STATUS) \
                    or not in_contact(s.u[i].sq, s.u[t].sq):
                continue
            assault_odds(s, i, t, &win, &loss, &tie)
            if win > best:
                best = win
        if best > 0.0:
            tot += best * unit_value(s, t) / full
    return tot


# ----------------------------------------------------------------- static features
cdef void side_counts(const StState *s, int p, double *out) noexcept nogil:
    """Per side, from p's own view: [rifles, weapons, tanks, hq, pinned,
    suppressed, hq_cover, stock] (fractions of the scenario's units)."""
    cdef int i, hq = -1, n = scn(s).nunits[p], m
    cdef double rifles = 0, rifles0 = 0, weapons = 0, weapons0 = 0, tanks = 0, tanks0 = 0
    cdef double pinned = 0, supp = 0, cover = 0, others = 0, stock = 0
    cdef const UType *ut
    for i in range(p * UPS, p * UPS + n):
        if s.u[i].sq != NOSQ and UT[s.u[i].type].hq:
            hq = i
    for i in range(p * UPS, p * UPS + n):
        ut = &UT[s.u[i].type]
        if ut.tank:
            tanks0 += 1
        elif ut.star:
            weapons0 += 1
        elif not ut.hq:
            rifles0 += 1
        if s.u[i].sq == NOSQ:
            continue
        if ut.tank:
            tanks += 0.5 if s.u[i].tk & TK_DAMAGED else 1.0
        elif ut.star:
            weapons += 1
        elif not ut.hq:
            rifles += 1
        if (s.u[i].st & ST_STATUS) == 1:
            pinned += 1
        elif (s.u[i].st & ST_STATUS) == 2:
            supp += 1
        if not ut.hq:
            others += 1
            if hq >= 0 and cheb(s.u[hq].sq, s.u[i].sq) <= 3:
                cover += 1
    for m in range(p * MPS, p * MPS + MPS):
        if mk_kind(s, m) == MK_BARRAGE_STOCK or mk_kind(s, m) == MK_CAS_STOCK:
            stock += 1
    out[0] = rifles / rifles0 if rifles0 else 0.0
    out[1] = weapons / weapons0 if weapons0 else 0.0
    out[2] = tanks / tanks0 if tanks0 else 0.0
    out[3] = 1.0 if hq >= 0 else 0.0
    out[4] = pinned / n if n else 0.0
    out[5] = supp / n if n else 0.0
    out[6] = cover / others if others else 0.0
    out[7] = stock


cdef void marker_features(const StState *s, int p, const double *full, double *hits, double *hq) noexcept nogil:
    """Placed markers (anyone's, armed or not): they attack friend and foe
    alike (Barrages B), so a marker near p's own units counts against p,
    whoever placed it."""
    cdef int m, t, sign
    cdef double ph
    hits[0] = 0.0
    hq[0] = 0.0
    for m in range(8):
        if mk_kind(s, m) < MK_BARRAGE or s.mk[m][1] == NOSQ:
            continue
        for t in range(NUNITS):
            if s.u[t].sq == NOSQ:
                continue
            ph = marker_hit_prob(s, m, t)
            if ph == 0.0:
                continue
            sign = 1 if side_of(t) != p else -1
            hits[0] += sign * ph * hit_loss(s, t, full[side_of(t)])
            if UT[s.u[t].type].hq:
                hq[0] += sign * ph


cdef double margin(const StState *s, int p) noexcept nogil:
    """Losses p's army can still take before it is demoralised (Morale C: at
    least half its units lost, fractions rounded up), at most 4, over 4."""
    cdef int n = scn(s).nunits[p], lost = n - alive_count(s, p), m
    m = (n + 1) // 2 - lost
    m = 0 if m < 0 else (4 if m > 4 else m)
    return m / 4.0


cdef double morale_race(const StState *s, int a) noexcept nogil:
    """How near the attacker `a` is to its morale victory (scenario victory:
    the defender demoralised and the attacker on at least 1 objective): the
    defender's lost margin times the attacker's hold on an objective (1 when
    it holds one, else its best unit's closeness to an empty objective)."""
    cdef const Scn *sc = scn(s)
    cdef int i, b, d, best = 99
    cdef double hold
    if objectives_held(s, a) >= 1:
        hold = 1.0
    else:
        for i in range(a * UPS, a * UPS + UPS):
            if s.u[i].sq == NOSQ:
                continue
            for b in range(sc.nobj):
                d = cheb(s.u[i].sq, sc.objsq[b])
                if d < best:
                    best = d
        hold = 1.0 / (1.0 + best) if best < 99 else 0.0
    return (1.0 - margin(s, 1 - a)) * hold


cdef void static_features(const StState *s, int p, double *f, const double *need) noexcept nogil:
    """Every feature but `classic` and `result` of a position (no chance node
    expanded); with `need` (the weights) the zero-weight ones are left 0."""
    cdef const Scn *sc = scn(s)
    cdef int q = 1 - p, k, a = sc.attacker
    cdef double mine[8]
    cdef double yours[8]
    cdef double sgn = 1.0 if p == a else -1.0
    cdef double full[2]
    for k in range(F_RIFLES, NFEAT):
        f[k] = 0.0
    if ard_feature_wanted(need, F_MARKER_HITS) or ard_feature_wanted(need, F_MARKER_HQ) \
            or ard_feature_wanted(need, F_FIRE_THREAT) \
            or ard_feature_wanted(need, F_ASSAULT_THREAT):
        full[0] = full_value(s, 0)
        full[1] = full_value(s, 1)
    # side_counts gives these eight together: one wanted, all computed
    if ard_feature_wanted(need, F_RIFLES) or ard_feature_wanted(need, F_WEAPONS) \
            or ard_feature_wanted(need, F_TANKS) or ard_feature_wanted(need, F_HQ) \
            or ard_feature_wanted(need, F_PINNED) or ard_feature_wanted(need, F_SUPPRESSED) \
            or ard_feature_wanted(need, F_HQ_COVER) or ard_feature_wanted(need, F_STOCK):
        side_counts(s, p, mine)
        side_counts(s, q, yours)
        f[F_RIFLES] = mine[0] - yours[0]
        f[F_WEAPONS] = mine[1] - yours[1]
        f[F_TANKS] = mine[2] - yours[2]
        f[F_HQ] = mine[3] - yours[3]
        f[F_PINNED] = yours[4] - mine[4]
        f[F_SUPPRESSED] = yours[5] - mine[5]
        f[F_HQ_COVER] = mine[6] - yours[6]
        f[F_STOCK] = mine[7] - yours[7]
    if ard_feature_wanted(need, F_OBJECTIVES):
        f[F_OBJECTIVES] = sgn * objectives_held(s, a) / <double>sc.obj_needed
    if ard_feature_wanted(need, F_ADVANCE):
        f[F_ADVANCE] = sgn * advance_score(s, a)
    if ard_feature_wanted(need, F_DEMORALISED):
        f[F_DEMORALISED] = (1.0 if demoralised(s, q) else 0.0) - (1.0 if demoralised(s, p) else 0.0)
    if ard_feature_wanted(need, F_MORALE):
        f[F_MORALE] = morale_pass(s, p) - morale_pass(s, q)
    if ard_feature_wanted(need, F_MARKER_HITS) or ard_feature_wanted(need, F_MARKER_HQ):
        marker_features(s, p, full, &f[F_MARKER_HITS], &f[F_MARKER_HQ])
    if ard_feature_wanted(need, F_FIRE_THREAT):
        f[F_FIRE_THREAT] = fire_threat(s, q, full[q]) - fire_threat(s, p, full[p])
    if ard_feature_wanted(need, F_ASSAULT_THREAT):
        f[F_ASSAULT_THREAT] = assault_threat(s, q, full[q]) - assault_threat(s, p, full[p])
    f[F_ATTACKER] = sgn
    f[F_CLOCK] = sgn * s.turn / <double>s.turns
    if ard_feature_wanted(need, F_MARGIN):
        f[F_MARGIN] = margin(s, p) - margin(s, q)
    if ard_feature_wanted(need, F_MORALE_RACE):
        f[F_MORALE_RACE] = sgn * morale_race(s, a)
    if ard_feature_wanted(need, F_GUARD):
        f[F_GUARD] = -sgn * objectives_held(s, 1 - a) / <double>sc.nobj if sc.nobj else 0.0


cdef void features_depth(const StState *s, int p, int depth, double *f, const double *need) noexcept nogil:
    """f[F_CLASSIC] gets the classic value itself (not yet 2 atanh): at a
    chance node (up to `depth` deep) everything is the expectation over its
    outcomes, so the greedy bot sees the odds of its shots and tests. `need`:
    as static_features (NULL: every feature)."""
    cdef StState child
    cdef ard_action acts[8]
    cdef double probs[8]
    cdef double sub[23]
    cdef double out[2]
    cdef int n, k, j
    if s.phase == PH_OVER:
        static_features(s, p, f, need)
        st_returns(s, out)
        f[F_CLASSIC] = out[p]
        f[F_RESULT] = out[p]
        return
    if depth > 0 and s.pend != P_NONE:
        for j in range(NFEAT):
            f[j] = 0.0
        n = st_chance_outcomes(s, acts, probs)
        for k in range(n):
            memcpy(&child, s, sizeof(StState))
            apply_chance(&child, acts[k])
            features_depth(&child, p, depth - 1, sub, need)
            for j in range(NFEAT):
                f[j] += probs[k] * sub[j]
        return
    static_features(s, p, f, need)
    f[F_CLASSIC] = static_eval(s, p) if ard_feature_wanted(need, F_CLASSIC) else 0.0
    f[F_RESULT] = 0.0


cdef inline void features_for(const void *state, int player, double *out, const double *need) noexcept nogil:
    cdef double v
    features_depth(<const StState *>state, player, 3, out, need)
    v = out[F_CLASSIC]
    v = 0.999 if v > 0.999 else (-0.999 if v < -0.999 else v)
    out[F_CLASSIC] = 2.0 * atanh(v)


cdef void st_features(const void *state, int player, double *out) noexcept nogil:
    """Every feature (tuning and tests read them all)."""
    features_for(state, player, out, NULL)


cdef double st_evaluate(const void *state, int player) noexcept nogil:
    cdef const StState *s = <const StState *>state
    cdef double f[23]
    cdef double out[2]
    if s.phase == PH_OVER:
        st_returns(s, out)
        return out[player]
    # only the features with a weight: the others would be multiplied by 0
    features_for(state, player, f, EVAL_W)
    return ard_linear_value(EVAL_W, f, NFEAT)

