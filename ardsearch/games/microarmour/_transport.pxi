# Micro Armour engine: transport: loading and unloading, cargo sharing its carrier's fate,
# tank riders, armour brushing aside enemy transports (RULES.md, "Transport").
# Included by _engine.pyx (one module, split by concern). The other files call in through
# small hooks: occupant() skips cargo, can_fire / can_move / close combat leave cargo out,
# eliminate() and apply_result() hand the carrier's fate to its cargo.
# ----------------------------------------------------------------- tables
cdef void install_transport(int k, object sc):
    """SC_CARRY[k]: the vehicle each stand of scenario k starts aboard (its carried_by key)."""
    cdef int g, p, l
    for g in range(NSLOT):
        SC_CARRY[k][g] = NONE
    for p in range(2):
        for l, st in enumerate(sc["stands"][p]):
            if st.get("carried_by") is not None:
                SC_CARRY[k][p * 16 + l] = p * 16 + st["carried_by"]


cdef void transport_init(MaState *s, const MaParams *prm) noexcept nogil:
    """Hook from ma_init: the scenario's cargo aboard, on its carrier's square."""
    cdef int g, v
    s.tr_options = prm.tr_options & TR_ALL
    s.tr_to = NONE
    s.tr_loaded = 0
    s.tr_held = 0
    for g in range(NSLOT):
        s.tr_half[g] = NONE
        v = SC_CARRY[s.scn][g]
        s.carrier[g] = v if v != NONE and s.st[g].type != NONE and s.st[v].type != NONE else NONE
    for g in range(NSLOT):
        if s.carrier[g] != NONE:
            carry_along(s, s.carrier[g])


# ----------------------------------------------------------------- who may carry what
cdef inline bint carried(const MaState *s, int g) noexcept nogil:
    return s.carrier[g] != NONE

cdef inline bint is_equipment(const MaState *s, int g) noexcept nogil:
    """A weapons (equipment) stand: unarmoured and moved on foot (a towed gun)."""
    return TY_DEF[s.st[g].type] == D_UNARMOURED and TY_CLASS[s.st[g].type] == 2

cdef inline bint is_vehicle(const MaState *s, int g) noexcept nogil:
    return TY_CLASS[s.st[g].type] != 2

cdef inline bint is_transport(const MaState *s, int v) noexcept nogil:
    """A transport: a vehicle with a cargo capacity in its weapon data."""
    return TY_CARGO[s.st[v].type] > 0

cdef inline bint rider_tank(const MaState *s, int v) noexcept nogil:
    """Tank riders (optional rule, design): a tracked armoured vehicle without a cargo
    capacity carries one personnel stand on its hull."""
    return ((s.tr_options & TR_RIDERS) and TY_CARGO[s.st[v].type] == 0 and TY_DEF[s.st[v].type] == D_ARMOUR
            and TY_CLASS[s.st[v].type] == 1)

cdef int personnel_cap(const MaState *s, int v) noexcept nogil:
    if TY_CARGO[s.st[v].type] > 0:
        return TY_CARGO[s.st[v].type]
    return 1 if rider_tank(s, v) else 0

cdef int aboard(const MaState *s, int v, bint equipment) noexcept nogil:
    """Live stands of that kind (equipment or personnel) aboard v."""
    cdef int g, n = 0
    for g in range(side_of(v) * 16, side_of(v) * 16 + 16):
        if s.carrier[g] == v and alive(s, g) and is_equipment(s, g) == equipment:
            n += 1
    return n

cdef bint room_for(const MaState *s, int v, int c) noexcept nogil:
    """"A vehicle can carry one equipment stand and any number of personnel up to its
    cargo capacity": the capacity counts personnel stands, one towed equipment stand
    besides (transports only, not tank riders)."""
    if is_equipment(s, c):
        return is_transport(s, v) and aboard(s, v, 1) == 0
    if TY_DEF[s.st[c].type] != D_PERSONNEL:
        return 0
    return aboard(s, v, 0) < personnel_cap(s, v)

