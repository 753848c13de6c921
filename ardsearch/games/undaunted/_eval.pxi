# Undaunted's evaluation as features (RULES.md, Evaluation). Included by
# _engine.pyx. evaluate() = tanh(W . f / 2) (ard_linear_value), so that
# (evaluate + 1) / 2 is the logistic model's chance that `player` wins; W is
# the static table below, which the core fills from data/eval.toml.
#
# Every feature is "mine minus yours" (player p against 1 - p) except the
# first, "classic": the hand-set evaluation of the first release, kept so
# that weights {classic = 1, others 0} reproduce it exactly. Features read
# only what the state holds: on a view, the opponent's hand is the cards
# everyone knows are there plus the unknown cards' expected share of the
# pool (RULES.md, Hidden information), never the hidden split.

cdef extern from *:
    """
    #define UND_NFEAT 26
    static const char *const UND_FEATURE_NAMES[UND_NFEAT] = {
        "classic", "points", "progress", "rifle_cards", "combat_cards", "fog", "supply",
        "rifle_tokens", "other_tokens", "suppressed", "markers", "reach", "control_ready",
        "control_hand", "threat", "hand_cards", "initiative", "initiative_cards", "fragile", "classic_roll",
        "goal", "hand_use", "deck_use", "discard_use", "supply_use", "cycle_use"};
    /* Hand-chosen until data/eval.toml is loaded over them (the core writes
       this table): classic alone, the first release's evaluation. */
    static double UND_WEIGHTS[UND_NFEAT] = {1.0};
    """
    enum:
        UND_NFEAT
    const char *const UND_FEATURE_NAMES[UND_NFEAT]
    double UND_WEIGHTS[UND_NFEAT]

cdef enum:
    NFEAT = UND_NFEAT
    F_CLASSIC = 0
    F_POINTS = 1
    F_PROGRESS = 2
    F_RIFLE_CARDS = 3
    F_COMBAT_CARDS = 4
    F_FOG = 5
    F_SUPPLY = 6
    F_RIFLE_TOKENS = 7
    F_OTHER_TOKENS = 8
    F_SUPPRESSED = 9
    F_MARKERS = 10
    F_REACH = 11
    F_CONTROL_READY = 12
    F_CONTROL_HAND = 13
    F_THREAT = 14
    F_HAND_CARDS = 15
    F_INITIATIVE = 16
    F_INITIATIVE_CARDS = 17
    F_FRAGILE = 18
    F_CLASSIC_ROLL = 19
    F_GOAL = 20
    F_HAND_USE = 21         # what the cards in each zone can still do (card_use)
    F_DECK_USE = 22
    F_DISCARD_USE = 23
    F_SUPPLY_USE = 24
    F_CYCLE_USE = 25        # the total over the cycle: unchanged by playing or scouting


# ---- the first release's evaluation (feature "classic") ---------------------
cdef double army_score(const UState *s, int a, const uint8_t (*rows)[32]) noexcept nogil:
    """Material and position of one army, in rough objective-point units
    (rows[t]: distances from tile t, filled for every tile a token stands on)."""
    cdef const Army *ar = &s.army[a]
    cdef int u, c, t, d, cards = 0
    cdef int near[32]
    cdef double v = 0.0
    for c in range(1, C_SL):                        # combat cards: the units' staying power
        cards += ar.deck[c] + ar.hand[c] + ar.discard[c] + ar.play[c]
    v += 0.15 * cards - 0.05 * (ar.deck[C_FOG] + ar.hand[C_FOG] + ar.discard[C_FOG])
    for t in range(s.ntiles):
        near[t] = 99
    for u in range(NUNIT):
        if ar.token[u] == OFF:
            continue
        v += 0.4 if (u >= U_RIF and u < U_SCOUT) else 0.2
        if (ar.suppressed >> u) & 1:
            v -= 0.15
        if U_RIF <= u < U_SCOUT:                    # how close a Rifleman is to each objective
            for t in range(s.ntiles):
                if s.objective[t] and not (ar.controlled >> t) & 1:
                    d = rows[ar.token[u]][t] + ((ar.suppressed >> u) & 1)
                    if d < near[t]:
                        near[t] = d
    for t in range(s.ntiles):                       # objectives within reach: part of their value
        if near[t] < 3:
            v += s.objective[t] * (0.4 if near[t] == 0 else 0.2 if near[t] == 1 else 0.08)
    v += 0.05 * popcount32(ar.scouted | ar.controlled)
    v += 1.0 * points(s, a)
    return v


