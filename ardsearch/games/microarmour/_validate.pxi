# Micro Armour engine: validation of a deserialized state: everything search relies on.
# Included by _engine.pyx (one module, split by concern).
# ----------------------------------------------------------------- validation
cdef inline int fail(char *msg, int msglen, const char *text) noexcept nogil:
    return ard_fail(msg, msglen, text)  # game.h

cdef int ma_validate(const void *state, char *msg, int msglen) noexcept nogil:
    cdef const MaState *s = <const MaState *>state
    cdef int g, p, v, cnt, k, l, o
    if s.scn >= NSCN:
        return fail(msg, msglen, b"scenario index is not a loaded scenario")
    if s.turns < 1 or s.turns > 50:
        return fail(msg, msglen, b"turns is outside 1..50")
    if s.det < 1 or s.det > 100:
        return fail(msg, msglen, b"determination is outside 1..100")
    for p in range(2):
        if s.coh[p] < 5 or s.coh[p] > 20:
            return fail(msg, msglen, b"cohesion is outside 5..20")
        if s.quality[p] < -2 or s.quality[p] > 3:
            return fail(msg, msglen, b"GHQ quality is outside -2..3")
        cnt = 0
        l = 0
        for v in range(10):
            if s.deck[p][v] > FULL_DECK[v]:
                return fail(msg, msglen, b"a deck holds more cards of a value than a pack")
            cnt += FULL_DECK[v] - s.deck[p][v]
            l += s.deck[p][v]
        if s.viewer != 1 - p and cnt != s.ncards[p]:
            return fail(msg, msglen, b"cards drawn do not match the deck")
        # a view of the opponent keeps no trace of their cards: observe() zeroes
        # their deck counts and their total
        if s.viewer == 1 - p and (l != 0 or s.total[p] != 0):
            return fail(msg, msglen, b"a view holds the opponent's cards")
        if (s.ncards_ok[p] > s.ncards[p] or s.ncards[p] + s.cards_pending[p] > 52
                or s.cards_pending[p] > 40):
            return fail(msg, msglen, b"card counts out of range")
        if s.viewer != 1 - p:
            v = 0
            for k in range(10):
                v += (FULL_DECK[k] - s.deck[p][k]) * (k + 1)
            if v != s.total[p]:
                return fail(msg, msglen, b"card total does not match the deck")
    if s.viewer < -1 or s.viewer > 1:
        return fail(msg, msglen, b"viewer is not -1, 0 or 1")
    if s.phase > PH_PLOT:
        return fail(msg, msglen, b"phase out of range")
    if s.turn < 1 or s.turn > s.turns:
        return fail(msg, msglen, b"turn is outside 1..turns")
    if s.init_side > 1 or s.first > 1 or s.to_move > 1 or s.passed > 3 or s.ord_count > 2:
        return fail(msg, msglen, b"turn bookkeeping out of range")
    if s.orders[0] > ORD_MAX or s.orders[1] > ORD_MAX:
        return fail(msg, msglen, b"orders out of range")
    if s.brk_pending > 3 or s.broken > 3 or s.reserved != 0 or s.reserved2 != 0:
        return fail(msg, msglen, b"break bookkeeping out of range")
    if s.reserved3 != 0 or (s.low_ammo != 0 and not (s.options & 2)):
        return fail(msg, msglen, b"low ammunition marked without the Low Ammunition rule")
    for g in range(NSLOT):
        if s.st[g].type == NONE and s.fired_at_by[g] != 0:
            return fail(msg, msglen, b"an empty slot has been fired at")
        if s.st[g].type == NONE and (s.low_ammo >> g) & 1:
            return fail(msg, msglen, b"an empty slot is low on ammunition")
    if s.options > OPT_ALL or s.hot > 1 or s.rep_pending > 3 or s.mv_dir > 7:
        return fail(msg, msglen, b"option, Hot Shot or replacement bookkeeping out of range")
    if s.df_options > DF_ALL:
        return fail(msg, msglen, b"direct-fire options out of range")
    if validate_ammo(s):
        return fail(msg, msglen, b"ammunition marks that do not fit the stand's weapon or the rules in play")
    if validate_buildings(s):
        return fail(msg, msglen, b"building damage, fire or a building roll out of range")
    for p in range(2):
        g = s.ghq_slot[p]
        if g != NONE and (g >= NSLOT or side_of(g) != p or SC_START[s.scn][g].type == NONE):
            return fail(msg, msglen, b"a GHQ slot that is not a stand of its side")
    if validate_command(s, msg, msglen):
        return -1
    if s.winner < -1 or s.winner > 2 or ((s.phase == PH_OVER) != (s.winner != -1)):
        return fail(msg, msglen, b"winner does not match the phase")
    for g in range(NSLOT):
        if ((SC_SUPPORT[s.scn] >> g) & 1) and not (s.df_options & DF_SUPPORT):
            if s.st[g].type != NONE:
                return fail(msg, msglen, b"a support stand in play without the support parameter")
            continue
        if (SC_HIDMASK[s.scn] >> g) & 1:
            if s.st[g].type == NONE:
                continue                     # a removed dummy; hidden_validate checks the markers
        elif s.st[g].type == NONE:
            if SC_START[s.scn][g].type != NONE:
                return fail(msg, msglen, b"a scenario stand slot is empty")
            continue
        elif s.st[g].type != SC_START[s.scn][g].type:
            return fail(msg, msglen, b"a stand's type differs from the scenario")
        if s.st[g].x >= SC_W[s.scn] or s.st[g].y >= SC_H[s.scn] or s.st[g].facing > 7 or s.st[g].posture > 2:
            return fail(msg, msglen, b"a stand is off the map or has a bad facing/posture")
        if (s.st[g].flags & F_WRECK) and ((s.st[g].flags & F_ALIVE) or TY_DEF[s.st[g].type] != D_ARMOUR):
            return fail(msg, msglen, b"a wreck that is alive or not an armoured vehicle")
        if s.st[g].mp > 60:
            return fail(msg, msglen, b"movement points out of range")
        if alive(s, g) and s.carrier[g] == NONE and occupant(s, s.st[g].x, s.st[g].y, g) >= 0 and g != s.mover:
            if occupant(s, s.st[g].x, s.st[g].y, g) != s.mover:
                return fail(msg, msglen, b"two stands end on one square")
    if air_validate(s, msg, msglen):         # hook: airstrikes
        return 1
    if drop_validate(s, msg, msglen):        # hook: paratroop drops (_drop_view.pxi)
        return 1
    if art_validate(s, msg, msglen):         # hook: artillery
        return 1
    if prereg_validate(s, msg, msglen):      # hook: pre-registered points (_prereg.pxi)
        return 1
    # obstacles and minefields, after the stands are known to be on the map (_obstacles.pxi, _minefields.pxi)
    if validate_positions(s):
        return fail(msg, msglen, b"improved position damage that does not fit its class")
    if validate_minefields(s):
        return fail(msg, msglen, b"minefield markers that do not fit the scenario's record sheet")
    if validate_wrecks(s):
        return fail(msg, msglen, b"a cleared wreck that is not a wreck on a road")
    if validate_engineering(s):      # _engineering.pxi
        return fail(msg, msglen, b"terrain changes (bridges, filled ditches) that play cannot make on this table")
    if entry_validate(s):                    # hook: entry from the table edge
        return fail(msg, msglen, b"a stand off the table that is not an entering stand on its entry square in turn 1, "
                    b"or cargo not off the table exactly while its carrier is")
    if groups_validate(s):                   # hook: movement groups
        return fail(msg, msglen, b"a movement group attempt that does not fit its group, the phase or the mover")
    if units_validate(s):                    # hook: special stand types
        return fail(msg, msglen, b"horses on a stand without them, or a flame check on a stand not hit by an enemy flame vehicle")
    if transport_validate(s, msg, msglen):   # hook: carrier links (_transport.pxi)
        return 1
    if hidden_validate(s):                   # hook: hidden set-up (_spotting.pxi)
        return fail(msg, msglen, b"hidden markers or dummies that do not fit the scenario's hidden set-up")
    if weather_validate(s):                  # hook: weather and night (_weather.pxi)
        return fail(msg, msglen, b"weather, ground, night or the turn's sighting out of range")
    if s.phase == PH_OVER:
        return 0
    # a building roll follows a direct-fire artillery piece's CRT roll, a bomb's
    # attacks (air_validate checks its square) or an artillery impact (art_validate)
    if s.bld_area != NONE and s.air_step != AS_BLDG and not (s.phase == PH_ART and s.art_step == AR_BLDG) \
            and not (s.bld_area < IP_ROLL and s.atk_step == S_CRT and s.atk_cur < 16 and (s.atk_firers >> s.atk_cur) & 1
                     and s.st[atk_slot(s, s.atk_cur)].type < NTYPES
                     and TY_ARTY[s.st[atk_slot(s, s.atk_cur)].type]):
        return fail(msg, msglen, b"a building roll without an artillery piece's attack, an impact or a bomb")
    if s.atk_step > S_CRT or s.atk_kind > K_OVR_OF or s.atk_side > 1 or s.atk_cur > 16:
        return fail(msg, msglen, b"attack bookkeeping out of range")
    if s.hot and s.atk_step != S_CRT:
        return fail(msg, msglen, b"a Hot Shot outside a CRT roll")
    if s.ctarget != NONE:
        if (s.ctarget >= NSLOT or s.mover == NONE or s.mover >= NSLOT or s.mv_sub < M_CLOSE
                or side_of(s.ctarget) == side_of(s.mover) or s.st[s.ctarget].type == NONE):
            return fail(msg, msglen, b"a close-combat target without a close combat")
        if s.mv_sub != M_CLOSE and (not alive(s, s.ctarget) or not alive(s, s.mover)):
            return fail(msg, msglen, b"a close combat with a lost stand")
        if dist(s, s.ctarget, s.mover) != (2 if s.mv_sub == M_ART_RETREAT else 1):
            return fail(msg, msglen, b"a close combat between stands not adjacent")
        if s.mv_sub == M_RETREAT and not any_retreat(s, s.ctarget, s.mover):
            return fail(msg, msglen, b"a retreat with nowhere to go")
        if s.mv_sub == M_CLOSE and (s.atk_step < S_TOFIRE or not (s.atk_kind == K_ASLDEF or s.atk_kind == K_ASSAULT)):
            return fail(msg, msglen, b"a close assault without its attack")
        if s.mv_sub == M_OVR_OFASK and s.atk_step == S_NONE and not can_fire(s, s.ctarget, s.mover, K_OVR_OF):
            return fail(msg, msglen, b"overrun fire asked with no possible firer")
        if M_OVR_DEFROLL <= s.mv_sub <= M_OVR_HIT2 and TY_DEF[s.st[s.mover].type] != D_ARMOUR:
            return fail(msg, msglen, b"an overrun by a stand that is not a vehicle")
    elif (s.mv_sub >= M_CLOSE and s.mv_sub <= M_OVR_HIT2) or s.mv_sub == M_ART_RETREAT:
        return fail(msg, msglen, b"a close-combat step without a target")
    if s.atk_step != S_NONE:
        if s.atk_target >= NSLOT or side_of(s.atk_target) == s.atk_side or s.atk_firers == 0:
            return fail(msg, msglen, b"an attack without target or firers")
        if s.atk_kind == K_STANDARD and s.phase != PH_FIRE:
            return fail(msg, msglen, b"a standard attack outside the fire phase")
        if s.atk_kind != K_STANDARD and (s.phase != PH_MOVE or s.mover == NONE):
            return fail(msg, msglen, b"opportunity or covering fire without a mover")
        if close_kind(s.atk_kind) and s.ctarget == NONE:
            return fail(msg, msglen, b"a close-combat attack without a target")
        if close_kind(s.atk_kind) != (s.mv_sub == M_CLOSE or s.mv_sub == M_OVR_OFASK):
            return fail(msg, msglen, b"an attack of the wrong kind for the mover's step")
        if s.atk_step >= S_TOFIRE and s.bld_area == NONE and (s.atk_cur >= 16 or not alive(s, s.atk_target)
                                       or not ((s.atk_firers >> s.atk_cur) & 1)
                                       or not alive(s, atk_slot(s, s.atk_cur))):
            return fail(msg, msglen, b"the attack's current firer is not a declared live firer")
    elif s.atk_target != NONE:
        return fail(msg, msglen, b"an attack target without an attack")
    if s.phase == PH_MOVE and s.mover != NONE:
        if s.mover >= NSLOT or s.mv_sub < M_ROLL or s.mv_sub > M_ART_RETREAT:
            return fail(msg, msglen, b"the mover is not a stand")
        if not alive(s, s.mover) and s.mv_sub != M_CLOSE and s.mv_sub != M_CFASK:
            return fail(msg, msglen, b"the mover is not a live stand")     # covering fire may follow its loss
        if s.mv_sub == M_PASSCHK:
            o = occupant(s, s.st[s.mover].x + DX[s.mv_dir], s.st[s.mover].y + DY[s.mv_dir], s.mover)
            if o < 0 or side_of(o) == side_of(s.mover) or step_cost(s, s.mover, s.mv_dir) <= 0:
                return fail(msg, msglen, b"a pass-through roll with no enemy vehicle to pass")
        if s.mv_sub == M_STEP and not can_stop_on(s, s.mover, s.st[s.mover].x, s.st[s.mover].y):
            # passing through a friend: there must be a way off
            for l in range(8):
                if step_cost(s, s.mover, l) > 0:
                    break
            else:
                return fail(msg, msglen, b"the mover is stuck on a friend's square")
        if s.mv_sub != M_STEP and s.mv_sub != M_ROLL and s.mv_sub != M_ART and not can_stop_on(s, s.mover, s.st[s.mover].x, s.st[s.mover].y):
            return fail(msg, msglen, b"the mover shares a square outside its step")
        if s.mv_sub == M_OFASK and s.atk_step == S_NONE and not any_fire(s, 1 - side_of(s.mover), s.mover, K_OPPORTUNITY, 0):
            return fail(msg, msglen, b"opportunity fire asked with no possible firer")
        if s.mv_sub == M_CFASK and s.atk_step == S_NONE and not any_fire(s, side_of(s.mover), -1, K_COVERING, s.of_firers):
            return fail(msg, msglen, b"covering fire asked with no possible firer")
    elif s.mover != NONE or s.mv_sub != M_NONE:
        return fail(msg, msglen, b"a mover outside the movement phase")
    if s.phase == PH_RECOVER and s.rec_next != NONE and (s.rec_next >= NSLOT or not alive(s, s.rec_next)
                                                         or not (s.st[s.rec_next].flags & (F_S | F_D))):
        return fail(msg, msglen, b"the recovery roll is for no S/D stand")
    if s.phase == PH_RECOVER and s.rec_next == NONE:
        for p in range(2):
            if (s.rep_pending >> p) & 1 and not needs_replacement(s, p):
                return fail(msg, msglen, b"a GHQ replacement roll that is not due")
        if s.rep_pending == 0 and s.cmd_pending == 0 and s.mf_bnext == NONE and not hq_delay_due(s):   # _drop.pxi
            return fail(msg, msglen, b"the recovery phase with nothing to roll")
    if s.phase == PH_ORDERS and (s.ord_count >= 2 or not ghq_alive(s, orders_side(s))):
        return fail(msg, msglen, b"an orders roll for a side without its GHQ")
    if msg != NULL and msglen > 0:
        msg[0] = 0
    return 0
