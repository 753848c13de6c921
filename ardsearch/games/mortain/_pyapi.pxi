# Included by _engine.pyx: the Python-side helpers the GameSpec needs
# (parameters, structured state, observation tensor), small raw-bytes
# accessors used by the tests, and the playout benchmark.

PHASES = ("setup", "draw", "act", "combat", "redraw", "over")
SIDES = ("german", "us")
STRIKES = ("ground", "air", "oba")
STATE_SIZE = sizeof(MState)
NUM_ACTIONS_PY = NUM_ACTIONS
OBSERVATION_SHAPE = (29, ROWS, COLS)


def unit_ids():
    return [u.id for u in SCENARIO.units]


def hex_name(int h):
    return f"{h // ROWS + 1:02d}{h % ROWS + 1:02d}"


# For the refusal reasons (_illegal_reasons.py), so the hex geometry lives only in the engine.
def hex_distance(a, b):
    """Hexes between two hexes named like '0704', from the engine's distance
    table; ValueError on a name that is not a hex of the map."""
    return DIST[_scenario.hex_index(a)][_scenario.hex_index(b)]


def card_name(int c):
    if c == JOKER:
        return "joker"
    return ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")[c // 2] + ("r" if c & 1 else "b")


CARD_NAMES = [card_name(c) for c in range(NCLASS)]


def pack_params(values):
    """{'setup': 'free'|'historical', 'strike_terrain': 'errata'|'variant'} -> MParams bytes.
    A parameter left out takes the game's default (PARAMS in __init__.py):
    setup=free (the US setup phase), strike_terrain=errata."""
    cdef MParams p
    p.setup_free = 1 if values.get("setup", "free") == "free" else 0
    p.strike_variant = 1 if values.get("strike_terrain", "errata") == "variant" else 0
    return (<char *>&p)[:sizeof(MParams)]


cdef MState load_raw(raw) except *:
    cdef MState s
    if not isinstance(raw, (bytes, bytearray)) or len(raw) != sizeof(MState):
        raise ValueError(f"mortain state must be {sizeof(MState)} bytes, got "
                         f"{len(raw) if isinstance(raw, (bytes, bytearray)) else type(raw).__name__}")
    memcpy(&s, <const char *>raw, sizeof(MState))
    return s


cdef bytes dump_raw(MState *s):
    return (<char *>s)[:sizeof(MState)]


def check(raw):
    """None if the raw state is valid, else the reason."""
    cdef MState s = load_raw(raw)
    cdef char msg[ARD_MESSAGE_MAX]
    if m_validate(&s, msg, ARD_MESSAGE_MAX):
        return msg.decode()
    return None


def _where(int loc):
    if loc < NHEX:
        return hex_name(loc)
    return {LOC_RESERVE: "reserve", LOC_EXITED: "exited", LOC_DEAD: "eliminated"}.get(loc, f"?{loc}")


def to_dict(raw):
    """The structured state (schema in RULES.md)."""
    cdef MState s = load_raw(raw)
    ids = unit_ids()
    attack = None
    if s.phase in (PH_COMBAT, PH_REDRAW):
        attack = {"kind": STRIKES[s.strike] if s.strike <= ST_OBA else "?",
                  "firers": [ids[u] for u in (s.firer[0], s.firer[1]) if u < NU],
                  "target": ids[s.target] if s.target < NU else None}
    return {
        "game": "mortain",
        "turn": s.turn,
        "phase": PHASES[s.phase] if s.phase <= PH_OVER else "?",
        "params": {"setup": "free" if s.setup_free else "historical",
                   "strike_terrain": "variant" if s.strike_variant else "errata"},
        "units": {ids[u]: {"at": _where(s.loc[u]), "reduced": bool((s.reduced >> u) & 1)} for u in range(NU)},
        "deck": {CARD_NAMES[c]: s.deck[c] for c in range(NCLASS)},
        "active": SIDES[s.active & 1],
        "card": CARD_NAMES[s.card] if s.card < NCLASS else None,
        "activations_left": s.acts_left,
        "card_fresh": bool(s.card_fresh),
        "stack": [ids[u] for u in range(NU) if (s.stack_mask >> u) & 1],
        "activated": [SIDES[k] for k in range(2) if (s.drawn >> k) & 1],
        "air_used": bool(s.air_used),
        "interdicted": hex_name(s.interdict) if s.interdict < NHEX else None,
        "exits": s.exits,
        "attack": attack,
        "winner": SIDES[s.winner] if s.winner <= 1 else None,
        "viewer": s.viewer,
    }


