# Micro Armour engine: paratroop drops, the outside view (RULES.md "Paratroops",
# "Hidden information", "Notation", "State schema"): the opponent's drop zone is
# hidden until the drop turn opens (like a bomb plot, _air_view.pxi), the notation
# `drop x,y` and `scatter:<inches>`, validation and the `drop` key of the
# structured state. The rules are in _drop.pxi. Included by _engine.pyx after _pyside.pxi.
DROP_STEPS = ("none", "plot", "arrive", "cohesion", "direction", "distance_on_target", "distance_jump", "landing",
              "reveal", "roll")
JUMP_NAMES = ("on_target", "hot", "glider", "glider_snafu")   # JUMP_*, as _data_drop.JUMPS
JUMP_PARAM = ("scenario",) + JUMP_NAMES                       # the `jump` parameter


cdef int _pack_jump(vals, MaParams *prm) except -1:
    """The `jump` parameter ("scenario": the file's): only for a scenario with a landing group."""
    j = vals.get("jump", "scenario")
    if j not in JUMP_PARAM:
        raise ValueError(f"parameter jump={j!r}: expected one of {', '.join(JUMP_PARAM)}")
    prm.jump = NONE if j == "scenario" else JUMP_NAMES.index(j)
    if j != "scenario" and DROP_TURN[prm.scn] == 0:
        raise ValueError(f"parameter jump={j}: the {vals['scenario']} scenario has no [[drop]] landing group "
                         f"(use scenario=airdrop, or leave jump=scenario)")
    return 0


# ----------------------------------------------------------------- hook: hidden information
cdef void drop_observe(MaState *v, int player) noexcept nogil:
    """The opponent's plotted drop zone reads PLOT_HIDDEN until the drop turn
    opens (the landings themselves are public: the aircraft are overhead)."""
    if (DROP_TURN[v.scn] and drop_side(v) != player and (v.drop_step == DS_NONE or v.drop_step == DS_REVEAL)
            and v.drop_x < PLOT_HIDDEN):
        v.drop_x = PLOT_HIDDEN
        v.drop_y = PLOT_HIDDEN

