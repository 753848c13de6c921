# Micro Armour engine: hidden set-up, dummies and spotting (RULES.md "Hidden set-up and
# spotting"). A scenario may set stands up hidden (markers in blocking or concealing
# terrain) beside dummy markers. The enemy sees a marker where it stands, never its type
# or whether it is a dummy, until one of its stands spots it; a spotted dummy is removed.
# Hidden information goes through the engine's machinery: observe() deals the viewer a
# canonical content for every unspotted enemy marker, determinize() a random one, both
# drawn from what the scenario put under the markers less what has been seen.
# Included by _engine.pyx (one module, split by concern).

cdef int CHARTS_NIGHT_MAX = 5

def install_spotting_charts(charts, weapons):
    """charts.toml [spotting] and [night], the type keys (notation), and the ground's
    terrain changes (_weather.pxi)."""
    global SPOT_PER_LEVEL, CHARTS_NIGHT_MAX
    for i, w in enumerate(weapons):
        b = w["key"].encode()[:11]
        memset(TY_KEY[i], 0, 12)
        for j in range(len(b)):
            TY_KEY[i][j] = b[j]
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
    """A marker fires only once shown; an unspotted marker cannot be attacked (its
    enemy has not spotted a target there)."""
    return is_hidden(s, f) or is_hidden(s, t)

cdef inline bint holds_ground(const MaState *s, int g) noexcept nogil:
    """A stand that holds the village at the end: alive and shown (a marker, real or
    dummy, holds nothing: what it is is not known)."""
    return alive(s, g) and not is_hidden(s, g)

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
    return spotted_by(s, g, spotters(s, 1 - side_of(g)), NULL)

cdef inline int box_dist(const int *box, int x, int y) noexcept nogil:
    """The distance (king moves, as dist()) from (x, y) to the nearest square of box
    x0, y0, x1, y1: at most the distance to any square in it."""
    cdef int dx = box[0] - x if x < box[0] else (x - box[2] if x > box[2] else 0)
    cdef int dy = box[1] - y if y < box[1] else (y - box[3] if y > box[3] else 0)
    return dx if dx > dy else dy

cdef inline void spotter_box(const MaState *s, int q, uint16_t sp, int *box) noexcept nogil:
    """box: x0, y0, x1, y1 of the squares of q's spotters sp (sp not 0)."""
    cdef int g
    box[0] = box[1] = 1 << 20
    box[2] = box[3] = -(1 << 20)
    while sp:
        g = q * 16 + __builtin_ctz(sp)
        sp &= sp - 1
        if s.st[g].x < box[0]:
            box[0] = s.st[g].x
        if s.st[g].x > box[2]:
            box[2] = s.st[g].x
        if s.st[g].y < box[1]:
            box[1] = s.st[g].y
        if s.st[g].y > box[3]:
            box[3] = s.st[g].y

cdef inline uint16_t spotters(const MaState *s, int q) noexcept nogil:
    """Bit l: side q's slot l holds a live stand that is not a dummy (one that may spot)."""
    cdef uint16_t m = 0
    cdef int l
    for l in range(16):
        if alive(s, q * 16 + l) and not is_dummy(s, q * 16 + l):
            m |= <uint16_t>(1 << l)
    return m

cdef bint spotted_by(const MaState *s, int g, uint16_t sp, const int *box) noexcept nogil:
    """spotted(), the enemy's spotters(s, 1 - side_of(g)) given: spot_update finds
    them once for every marker (speed). box, if not NULL: x0, y0, x1, y1 of a box
    holding every spotter's square (spotter_box)."""
    cdef int q = 1 - side_of(g), e, d, r, tg = ter(s, s.st[g].x, s.st[g].y)
    cdef int conceal = 0 if (s.st[g].flags & F_FIRED) else T_CONCEAL[tg]
    if conceal and box != NULL and box_dist(box, s.st[g].x, s.st[g].y) > (conceal if conceal > 1 else 1):
        return 0                        # every spotter is too far: as the loop below finds (speed)
    while sp:
        e = q * 16 + __builtin_ctz(sp)
        sp &= sp - 1
        d = dist(s, e, g)
        if d <= 1:
            return 1
        if conceal and d > conceal:
            continue                    # r below is at most conceal: no need to find it (speed)
        r = sight_reach(s, e, g)       # the turn's sighting, +5" a level e stands above g (_board.pxi)
        if conceal and conceal < r:
            r = conceal
        if d <= r and los_from(s, e, g, 1):
            return 1
    return 0

