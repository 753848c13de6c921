# Micro Armour engine: the direct-fire weapon extras (RULES.md, Weapons extras):
# MMG / light mortar / artillery suppression, artillery pieces' direct fire,
# big guns' HE at armour, special AP and HEAT ammunition, D# depletion, 'R'
# restricted arcs and dual-purpose AA range bands.
# Included by _engine.pyx (one module, split by concern).
# ----------------------------------------------------------------- weapons extras
cdef enum:  # which ammunition a shot uses (firepower())
    USE_NONE = 0
    USE_SPECIAL = 1     # special AP: used up on an unmodified roll <= SPECIAL_AT
    USE_HEAT = 2        # one of the limited HEAT rounds
    USE_DEPL = 3        # the AP of a D# stand: lost on an unmodified roll <= D#

cdef inline bint suppresses_on_no_effect(int ty) noexcept nogil:
    """Digest *S and D*: "Artillery, MMG and light mortar fire turns 'No Effect'
    into S". For weapons-table types; plotted artillery (no stand type) always does."""
    return TY_SUPPRESS[ty] != 0

cdef inline bint in_firing_arc(const MaState *s, int f, int t) noexcept nogil:
    """t lies in f's Firing Arc template: the 135 degrees centred on f's facing
    (the same arc as the Target Front template, design)."""
    cdef int o = octant(<int>s.st[t].x - <int>s.st[f].x, <int>s.st[t].y - <int>s.st[f].y)
    cdef int diff = (o - s.st[f].facing + 8) % 8
    return diff == 0 or diff == 1 or diff == 7

cdef inline int eff_type(const MaState *s, int f, int t) noexcept nogil:
    """The weapons-table type f fights with against t: an 'R' weapon uses its
    printed values only in its Firing Arc, otherwise its infantry HQ's."""
    cdef int ty = s.st[f].type
    if TY_RFALL[ty] != NONE and not in_firing_arc(s, f, t):
        return TY_RFALL[ty]
    return ty

cdef inline bint cavalry_double_refused(const MaState *s, int t) noexcept nogil:
    """Digest, Close assault: cavalry double "vs non-vehicles (not vs buildings or
    improved positions)": not against a stand in a building area (its rubble too:
    design, still the buildings) or with the benefit of an improved position
    (ip_of: design, a position it has turned away from protects it no more)."""
    return building_at(s, s.st[t].x, s.st[t].y) >= 0 or ip_of(s, t) >= 0

cdef int firepower(const MaState *s, int f, int t, int kind, int *use) noexcept nogil:
    """AP against an armoured target, HE otherwise, with the ammunition rules
    in play; use[0] gets the ammunition the shot uses (USE_*)."""
    cdef int ty = eff_type(s, f, t), fp
    use[0] = USE_NONE
    if TY_DEF[s.st[t].type] != D_ARMOUR:
        fp = TY_HE[ty]
        if kind == K_ASSAULT and TY_CAVALRY[ty] and not cavalry_double_refused(s, t):
            fp *= 2
        return fp
    fp = TY_AP[ty]
    if ty == s.st[f].type:              # the ammunition is the stand's own
        if TY_DEPL[ty] and s.df_options & DF_DEPLETION:
            if s.ammo[f] & AM_DEPLETED:
                fp = 0
            else:
                use[0] = USE_DEPL
        elif TY_SPECIAL[ty] and s.df_options & DF_SPECIAL_AP and not (s.ammo[f] & AM_SPECIAL_USED):
            fp = fp * SPECIAL_PCT // 100
            use[0] = USE_SPECIAL
        elif (TY_HEAT_N[ty] and s.df_options & DF_HEAT and (s.ammo[f] >> AM_HEAT_SHIFT) < TY_HEAT_N[ty]
              and TY_HEAT_AP[ty] > fp):
            fp = TY_HEAT_AP[ty]
            use[0] = USE_HEAT
    if TY_BIG[ty] and s.df_options & DF_BIG_GUN and TY_HE[ty] > fp and dist(s, f, t) <= BIG_RANGE:
        fp = TY_HE[ty]                  # a big gun's HE at a tank close by: not AP
        use[0] = USE_NONE
    return fp