cdef void drop_determinize(MaState *s, int player, ard_rng *rng) noexcept nogil:
    """A hidden drop zone becomes one of the legal clear block centres, all equally likely."""
    cdef int b, n = 0, k
    if s.drop_x != PLOT_HIDDEN:
        return
    for b in range(BLOCK_W * 10):
        n += DROP_OK[s.scn][b]
    k = <int>ard_rng_below(rng, n) if n > 0 else 0
    for b in range(BLOCK_W * 10):
        if DROP_OK[s.scn][b]:
            if k == 0:
                s.drop_x = 1 + 3 * (b % BLOCK_W)
                s.drop_y = 1 + 3 * (b // BLOCK_W)
                return
            k -= 1


# ----------------------------------------------------------------- hook: validation
cdef int drop_validate(const MaState *s, char *msg, int msglen) noexcept nogil:
    """The drop fields: waiting stands only of the landing group, not alive, before or at
    the drop turn; a zone only as a legal block centre (or hidden in the opponent's view)."""
    cdef int g, b
    if s.drop_reserved:
        return fail(msg, msglen, b"drop bookkeeping bytes that are always 0 are set")
    if s.drop_jump >= NJUMP or (DROP_TURN[s.scn] == 0 and s.drop_jump):
        return fail(msg, msglen, b"drop jump conditions out of range, or set with no landing group")
    if hq_delay_validate(s, msg, msglen):
        return 1
    if s.drop_wait & ~SC_DROP[s.scn]:
        return fail(msg, msglen, b"a stand waiting to drop that is not in the scenario's landing group")
    for g in range(NSLOT):
        if (s.drop_wait >> g) & 1 and s.st[g].flags != 0:
            return fail(msg, msglen, b"a stand waiting to drop is alive or marked on the table")
    if s.drop_wait and (s.turn > DROP_TURN[s.scn] or (s.turn == DROP_TURN[s.scn] and s.phase != PH_INIT)):
        return fail(msg, msglen, b"paratroops still waiting after their drop turn's landings")
    # a group that can no longer drop: its turn has come with no landing under way, or the
    # joint plot phase before it passed with no zone plotted
    if s.drop_wait and s.phase != PH_OVER and ((s.turn == DROP_TURN[s.scn] and s.drop_step == DS_NONE) or
            (s.turn + 1 == DROP_TURN[s.scn] and s.drop_x == PLOT_NONE and s.drop_step != DS_PLOT
             and (s.phase == PH_ORDERS or s.phase == PH_MOVE or s.phase == PH_RECOVER))):
        return fail(msg, msglen, b"paratroops waiting whose drop can no longer happen (no landing or no zone plotted)")
    if s.drop_x == PLOT_HIDDEN or s.drop_y == PLOT_HIDDEN:
        if s.drop_x != s.drop_y or s.viewer < 0 or s.viewer == drop_side(s):
            return fail(msg, msglen, b"a hidden drop zone outside the opponent's view")
    elif s.drop_x != PLOT_NONE or s.drop_y != PLOT_NONE:
        b = (s.drop_y // 3) * BLOCK_W + s.drop_x // 3
        if s.drop_x % 3 != 1 or s.drop_y % 3 != 1 or s.drop_x >= 3 * BLOCK_W or not drop_ok_block(s, b):
            return fail(msg, msglen, b"a drop zone that is not the centre of a clear 3-inch block")
        if ((s.drop_wait == 0 and s.drop_step != DS_LAND and s.drop_step != DS_ROLL)     # the last lander's rolls
                or s.turn + 1 < DROP_TURN[s.scn]):
            return fail(msg, msglen, b"a drop zone with no paratroops waiting or plotted too early")
    if s.drop_step == DS_NONE:
        if s.drop_cur != NONE or s.drop_dir:
            return fail(msg, msglen, b"drop bookkeeping set outside a drop")
        return 0
    if s.drop_step > DS_ROLL or s.drop_dir > 7:
        return fail(msg, msglen, b"drop step or scatter direction out of range")
    if s.drop_step == DS_PLOT:
        if s.phase != PH_PLOT or s.drop_cur != NONE or s.drop_x != PLOT_NONE or s.drop_wait == 0 \
                or s.turn + 1 != DROP_TURN[s.scn]:
            return fail(msg, msglen, b"a drop zone plot outside the joint plot phase before the drop turn")
        return 0
    if s.drop_step == DS_REVEAL:
        if (s.turn != DROP_TURN[s.scn] or s.phase != PH_INIT or s.drop_cur != NONE or s.drop_dir
                or s.drop_wait == 0 or s.drop_x == PLOT_NONE):
            return fail(msg, msglen, b"a drop zone revealed outside the drop turn's opening, or with nothing to drop")
        return 0
    if s.turn != DROP_TURN[s.scn] or s.phase != PH_INIT or s.drop_cur >= NSLOT or s.drop_x >= PLOT_HIDDEN:
        return fail(msg, msglen, b"a landing outside the drop turn's opening, or with no stand or zone")
    if s.drop_step == DS_LAND or s.drop_step == DS_ROLL:
        if (s.drop_wait >> s.drop_cur) & 1 or not alive(s, s.drop_cur) or not (SC_DROP[s.scn] >> s.drop_cur) & 1:
            return fail(msg, msglen, b"a landing roll for a stand that has not landed")
        if s.drop_step == DS_ROLL and not drop_glider(s):
            return fail(msg, msglen, b"a glider's roll forward in a parachute drop")
    elif not (s.drop_wait >> s.drop_cur) & 1:
        return fail(msg, msglen, b"a landing roll for a stand that is not waiting to drop")
    if s.drop_step == DS_DIR and s.drop_dir != DS_DIST_OT and s.drop_dir != DS_DIST_JUMP:
        return fail(msg, msglen, b"a scatter direction roll that does not know its distance die")
    return 0


cdef int hq_delay_validate(const MaState *s, char *msg, int msglen) noexcept nogil:
    """A delay only for the landing group's HQ, lost (not alive, not waiting), its post counted lost."""
    cdef int g = DROP_HQ[s.scn]
    if s.hqd_left == 0:
        return 0
    if s.hqd_left > HQD_ROLL or g >= NSLOT:
        return fail(msg, msglen, b"a paratroop HQ delay out of range, or with no HQ in the landing group")
    if alive(s, g) or (s.drop_wait >> g) & 1 or s.hq_lost[side_of(g)] == 0:
        return fail(msg, msglen, b"a paratroop HQ delay while that HQ is alive or waiting, or no HQ post lost")
    return 0


# ----------------------------------------------------------------- hook: notation
cdef int drop_to_string(ard_action a, char *tmp) noexcept nogil:
    """drop x,y (the zone plot), scatter:<inches>, glide:<inches> and hq_delay:<turns>."""
    cdef int n, b
    if a >= A_HQDELAY:
        return put_int(tmp, put_text(tmp, 0, b"hq_delay:"), a - A_HQDELAY)
    if a >= A_GLIDE:
        return put_int(tmp, put_text(tmp, 0, b"glide:"), a - A_GLIDE)
    if a < A_SCATTER:
        b = a - A_DROP_PLOT
        n = put_text(tmp, 0, b"drop ")
        n = put_int(tmp, n, 1 + 3 * (b % BLOCK_W))
        n = put_text(tmp, n, b",")
        return put_int(tmp, n, 1 + 3 * (b // BLOCK_W))
    n = put_text(tmp, 0, b"scatter:")
    return put_int(tmp, n, a - A_SCATTER)

cdef ard_action drop_from_string(const char *t, int n) noexcept nogil:
    """-1 for malformed drop notation, -2 for text that is not drop notation."""
    cdef int v, x, y
    if n > 9 and word_is(t, 9, b"hq_delay:"):
        return A_HQDELAY + v if parse_num(t + 9, n - 9, &v) and v <= 4 else -1
    if n > 6 and word_is(t, 6, b"glide:"):
        return A_GLIDE + v if parse_num(t + 6, n - 6, &v) and v <= 4 else -1
    if n > 8 and word_is(t, 8, b"scatter:"):
        return A_SCATTER + v if parse_num(t + 8, n - 8, &v) and v <= MAX_SCATTER else -1
    if n > 5 and word_is(t, 5, b"drop "):
        if not parse_xy(t + 5, n - 5, &x, &y) or x % 3 != 1 or y % 3 != 1 or x >= WMAX or y >= HMAX:
            return -1
        return A_DROP_PLOT + (y // 3) * BLOCK_W + x // 3
    return -2


# ----------------------------------------------------------------- the structured state
cdef object _drop_dict(const MaState *s):
    """The `drop` key: None in a scenario without a landing group."""
    if DROP_TURN[s.scn] == 0:
        return None
    zone = (None if s.drop_x == PLOT_NONE else "hidden" if s.drop_x == PLOT_HIDDEN
            else [s.drop_x, s.drop_y])
    return {"side": SIDE_KEYS[DROP_SIDE[s.scn]], "turn": DROP_TURN[s.scn], "jump": JUMP_NAMES[s.drop_jump % NJUMP],
            "modifier": DROP_MOD[s.scn], "group": [_IDS[g] for g in range(NSLOT) if (SC_DROP[s.scn] >> g) & 1],
            "waiting": [_IDS[g] for g in range(NSLOT) if (s.drop_wait >> g) & 1], "zone": zone,
            "step": DROP_STEPS[s.drop_step % 10], "stand": _slot_id(s.drop_cur) if s.drop_cur != NONE else None,
            "direction": DIRS[s.drop_dir % 8] if s.drop_step != DS_DIR else DROP_STEPS[s.drop_dir % 8],
            "hq": _slot_id(DROP_HQ[s.scn]) if DROP_HQ[s.scn] != NONE else None,
            "hq_delay": "roll" if s.hqd_left == HQD_ROLL else s.hqd_left}


cdef int _drop_from(d, MaState *s) except -1:
    """The `drop` key back into s (after init, whose default is the group waiting, no zone)."""
    dr = d.get("drop")
    if dr is None or DROP_TURN[s.scn] == 0:
        return 0
    if not isinstance(dr, dict):
        raise ValueError("drop: expected a table (waiting, zone, step, stand, direction)")
    s.drop_jump = _choice(dr.get("jump", JUMP_NAMES[s.drop_jump % NJUMP]), JUMP_NAMES, "drop.jump")
    hd = dr.get("hq_delay", 0)
    if hd == "roll":
        s.hqd_left = HQD_ROLL
    elif DROP_HQ[s.scn] == NONE and hd != 0:
        raise ValueError(f"drop.hq_delay={hd!r}: the landing group has no HQ (expected 0)")
    else:
        s.hqd_left = _int_in(hd, 0, 4, "drop.hq_delay")
    s.drop_wait = 0
    for i, v in enumerate(dr.get("waiting", [])):
        g = _stand_slot(v, f"drop.waiting[{i}]")
        if not (SC_DROP[s.scn] >> g) & 1:
            raise ValueError(f"drop.waiting[{i}]={v!r}: expected a stand of the landing group")
        s.drop_wait |= <uint32_t>1 << g
    z = dr.get("zone")
    if z is None:
        s.drop_x = s.drop_y = PLOT_NONE
    elif z == "hidden":
        s.drop_x = s.drop_y = PLOT_HIDDEN
    else:
        if not isinstance(z, list) or len(z) != 2:
            raise ValueError(f"drop.zone={z!r}: expected [x, y], \"hidden\" or null")
        s.drop_x = _int_in(z[0], 0, SC_W[s.scn] - 1, "drop.zone[0]")
        s.drop_y = _int_in(z[1], 0, SC_H[s.scn] - 1, "drop.zone[1]")
    s.drop_step = _choice(dr.get("step", "none"), DROP_STEPS, "drop.step")
    st = dr.get("stand")
    s.drop_cur = NONE if st is None else _stand_slot(st, "drop.stand")
    dv = dr.get("direction", "n")
    s.drop_dir = (_choice(dv, DROP_STEPS, "drop.direction") if s.drop_step == DS_DIR
                  else _choice(dv, DIRS, "drop.direction"))
    return 0