cdef double classic_value(const UState *s, int player, const uint8_t (*rows)[32]) noexcept nogil:
    """The first release's evaluate() of a state not over, in (-1, 1)."""
    cdef double d = (army_score(s, player, rows) - army_score(s, 1 - player, rows)) / (1.0 + s.army[player].goal_points)
    return d / (1.0 + (d if d > 0 else -d))


# ---- "goal": classic read by each army's own victory condition -------------
# Classic was written for two capture goals: it scales by p's goal points and
# credits an army only with points, so an immobilize-goal army (goal_points 0)
# saw its value saturate near -0.8 and gained almost nothing from the enemy's
# Riflemen going (scenario 3: one hit from winning read as losing). When
# either army must immobilize, "goal" scores each army by what it still lacks:
# the immobilizer by the enemy Rifleman cards still in the game (each is a hit
# it still needs: with none left the enemy can never Control again and loses,
# RULES.md End of the game 3), the capture army by the points missing from its
# goal, less its points lead times the share of the rounds played (at the
# round limit the lead wins); both keep classic's material and position terms
# and are scaled by the one points goal in play, so the value is zero-sum. Two capture goals: exactly
# classic (scenarios 1 and 2 play as before). Weights: design choice, sized by
# a rough logistic fit on scenario-3 games (bench/README.md).

DEF CARD_WEIGHT = 0.5       # an enemy Rifleman card still in the game, in objective points
DEF CLOCK_WEIGHT = 2.0      # the capture army's points lead, times rounds played / max_rounds

cdef int rifle_cards_in_game(const UState *s, int e) noexcept nogil:
    """Army e's Rifleman cards not removed from the game (supply included)."""
    cdef const Army *ar = &s.army[e]
    cdef int c, n = 0
    for c in range(C_RIF, C_RIF + 3):
        n += ar.deck[c] + ar.hand[c] + ar.discard[c] + ar.play[c] + ar.supply[c] + (1 if ar.bid == c else 0)
    return n


cdef double goal_value(const UState *s, int player, const uint8_t (*rows)[32]) noexcept nogil:
    """The "goal" value of a state not over, in (-1, 1)."""
    cdef int a, lead, g = 0
    cdef double sc[2]
    cdef double d
    if s.army[0].goal == G_CAPTURE and s.army[1].goal == G_CAPTURE:
        return classic_value(s, player, rows)
    for a in range(2):
        sc[a] = army_score(s, a, rows)
        if s.army[a].goal == G_IMMOBILIZE:
            sc[a] -= CARD_WEIGHT * rifle_cards_in_game(s, 1 - a)
        else:
            # points still missing, the same units as the cards above: the
            # side nearer its goal leads (the 4 points scenario 3's Germans
            # start with are 2 short of 6, not a 4-point lead)
            sc[a] -= s.army[a].goal_points
            if s.army[a].goal_points > g:
                g = s.army[a].goal_points
            lead = points(s, a) - points(s, 1 - a)
            if lead > 0 and s.max_rounds > 0:
                sc[a] += CLOCK_WEIGHT * lead * (<double>s.round / s.max_rounds)
    d = (sc[player] - sc[1 - player]) / (1.0 + g)
    return d / (1.0 + (d if d > 0 else -d))


# ---- what the features read ---------------------------------------------------
cdef void bfs(const UState *s, int src, uint8_t *dist) noexcept nogil:
    """Distances in tiles from src to every tile (99: unconnected)."""
    cdef uint32_t reach = 1u << src, frontier = reach, nxt, f
    cdef int t, d = 0
    for t in range(s.ntiles):
        dist[t] = 99
    dist[src] = 0
    while frontier:
        d += 1
        nxt = 0
        f = frontier
        while f:
            nxt |= s.adj[lowbit(f)]
            f &= f - 1
        nxt &= ~reach
        reach |= nxt
        frontier = nxt
        f = nxt
        while f:
            dist[lowbit(f)] = d
            f &= f - 1


cdef inline int current_turn_army(const UState *s) noexcept nogil:
    """Whose turn it is (or was, in the leftover reveals) while turns are played."""
    return s.initiative if s.turn_index == 0 else 1 - s.initiative