cdef inline int fire_range(const MaState *s, int f, int t) noexcept nogil:
    return TY_RANGE[eff_type(s, f, t)]

cdef inline int range_mod_dp(int d) noexcept nogil:
    """Dual-purpose AA guns' wider range bands (charts.toml [range_dp])."""
    cdef int i
    for i in range(NRANGE_DP):
        if d <= RDP_MAX[i]:
            return RDP_MOD[i]
    return RDP_MOD[NRANGE_DP - 1] + (d - RDP_MAX[NRANGE_DP - 1] + DP_STEP - 1) // DP_STEP

cdef inline int fire_range_mod(const MaState *s, int f, int t, int d) noexcept nogil:
    """Digest *Range*: "Artillery direct and indirect fire ignore range
    modifiers"; dual-purpose AA guns use wider bands."""
    cdef int ty = eff_type(s, f, t)
    if TY_ARTY[ty]:
        return 0
    if TY_DP[ty]:
        return range_mod_dp(d)
    return range_mod(d)

cdef inline bint artillery_fire(const MaState *s, int f, int t, int kind) noexcept nogil:
    """An artillery piece's direct fire (close assault is not fire)."""
    return kind != K_ASLDEF and kind != K_ASSAULT and TY_ARTY[eff_type(s, f, t)] != 0

cdef int crt_dist(const MaState *s, int f, int t, int kind, int hot, double *p) noexcept nogil:
    """p[0..4]: '-', S, (S), D, E for firer f on t; p[5..9]: the same results
    where the unmodified 2D6 roll used up the firer's special AP ammunition or
    its D# AP ability (`crt:<r>:out`)."""
    cdef int use, cd, m, r, k, res, thr = 0, ty = eff_type(s, f, t)
    cdef bint sup = kind != K_ASLDEF and kind != K_ASSAULT and suppresses_on_no_effect(ty)
    cd = firepower(s, f, t, kind, &use) - defence(s, f, t, kind)
    if cd > CRT_MAX:
        cd = CRT_MAX
    if cd < CRT_MIN:
        cd = CRT_MIN                    # artillery below -3: the -3 column (design)
    if hot:
        cd += 2                          # Hot Shot: two columns
        if cd > CRT_MAX:
            cd = CRT_MAX
    if use == USE_DEPL:
        thr = TY_DEPL[ty]
    elif use == USE_SPECIAL:
        thr = SPECIAL_AT
    m = crt_mod(s, f, t, kind)
    for k in range(10):
        p[k] = 0.0
    for r in range(2, 13):
        k = r + m
        if k <= cd + CRT_E:
            res = 4
        elif k <= cd + CRT_D:
            res = 3
        elif k <= cd + CRT_SS:
            res = 2
        elif k <= cd + CRT_S:
            res = 1
        else:
            res = 1 if sup else 0
        p[res + (5 if r <= thr else 0)] += TWO_D6[r] / 36.0
    return 0

cdef void spend_ammo(MaState *s, int f, int t, int kind, bint out) noexcept nogil:
    """After f's CRT roll on t: a HEAT round is spent; an `:out` roll uses up
    special AP ammunition or a D# stand's AP."""
    cdef int use
    firepower(s, f, t, kind, &use)
    if use == USE_HEAT:
        s.ammo[f] += 1 << AM_HEAT_SHIFT
    elif out and use == USE_SPECIAL:
        s.ammo[f] |= AM_SPECIAL_USED
    elif out and use == USE_DEPL:
        s.ammo[f] |= AM_DEPLETED

