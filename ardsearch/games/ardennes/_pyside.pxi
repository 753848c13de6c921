# Included by _engine.pyx: the slow, friendly Python side for the package
# __init__ (GameSpec) and for tests: parameters, structured state, observation
# tensor, test and benchmark helpers. Nothing here is hot.

cdef int load_state(object raw, ArdState *s) except -1:
    cdef bytes b
    if not isinstance(raw, (bytes, bytearray, memoryview)):
        raise ValueError(f"an ardennes state is {sizeof(ArdState)} raw bytes, got {type(raw).__name__}")
    b = bytes(raw)
    if len(b) != sizeof(ArdState):
        raise ValueError(f"an ardennes state is {sizeof(ArdState)} bytes, got {len(b)}")
    memcpy(s, <const char *>b, sizeof(ArdState))
    return 0


cdef bytes state_bytes(const ArdState *s):
    return PyBytes_FromStringAndSize(<const char *>s, sizeof(ArdState))


VARIANTS = ("standard", "basic")
FIRST_RULES = ("random", "allies", "germans")


def pack_params(values):
    """Validated parameter values by name -> the ArdParams struct bytes."""
    cdef ArdParams prm
    memset(&prm, 0, sizeof(ArdParams))
    variant = values.get("variant", "standard")
    if variant not in VARIANTS:
        raise ValueError(f"parameter variant={variant!r}: expected standard or basic")
    road_length = values.get("road_length", 16)
    if isinstance(road_length, bool) or not isinstance(road_length, int) or not MIN_L <= road_length <= MAX_L:
        raise ValueError(f"parameter road_length={road_length!r}: expected an integer from 8 to 24")
    max_rounds = values.get("max_rounds", 80)
    if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or not 1 <= max_rounds <= 1000:
        raise ValueError(f"parameter max_rounds={max_rounds!r}: expected an integer from 1 to 1000")
    first = values.get("first", "random")
    if first not in FIRST_RULES:
        raise ValueError(f"parameter first={first!r}: expected random, allies or germans")
    if values.get("victory_cards", False):
        raise ValueError("parameter victory_cards=true is not supported: the rulebook does not print "
                         "the Victory card effects, so the engine draws none; use victory_cards=false")
    prm.variant = VARIANTS.index(variant)
    prm.road_length = road_length
    prm.max_rounds = max_rounds
    prm.first = FIRST_RULES.index(first)
    return PyBytes_FromStringAndSize(<const char *>&prm, sizeof(ArdParams))


def to_dict(raw):
    """The structured state (schema in RULES.md) of raw state bytes."""
    cdef ArdState s
    load_state(raw, &s)
    if s.phase == PH_OVER:
        to_move = "terminal"
    elif s.phase == PH_PLAY:
        to_move = SIDES[s.to_move]
    else:
        to_move = "chance"
    roads = []
    for r in range(NROADS):
        conq = None
        for p in range(2):
            if (s.conquered[p] >> r) & 1:
                conq = SIDES[p]
        roads.append({"road": r + 1,
                      "allies": [LETTER_STR[s.line[0][r][i]] for i in range(s.count[0][r])],
                      "germans": [LETTER_STR[s.line[1][r][i]] for i in range(s.count[1][r])],
                      "conquered": conq})
    objectives = {SIDES[p]: (s.objective[p] if 1 <= s.objective[p] <= NCARDS else None) for p in range(2)}
    winner = None
    if s.phase == PH_OVER:
        winner = "draw" if s.winner == WIN_DRAW else SIDES[s.winner]
    return {
        "game": "ardennes", "variant": VARIANTS[s.variant % 2], "road_length": s.road_length,
        "max_rounds": s.max_rounds, "round": s.round, "to_move": to_move, "ap": s.ap,
        "roads": roads,
        "stock": {SIDES[p]: {LETTER_STR[t]: s.stock[p][t] for t in range(NTYPES)} for p in range(2)},
        "objectives": objectives,
        "winner": winner,
    }


