# Micro Armour engine: entry from the table edge on turn 1 (RULES.md, "Entry from the
# table edge"): a scenario side with `entry = true` has its stands on its edge column
# off the table at the start; each enters by moving (its first inch is its entry
# square), and one still off at the end of turn 1's movement phase is placed there.
# Included by _engine.pyx after _stand_types.pxi; the other files call in through small hooks.
# ----------------------------------------------------------------- tables (filled by install)
cdef uint32_t SC_ENTRY[MAXSCN]                 # bit g: slot g starts off the table (deployment=edges)


cdef install_entry_scenario(int k, sc):
    SC_ENTRY[k] = 0
    for p in range(2):
        if not sc["sides"][p]["entry"]:
            continue
        edge_x = 0 if sc["sides"][p]["edge"] == "west" else sc["width"] - 1
        for l, st in enumerate(sc["stands"][p]):
            if st["x"] == edge_x:
                SC_ENTRY[k] |= <uint32_t>1 << (p * 16 + l)


cdef void entry_init(MaState *s, int deploy) noexcept nogil:
    """Hook (ma_init): who starts off the table; deployment=close starts everyone on it."""
    s.offtable = SC_ENTRY[s.scn] if deploy == 0 else 0
    s.offtable &= support_mask(s)


cdef inline uint32_t support_mask(const MaState *s) noexcept nogil:
    """The slots holding a stand in this game (support stands only with the support parameter)."""
    cdef uint32_t m = 0
    cdef int g
    for g in range(NSLOT):
        if s.st[g].type != NONE:
            m |= <uint32_t>1 << g
    return m


cdef inline bint off_table(const MaState *s, int g) noexcept nogil:
    """Stand g has not entered yet: it neither fires nor is attacked."""
    return (s.offtable >> g) & 1


cdef int shell_occupant(const MaState *s, int x, int y) noexcept nogil:
    """The stand an impact marker or an airstrike on (x, y) attacks: the live,
    uncarried stand there that has entered (design: a stand waiting off the
    table is never attacked; its entry square is only where it will come on)."""
    cdef int g
    for g in range(NSLOT):
        if (alive(s, g) and s.st[g].x == x and s.st[g].y == y and s.carrier[g] == NONE
                and not off_table(s, g)):
            return g
    return -1


cdef void entry_move(MaState *s, int g) noexcept nogil:
    """Hook (a movement roll passed): an off-table stand's first inch is onto its entry square;
    its cargo enters with it (the Introductory's Panzergrenadiers in their half-tracks)."""
    cdef int c
    if not off_table(s, g):
        return
    s.offtable &= ~(<uint32_t>1 << g)
    for c in range(side_of(g) * 16, side_of(g) * 16 + 16):
        if s.carrier[c] == g:
            s.offtable &= ~(<uint32_t>1 << c)
    c = move_cost(s, g, s.st[g].x, s.st[g].y)
    s.st[g].mp = s.st[g].mp - c if c < s.st[g].mp else 0
    s.st[g].steps = 1


cdef void entry_close(MaState *s) noexcept nogil:
    """Hook (the end of a movement phase): the stands still off the table are placed on their entry squares."""
    s.offtable = 0


cdef bint entry_validate(const MaState *s) noexcept nogil:
    """1 if off-table marks are corrupt: only the scenario's entering stands, alive, on their
    entry squares, on turn 1 up to its movement phase (a mover only before its roll), and
    cargo off exactly while its carrier is."""
    if s.offtable == 0:
        return 0
    # turn 1 up to its movement phase: the artillery (PH_ART) and joint plot (PH_PLOT)
    # phases come before it in the turn, whatever their numbers; only recovery follows it
    if (s.offtable & ~SC_ENTRY[s.scn]) or s.turn != 1 or s.phase == PH_RECOVER:
        return 1
    cdef int g
    for g in range(NSLOT):
        if off_table(s, g) and (not alive(s, g) or s.st[g].x != SC_START[s.scn][g].x
                                or s.st[g].y != SC_START[s.scn][g].y
                                or (g == s.mover and s.mv_sub != M_ROLL)):
            return 1
        # cargo is off the table exactly while its carrier is (a link out of range, NONE
        # or corrupt, is not read here: transport_validate() refuses a corrupt one after this hook)
        if s.carrier[g] < NSLOT and off_table(s, g) != off_table(s, s.carrier[g]):
            return 1
    return 0