cdef double ammo_value(const MaState *s, int g) noexcept nogil:
    """The AP a stand still has, for the evaluation: 0 once a D# stand is spent,
    more while it holds special AP ammunition, plus its HEAT rounds left."""
    cdef int ty = s.st[g].type, left
    cdef double ap = TY_AP[ty]
    if s.ammo[g] & AM_DEPLETED:
        return 0.0
    if TY_SPECIAL[ty] and s.df_options & DF_SPECIAL_AP and not (s.ammo[g] & AM_SPECIAL_USED):
        ap = ap * SPECIAL_PCT / 100.0
    if TY_HEAT_N[ty] and s.df_options & DF_HEAT:
        left = TY_HEAT_N[ty] - (s.ammo[g] >> AM_HEAT_SHIFT)
        if left > 0 and TY_HEAT_AP[ty] > TY_AP[ty]:
            ap += (TY_HEAT_AP[ty] - TY_AP[ty]) * left / (<double>TY_HEAT_N[ty] + 1.0)
    return ap

cdef int validate_ammo(const MaState *s) noexcept nogil:
    """0 if every stand's ammunition bits fit its type and the rules in play."""
    cdef int g, ty
    for g in range(NSLOT):
        ty = s.st[g].type
        if ty == NONE:
            if s.ammo[g]:
                return 1
            continue
        if ty >= NTYPES:
            continue    # not a weapon at all: the stand check in ma_validate refuses it by name
        if s.ammo[g] & 0x0C:
            return 1
        if (s.ammo[g] & AM_SPECIAL_USED) and not (TY_SPECIAL[ty] and s.df_options & DF_SPECIAL_AP):
            return 1
        if (s.ammo[g] & AM_DEPLETED) and not (TY_DEPL[ty] and s.df_options & DF_DEPLETION):
            return 1
        if (s.ammo[g] >> AM_HEAT_SHIFT) > (TY_HEAT_N[ty] if s.df_options & DF_HEAT else 0):
            return 1
    return 0

cdef void support_slots(MaState *s) noexcept nogil:
    """The support stands are in play only with the `support` parameter."""
    cdef int g
    for g in range(NSLOT):
        if (SC_SUPPORT[s.scn] >> g) & 1:
            if s.df_options & DF_SUPPORT:
                if s.st[g].type == NONE:
                    s.st[g] = SC_START[s.scn][g]
            else:
                memset(&s.st[g], 0, sizeof(Stand))
                s.st[g].type = NONE
                s.ammo[g] = 0
                s.fired_at_by[g] = 0

cdef install_extras(charts, weapons):
    """Fills the weapons-extras static tables from the validated data."""
    global NRANGE_DP, DP_STEP, SPECIAL_PCT, SPECIAL_AT, BIG_RANGE
    keys = [t["key"] for t in weapons]
    for i, t in enumerate(weapons):
        TY_SUPPRESS[i] = t["mmg"] or t["light_mortar"] or t["artillery"]
        TY_ARTY[i] = t["artillery"]
        TY_DEPL[i] = t["depletion"]
        TY_SPECIAL[i] = t["special_ap"]
        TY_HEAT_N[i], TY_HEAT_AP[i] = t["heat_rounds"], t["heat_ap"]
        TY_BIG[i] = t["big_gun"]
        TY_DP[i] = t["dual_purpose"]
        TY_RFALL[i] = NONE if t["restricted"] is None else keys.index(t["restricted"])
    NRANGE_DP = len(charts["range_dp"])
    for i in range(NRANGE_DP):
        RDP_MAX[i], RDP_MOD[i] = charts["range_dp"][i]
    DP_STEP = charts["range_dp_step"]
    am = charts["ammunition"]
    SPECIAL_PCT, SPECIAL_AT, BIG_RANGE = am["special_ap_pct"], am["special_ap_used_at"], am["big_gun_range"]
    install_building_charts(charts)         # _buildings.pxi

cdef install_extras_scenario(int k, sc):
    """Scenario k's support stands and building areas."""
    install_buildings(k, sc)                # _buildings.pxi
    SC_SUPPORT[k] = 0
    for p in range(2):
        for l, st in enumerate(sc["stands"][p]):
            if st.get("support"):
                SC_SUPPORT[k] |= 1 << (p * 16 + l)