DICT_KEYS = ("game", "variant", "road_length", "max_rounds", "round", "to_move", "ap",
             "roads", "stock", "objectives", "winner", "first")
UNIT_NAMES = ("mine", "tank", "private", "corporal", "sergeant", "general", "spy",
              "command tank", "mortar")


def _dict_int(d, key, lo, hi, default):
    v = d.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError(f"{key}={v!r}: expected an integer from {lo} to {hi}")
    if not lo <= v <= hi:
        raise ValueError(f"{key}={v}: expected an integer from {lo} to {hi}")
    return v


def _dict_choice(d, key, choices, default):
    v = d.get(key, default)
    if v not in choices:
        raise ValueError(f"{key}={v!r}: expected one of {', '.join(map(str, choices))}")
    return v


def from_dict(d, params=None):
    """Structured state (a decision point) -> raw state bytes; ValueError naming the problem.

    Besides the schema keys, an optional "first": "allies"|"germans" says who
    started the game (it decides when a round ends). Without it the game's
    `params` decide when given (first=allies|germans), else the Allies.
    Missing variant, road_length and max_rounds also come from `params`.
    "stock" may be left out (it is then what is not on the board). Give both
    objective cards for a full state; with one of them null the result is the
    view of the player whose card is given.
    """
    cdef ArdState s
    cdef char msg[160]
    if not isinstance(d, dict):
        raise ValueError(f"an ardennes structured state is a dict, got {type(d).__name__}")
    unknown = [k for k in d if k not in DICT_KEYS]
    if unknown:
        raise ValueError(f"unknown key(s) {', '.join(map(repr, unknown))}: expected {', '.join(DICT_KEYS)}")
    if d.get("game", "ardennes") != "ardennes":
        raise ValueError(f"game={d.get('game')!r}: this is the ardennes engine")
    for key in ("to_move", "roads", "objectives"):
        if key not in d:
            raise ValueError(f"missing key {key!r}")
    params = params or {}
    variant = _dict_choice(d, "variant", VARIANTS, params.get("variant", "standard"))
    L = _dict_int(d, "road_length", MIN_L, MAX_L, params.get("road_length", 16))
    max_rounds = _dict_int(d, "max_rounds", 1, 1000, params.get("max_rounds", 80))
    rnd = _dict_int(d, "round", 1, max_rounds, 1)
    ap = _dict_int(d, "ap", 0, START_AP, START_AP)
    to_move = d["to_move"]
    if to_move in ("chance", "terminal"):
        raise ValueError(f"to_move={to_move!r}: a structured state sets up a decision point; "
                         "use allies or germans (start from new_initial_state for the setup draws)")
    to_move = _dict_choice(d, "to_move", SIDES, None)
    if d.get("winner") is not None:
        raise ValueError(f"winner={d['winner']!r}: a structured state sets up a game in play; winner must be null")
    first_rule = params.get("first", "random")
    first = _dict_choice(d, "first", SIDES, first_rule if first_rule in SIDES else "allies")
    if first_rule in SIDES and first != first_rule:
        raise ValueError(f"first={first!r} but this game is set up with first={first_rule}")

    memset(&s, 0, sizeof(ArdState))
    s.variant = VARIANTS.index(variant)
    s.road_length = L
    s.max_rounds = max_rounds
    s.first_rule = FIRST_RULES.index(first_rule) if first_rule in FIRST_RULES else 0
    s.viewer = -1
    s.phase = PH_PLAY
    s.starter = SIDES.index(first)
    s.to_move = SIDES.index(to_move)
    s.ap = ap
    s.round = rnd
    s.winner = WIN_NONE

    # roads
    roads = d["roads"]
    if not isinstance(roads, list) or len(roads) != NROADS:
        raise ValueError("roads: expected a list of 7 road entries")
    seen = set()
    for entry in roads:
        if not isinstance(entry, dict):
            raise ValueError(f"roads: each entry is a dict, got {type(entry).__name__}")
        bad = [k for k in entry if k not in ("road", "allies", "germans", "conquered")]
        if bad:
            raise ValueError(f"roads: unknown key(s) {', '.join(map(repr, bad))}: expected road, allies, germans, conquered")
        rn = entry.get("road")
        if isinstance(rn, bool) or not isinstance(rn, int) or not 1 <= rn <= NROADS:
            raise ValueError(f"roads: road={rn!r}: expected an integer from 1 to 7")
        if rn in seen:
            raise ValueError(f"roads: road {rn} is listed twice")
        seen.add(rn)
        r = rn - 1
        for p, side in enumerate(SIDES):
            units = entry.get(side, [])
            if not isinstance(units, (list, tuple)):
                raise ValueError(f"road {rn}: {side} must be a list of unit letters, got {type(units).__name__}")
            if len(units) > MAXUNITS - 1:
                raise ValueError(f"road {rn}: {side} line has {len(units)} units; it can hold at most 15")
            for i, u in enumerate(units):
                if not isinstance(u, str) or len(u) != 1 or u not in LETTER_STR:
                    raise ValueError(f"road {rn}: {side} unit {u!r} is not one of the letters {LETTER_STR}")
                t = LETTER_STR.index(u)
                if variant == "basic" and t >= U_GENERAL:
                    raise ValueError(f"road {rn}: {side} unit {u} ({UNIT_NAMES[t]}) does not exist in the basic variant")
                s.line[p][r][i] = t
                s.length[p][r] += UNIT_LEN[t]
            s.count[p][r] = len(units)
        used = s.length[0][r] + s.length[1][r]
        if used > L:
            raise ValueError(f"road {rn}: the lines cover {s.length[0][r]} + {s.length[1][r]} = {used} tiles "
                             f"but the road has {L}: lines would overlap or stick out past its end")
        full_by = None
        for p in range(2):
            if s.length[p][r] == L:
                s.conquered[p] |= 1 << r
                full_by = SIDES[p]
        conq = entry.get("conquered")
        if conq not in (None, "allies", "germans"):
            raise ValueError(f"road {rn}: conquered={conq!r}: expected null, allies or germans")
        if conq != full_by:
            if full_by is None:
                raise ValueError(f"road {rn}: conquered={conq!r} but the {conq} line does not fill the road")
            raise ValueError(f"road {rn}: the {full_by} line fills the road, so conquered must be {full_by!r}, not {conq!r}")

    # units on board against each player's set, specials, stock
    stock = d.get("stock")
    if stock is not None and (not isinstance(stock, dict) or set(stock) - set(SIDES)):
        raise ValueError("stock: expected {\"allies\": {letter: count}, \"germans\": {...}}")
    for p, side in enumerate(SIDES):
        on_board = [0] * NTYPES
        specials = []
        for r in range(NROADS):
            for i in range(s.count[p][r]):
                t = s.line[p][r][i]
                on_board[t] += 1
                if t >= U_GENERAL:
                    specials.append(f"{LETTER_STR[t]} on road {r + 1}")
        if len(specials) > 1:
            raise ValueError(f"{side} have {len(specials)} special units on the board ({', '.join(specials)}); "
                             "at most one is allowed")
        given = {} if stock is None else stock.get(side, {})
        if not isinstance(given, dict):
            raise ValueError(f"stock {side}: expected a dict of unit letter -> count")
        bad = [k for k in given if k not in LETTER_STR or len(k) != 1]
        if bad:
            raise ValueError(f"stock {side}: unknown unit letter(s) {', '.join(map(repr, bad))}: expected {LETTER_STR}")
        for t in range(NTYPES):
            full = full_stock(&s, t)
            if on_board[t] > full:
                raise ValueError(f"{side} have {on_board[t]} {UNIT_NAMES[t]} unit(s) ({LETTER_STR[t]}) on the board "
                                 f"but own only {full}")
            n = given.get(LETTER_STR[t], full - on_board[t])
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise ValueError(f"stock {side} {LETTER_STR[t]}={n!r}: expected a count >= 0")
            if n + on_board[t] != full:
                raise ValueError(f"stock {side} {LETTER_STR[t]}={n}: with {on_board[t]} on the board that makes "
                                 f"{n + on_board[t]} {UNIT_NAMES[t]} unit(s), but a player has exactly {full}")
            s.stock[p][t] = n

    # objectives
    obj = d["objectives"]
    if not isinstance(obj, dict) or set(obj) - set(SIDES):
        raise ValueError("objectives: expected {\"allies\": card 1..8 or null, \"germans\": card 1..8 or null}")
    cards = []
    for side in SIDES:
        k = obj.get(side)
        if k is not None and (isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= NCARDS):
            raise ValueError(f"objectives {side}={k!r}: expected a card number 1..8 or null")
        cards.append(k)
    if cards[0] is None and cards[1] is None:
        raise ValueError("objectives: both are null; at a decision point both players hold a card: "
                         "give card numbers 1..8 (one null makes the view of the other player)")
    if cards[0] is not None and cards[0] == cards[1]:
        raise ValueError(f"objectives: both players hold card {cards[0]}; the two cards drawn are different")
    for p in range(2):
        if cards[p] is None:
            s.objective[p] = CARD_UNKNOWN
            s.viewer = 1 - p
        else:
            s.objective[p] = cards[p]
    for p, side in enumerate(SIDES):
        if POPCOUNT[s.conquered[p]] >= 3:
            raise ValueError(f"{side} have conquered {POPCOUNT[s.conquered[p]]} roads: the game would be over")
        k = s.objective[p]
        if 1 <= k <= NCARDS and (s.conquered[p] & CARD_MASK[k]) == CARD_MASK[k]:
            raise ValueError(f"{side} have conquered both roads of their objective card {k}: the game would be over")
    if ard_validate(&s, msg, sizeof(msg)):
        raise ValueError(msg.decode("ascii", "replace"))
    return state_bytes(&s)