cdef inline int half_up(const MaState *s, int g) noexcept nogil:
    """50% of g's movement point allowance, rounded up, in half-MP."""
    return 2 * ((TY_MP[s.st[g].type] + 1) // 2)

cdef bint can_load(const MaState *s, int c, int v) noexcept nogil:
    """The mover c may climb aboard v: "both stands touching in movement posture", v has room,
    c has the MP loading costs it left (50% of its allowance for personnel, all of it for
    equipment), and v has not moved this phase (it pays its own share)."""
    if v == c or side_of(v) != side_of(c) or not alive(s, v) or carried(s, v) or carried(s, c):
        return 0
    if tr_busy(s, v) or tr_busy(s, c):
        return 0                        # a vehicle held for a two-turn load takes no other load (below)
    if off_table(s, v):
        return 0                        # not entered yet (_entry.pxi): nothing touches it
    if s.st[c].posture != P_MOVE or s.st[v].posture != P_MOVE or (s.st[v].flags & F_MOVED):
        return 0
    if not is_vehicle(s, v) or is_vehicle(s, c) or dist(s, c, v) != 1 or not room_for(s, v, c):
        return 0
    if not can_stop_on(s, c, s.st[c].x, s.st[c].y):
        return 0                        # not from a friend's square it is passing through
    if on_enemy_marker(s, c) or on_enemy_marker(s, v):
        return 0                        # design: no boarding into or out of a minefield (below)
    if is_equipment(s, c):
        return s.st[c].steps == 0 and s.st[c].mp >= 2 * TY_MP[s.st[c].type]
    return s.st[c].mp >= half_up(s, c)

cdef bint can_unload(const MaState *s, int c, int d) noexcept nogil:
    """Carried stand c may dismount to the square beside its carrier in direction d:
    it has not moved this phase and may stand there ("Dismounting needs no roll")."""
    cdef int v = s.carrier[c], x, y
    if v == NONE or not alive(s, c) or (s.st[c].flags & F_MOVED) or off_table(s, c):
        return 0                        # off the table, cargo stays aboard until its carrier enters
    if on_enemy_marker(s, v):
        return 0                        # design: it leaves the field with its carrier (below)
    x = s.st[v].x + DX[d]
    y = s.st[v].y + DY[d]
    return on_map(s, x, y) and move_cost(s, c, x, y) > 0 and occupant(s, x, y, c) < 0

cdef inline bint on_enemy_marker(const MaState *s, int g) noexcept nogil:
    """g stands on a minefield marker of its enemy still on the table (RULES.md "Transport
    and minefields", design): the digest makes every stand that leaves a marker pass a +3
    cohesion roll, and the marker is revealed "only then"; a stand boarding a vehicle from
    a marker, or dismounting from a carrier that stands on one, would leave it without
    that roll. So neither boards nor dismounts there: the cargo leaves the field with its
    carrier, whose roll and whose field attack it shares ("Cargo shares the carrier's ...
    combat results"); a stand on a marker may board once the marker is gone."""
    return mine_marker(s, s.st[g].x, s.st[g].y, side_of(g)) >= 0

cdef inline bint brushes_aside(const MaState *s, int g, int o) noexcept nogil:
    """"Armoured vehicles brush aside enemy transports": g passes o's square freely."""
    return (TY_DEF[s.st[g].type] == D_ARMOUR and is_vehicle(s, g) and side_of(o) != side_of(g)
            and is_transport(s, o))

cdef int load_paid(const MaState *s, int g) noexcept nogil:
    """Half-MP a vehicle that took personnel aboard this turn has already paid."""
    return half_up(s, g) if (s.tr_loaded >> g) & 1 else 0


# ----------------------------------------------------------------- the carrier's fate
cdef void carry_along(MaState *s, int v) noexcept nogil:
    """Cargo stays on its carrier's square, facing its way."""
    cdef int g
    for g in range(side_of(v) * 16, side_of(v) * 16 + 16):
        if s.carrier[g] == v:
            s.st[g].x = s.st[v].x
            s.st[g].y = s.st[v].y
            s.st[g].facing = s.st[v].facing

cdef void cargo_lost(MaState *s, int g) noexcept nogil:
    """Hook from eliminate(): a dead stand leaves its carrier, and its cargo dies with it
    ("Cargo shares the carrier's ... combat results"); a two-turn load it was part of is off."""
    cdef int c
    half_load_off(s, g)
    s.carrier[g] = NONE
    s.tr_loaded &= ~(<uint32_t>1 << g)
    for c in range(side_of(g) * 16, side_of(g) * 16 + 16):
        if s.carrier[c] == g:
            s.carrier[c] = NONE
            if alive(s, c):
                eliminate(s, c)

cdef void share_result(MaState *s, int t, int res) noexcept nogil:
    """Hook from apply_result(): a result on a live carrier lands on its cargo too."""
    cdef int c
    if res <= 0 or res >= 4 or not alive(s, t):
        return
    half_load_off(s, t)                 # an S, (S) or D on either stand breaks a two-turn load off
    for c in range(side_of(t) * 16, side_of(t) * 16 + 16):
        if s.carrier[c] == t and alive(s, c):
            apply_result(s, c, res)


# ----------------------------------------------------------------- two-turn loads
# Digest: "loads over 10 points take two turns" (RULES.md "Transport", two-turn loads; load
# points in data/loads.toml). A passed loading roll for such a stand starts the load: both
# stands pay the first turn's costs as for any load, the stand is committed to it (tr_half)
# on its own square and its carrier is held (tr_held); neither moves or takes another load.
# At the start of the next turn's movement phase the load completes, and both pay that
# turn's costs again, if both are alive and still touching in movement posture; else it is
# off. An S, (S), D or E on either breaks it off at once.
cdef inline bint tr_busy(const MaState *s, int g) noexcept nogil:
    """g is part of a two-turn load: the stand half-loaded, or its held carrier."""
    return s.tr_half[g] != NONE or (s.tr_held >> g) & 1

cdef void half_load_off(MaState *s, int g) noexcept nogil:
    """The two-turn load g is part of (as the stand or the carrier) is broken off."""
    cdef int c
    if s.tr_half[g] != NONE:
        s.tr_held &= ~(<uint32_t>1 << s.tr_half[g])
        s.tr_half[g] = NONE
    if (s.tr_held >> g) & 1:
        s.tr_held &= ~(<uint32_t>1 << g)
        for c in range(side_of(g) * 16, side_of(g) * 16 + 16):
            if s.tr_half[c] == g:
                s.tr_half[c] = NONE

cdef void half_loads_complete(MaState *s) noexcept nogil:
    """Hook from skip_dead_orders(), as the movement phase opens: each two-turn load begun
    last turn completes (the stand aboard, both stands' move spent as a loading turn's) or,
    its stands no longer alive, touching and in movement posture, is off."""
    cdef int c, v
    if s.tr_held == 0:
        return
    for c in range(NSLOT):
        v = s.tr_half[c]
        if v == NONE:
            continue
        s.tr_half[c] = NONE
        if (alive(s, c) and alive(s, v) and not carried(s, c) and dist(s, c, v) == 1 and s.st[c].posture == P_MOVE
                and s.st[v].posture == P_MOVE and room_for(s, v, c)):
            s.carrier[c] = v
            carry_along(s, v)
            s.st[c].flags |= F_MOVED    # its move this turn is the load
            if is_equipment(s, c):
                s.st[v].flags |= F_MOVED    # all MP for weapons, this turn too
            else:
                s.tr_loaded |= <uint32_t>1 << v
    s.tr_held = 0


# ----------------------------------------------------------------- legal actions, apply, chance
cdef int transport_legal(const MaState *s, int k, int p, ard_action *out) noexcept nogil:
    """Hook from ma_legal_actions at N_MOVE (dismounts) and N_STEP (the mover boards a
    vehicle, or the moving carrier drops its cargo off)."""
    cdef int n = 0, l, c, d, m = s.mover
    if k == N_STEP:
        if TY_DEF[s.st[m].type] == D_PERSONNEL or is_equipment(s, m):
            for l in range(16):
                if can_load(s, m, p * 16 + l):
                    out[n] = A_LOAD + l
                    n += 1
    if k == N_STEP and not can_stop_on(s, m, s.st[m].x, s.st[m].y):
        return n                        # passing through: a dismount could take its only way off
    for l in range(16):
        c = p * 16 + l
        if s.carrier[c] == NONE or (k == N_STEP and s.carrier[c] != m):
            continue
        for d in range(8):
            if can_unload(s, c, d):
                out[n] = A_UNLOAD + l * 8 + d
                n += 1
    return n

cdef void transport_apply(MaState *s, int k, ard_action action) noexcept nogil:
    cdef int p = s.to_move, c, d, v
    if action < A_UNLOAD:
        s.tr_to = p * 16 + action - A_LOAD
        s.mv_sub = M_LOADROLL
        return
    c = p * 16 + (action - A_UNLOAD) // 8
    d = (action - A_UNLOAD) % 8
    v = s.carrier[c]
    s.carrier[c] = NONE
    s.st[c].x = s.st[v].x + DX[d]
    s.st[c].y = s.st[v].y + DY[d]
    s.st[c].facing = d
    s.st[c].posture = P_MOVE            # it dismounted as its move
    s.st[c].flags |= F_MOVED
    s.st[c].mp = 0
    s.st[c].steps = 0
    if k == N_MOVE:
        alternate(s)                    # a dismount is that stand's move: the other player acts

cdef int load_outcomes(const MaState *s, ard_action *a, double *pr) noexcept nogil:
    """Loading "needs ... a cohesion roll": the boarding stand's own modifiers."""
    return two_outcomes(p_pass(coh_eff(s, side_of(s.mover)), cohesion_mods(s, s.mover)), a, pr)

cdef void load_result(MaState *s, ard_action action) noexcept nogil:
    cdef int c = s.mover, v = s.tr_to
    s.tr_to = NONE
    if action == A_OK and v != NONE and alive(s, v) and alive(s, c):
        if TY_LOAD2[s.st[c].type]:
            s.tr_half[c] = v            # "loads over 10 points take two turns": aboard next turn
            s.tr_held |= <uint32_t>1 << v
        else:
            s.carrier[c] = v
            carry_along(s, v)
        if is_equipment(s, c):
            s.st[v].flags |= F_MOVED    # loading a weapon costs all MP
        else:
            s.tr_loaded |= <uint32_t>1 << v
    end_move(s)                         # aboard, or the failed attempt ends its move


# ----------------------------------------------------------------- notation
cdef int transport_to_string(const MaState *s, ard_action a, char *tmp, int p) noexcept nogil:
    cdef int n
    if a < A_UNLOAD:
        n = put_text(tmp, 0, b"load ")
        return put_text(tmp, n, name_of(s, p * 16 + a - A_LOAD))
    n = put_text(tmp, 0, b"unload ")
    n = put_text(tmp, n, name_of(s, p * 16 + (a - A_UNLOAD) // 8))
    n = put_text(tmp, n, b" ")
    return put_text(tmp, n, DIR_NAMES[(a - A_UNLOAD) % 8])

cdef ard_action transport_from_string(const MaState *s, const char *t, int n, int sp, int p) noexcept nogil:
    """`load <vehicle>` or `unload <cargo> <direction>` (t[0:sp] is the verb)."""
    cdef int g, i, d
    if t[0] == c'l':
        g = find_name(s, t + sp + 1, n - sp - 1)
        if g < 0 or side_of(g) != p:
            return -1
        return A_LOAD + (g & 15)
    i = sp + 1
    while i < n and t[i] != c' ':
        i += 1
    g = find_name(s, t + sp + 1, i - sp - 1)
    if g < 0 or side_of(g) != p or i >= n:
        return -1
    d = find_dir(t + i + 1, n - i - 1)
    if d < 0:
        return -1
    return A_UNLOAD + (g & 15) * 8 + d


# ----------------------------------------------------------------- validate
cdef int transport_validate(const MaState *s, char *msg, int cap) noexcept nogil:
    """0, or 1 with a message: every carrier link joins a live stand to a live friendly
    vehicle on its square that is not itself carried, within its capacity."""
    cdef int g, v
    if s.tr_options & ~TR_ALL or s.reserved5 != 0:
        return fail(msg, cap, b"transport options or reserved bits set: rebuild the state with from_dict")
    if s.tr_to != NONE and (s.tr_to >= NSLOT or s.mv_sub != M_LOADROLL or s.mover >= NSLOT
                            or not alive(s, s.tr_to) or not alive(s, s.mover)):
        return fail(msg, cap, b"a loading roll for no live vehicle: tr_to must name one while the mover rolls to load")
    if s.tr_to != NONE and (side_of(s.tr_to) != side_of(s.mover) or not is_vehicle(s, s.tr_to) or carried(s, s.tr_to)
                            or carried(s, s.mover) or is_vehicle(s, s.mover) or not room_for(s, s.tr_to, s.mover)
                            or dist(s, s.tr_to, s.mover) != 1):
        return fail(msg, cap, b"a loading roll for a vehicle the mover may not board (side, room, touching)")
    if s.tr_to == NONE and s.phase == PH_MOVE and s.mover != NONE and s.mv_sub == M_LOADROLL:
        return fail(msg, cap, b"a loading roll without its vehicle (tr_to)")
    if half_load_validate(s, msg, cap):
        return 1
    for g in range(NSLOT):
        if (s.tr_loaded >> g) & 1 and not (alive(s, g) and is_vehicle(s, g)):
            return fail(msg, cap, b"tr_loaded marks a stand that is not a live vehicle")
        v = s.carrier[g]
        if v == NONE:
            continue
        if v >= NSLOT:
            return fail(msg, cap, b"a carrier link to no stand slot (carrier must be 0..31 or NONE)")
        if v == g:
            return fail(msg, cap, b"a stand carried by itself")
        if not alive(s, g) or not alive(s, v):
            return fail(msg, cap, b"a carrier link with a dead or empty stand at either end (clear it)")
        if side_of(v) != side_of(g):
            return fail(msg, cap, b"a stand carried by an enemy vehicle")
        if s.carrier[v] != NONE:
            return fail(msg, cap, b"a carrier that is itself carried (a chain or cycle of carrier links)")
        if not is_vehicle(s, v) or is_vehicle(s, g) or not room_for_counted(s, v):
            return fail(msg, cap, b"cargo beyond its carrier's capacity (or a vehicle as cargo)")
        if s.st[g].x != s.st[v].x or s.st[g].y != s.st[v].y:
            return fail(msg, cap, b"cargo off its carrier's square")
        if g == s.mover:
            return fail(msg, cap, b"a carried stand moving on its own")
        if is_hidden(s, g) or is_hidden(s, v):
            return fail(msg, cap, b"a hidden marker carried or carrying (a marker stands for one stand: "
                        b"clear the carrier link or show the marker)")
    return 0

cdef int half_load_validate(const MaState *s, char *msg, int cap) noexcept nogil:
    """0, or 1 with a message: each two-turn load joins a live stand whose load takes two turns
    to a live friendly vehicle touching it, with room for it, neither carried nor hidden, one load
    per vehicle; tr_held marks exactly their vehicles."""
    cdef int c, v
    cdef uint32_t held = 0
    for c in range(NSLOT):
        v = s.tr_half[c]
        if v == NONE:
            continue
        if v >= NSLOT or v == c:
            return fail(msg, cap, b"a two-turn load onto no stand slot (tr_half must be 0..31 or NONE, not itself)")
        if not alive(s, c) or not alive(s, v) or side_of(v) != side_of(c):
            return fail(msg, cap, b"a two-turn load with a dead, empty or enemy stand at either end (clear it)")
        if not is_vehicle(s, v) or is_vehicle(s, c) or not TY_LOAD2[s.st[c].type]:
            return fail(msg, cap, b"a two-turn load of a stand whose load is not over 10 points, or onto a non-vehicle")
        if carried(s, c) or carried(s, v) or dist(s, c, v) != 1 or not room_for(s, v, c):
            return fail(msg, cap, b"a two-turn load of stands not touching, carried, or without room")
        if is_hidden(s, c) or is_hidden(s, v):
            return fail(msg, cap, b"a two-turn load with a hidden marker (show it or clear the load)")
        if (held >> v) & 1:
            return fail(msg, cap, b"two two-turn loads onto one vehicle (it is held for one)")
        held |= <uint32_t>1 << v
    if held != s.tr_held:
        return fail(msg, cap, b"tr_held does not mark exactly the vehicles of the two-turn loads (tr_half)")
    return 0

cdef bint room_for_counted(const MaState *s, int v) noexcept nogil:
    """v's cargo fits: personnel within its capacity, at most one equipment stand (transports)."""
    cdef int e = aboard(s, v, 1), n = aboard(s, v, 0), g
    for g in range(side_of(v) * 16, side_of(v) * 16 + 16):
        if s.carrier[g] == v and not is_equipment(s, g) and TY_DEF[s.st[g].type] != D_PERSONNEL:
            return 0
    return n <= personnel_cap(s, v) and (e == 0 or (e == 1 and is_transport(s, v)))
