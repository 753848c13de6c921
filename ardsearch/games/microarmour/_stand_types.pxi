# Micro Armour engine: special stand types (RULES.md, "Special stand types"): horse cavalry
# mounting and dismounting, bicycle / ski / mountain troops and boats (per-type terrain
# costs), flame-throwing vehicles (the hit stand's cohesion roll and retreat).
# Included by _engine.pyx after _tables.pxi; the other files call in through small hooks.
# ----------------------------------------------------------------- tables (filled by install)
cdef enum:
    TC_NONE = 255       # TY_TCOST: no override, the move class's cost applies
    FL_NONE = 0         # fl_step: no flame check
    FL_ROLL = 1         # chance: the flamed stand's cohesion roll
    FL_RETREAT = 2      # its owner picks the 1" retreat away from the flame vehicle

cdef uint8_t TY_TCOST[MAXTYPES][MAXTERRAIN]    # half-MP per inch replacing the class cost, TC_NONE: none
cdef uint8_t TY_FLAME[MAXTYPES]                # flame-throwing vehicle
cdef uint8_t TY_BOAT[MAXTYPES]                 # boat: water only (deployment=close leaves it in place)
cdef uint8_t TY_MOUNT_MP[MAXTYPES]             # MP on horseback (0: no horses)
cdef uint8_t TY_MOUNT_COST[MAXTYPES]           # MP to mount or dismount
cdef uint32_t SC_MOUNTED[MAXSCN]               # bit g: slot g starts mounted


cdef install_unit_types(charts, weapons):
    """The special stand type codes of weapons.toml (validated by _data_units.py)."""
    names = [t["name"] for t in charts["terrain"]]
    for i, w in enumerate(weapons):
        for tr in range(MAXTERRAIN):
            TY_TCOST[i][tr] = TC_NONE
        for name, c in w["terrain_cost"].items():
            TY_TCOST[i][names.index(name)] = c
        TY_FLAME[i] = w["flame"]
        TY_BOAT[i] = w["boat"]
        TY_MOUNT_MP[i] = w["mounted_mp"]
        TY_MOUNT_COST[i] = w["mount_cost"]


cdef install_unit_scenario(int k, sc):
    SC_MOUNTED[k] = 0
    for p in range(2):
        for l, st in enumerate(sc["stands"][p]):
            if st["mounted"]:
                SC_MOUNTED[k] |= <uint32_t>1 << (p * 16 + l)


cdef void units_init(MaState *s) noexcept nogil:
    """Hook (ma_init): who starts on horseback; no flame check due."""
    s.mounted = SC_MOUNTED[s.scn]
    s.fl_step = FL_NONE
    s.fl_target = NONE
    s.fl_src = NONE
    s.un_reserved = 0


# ----------------------------------------------------------------- movement: terrain costs, horses
cdef inline int class_cost(const MaState *s, int g, int tr) noexcept nogil:
    """Half-MP per inch of terrain tr for stand g: its type's own cost (bicycle, ski,
    mountain troops, boats) or its move class's."""
    cdef int ty = s.st[g].type, c = TY_TCOST[ty][tr]
    return T_COST[tr][TY_CLASS[ty]] if c == TC_NONE else c

cdef int type_square_cost(const MaState *s, int g, int x, int y) noexcept nogil:
    """square_cost (_buildings.pxi) with the type's own terrain costs; rubble keeps its own."""
    cdef int ty = s.st[g].type, tr = ter(s, x, y), a
    if TY_TCOST[ty][tr] == TC_NONE:
        return square_cost(s, x, y, TY_CLASS[ty])
    a = building_at(s, x, y)
    if a >= 0 and is_rubble(s, a):
        return RUB_COST[TY_CLASS[ty]]
    return TY_TCOST[ty][tr]

cdef inline bint is_mounted(const MaState *s, int g) noexcept nogil:
    return (s.mounted >> g) & 1