# Observation tensor: planes x 7 roads x 24 tiles, from the observer's side:
# tile 0 is the observer's own starting block and, for the Germans, roads are
# mirrored (their left is the Allied right), so both sides see the same picture.
OBS_PLANES = 47
OBSERVATION_SHAPE = (OBS_PLANES, NROADS, MAX_L)


def observation_tensor(raw, int player):
    """numpy float32 (47, 7, 24) of what `player` sees (never the opponent's card).

    planes 0-8 own units by type, 9-17 enemy units by type, 18 own unit rear
    tiles, 19 enemy unit rear tiles (from the enemy's block), 20 tile exists,
    21/22 road conquered by me/enemy, 23 road on my objective card, 24 my turn,
    25 AP/4, 26 round/max_rounds, 27 I am the Allies, 28 game in play,
    29-37 my stock / full set, 38-46 enemy stock / full set.
    """
    cdef ArdState s
    cdef int q, o, r, rr, i, t, d, k, L, rel
    if player not in (0, 1):
        raise ValueError(f"player={player}: expected 0 or 1")
    load_state(raw, &s)
    obs = np.zeros(OBSERVATION_SHAPE, dtype=np.float32)
    cdef float[:, :, :] x = obs
    L = s.road_length
    o = 1 - player
    for r in range(NROADS):
        rr = r if player == 0 else NROADS - 1 - r
        for rel in range(2):
            q = player if rel == 0 else o
            d = 0
            for i in range(s.count[q][r]):
                t = s.line[q][r][i]
                # own units counted from my block; enemy units from theirs,
                # converted to my tile index (L-1-depth)
                for k in range(UNIT_LEN[t]):
                    x[rel * NTYPES + t, rr, d + k if rel == 0 else L - 1 - d - k] = 1.0
                x[18 + rel, rr, d if rel == 0 else L - 1 - d] = 1.0
                d += UNIT_LEN[t]
        for i in range(L):
            x[20, rr, i] = 1.0
            if (s.conquered[player] >> r) & 1:
                x[21, rr, i] = 1.0
            if (s.conquered[o] >> r) & 1:
                x[22, rr, i] = 1.0
            if 1 <= s.objective[player] <= NCARDS and (CARD_MASK[s.objective[player]] >> r) & 1:
                x[23, rr, i] = 1.0
    obs[24] = 1.0 if (s.phase == PH_PLAY and s.to_move == player) else 0.0
    obs[25] = s.ap / 4.0
    obs[26] = s.round / <float>s.max_rounds
    obs[27] = 1.0 if player == 0 else 0.0
    obs[28] = 1.0 if s.phase == PH_PLAY else 0.0
    for t in range(NTYPES):
        if full_stock(&s, t):
            obs[29 + t] = s.stock[player][t] / <float>full_stock(&s, t)
            obs[38 + t] = s.stock[o][t] / <float>full_stock(&s, t)
    return obs


