# Micro Armour engine: vtable: hidden information (break-point cards): observe, determinize, visibility.
# Included by _engine.pyx (one module, split by concern).
# ----------------------------------------------------------------- vtable: hidden information
cdef void ma_observe(const void *state, int player, void *out_view) noexcept nogil:
    cdef MaState *v = <MaState *>out_view
    cdef int q = 1 - player
    if out_view != state:
        memcpy(out_view, state, sizeof(MaState))
    v.total[q] = 0
    memset(v.deck[q], 0, 10)
    art_observe(v, q)
    v.viewer = player
    air_observe(v, player)                   # hook: the opponent's bomb plots
    drop_observe(v, player)                  # hook: the opponent's drop zone (_drop_view.pxi)
    prereg_observe(v, player)                # hook: the opponent's pre-registered points (_prereg.pxi)
    mine_observe(v, player)                  # hook: the opponent's unrevealed minefield markers
    hidden_observe(v, player)                # hook: the opponent's unspotted markers (_spotting.pxi)

cdef int draw_sequence(int n, ard_rng *rng, uint8_t *deck, int *cards) noexcept nogil:
    """Draws n cards without replacement from deck (counts by value), into cards."""
    cdef int i, v, left = 0, u
    for v in range(10):
        left += deck[v]
    for i in range(n):
        u = <int>ard_rng_below(rng, left)
        for v in range(10):
            if u < deck[v]:
                break
            u -= deck[v]
        deck[v] -= 1
        left -= 1
        cards[i] = v + 1
    return 0

cdef void ma_determinize(void *view, int player, ard_rng *rng) noexcept nogil:
    """Fill the opponent's card total and deck with a draw of ncards cards that
    kept every passed break check (the first ncards_ok cards sum to at most the
    break point) and, if it broke, exceeds it."""
    cdef MaState *s = <MaState *>view
    cdef int q = 1 - player, n, ok, tries, i, sum_ok, tot, v
    cdef uint8_t deck[10]
    cdef int cards[64]
    s.viewer = -1
    if player != 0 and player != 1:
        return
    air_determinize(s, player, rng)          # hook: the opponent's bomb plots
    drop_determinize(s, player, rng)         # hook: the opponent's drop zone (_drop_view.pxi)
    prereg_determinize(s, player, rng)       # hook: the opponent's pre-registered points (_prereg.pxi; before
                                             # art_determinize below, which may deal a call on one)
    mine_determinize(s, player, rng)         # hook: the opponent's unrevealed minefield markers
    hidden_determinize(s, player, rng)       # hook: the opponent's unspotted markers (_spotting.pxi)
    n = s.ncards[q]
    ok = s.ncards_ok[q]
    if n > 52:
        n = 52
    for tries in range(2000):
        memcpy(deck, FULL_DECK, 10)
        draw_sequence(n, rng, deck, cards)
        sum_ok = 0
        tot = 0
        for i in range(n):
            tot += cards[i]
            if i < ok:
                sum_ok += cards[i]
        if over_bp(s, q, sum_ok):
            continue
        if (s.broken >> q) & 1 and not over_bp(s, q, tot):
            continue
        break
    else:
        # every try failed: the lowest cards for the checked part, the highest for the rest
        memcpy(deck, FULL_DECK, 10)
        tot = 0
        v = 0
        for i in range(n):
            if i < ok:
                v = 0
                while deck[v] == 0:
                    v += 1
            else:
                v = 9
                while deck[v] == 0:
                    v -= 1
            deck[v] -= 1
            tot += v + 1
    memcpy(s.deck[q], deck, 10)
    s.total[q] = tot
    art_determinize(s, q, rng)

cdef int ma_viewer(const void *state) noexcept nogil:
    return (<const MaState *>state).viewer

cdef int ma_action_visible(const void *state, ard_action action, int player) noexcept nogil:
    cdef const MaState *s = <const MaState *>state
    cdef int k = node(s)
    if k == N_CARD0 or k == N_CARD1:
        return 1 if player == card_side(k) else 0
    if k == N_AIR:
        return air_visible(s, player)        # hook: bomb plots are secret
    if k == N_DROP_PLOT:
        return 1 if player == drop_side(s) else 0    # hook: the drop zone is secret (_drop.pxi)
    if k == N_PREREG:
        return 1 if player == prereg_side(s) else 0  # hook: pre-registered points are secret (_prereg.pxi)
    if k == N_PLOT:
        return 1 if player == bat_side(plot_battery(s)) else 0   # hook: artillery plots are secret
    return 1