cdef void spot_update(MaState *s) noexcept nogil:
    """After every action: every unspotted marker an enemy stand now spots is due to
    be shown (continuous spotting, design); what it is comes as a public chance
    outcome (N_SHOWN), so that a view follows the game exactly."""
    cdef int g, q
    cdef uint32_t todo
    cdef uint16_t sp[2]
    cdef int box[2][4]
    if s.hid == 0:
        return
    todo = s.hid & ~s.spot_due
    if todo == 0:
        return
    # speed: each side's spotters, and a box holding them, found once, not once per
    # marker; spotting only sets spot_due bits, which spotted_by does not read
    for q in range(2):
        sp[q] = spotters(s, q) if (todo >> (16 * (1 - q))) & 0xFFFF else 0
        if sp[q]:
            spotter_box(s, q, sp[q], box[q])
    while todo:
        g = __builtin_ctz(todo)
        todo &= todo - 1
        q = 1 - side_of(g)
        if sp[q] and spotted_by(s, g, sp[q], box[q]):
            s.spot_due |= <uint32_t>1 << g


# ----------------------------------------------------------------- markers under fire support
cdef inline void shell_reveal(MaState *s, int g) noexcept nogil:
    """An impact marker or an airstrike lands on stand g: if g is an unspotted marker it
    is shown before the attacks (design, the boxed game: the owner must say what is
    under fire; a dummy is removed, a real stand is attacked as it is). Where the
    markers are is public, so two truths behind one view show the same markers."""
    if is_hidden(s, g):
        s.spot_due |= <uint32_t>1 << g

cdef void shell_reveal_done(MaState *s) noexcept nogil:
    """After a shown marker: if it was a dummy under the impact or strike in hand,
    that attack has no stand left; go on to the next one."""
    cdef int b
    if s.phase == PH_ART and s.art_step == AR_HIT and s.art_seq < 8:
        b = seq_battery(s, s.art_seq)
        if hit_target(s, b, s.art_mk) < 0 and not find_hit(s, b, s.art_mk) and not art_bldg_from(s, b, 0):
            art_done(s)
    elif s.air_step == AS_CRT and air_target_at(s, s.air_sq) < 0:
        air_attacks_from(s, s.air_sq)


# ----------------------------------------------------------------- showing a marker
cdef inline int reveal_slot(const MaState *s) noexcept nogil:
    cdef int g
    for g in range(NSLOT):
        if (s.spot_due >> g) & 1:
            return g
    return -1

cdef inline int content_of(const MaState *s, int g) noexcept nogil:
    return MAXTYPES if is_dummy(s, g) else s.st[g].type

cdef int shown_outcomes(const MaState *s, ard_action *a, double *pr) noexcept nogil:
    """What the marker is: in the full state (and its owner's view) what is under it;
    in the enemy's view every content still under its side's markers, by count."""
    cdef int g = reveal_slot(s), h, c, n = 0, total = 0, i
    cdef int cnt[MAXTYPES + 1]
    if g < 0:
        return 0
    if not hidden_from_view(s, side_of(g)):
        a[0] = A_SHOWN + content_of(s, g)
        pr[0] = 1.0
        return 1
    memset(cnt, 0, sizeof(cnt))
    for h in range(side_of(g) * 16, side_of(g) * 16 + 16):
        if is_hidden(s, h):
            cnt[content_of(s, h)] += 1
            total += 1
    for c in range(MAXTYPES + 1):
        if cnt[c]:
            a[n] = A_SHOWN + c
            pr[n] = cnt[c] / <double>total
            n += 1
    return n