# ----------------------------------------------------------------- test helpers
# Thin wrappers over the vtable functions on raw bytes, for unit tests that do
# not go through ardsearch._core.

def _new(params=None):
    cdef ArdState s
    cdef bytes prm = pack_params(params or {})
    ard_init(&s, <const char *>prm, 0)
    return state_bytes(&s)


def _validate(raw):
    """None if the bytes are a valid state, else the reason."""
    cdef ArdState s
    cdef char msg[160]
    b = bytes(raw)
    if len(b) != sizeof(ArdState):
        return f"wrong size {len(b)}"
    memcpy(&s, <const char *>b, sizeof(ArdState))
    if ard_validate(&s, msg, sizeof(msg)):
        return msg.decode("ascii", "replace")
    return None


def _current(raw):
    cdef ArdState s
    load_state(raw, &s)
    return ard_current_player(&s)


def _legal(raw):
    cdef ArdState s
    cdef ard_action out[MAX_LEGAL]
    load_state(raw, &s)
    return [out[i] for i in range(ard_legal_actions(&s, out))]


def _chance(raw):
    cdef ArdState s
    cdef ard_action acts[MAX_LEGAL]
    cdef double probs[MAX_LEGAL]
    load_state(raw, &s)
    n = ard_chance_outcomes(&s, acts, probs)
    return [(acts[i], probs[i]) for i in range(n)]


