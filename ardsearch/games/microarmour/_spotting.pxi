# Micro Armour engine: hidden set-up, dummies and spotting (RULES.md "Hidden set-up and
# spotting"). A scenario may set stands up hidden (markers in blocking or concealing
# terrain) beside dummy markers. The enemy sees a marker where it stands, never its type
# or whether it is a dummy, until one of its stands spots it; a spotted dummy is removed.
# Hidden information goes through the engine's machinery: observe() deals the viewer a
# canonical content for every unspotted enemy marker, determinize() a random one, both
# drawn from what the scenario put under the markers less what has been seen.
# Included by _engine.pyx (one module, split by concern).

cdef int CHARTS_NIGHT_MAX = 5

def install_spotting_charts(charts):
    """charts.toml [spotting] and [night], and the ground's terrain changes (_weather.pxi)."""
    global SPOT_PER_LEVEL, CHARTS_NIGHT_MAX
    sp = charts["spotting"]
    for t in range(MAXTERRAIN):
        T_CONCEAL[t] = sp["concealed"][t] if t < len(sp["concealed"]) else 0
        T_LEVEL[t] = sp["level"][t] if t < len(sp["level"]) else 0
    SPOT_PER_LEVEL = sp["per_level"]
    CHARTS_NIGHT_MAX = sp["night_max"]
    install_weather_charts(charts)


def install_hidden(int k, sc):
    """The scenario's marker slots and dummies, then its weather (_weather.pxi)."""
    SC_HIDMASK[k] = 0
    SC_DUMMY[k] = 0
    for p in range(2):
        SC_DUMMY_TYPE[k][p] = 0
        reals = [s for s in sc["stands"][p] if s["hidden"] and not s["dummy"]]
        if reals:
            SC_DUMMY_TYPE[k][p] = reals[0]["type"]
        for l, s in enumerate(sc["stands"][p]):
            if s["hidden"]:
                SC_HIDMASK[k] |= <uint32_t>1 << (p * 16 + l)
            if s["dummy"]:
                SC_DUMMY[k] |= <uint32_t>1 << (p * 16 + l)
    install_weather(k, sc)


# ----------------------------------------------------------------- small helpers
cdef inline bint is_hidden(const MaState *s, int g) noexcept nogil:
    return (s.hid >> g) & 1

cdef inline bint is_dummy(const MaState *s, int g) noexcept nogil:
    return (s.dummy >> g) & 1

cdef inline bint hidden_blocks_fire(const MaState *s, int f, int t) noexcept nogil:
    """A dummy never fires; an unspotted marker cannot be attacked (its enemy has not
    spotted a target there)."""
    return is_dummy(s, f) or is_hidden(s, t)

cdef void hidden_init(MaState *s) noexcept nogil:
    s.hid = SC_HIDMASK[s.scn]
    s.dummy = SC_DUMMY[s.scn]
    spot_update(s)                           # stands in sight at set-up are spotted at once


# ----------------------------------------------------------------- spotting
cdef void reveal(MaState *s, int g) noexcept nogil:
    """Spotted: the marker shows its stand; a dummy is removed (digest: "dummies
    removed when spotted"), its slot empty."""
    s.hid &= ~(<uint32_t>1 << g)
    if is_dummy(s, g):
        s.dummy &= ~(<uint32_t>1 << g)
        memset(&s.st[g], 0, sizeof(Stand))
        s.st[g].type = NONE

cdef bint spotted(const MaState *s, int g) noexcept nogil:
    """An enemy stand (not a dummy) spots hidden stand g: adjacent always (digest,
    hedgerows: "only be spotted by adjacent stands"); else within the turn's sighting
    distance, +5" a level it stands above g (digest: higher ground), or within g's
    terrain's concealment distance if that is shorter and g has not fired this turn
    (digest: "A stand that has fired counts as in clear terrain for spotting"), with a
    line of sight traced as to a personnel target (any stand between blocks it), so
    that nothing depends on what is under the marker."""
    cdef int q = 1 - side_of(g), e, d, r, tg = ter(s, s.st[g].x, s.st[g].y), up
    cdef int conceal = 0 if (s.st[g].flags & F_FIRED) else T_CONCEAL[tg]
    for e in range(q * 16, q * 16 + 16):
        if not alive(s, e) or is_dummy(s, e):
            continue
        d = dist(s, e, g)
        if d <= 1:
            return 1
        up = <int>T_LEVEL[ter(s, s.st[e].x, s.st[e].y)] - <int>T_LEVEL[tg]
        r = s.sight + (SPOT_PER_LEVEL * up if up > 0 else 0)
        if conceal and conceal < r:
            r = conceal
        if d <= r and los_from(s, e, g, 1):
            return 1
    return 0

cdef void spot_update(MaState *s) noexcept nogil:
    """After every action: a hidden stand that acts shows itself (design: the mover once
    its move starts, a stand once declared as a firer); every unspotted marker an enemy
    stand now spots is revealed (continuous spotting, design)."""
    cdef int g, l
    if s.hid == 0:
        return
    if s.mover != NONE and s.mover < NSLOT and is_hidden(s, s.mover):
        reveal(s, s.mover)
    if s.atk_step != S_NONE:
        for l in range(16):
            if (s.atk_firers >> l) & 1 and is_hidden(s, s.atk_side * 16 + l):
                reveal(s, s.atk_side * 16 + l)
    for g in range(NSLOT):
        if is_hidden(s, g) and (not alive(s, g) or spotted(s, g)):
            reveal(s, g)