cdef bint turn_to_come(const UState *s, int a) noexcept nogil:
    """a still plays cards from its hand this round: its turn is on or to come.
    Hands are discarded at the end of each turn, so only then is a hand worth
    more than what it adds to the deck cycle."""
    cdef int cur
    if s.phase == PH_OVER:
        return False
    if s.phase == PH_DEAL or s.phase == PH_BID1 or s.phase == PH_BID2 or s.phase == PH_REVEAL:
        return True
    cur = current_turn_army(s)
    if s.phase == PH_LEFTOVER:
        return a != cur and s.turn_index == 0
    return a == cur or s.turn_index == 0


cdef double expected_in_hand(const UState *s, int a, int c) noexcept nogil:
    """Cards c in a's hand: exact when the state shows the hand (a full state or
    a's own view), else the known ones plus the unknown cards' share of the pool."""
    cdef const Army *ar = &s.army[a]
    cdef int pool, u
    if s.viewer == -1 or s.viewer == a or ar.unknown_hand == 0:
        return ar.hand[c]
    pool = zone_sum(ar.deck)
    u = ar.unknown_hand - (1 if ar.bid == UNKNOWN else 0)   # a hidden bid is not for playing
    if pool <= 0 or u <= 0:
        return ar.hand[c]
    return ar.hand[c] + u * (<double>ar.deck[c] / pool)


cdef inline int cycle_count(const Army *ar, int c) noexcept nogil:
    """Cards c the army still cycles through: deck, hand, discard pile, play
    area and a bid (on a view the pool stands for deck and unknown hand, and
    a hidden bid is still counted there, so the sum is the same)."""
    return ar.deck[c] + ar.hand[c] + ar.discard[c] + ar.play[c] + (1 if ar.bid == c else 0)


cdef inline uint32_t token_tiles(const Army *ar) noexcept nogil:
    cdef uint32_t m = 0
    cdef int u
    for u in range(NUNIT):
        if ar.token[u] != OFF:
            m |= 1u << ar.token[u]
    return m


cdef void token_distances(const UState *s, uint8_t (*rows)[32]) noexcept nogil:
    """rows[t] = distances from tile t, for every tile a token of either army
    stands on (one breadth-first search per such tile; the others untouched)."""
    cdef uint32_t m = token_tiles(&s.army[0]) | token_tiles(&s.army[1])
    while m:
        bfs(s, lowbit(m), rows[lowbit(m)])
        m &= m - 1