def _apply(raw, int action):
    cdef ArdState s
    load_state(raw, &s)
    ard_apply(&s, action)
    return state_bytes(&s)


def _returns(raw):
    cdef ArdState s
    cdef double out[2]
    load_state(raw, &s)
    ard_returns(&s, out)
    return [out[0], out[1]]


def _evaluate_classic(raw, int player):
    """The hand-set evaluation the feature "classic" is made of."""
    cdef ArdState s
    load_state(raw, &s)
    return ard_evaluate_classic(&s, player)


def _evaluate(raw, int player):
    cdef ArdState s
    load_state(raw, &s)
    return ard_evaluate(&s, player)


def _hash(raw):
    cdef ArdState s
    load_state(raw, &s)
    return ard_hash(&s)


def _observe(raw, int player):
    cdef ArdState s
    load_state(raw, &s)
    ard_observe(&s, player, &s)
    return state_bytes(&s)


def _determinize(raw, int player, uint64_t seed):
    cdef ArdState s
    cdef ard_rng rng
    load_state(raw, &s)
    ard_rng_seed(&rng, seed)
    ard_determinize(&s, player, &rng)
    return state_bytes(&s)


def _visible(raw, int action, int player):
    cdef ArdState s
    load_state(raw, &s)
    return ard_action_visible(&s, action, player)


def _sample(raw, uint64_t seed):
    cdef ArdState s
    cdef ard_rng rng
    load_state(raw, &s)
    ard_rng_seed(&rng, seed)
    return ard_sample_chance(&s, &rng)