# ----------------------------------------------------------------- hook: hidden information
cdef void deal_markers(MaState *s, int q, ard_rng *rng) noexcept nogil:
    """Puts under q's unspotted markers what the scenario put under q's markers less
    what has been seen (a spotted stand keeps its type, a removed dummy is an empty
    slot): in scenario order without rng (the canonical deal a view shows, the same
    for every truth behind one view), else shuffled (a determinization)."""
    cdef int pool[16]
    cdef int slots[16]
    cdef int n = 0, ns = 0, g, i, j, c, tmp
    cdef uint32_t bit
    for g in range(q * 16, q * 16 + 16):
        if (SC_HIDMASK[s.scn] >> g) & 1:
            pool[n] = -1 if (SC_DUMMY[s.scn] >> g) & 1 else SC_START[s.scn][g].type
            n += 1
    for g in range(q * 16, q * 16 + 16):
        if not (SC_HIDMASK[s.scn] >> g) & 1:
            continue
        if is_hidden(s, g):
            slots[ns] = g
            ns += 1
            continue
        c = -1 if s.st[g].type == NONE else s.st[g].type
        for i in range(n):
            if pool[i] == c:
                pool[i] = pool[n - 1]
                n -= 1
                break
    # the canonical order: scenario contents sorted (reals by type, then dummies)
    for i in range(1, n):
        j = i
        while j > 0 and (pool[j] if pool[j] >= 0 else 999) < (pool[j - 1] if pool[j - 1] >= 0 else 999):
            tmp = pool[j]
            pool[j] = pool[j - 1]
            pool[j - 1] = tmp
            j -= 1
    if rng != NULL:
        for i in range(n - 1, 0, -1):
            j = <int>ard_rng_below(rng, i + 1)
            tmp = pool[i]
            pool[i] = pool[j]
            pool[j] = tmp
    for i in range(ns if ns < n else n):
        g = slots[i]
        bit = <uint32_t>1 << g
        if pool[i] < 0:
            s.st[g].type = SC_DUMMY_TYPE[s.scn][q]
            s.dummy |= bit
        else:
            s.st[g].type = <uint8_t>pool[i]
            s.dummy &= ~bit

cdef inline void hidden_observe(MaState *v, int player) noexcept nogil:
    if v.hid & (<uint32_t>0xFFFF << (16 * (1 - player))):
        deal_markers(v, 1 - player, NULL)

cdef inline void hidden_determinize(MaState *s, int player, ard_rng *rng) noexcept nogil:
    if s.hid & (<uint32_t>0xFFFF << (16 * (1 - player))):
        deal_markers(s, 1 - player, rng)


# ----------------------------------------------------------------- hook: validation
cdef int hidden_validate(const MaState *s) noexcept nogil:
    """Marker bits only on the scenario's marker slots, a dummy always unspotted and of
    its side's placeholder type, an unspotted stand untouched by play (alive, never
    fired, moved, attacked or hurt), and each side's markers holding exactly what the
    scenario put under them (a removed dummy as an empty slot). 1 if corrupt."""
    cdef int g, p, i, n, c, ty
    cdef int cnt[MAXTYPES + 1]
    if s.hid & ~SC_HIDMASK[s.scn] or s.dummy & ~s.hid:
        return 1
    for p in range(2):
        memset(cnt, 0, sizeof(cnt))
        for g in range(p * 16, p * 16 + 16):
            if not (SC_HIDMASK[s.scn] >> g) & 1:
                continue
            if (SC_DUMMY[s.scn] >> g) & 1:
                cnt[MAXTYPES] += 1
            else:
                cnt[SC_START[s.scn][g].type] += 1
        for g in range(p * 16, p * 16 + 16):
            if not (SC_HIDMASK[s.scn] >> g) & 1:
                continue
            ty = s.st[g].type
            if ty == NONE or is_dummy(s, g):
                if ty == NONE and (s.st[g].flags or is_hidden(s, g)):
                    return 1
                if ty != NONE and ty != SC_DUMMY_TYPE[s.scn][p]:
                    return 1
                c = MAXTYPES
            elif ty >= NTYPES:
                return 1
            else:
                c = ty
            if cnt[c] == 0:
                return 1
            cnt[c] -= 1
            if is_hidden(s, g):
                if (s.st[g].flags & ~F_ALIVE) or not (s.st[g].flags & F_ALIVE) or s.st[g].mp or s.st[g].steps:
                    return 1
                if s.fired_at_by[g] or s.ammo[g] or (s.low_ammo >> g) & 1 or (s.hq_mask >> g) & 1 or s.mover == g:
                    return 1
                if s.atk_step != S_NONE and (s.atk_target == g or (side_of(g) == s.atk_side and (s.atk_firers >> (g & 15)) & 1)):
                    return 1
    return 0


# ----------------------------------------------------------------- hook: evaluation and the end
cdef inline bint counts_as_stand(const MaState *s, int g) noexcept nogil:
    """A live stand that is not a dummy (break points, material, holding the village)."""
    return alive(s, g) and not is_dummy(s, g)