cdef void army_features(const UState *s, int a, const uint8_t (*rows)[32], double *f) noexcept nogil:
    """One army's side of the features F_POINTS.. (f[k] for k >= 1)."""
    cdef const Army *ar = &s.army[a]
    cdef const Army *en = &s.army[1 - a]
    cdef int k, u, v, c, t, cyc, dice, total_cards = 0, high = 0, rifle_left = 0, rifle_gone = 0
    cdef uint32_t enemy_tiles = token_tiles(en), counted = 0
    cdef const uint8_t *dist
    cdef int near[32]
    cdef double p, best, h
    cdef bint to_come = turn_to_come(s, a)
    for k in range(1, NFEAT):
        f[k] = 0.0
    f[F_POINTS] = points(s, a)
    # progress towards the goal: the share of the goal's points held, or of
    # the enemy's Rifleman cards gone for good (an immobilize goal)
    for c in range(C_RIF, C_RIF + 3):
        rifle_left += cycle_count(en, c) + en.supply[c]
        rifle_gone += en.removed[c]
    if ar.goal == G_CAPTURE:
        f[F_PROGRESS] = <double>points(s, a) / (ar.goal_points if ar.goal_points > 0 else 1)
    elif rifle_left + rifle_gone > 0:
        f[F_PROGRESS] = <double>rifle_gone / (rifle_left + rifle_gone)
    for c in range(NCARD):
        cyc = cycle_count(ar, c)
        total_cards += cyc
        if c >= C_SL:                               # Squad Leaders, Platoon Guide, Platoon Sergeant
            high += cyc
        if c == C_FOG:
            f[F_FOG] = cyc
        elif C_RIF <= c < C_RIF + 3:
            f[F_RIFLE_CARDS] += cyc
        elif c < C_SL:
            f[F_COMBAT_CARDS] += cyc
        if c != C_FOG:
            f[F_SUPPLY] += ar.supply[c]
            if to_come:
                f[F_HAND_CARDS] += expected_in_hand(s, a, c)
    if total_cards > 0:
        f[F_INITIATIVE_CARDS] = <double>high / total_cards
    f[F_MARKERS] = popcount32(ar.scouted | ar.controlled)
    for t in range(s.ntiles):
        near[t] = 99
    for u in range(NUNIT):
        t = ar.token[u]
        if t == OFF:
            continue
        c = u + 1
        if U_RIF <= u < U_SCOUT:
            f[F_RIFLE_TOKENS] += 1
        else:
            f[F_OTHER_TOKENS] += 1
        if (ar.suppressed >> u) & 1:
            f[F_SUPPRESSED] += 1
        # a token whose unit has no card left to lose: the next hit removes it
        if cycle_count(ar, c) == 0:
            f[F_FRAGILE] += 1
        dist = rows[t]
        if U_RIF <= u < U_SCOUT:
            for v in range(s.ntiles):
                if s.objective[v] and not (ar.controlled >> v) & 1:
                    if dist[v] + ((ar.suppressed >> u) & 1) < near[v]:
                        near[v] = dist[v] + ((ar.suppressed >> u) & 1)
            # a ready Rifleman on an objective the army does not hold, with
            # no enemy token there: one Control card play takes it
            if s.objective[t] and not (ar.controlled >> t) & 1 and not (enemy_tiles >> t) & 1 \
                    and not (ar.suppressed >> u) & 1 and not (counted >> t) & 1:
                counted |= 1u << t
                f[F_CONTROL_READY] += s.objective[t]
                if to_come:
                    h = expected_in_hand(s, a, c)
                    f[F_CONTROL_HAND] += s.objective[t] * (h if h < 1.0 else 1.0)
        # the best chance this token's Attack has against any enemy token
        dice = UND_DICE[u]
        if dice > 0 and not (ar.suppressed >> u) & 1:
            best = 0.0
            for v in range(NUNIT):
                if en.token[v] == OFF:
                    continue
                p = hit_probability(dice, UND_DEFENCE[v] + cover_against(s, en.token[v], t, False)
                                    + dist[en.token[v]])
                if p > best:
                    best = p
            f[F_THREAT] += best
    for v in range(s.ntiles):                       # objectives within reach, as in classic
        if near[v] < 3:
            f[F_REACH] += s.objective[v] * (0.4 if near[v] == 0 else 0.2 if near[v] == 1 else 0.08)
    zone_use_features(s, a, rows, f)


# ---- what the cards in each zone can still do -------------------------------
# A combat card is worth what its unit can do with it from where the unit's
# token stands (the spawn tile if the token is off the board: "A card whose
# combat token is not on the board first places the token on its army's spawn
# tile"): its best Attack (or Explode) hit chance, for a Rifleman the
# objective it could Control, for a Scout an objective it could Scout towards;
# half that while the token is suppressed (the card only flips it ready).
# Fog of War, Squad Leaders, the Guide and the Sergeant act on no token of
# their own (0; initiative_cards and supply count them). The zones: the hand
# (while it is still to be played), the deck and the discard pile as the mean
# use of a card drawn from them, times the 4 a round deals (the pile
# becomes the deck when the deck runs out), the supply as the total a Bolster
# can bring in, and the cycle (deck, hand, discard pile, play area, bid) as
# its total: the means of deck_use and discard_use fall when a Scout adds Fog
# of War and rise when a Squad Leader is sheltered, and hand_use falls with
# every card played, levers a search pulls the wrong way (bench/README.md);
# the cycle's total moves only when a unit stands better or worse, a card is
# lost, bolstered in or sheltered. Removed cards can do nothing ever again,
# so no feature.
# Design choice throughout (RULES.md, Evaluation).

DEF USE_SUPPRESSED = 0.5    # a suppressed token's card only flips it ready
DEF USE_EXPLODE = 0.5       # Aim then Explode: two cards for one roll
DEF ROUND_DRAW = 4.0        # cards each player draws a round