def _to_string(int action):
    cdef char buf[32]
    n = ard_action_to_string(NULL, action, buf, sizeof(buf))
    return None if n < 0 else buf[:n].decode("ascii")


def _from_string(text):
    cdef bytes b = text.encode("utf-8")
    return ard_string_to_action(NULL, b)


# ----------------------------------------------------------------- benchmarks
cdef long playout(const ard_game *g, void *st, ard_rng *rng, ard_action *buf) noexcept nogil:
    """One uniformly random game through the vtable; returns the actions played."""
    cdef long steps = 0
    cdef int p, n
    while True:
        p = g.current_player(st)
        if p == ARD_TERMINAL:
            return steps
        if p == ARD_CHANCE:
            g.apply(st, g.sample_chance(st, rng))
        else:
            n = g.legal_actions(st, buf)
            g.apply(st, buf[ard_rng_below(rng, n)])
        steps += 1


def _bench_playouts(int games, uint64_t seed, params=None):
    """Random playouts through the vtable with the GIL released: (actions, seconds)."""
    cdef ArdState start, st
    cdef ard_rng rng
    cdef ard_action buf[MAX_LEGAL]
    cdef long total = 0
    cdef int i
    cdef const ard_game *g = &ARD_GAME
    cdef bytes prm = pack_params(params or {})
    g.init(&start, <const char *>prm, 0)
    ard_rng_seed(&rng, seed)
    t0 = time.perf_counter()
    with nogil:
        for i in range(games):
            memcpy(&st, &start, sizeof(ArdState))
            total += playout(g, &st, &rng, buf)
    return total, time.perf_counter() - t0


cdef int greedy_pick(const ard_game *g, const ArdState *s, ard_action *buf, int n,
                     ard_rng *rng) noexcept nogil:
    cdef ArdState child
    cdef int i, best = 0, p = g.current_player(s), ties = 0
    cdef double v, best_v = -2.0
    for i in range(n):
        memcpy(&child, s, sizeof(ArdState))
        g.apply(&child, buf[i])
        v = g.evaluate(&child, p)
        if v > best_v + 1e-12:
            best_v = v
            best = i
            ties = 1
        elif v > best_v - 1e-12:
            ties += 1                       # reservoir pick among equal values
            if ard_rng_below(rng, ties) == 0:
                best = i
    return best


def _greedy_vs_random(int games, uint64_t seed, params=None):
    """One-ply greedy on evaluate against uniform random, sides alternating:
    (greedy wins, greedy losses, draws)."""
    cdef ArdState start, st
    cdef ard_rng rng
    cdef ard_action buf[MAX_LEGAL]
    cdef double ret[2]
    cdef int i, p, n, greedy_side, wins = 0, losses = 0, draws = 0
    cdef const ard_game *g = &ARD_GAME
    cdef bytes prm = pack_params(params or {})
    g.init(&start, <const char *>prm, 0)
    ard_rng_seed(&rng, seed)
    with nogil:
        for i in range(games):
            greedy_side = i % 2
            memcpy(&st, &start, sizeof(ArdState))
            while True:
                p = g.current_player(&st)
                if p == ARD_TERMINAL:
                    break
                if p == ARD_CHANCE:
                    g.apply(&st, g.sample_chance(&st, &rng))
                    continue
                n = g.legal_actions(&st, buf)
                if p == greedy_side:
                    g.apply(&st, buf[greedy_pick(g, &st, buf, n, &rng)])
                else:
                    g.apply(&st, buf[ard_rng_below(&rng, n)])
            g.returns(&st, ret)
            if ret[greedy_side] > 0:
                wins += 1
            elif ret[greedy_side] < 0:
                losses += 1
            else:
                draws += 1
    return wins, losses, draws


def objective_codes(raw):
    """(allies, germans) objective fields: 0 not drawn, 1..8 the card, 9 hidden in this view."""
    cdef ArdState s
    load_state(raw, &s)
    return (s.objective[0], s.objective[1])