cdef int move_allowance(const MaState *s, int g) noexcept nogil:
    """Half-MP a stand allowed to move starts with: its MP (mounted: its horses' MP),
    halved in fire/move posture."""
    cdef int mp = TY_MOUNT_MP[s.st[g].type] if is_mounted(s, g) else TY_MP[s.st[g].type]
    return 2 * mp if s.st[g].posture == P_MOVE else 2 * (mp // 2)

cdef bint can_mount(const MaState *s, int g) noexcept nogil:
    """A cavalry mover may mount or dismount before its first step, once: only while it
    still has its whole allowance (a change costs MP, so it cannot change back)."""
    return (TY_MOUNT_MP[s.st[g].type] > 0 and s.st[g].steps == 0
            and s.st[g].mp == move_allowance(s, g))

cdef void do_mount(MaState *s, int g) noexcept nogil:
    cdef int mp
    s.mounted ^= <uint32_t>1 << g
    mp = move_allowance(s, g) - 2 * TY_MOUNT_COST[s.st[g].type]
    s.st[g].mp = mp if mp > 0 else 0


# ----------------------------------------------------------------- flame-throwing vehicles
cdef void flame_hit(MaState *s, int f, int t, int kind, int res) noexcept nogil:
    """Hook (the CRT result of firer f on t): a flame vehicle's hit makes t roll cohesion."""
    if (TY_FLAME[s.st[f].type] and res >= 1 and alive(s, t) and s.fl_step == FL_NONE
            and (kind == K_STANDARD or kind == K_OPPORTUNITY or kind == K_COVERING)):
        s.fl_step = FL_ROLL
        s.fl_target = t
        s.fl_src = f

cdef inline void flame_done(MaState *s) noexcept nogil:
    s.fl_step = FL_NONE
    s.fl_target = NONE
    s.fl_src = NONE

cdef int flame_outcomes(const MaState *s, ard_action *a, double *pr) noexcept nogil:
    cdef int t = s.fl_target
    return two_outcomes(p_pass(coh_eff(s, side_of(t)), cohesion_mods(s, t)), a, pr)

cdef void flame_roll(MaState *s, ard_action action) noexcept nogil:
    cdef int t = s.fl_target
    if action == A_OK:
        flame_done(s)
    elif any_retreat(s, t, s.fl_src):
        s.fl_step = FL_RETREAT
    else:
        flame_done(s)
        eliminate(s, t)                       # cannot fall back: it surrenders

cdef int flame_legal(const MaState *s, ard_action *out) noexcept nogil:
    cdef int d, n = 0
    for d in range(8):
        if retreat_ok(s, s.fl_target, s.fl_src, d):
            out[n] = A_RETREAT + d
            n += 1
    return n


# ----------------------------------------------------------------- hooks into the vtable
cdef inline int units_node(const MaState *s) noexcept nogil:
    """Hook (node()): a flame check interrupts whatever the state waits for."""
    return N_FLAME if s.fl_step == FL_ROLL else N_FLRET

cdef int units_legal_step(const MaState *s, int g, ard_action *out, int n) noexcept nogil:
    """Hook (N_STEP legal moves): mount / dismount."""
    if can_mount(s, g):
        out[n] = A_MOUNT + (1 if is_mounted(s, g) else 0)
        n += 1
    return n

cdef bint units_apply(MaState *s, int k, ard_action action) noexcept nogil:
    """Hook (ma_apply): this family's nodes and actions; 1 if handled."""
    cdef int t
    if groups_apply(s, k, action):          # _groups.pxi
        return 1
    if k == N_FLAME:
        flame_roll(s, action)
        return 1
    if k == N_FLRET:
        t = s.fl_target
        s.st[t].x += DX[action - A_RETREAT]
        s.st[t].y += DY[action - A_RETREAT]
        flame_done(s)
        return 1
    if A_MOUNT <= action < A_MOUNT + 2:
        do_mount(s, s.mover)
        return 1
    return 0

cdef int units_to_string(const MaState *s, ard_action a, char *tmp) noexcept nogil:
    return put_text(tmp, 0, b"mount" if a == A_MOUNT else b"dismount")

cdef int units_from_string(const MaState *s, const char *t, int n) noexcept nogil:
    """Hook (string_to_action): -2 if the text is not this family's."""
    if word_is(t, n, b"mount"):
        return A_MOUNT
    if word_is(t, n, b"dismount"):
        return A_MOUNT + 1
    return -2

cdef bint units_validate(const MaState *s) noexcept nogil:
    """1 if this family's fields are corrupt: horses on a stand without them, a flame
    check on a stand that is not alive or not hit by an enemy flame vehicle."""
    cdef int g, t = s.fl_target, f = s.fl_src
    if s.un_reserved != 0 or s.fl_step > FL_RETREAT:
        return 1
    for g in range(NSLOT):
        if (s.mounted >> g) & 1 and (s.st[g].type == NONE or s.st[g].type >= NTYPES
                                     or TY_MOUNT_MP[s.st[g].type] == 0):
            return 1
    if s.fl_step == FL_NONE:
        return t != NONE or f != NONE
    if t >= NSLOT or f >= NSLOT or not alive(s, t) or s.st[f].type == NONE or s.st[f].type >= NTYPES:
        return 1
    if not TY_FLAME[s.st[f].type] or side_of(t) == side_of(f):
        return 1
    return s.fl_step == FL_RETREAT and not any_retreat(s, t, f)