cdef double unit_use(const UState *s, int a, int u, const uint8_t *dist) noexcept nogil:
    """What one card of unit u can do from tile t (its token's, else the
    spawn), dist: distances from t. About 0..objective points."""
    cdef const Army *ar = &s.army[a]
    cdef const Army *en = &s.army[1 - a]
    cdef int t = ar.token[u] if ar.token[u] != OFF else ar.spawn
    cdef int v, w, d, dice = UND_DICE[u]
    cdef uint32_t enemy_tiles = token_tiles(en), mine = ar.scouted | ar.controlled
    cdef double p, best = 0.0, obj = 0.0, share
    for v in range(NUNIT):                          # Attack X / Explode: the best target
        w = en.token[v]
        if w == OFF:
            continue
        if dice > 0:
            p = hit_probability(dice, UND_DEFENCE[v] + cover_against(s, w, t, False) + dist[w])
        elif u == U_MORTAR and dist[w] >= 3 and dist[w] < 99:   # Aim: 3+ tiles away
            p = USE_EXPLODE * hit_probability(UND_EXPLODE_DICE, UND_DEFENCE[v] + cover_against(s, w, w, True))
        else:
            p = 0.0
        if p > best:
            best = p
    if U_RIF <= u < U_SCOUT:                        # Control: the objective it could take
        for w in range(s.ntiles):
            if not s.objective[w] or (ar.controlled >> w) & 1 or dist[w] > 2:
                continue
            # each step a Move (onto a tile with the army's marker), an
            # enemy token there to be driven off first: half the share each
            d = dist[w] + (1 if (enemy_tiles >> w) & 1 else 0) + (1 if dist[w] > 0 and not (mine >> w) & 1 else 0)
            share = 1.0 / (1 << d)
            if s.objective[w] * share > obj:
                obj = s.objective[w] * share
    elif U_SCOUT <= u < U_SCOUT + 3:                # Scout 2: a marker on an objective to move onto
        for w in range(s.ntiles):
            if s.objective[w] and not (mine >> w) & 1 and 0 < dist[w] <= 2:
                if 0.25 * s.objective[w] > obj:
                    obj = 0.25 * s.objective[w]
    best += obj
    if ar.token[u] != OFF and (ar.suppressed >> u) & 1:
        best *= USE_SUPPRESSED
    return best


cdef void zone_use_features(const UState *s, int a, const uint8_t (*rows)[32], double *f) noexcept nogil:
    """f[F_HAND_USE .. F_CYCLE_USE] of army a (the other entries untouched)."""
    cdef const Army *ar = &s.army[a]
    cdef double use[NCARD]
    cdef uint8_t own[32]
    cdef const uint8_t *dist
    cdef int c, u, t, nd = 0, np = 0
    cdef double hand = 0.0, deck = 0.0, pile = 0.0, supply = 0.0, cycle = 0.0
    cdef bint spawn_done = False
    for c in range(NCARD):
        use[c] = 0.0
    for u in range(NUNIT):
        c = u + 1
        if cycle_count(ar, c) + ar.supply[c] == 0:
            continue                                # no card of this unit can be played
        t = ar.token[u]
        if t != OFF:
            dist = rows[t]
        else:                                       # enters at the spawn tile
            if not spawn_done:
                bfs(s, ar.spawn, own)
                spawn_done = True
            dist = own
        use[c] = unit_use(s, a, u, dist)
    for c in range(1, C_SL):
        if turn_to_come(s, a):
            hand += expected_in_hand(s, a, c) * use[c]
        deck += ar.deck[c] * use[c]                 # on a view the pool: the same mean
        pile += (ar.discard[c] + ar.play[c]) * use[c]
        supply += ar.supply[c] * use[c]
        cycle += cycle_count(ar, c) * use[c]
    for c in range(NCARD):
        nd += ar.deck[c]
        np += ar.discard[c] + ar.play[c]
    f[F_HAND_USE] = hand
    f[F_DECK_USE] = ROUND_DRAW * deck / nd if nd > 0 else 0.0
    f[F_DISCARD_USE] = ROUND_DRAW * pile / np if np > 0 else 0.0
    f[F_SUPPLY_USE] = supply
    f[F_CYCLE_USE] = cycle


cdef inline double clamped_atanh2(double v) noexcept nogil:
    v = 0.999 if v > 0.999 else -0.999 if v < -0.999 else v
    return 2.0 * atanh(v)