_KEYS = {"game", "turn", "phase", "params", "units", "deck", "active", "card", "activations_left",
         "card_fresh", "stack", "activated", "air_used", "interdicted", "exits",
         "attack", "winner", "viewer"}
# Read but no longer written: `setup_next` named the next unit of a setup made in
# the scenario file's order; the order is free now and the units still to place are
# the non-CC US units in reserve (RULES.md, Structured state).
_OLD_KEYS = {"setup_next"}


def _pick(d, key, choices):
    v = d[key]
    if v not in choices:
        raise ValueError(f"mortain state: key {key!r}: expected one of {', '.join(map(str, choices))}, got {v!r}")
    return choices.index(v)


def _int_in(d, key, lo, hi):
    v = d[key]
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise ValueError(f"mortain state: key {key!r}: expected an integer from {lo} to {hi}, got {v!r}")
    return v


def _hex_or(v, key, extra):
    if v in extra:
        return extra[v]
    try:
        return _scenario.hex_index(v)
    except ValueError as e:
        raise ValueError(f"mortain state: {key}: {e}") from None


def from_dict(d, game_params=None):
    """Structured state -> raw bytes. Keys left out take their value in the
    initial historical position, and the parameters those of the game
    (`game_params`, from load_game); ValueError names any bad key or value."""
    cdef MState s
    cdef int u
    if not isinstance(d, dict):
        raise ValueError(f"mortain state: expected a dict, got {type(d).__name__}")
    unknown = set(d) - _KEYS - _OLD_KEYS
    if unknown:
        raise ValueError(f"mortain state: unknown keys {sorted(unknown)} (known: {sorted(_KEYS)})")
    params = d.get("params", {})
    if not isinstance(params, dict) or set(params) - {"setup", "strike_terrain"}:
        raise ValueError("mortain state: key 'params': expected a dict with 'setup' and/or 'strike_terrain'")
    if game_params:
        for k, v in params.items():
            if k in game_params and game_params[k] != v:
                raise ValueError(f"mortain state: params.{k} is {v!r} but the game was loaded with "
                                 f"{k}={game_params[k]!r}; load the game with {k}={v!r}")
        params = {k: game_params[k] for k in ("setup", "strike_terrain") if k in game_params} | params
    # the historical position (whatever the game's setup parameter): a partial dict names
    # the units it moves and leaves the others where the scenario file sets them up
    base = dict(to_dict(initial_raw(pack_params({"setup": "historical",
                                                 "strike_terrain": params.get("strike_terrain", "errata")}))))
    base["params"] = {**base["params"], **params}
    for k, v in d.items():
        if k not in ("units", "deck", "params") and k not in _OLD_KEYS:
            base[k] = v
    ids = unit_ids()
    units = d.get("units", {})
    if not isinstance(units, dict):
        raise ValueError("mortain state: key 'units': expected a dict of unit id -> {'at': ..., 'reduced': ...}")
    for uid, v in units.items():
        if uid not in ids:
            raise ValueError(f"mortain state: units: unknown unit {uid!r} (known: {', '.join(ids)})")
        if not isinstance(v, dict) or set(v) - {"at", "reduced"}:
            raise ValueError(f"mortain state: units.{uid}: expected a dict with 'at' and/or 'reduced'")
        base["units"][uid] = {**base["units"][uid], **v}
    deck = d.get("deck")
    if deck is not None:
        if not isinstance(deck, dict) or set(deck) - set(CARD_NAMES):
            raise ValueError(f"mortain state: key 'deck': expected a dict of card -> count with cards {' '.join(CARD_NAMES)}")
        base["deck"] = {c: 0 for c in CARD_NAMES}
        base["deck"].update(deck)
    memset(&s, 0, sizeof(MState))
    s.setup_free = _pick(base["params"], "setup", ["historical", "free"])
    s.strike_variant = _pick(base["params"], "strike_terrain", ["errata", "variant"])
    s.turn = _int_in(base, "turn", 1, S_TURNS)
    s.phase = _pick(base, "phase", list(PHASES))
    exits = 0
    for u, uid in enumerate(ids):
        v = base["units"][uid]
        s.loc[u] = _hex_or(v.get("at"), f"units.{uid}.at",
                           {"reserve": LOC_RESERVE, "exited": LOC_EXITED, "eliminated": LOC_DEAD})
        exits += s.loc[u] == LOC_EXITED
        if not isinstance(v.get("reduced", False), bool):
            raise ValueError(f"mortain state: units.{uid}.reduced: expected true or false")
        if v.get("reduced", False):
            s.reduced |= <uint32_t>1 << u
    for c, name in enumerate(CARD_NAMES):
        n = base["deck"][name]
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= (1 if c == JOKER else 2):
            raise ValueError(f"mortain state: deck.{name}: expected an integer from 0 to {1 if c == JOKER else 2}, got {n!r}")
        s.deck[c] = n
    card = base["card"]
    if card is None:
        s.card = NONE
    elif card in CARD_NAMES[:JOKER]:
        s.card = CARD_NAMES.index(card)
    else:
        raise ValueError(f"mortain state: key 'card': expected null or a card like '8b' or 'Jr', got {card!r}")
    if "active" in d or s.card == NONE:
        s.active = _pick(base, "active", list(SIDES))
    else:
        s.active = s.card & 1
    r = card_rank(s.card) if s.card != NONE else 0
    if "activations_left" in d:
        s.acts_left = _int_in(base, "activations_left", 0, 5)
    elif s.phase == PH_ACT and 0 < r <= 10:
        s.acts_left = (r + 1) // 2
    else:
        s.acts_left = 0
    stack = base["stack"]
    if not isinstance(stack, list) or any(x not in ids for x in stack):
        raise ValueError("mortain state: key 'stack': expected a list of unit ids")
    for x in stack:
        s.stack_mask |= <uint32_t>1 << ids.index(x)
    if "card_fresh" in d:
        if not isinstance(d["card_fresh"], bool):
            raise ValueError("mortain state: key 'card_fresh': expected true or false")
        s.card_fresh = d["card_fresh"]
    elif s.phase == PH_ACT:
        s.card_fresh = (s.acts_left == (r + 1) // 2) if r <= 10 else (s.stack_mask == 0)
    activated = base["activated"]
    if "activated" not in d and s.card != NONE:
        activated = [SIDES[s.active]]
    if not isinstance(activated, list) or any(x not in SIDES for x in activated):
        raise ValueError("mortain state: key 'activated': expected a list of 'german' / 'us'")
    s.drawn = sum(1 << SIDES.index(x) for x in set(activated))
    if not isinstance(base["air_used"], bool):
        raise ValueError("mortain state: key 'air_used': expected true or false")
    s.air_used = base["air_used"]
    s.interdict = NONE if base["interdicted"] is None else _hex_or(base["interdicted"], "interdicted", {})
    if "interdicted" in d and s.interdict != NONE and "air_used" not in d:
        s.air_used = 1
    s.exits = exits
    if "exits" in d and d["exits"] != exits:
        raise ValueError(f"mortain state: key 'exits': {d['exits']!r} but {exits} units are marked exited")
    to_place = [ids[u] for u in range(NSIDE, NU) if s.loc[u] == LOC_RESERVE and not U_REINF[u]]
    s.setup_left = len(to_place) if s.phase == PH_SETUP else 0
    if s.phase == PH_SETUP and not to_place:
        raise ValueError("mortain state: phase 'setup' but every US unit is placed (the units to place "
                         "are the US units but CCA/B/R with 'at': 'reserve')")
    nxt = d.get("setup_next")     # an older dict: the unit it names must be one still to place
    if nxt is not None:
        if nxt not in ids[NSIDE:]:
            raise ValueError(f"mortain state: key 'setup_next': expected null or a US unit id, got {nxt!r}")
        if s.phase != PH_SETUP or nxt not in to_place:
            raise ValueError(f"mortain state: key 'setup_next': {nxt!r} is not a US unit still to place "
                             f"(still to place: {', '.join(to_place) or 'none'})")
    s.firer[0] = NONE
    s.firer[1] = NONE
    s.target = NONE
    s.strike = ST_GROUND
    attack = base["attack"]
    if attack is not None:
        if not isinstance(attack, dict) or set(attack) - {"kind", "firers", "target"}:
            raise ValueError("mortain state: key 'attack': expected null or {'kind', 'firers', 'target'}")
        s.strike = _pick(attack, "kind", list(STRIKES))
        firers = attack.get("firers", [])
        if not isinstance(firers, list) or len(firers) > 2 or any(x not in ids for x in firers):
            raise ValueError("mortain state: attack.firers: expected a list of at most 2 unit ids")
        for k, x in enumerate(firers):
            s.firer[k] = ids.index(x)
        if attack.get("target") not in ids:
            raise ValueError(f"mortain state: attack.target: expected a unit id, got {attack.get('target')!r}")
        s.target = ids.index(attack["target"])
    w = base["winner"]
    s.winner = NONE if w is None else _pick(base, "winner", list(SIDES))
    s.viewer = _int_in(base, "viewer", -1, 1)
    raw = dump_raw(&s)
    problem = check(raw)
    if problem:
        raise ValueError(f"mortain state: {problem}")
    return raw


def observation_tensor(raw, int player):
    """float32 planes (29, rows, cols): terrain one-hot (5); units per side,
    kind and step (12); the Tiger; interdiction; the activated stack; the
    attack target; then constant planes: turn, exits, activations left,
    card rank, card red, cards left, air used, `player` is German."""
    cdef MState s = load_raw(raw)
    cdef int u, h
    out = np.zeros(OBSERVATION_SHAPE, dtype=np.float32)
    for h in range(NHEX):
        out[min(SCENARIO.hex_terrain[h], 4), h % ROWS, h // ROWS] = 1.0
    for u in range(NU):
        h = s.loc[u]
        if h < NHEX:
            out[5 + side_of(u) * 6 + U_KIND[u] * 2 + ((s.reduced >> u) & 1), h % ROWS, h // ROWS] += 1.0
            if u == TIGER:
                out[17, h % ROWS, h // ROWS] = 1.0
            if (s.stack_mask >> u) & 1:
                out[19, h % ROWS, h // ROWS] = 1.0
            if u == s.target:
                out[20, h % ROWS, h // ROWS] = 1.0
    for h in range(NHEX):
        if interdicted(&s, h):
            out[18, h % ROWS, h // ROWS] = 1.0
    out[21] = (s.turn - 1) / max(1, S_TURNS - 1)
    out[22] = s.exits / S_EXITS
    out[23] = s.acts_left / 5.0
    out[24] = card_rank(s.card) / 13.0 if s.card < JOKER else 0.0
    out[25] = float(s.card < JOKER and (s.card & 1))
    out[26] = deck_total(&s) / 53.0
    out[27] = float(s.air_used)
    out[28] = float(player == 0)
    return out


# ----------------------------------------------- raw accessors (tests) ----
def initial_raw(params=None, uint64_t seed=0):
    cdef MState s
    p = params if params is not None else pack_params({})
    m_init(&s, <const char *>p, seed)
    return dump_raw(&s)


def legal(raw):
    cdef MState s = load_raw(raw)
    cdef ard_action buf[MAX_LEGAL]
    cdef int n = m_legal_actions(&s, buf)
    return [buf[i] for i in range(n)]


def chance(raw):
    cdef MState s = load_raw(raw)
    cdef ard_action acts[NCLASS]
    cdef double probs[NCLASS]
    cdef int n = m_chance_outcomes(&s, acts, probs)
    return [(acts[i], probs[i]) for i in range(n)]


def apply(raw, int action):
    cdef MState s = load_raw(raw)
    m_apply(&s, action)
    return dump_raw(&s)


def player(raw):
    cdef MState s = load_raw(raw)
    return m_current_player(&s)


def action_text(raw, int action):
    cdef MState s = load_raw(raw)
    cdef char buf[64]
    cdef int n = m_action_to_string(&s, action, buf, ARD_NOTATION_MAX)
    return None if n < 0 else buf[:n].decode()


def parse(raw, text):
    cdef MState s = load_raw(raw)
    b = text.encode()
    return m_string_to_action(&s, b)


def returns(raw):
    cdef MState s = load_raw(raw)
    cdef double out[2]
    m_returns(&s, out)
    return [out[0], out[1]]


def _evaluate_classic(raw, int p):
    """The hand-set evaluation the feature "classic" is made of."""
    cdef MState s = load_raw(raw)
    return m_evaluate_classic(&s, p)


def evaluate(raw, int p):
    cdef MState s = load_raw(raw)
    return m_evaluate(&s, p)


def hash_raw(raw):
    cdef MState s = load_raw(raw)
    return m_hash(&s)


cdef long long perft_c(MState *s, int depth) noexcept nogil:
    cdef ard_action acts[MAX_LEGAL]
    cdef double probs[NCLASS]
    cdef int n, i, cp
    cdef long long total = 0
    cdef MState child
    if depth == 0:
        return 1
    cp = m_current_player(s)
    if cp == ARD_TERMINAL:
        return 1
    if cp == ARD_CHANCE:
        n = m_chance_outcomes(s, acts, probs)
    else:
        n = m_legal_actions(s, acts)
    for i in range(n):
        memcpy(&child, s, sizeof(MState))
        m_apply(&child, acts[i])
        total += perft_c(&child, depth - 1)
    return total


def perft(raw, int depth):
    """Leaves at `depth` (chance nodes expanded over all outcomes; terminal states count 1)."""
    cdef MState s = load_raw(raw)
    return perft_c(&s, depth)


def _bench_playouts(int n, uint64_t seed, params=None):
    """n uniformly random games through the vtable with the GIL released;
    returns (actions, seconds, german_wins)."""
    cdef MState s
    cdef ard_rng rng
    cdef ard_action acts[MAX_LEGAL]
    cdef long long total = 0
    cdef int g, k, cp, wins = 0
    cdef const ard_game *vt = &VTABLE
    p = params if params is not None else pack_params({})
    cdef const char *pp = p
    ard_rng_seed(&rng, seed)
    t0 = _time.perf_counter()
    with nogil:
        for g in range(n):
            vt.init(&s, pp, seed + g)
            while True:
                cp = vt.current_player(&s)
                if cp == ARD_TERMINAL:
                    break
                if cp == ARD_CHANCE:
                    vt.apply(&s, vt.sample_chance(&s, &rng))
                else:
                    k = vt.legal_actions(&s, acts)
                    vt.apply(&s, acts[ard_rng_below(&rng, k)])
                total += 1
            if s.winner == 0:
                wins += 1
    return total, _time.perf_counter() - t0, wins