cdef void shown_apply(MaState *s, ard_action action) noexcept nogil:
    """The marker shows what it is: a stand stays, revealed; a dummy is removed. In the
    enemy's view the content is first swapped in from the marker that held it in the
    view's deal, and the markers left are dealt again canonically (observe() of the
    true state after the same event gives the same bytes)."""
    cdef int g = reveal_slot(s), c = action - A_SHOWN, h, q
    cdef uint32_t bit
    if g < 0:
        return
    q = side_of(g)
    s.spot_due &= ~(<uint32_t>1 << g)
    if hidden_from_view(s, q) and content_of(s, g) != c:
        for h in range(q * 16, q * 16 + 16):
            if h != g and is_hidden(s, h) and content_of(s, h) == c:
                set_content(s, h, content_of(s, g), q)
                set_content(s, g, c, q)
                break
    reveal(s, g)
    if hidden_from_view(s, q):
        deal_markers(s, q, NULL)
    shell_reveal_done(s)

cdef void set_content(MaState *s, int g, int c, int q) noexcept nogil:
    cdef uint32_t bit = <uint32_t>1 << g
    if c == MAXTYPES:
        s.st[g].type = SC_DUMMY_TYPE[s.scn][q]
        s.dummy |= bit
    else:
        s.st[g].type = <uint8_t>c
        s.dummy &= ~bit

cdef int show_actions(const MaState *s, int p, ard_action *out) noexcept nogil:
    """`show <marker>`: the owner shows a hidden marker of its own, when it is asked to
    act in the posture, fire or movement phase (design: a hidden stand must show itself
    before it is marked, fires or moves; a dummy may be shown too, and is removed)."""
    cdef int l, n = 0
    for l in range(16):
        if is_hidden(s, p * 16 + l) and not (s.spot_due >> (p * 16 + l)) & 1:
            out[n] = A_SHOW + l
            n += 1
    return n

cdef void show_apply(MaState *s, ard_action action) noexcept nogil:
    s.spot_due |= <uint32_t>1 << (s.to_move * 16 + action - A_SHOW)

cdef int show_to_string(const MaState *s, ard_action a, char *tmp, int p) noexcept nogil:
    cdef int n
    if a < A_SHOWN:
        n = put_text(tmp, 0, b"show ")
        return put_text(tmp, n, name_of(s, p * 16 + a - A_SHOW))
    n = put_text(tmp, 0, b"shown:")
    if a - A_SHOWN == MAXTYPES:
        return put_text(tmp, n, b"dummy")
    return put_text(tmp, n, TY_KEY[(a - A_SHOWN) % MAXTYPES])

cdef ard_action show_from_string(const MaState *s, const char *t, int n, int p) noexcept nogil:
    """show <marker>, shown:<type>, shown:dummy; -1 malformed, -2 not this notation."""
    cdef int g, i
    if n > 5 and word_is(t, 5, b"show "):
        g = find_name(s, t + 5, n - 5)
        return A_SHOW + (g & 15) if g >= 0 and side_of(g) == p else -1
    if n > 6 and word_is(t, 6, b"shown:"):
        if word_is(t + 6, n - 6, b"dummy"):
            return A_SHOWN + MAXTYPES
        for i in range(NTYPES):
            if word_is(t + 6, n - 6, TY_KEY[i]):
                return A_SHOWN + i
        return -1
    return -2


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
    if s.hid & ~SC_HIDMASK[s.scn] or s.dummy & ~s.hid or s.spot_due & ~s.hid:
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
                if (s.st[g].flags & ~F_ALIVE) or not (s.st[g].flags & F_ALIVE) or s.st[g].mp or s.st[g].steps \
                        or s.st[g].posture != P_FIRING:
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