cdef void plain_features(const UState *s, int player, double *out) noexcept nogil:
    """The features of the state as it stands (a pending roll not counted)."""
    cdef double mine[UND_NFEAT]
    cdef double yours[UND_NFEAT]
    cdef double r[2]
    cdef double v
    cdef int k, o = 1 - player
    cdef uint8_t rows[32][32]
    cdef double g
    token_distances(s, rows)
    if s.phase == PH_OVER:
        und_returns(s, r)
        v = r[player]
        g = v
    else:
        v = classic_value(s, player, rows)
        g = goal_value(s, player, rows)
    v = 0.999 if v > 0.999 else -0.999 if v < -0.999 else v
    out[F_CLASSIC] = 2.0 * atanh(v)
    army_features(s, player, rows, mine)
    army_features(s, o, rows, yours)
    for k in range(1, NFEAT):
        out[k] = mine[k] - yours[k]
    out[F_INITIATIVE] = 1.0 if s.initiative == player else -1.0
    out[F_CLASSIC_ROLL] = out[F_CLASSIC]
    out[F_GOAL] = clamped_atanh2(g)


# An attack whose roll is pending: every feature but classic is the
# chance-weighted mean of its value after each outcome of the roll (the
# outcomes and chances chance_outcomes gives, on a view too); classic_roll is
# the first release's value so averaged (a finished game counted as +-1)
# and put on the same 2 atanh scale. Without this a search that stops at the
# roll sees the card spent and nothing gained. classic reads the state as it
# stands, as the first release did, so that weights {classic = 1} still give
# the first release's evaluate() exactly.
# One roll deep: an outcome that leaves another roll pending (an Explode's
# next token) is read as it stands.
cdef void und_features(const void *state, int player, double *out) noexcept nogil:
    cdef const UState *s = <const UState *>state
    cdef UState after
    cdef ard_action acts[16]
    cdef double probs[16]
    cdef double f[UND_NFEAT]
    cdef double v = 0.0
    cdef int i, k, n
    cdef double goal_now
    plain_features(s, player, out)
    if s.phase != PH_ROLL:
        return
    goal_now = out[F_GOAL]      # goal, like classic, reads the state as it stands
    n = und_chance_outcomes(state, acts, probs)
    for k in range(1, NFEAT):
        out[k] = 0.0
    for i in range(n):
        memcpy(&after, s, sizeof(UState))
        und_apply(&after, acts[i])
        plain_features(&after, player, f)
        for k in range(1, NFEAT):
            out[k] += probs[i] * f[k]
        v += probs[i] * tanh(0.5 * f[F_CLASSIC])
    v = 0.999 if v > 0.999 else -0.999 if v < -0.999 else v
    out[F_CLASSIC_ROLL] = 2.0 * atanh(v)
    out[F_GOAL] = goal_now


cdef double und_evaluate(const void *state, int player) noexcept nogil:
    """tanh(W . f / 2); a finished game gives its returns."""
    cdef const UState *s = <const UState *>state
    cdef double r[2]
    cdef double f[UND_NFEAT]
    cdef double z
    cdef uint8_t rows[32][32]
    cdef double mine[UND_NFEAT]
    cdef double yours[UND_NFEAT]
    cdef int k
    cdef bint zones = False
    if s.phase == PH_OVER:
        und_returns(state, r)
        return r[player]
    # Weights on classic, goal and the zone-use features alone (the committed
    # ones, and mcts-v1's): the same number without the other features' cost
    # (a third of a simulation's), summed in the order ard_linear_value sums.
    # A pending roll averages the zone features over its outcomes: the full path.
    for k in range(1, NFEAT):
        if UND_WEIGHTS[k] != 0.0 and k != F_GOAL:
            if k < F_HAND_USE or s.phase == PH_ROLL:
                und_features(state, player, f)
                return ard_linear_value(UND_WEIGHTS, f, NFEAT)
            zones = True
    token_distances(s, rows)
    z = 0.0
    if UND_WEIGHTS[F_CLASSIC] != 0.0:
        z += UND_WEIGHTS[F_CLASSIC] * clamped_atanh2(classic_value(s, player, rows))
    if UND_WEIGHTS[F_GOAL] != 0.0:
        z += UND_WEIGHTS[F_GOAL] * clamped_atanh2(goal_value(s, player, rows))
    if zones:
        zone_use_features(s, player, rows, mine)
        zone_use_features(s, 1 - player, rows, yours)
        for k in range(F_HAND_USE, F_CYCLE_USE + 1):
            z += UND_WEIGHTS[k] * (mine[k] - yours[k])
    return tanh(0.5 * z)
