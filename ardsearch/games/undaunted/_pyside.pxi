# Included by _engine.pyx: the slow, friendly Python side (structured state,
# observation tensor, test and benchmark helpers). Nothing here is hot.

CARD_NAMES = tuple(UND_CARD_NAMES[i].decode() for i in range(NCARD))
UNIT_NAMES = CARD_NAMES[1:1 + NUNIT]
BOLSTER_CARDS = tuple(CARD_NAMES[UND_BOLSTER_CARD[k]] for k in range(5))


def card_table():
    """The card values the engine plays (data/cards.toml, set at import)."""
    return {"initiative": {CARD_NAMES[c]: UND_INITIATIVE[c] for c in range(NCARD)},
            "defence": {UNIT_NAMES[u]: UND_DEFENCE[u] for u in range(NUNIT)},
            "attack": {UNIT_NAMES[u]: UND_DICE[u] for u in range(NUNIT) if UND_DICE[u]},
            "bolster": {BOLSTER_CARDS[k]: UND_BOLSTER_X[k] for k in range(5)},
            "dice": {"suppress": UND_SUPPRESS_DICE, "explode": UND_EXPLODE_DICE}}


def set_card_table(table):
    """Set the card values from a table shaped as card_table() returns,
    already checked (ardsearch.games.undaunted.load_card_table checks a file).
    Every game of this process plays them: set once, at import."""
    global UND_SUPPRESS_DICE, UND_EXPLODE_DICE
    cdef int c, u, k
    for c in range(NCARD):
        UND_INITIATIVE[c] = table["initiative"][CARD_NAMES[c]]
    for u in range(NUNIT):
        UND_DEFENCE[u] = table["defence"][UNIT_NAMES[u]]
        UND_DICE[u] = table["attack"].get(UNIT_NAMES[u], 0)
    for k in range(5):
        UND_BOLSTER_X[k] = table["bolster"][BOLSTER_CARDS[k]]
    UND_SUPPRESS_DICE = table["dice"]["suppress"]
    UND_EXPLODE_DICE = table["dice"]["explode"]


PHASES = ("deal", "bid1", "bid2", "reveal", "turn", "roll", "command_draw", "bolster", "leftover", "over")
END_REASONS = ("", "objectives", "immobilized", "both_immobilized", "irremediable", "max_rounds")
GOALS = ("capture", "immobilize")
ZONES = ("deck", "hand", "discard", "play", "supply", "removed")
ARMY_NAMES = ("us", "germans")


cdef int load_state(object raw, UState *s) except -1:
    if not isinstance(raw, (bytes, bytearray, memoryview)):
        raise ValueError(f"an undaunted state is {sizeof(UState)} raw bytes, got {type(raw).__name__}")
    b = bytes(raw)
    if len(b) != sizeof(UState):
        raise ValueError(f"an undaunted state is {sizeof(UState)} bytes, got {len(b)}")
    memcpy(s, <const char *>b, sizeof(UState))
    return 0


cdef list counts(const uint8_t *z):
    """A card zone as a list of 15 ints (uint8_t arrays would coerce to bytes)."""
    return [int(z[i]) for i in range(NCARD)]


cdef bytes state_bytes(const UState *s):
    return PyBytes_FromStringAndSize(<const char *>s, sizeof(UState))


def tile_name(int code):
    return f"{code >> 1}{'AB'[code & 1]}"


def tile_code(name):
    """'13B' -> 27; ValueError otherwise."""
    if not isinstance(name, str) or len(name) < 2:
        raise ValueError(f"expected a tile name like '13B', got {name!r}")
    number, side = name[:len(name) - 1], name[len(name) - 1]
    if side not in "AB" or not number.isdigit() or not 1 <= int(number) <= 18:
        raise ValueError(f"expected a tile name 1A..18B like '13B', got {name!r}")
    return int(number) * 2 + (side == "B")


def to_dict(raw):
    """The structured state (schema in RULES.md) of raw state bytes."""
    cdef UState s
    cdef Army *ar
    load_state(raw, &s)
    ntiles = s.ntiles
    names = [tile_name(s.tile_name[t]) for t in range(ntiles)]

    def tile(t):
        return None if t == OFF else (names[t] if t < ntiles else int(t))

    def mask(m):
        return [names[t] for t in range(ntiles) if (m >> t) & 1]

    tiles = []
    for t in range(s.ntiles):
        tiles.append({"name": names[t], "cover": "hill" if s.cover[t] == HILL else int(s.cover[t]),
                      "objective": int(s.objective[t]), "adjacent": mask(s.adj[t])})
    armies = []
    for a in range(2):
        ar = &s.army[a]
        d = {}
        zones = (counts(ar.deck), counts(ar.hand), counts(ar.discard), counts(ar.play),
                 counts(ar.supply), counts(ar.removed))
        for zname, z in zip(ZONES, zones):
            d[zname] = {CARD_NAMES[c]: int(z[c]) for c in range(NCARD) if z[c]}
        d["unknown_hand"] = int(ar.unknown_hand)
        d["tokens"] = {UNIT_NAMES[u]: {"tile": tile(ar.token[u]), "suppressed": bool((ar.suppressed >> u) & 1)}
                       for u in range(NUNIT) if ar.token[u] != OFF}
        d["scouted"] = mask(ar.scouted)
        d["controlled"] = mask(ar.controlled)
        d["spawn"] = tile(ar.spawn)
        d["target"] = tile(ar.target)
        d["goal"] = GOALS[ar.goal] if ar.goal < 2 else int(ar.goal)
        d["goal_points"] = int(ar.goal_points)
        d["bid"] = None if ar.bid == NONE else "unknown" if ar.bid == UNKNOWN else CARD_NAMES[ar.bid] \
            if ar.bid < NCARD else int(ar.bid)
        d["points"] = points(&s, a)
        d["known"] = {CARD_NAMES[c]: int(ar.known[c]) for c in range(NCARD) if ar.known[c]}
        d["record"] = {"dirty": bool(ar.kdirty), "blocks": [
            {"draws": int(ar.kdraws[k]),
             "lower": {CARD_NAMES[c]: int(ar.klo[k * NCARD + c]) for c in range(NCARD) if ar.klo[k * NCARD + c]},
             "exact": [CARD_NAMES[c] for c in range(NCARD) if (ar.kpin[k] >> c) & 1]}
            for k in range(min(ar.kblocks, MAXB))]}
        armies.append(d)
    queue = [[b // NUNIT, UNIT_NAMES[b % NUNIT]] for b in range(2 * NUNIT) if (s.explode_queue >> b) & 1]
    return {
        "scenario": int(s.scenario),
        "tiles": tiles,
        "max_rounds": int(s.max_rounds),
        "viewer": int(s.viewer),
        "phase": PHASES[s.phase] if s.phase <= PH_OVER else int(s.phase),
        "to_move": int(s.to_move),
        "initiative": int(s.initiative),
        "turn_index": int(s.turn_index),
        "turn_plays": int(s.turn_plays),
        "round": int(s.round),
        "draws_pending": int(s.draws_pending),
        "bolster": None if s.phase != PH_BOLSTER else {
            "left": int(s.bolster_left), "group": " ABC"[s.bolster_cg].strip() if s.bolster_cg <= 3 else None,
            "min": CARD_NAMES[s.bolster_min] if s.bolster_min < NCARD else None},
        "roll": None if s.phase != PH_ROLL else {
            "army": int(s.roll_army), "unit": UNIT_NAMES[s.roll_unit] if s.roll_unit < NUNIT else None,
            "kind": "casualty" if s.roll_kind == RK_CASUALTY else "suppress",
            "dice": int(s.roll_dice), "defence": int(s.roll_defence),
            "probability": hit_probability(s.roll_dice, s.roll_defence)},
        "explode_queue": queue,
        "winner": None if s.winner > 1 else ARMY_NAMES[s.winner],
        "end_reason": END_REASONS[s.end_reason] if s.end_reason <= END_MAX_ROUNDS else int(s.end_reason),
        "armies": armies,
    }


# ---------------------------------------------------------------- from_dict
def _need(d, key, where):
    if not isinstance(d, dict):
        raise ValueError(f"{where}: expected a table/dict, got {type(d).__name__}")
    if key not in d:
        raise ValueError(f"{where}: missing key {key!r}")
    return d[key]


def _int(d, key, where, lo, hi, default=None):
    v = d.get(key, default) if default is not None else _need(d, key, where)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ValueError(f"{where}.{key}: expected an integer from {lo} to {hi}, got {v!r}")
    return v


def _choice(d, key, where, choices, default=None):
    v = d.get(key, default) if default is not None else _need(d, key, where)
    if v not in choices:
        raise ValueError(f"{where}.{key}: expected one of {', '.join(map(str, choices))}, got {v!r}")
    return choices.index(v)


def _card(name, where):
    if name not in CARD_NAMES:
        raise ValueError(f"{where}: unknown card {name!r} (cards: {', '.join(CARD_NAMES)})")
    return CARD_NAMES.index(name)


def _unit(name, where):
    if name not in UNIT_NAMES:
        raise ValueError(f"{where}: {name!r} is not a unit with a combat token ({', '.join(UNIT_NAMES)})")
    return UNIT_NAMES.index(name)


def _tile_slot(index, name, where):
    """A tile's slot on the board ({name: slot}), or ValueError naming the board's tiles."""
    if not isinstance(name, str) or name not in index:
        raise ValueError(f"{where}: {name!r} is not a tile of this board ({', '.join(index)})")
    return index[name]


cdef dict _build_board(UState *s, object tiles):
    """The board of a structured state (its `tiles` list: name, cover,
    objective, adjacent) into s's tile tables; returns {name: slot}."""
    if not isinstance(tiles, list) or not 1 <= len(tiles) <= MAXT:
        raise ValueError(f"state.tiles: expected a list of 1..{MAXT} tiles")
    names = []
    for i, t in enumerate(tiles):
        names.append(_need(t, "name", f"tiles[{i}]"))
        tile_code(names[i])
    if len(set(names)) != len(names):
        raise ValueError("state.tiles: a tile name appears twice")
    index = {n: i for i, n in enumerate(names)}
    s.ntiles = len(tiles)
    for i, t in enumerate(tiles):
        where = f"tiles[{i}] ({names[i]})"
        s.tile_name[i] = tile_code(names[i])
        cover = _need(t, "cover", where)
        if cover == "hill":
            s.cover[i] = HILL
        elif isinstance(cover, int) and not isinstance(cover, bool) and 0 <= cover <= 3:
            s.cover[i] = cover
        else:
            raise ValueError(f"{where}.cover: expected 0..3 or 'hill', got {cover!r}")
        s.objective[i] = _int(t, "objective", where, 0, 9, 0)
        adj = _need(t, "adjacent", where)
        if not isinstance(adj, list):
            raise ValueError(f"{where}.adjacent: expected a list of tile names")
        for n in adj:
            s.adj[i] |= 1u << _tile_slot(index, n, f"{where}.adjacent")
    return index


# For the refusal reasons (_illegal_reasons.py), so the tile distance lives only in the engine.
def tile_distance(tiles, a, b):
    """Shortest path in tiles from tile a to tile b (names like '13B') over a
    board's adjacency, `tiles` being the structured state's `tiles` list: the
    engine's distance, 99 if no path joins them. ValueError on a bad board or
    a name that is not one of its tiles."""
    cdef UState s
    memset(&s, 0, sizeof(UState))
    index = _build_board(&s, tiles)
    return distance(&s, _tile_slot(index, a, "tile_distance"), _tile_slot(index, b, "tile_distance"))


def build_state(d, bint check=True):
    """Structured state (the to_dict schema; derived keys such as points are
    ignored) -> raw bytes. With check, validate() must accept it; ValueError
    names the key and what was expected."""
    cdef UState s
    cdef char msg[160]
    memset(&s, 0, sizeof(UState))
    if not isinstance(d, dict):
        raise ValueError(f"an undaunted state dict is a dict, got {type(d).__name__}")
    index = _build_board(&s, _need(d, "tiles", "state"))

    def tix(name, where, allow_none=False):
        if name is None and allow_none:
            return OFF
        return _tile_slot(index, name, where)

    s.scenario = _int(d, "scenario", "state", 0, 255, 0)
    s.max_rounds = _int(d, "max_rounds", "state", 1, 100)
    s.viewer = _int(d, "viewer", "state", -1, 1, -1)
    s.phase = _choice(d, "phase", "state", PHASES)
    s.to_move = _int(d, "to_move", "state", 0, 1)
    s.initiative = _int(d, "initiative", "state", 0, 1)
    s.turn_index = _int(d, "turn_index", "state", 0, 1, 0)
    s.turn_plays = _int(d, "turn_plays", "state", 0, MAX_PLAYS, 0)
    s.round = _int(d, "round", "state", 0, 100)
    s.draws_pending = _int(d, "draws_pending", "state", 0, 4, 0)
    b = d.get("bolster")
    if b is not None:
        s.bolster_left = _int(b, "left", "state.bolster", 0, 3)
        g = b.get("group") or ""
        if g not in ("", "A", "B", "C"):
            raise ValueError(f"state.bolster.group: expected A, B, C or none, got {g!r}")
        s.bolster_cg = " ABC".index(g) if g else 0
        s.bolster_min = _card(b.get("min") or "fog", "state.bolster.min")
    r = d.get("roll")
    if r is not None:
        s.roll_army = _int(r, "army", "state.roll", 0, 1)
        s.roll_unit = _unit(_need(r, "unit", "state.roll"), "state.roll.unit")
        s.roll_kind = _choice(r, "kind", "state.roll", ("casualty", "suppress"))
        s.roll_dice = _int(r, "dice", "state.roll", 1, 4)
        s.roll_defence = _int(r, "defence", "state.roll", 1, 60)
    for item in d.get("explode_queue") or []:
        if not isinstance(item, (list, tuple)) or len(item) != 2 or item[0] not in (0, 1):
            raise ValueError(f"state.explode_queue: expected [army, unit] pairs, got {item!r}")
        s.explode_queue |= 1u << (item[0] * NUNIT + _unit(item[1], "state.explode_queue"))
    w = d.get("winner")
    if isinstance(w, str) and w.lower() in ARMY_NAMES:
        w = ARMY_NAMES.index(w.lower())
    elif isinstance(w, bool) or w not in (None, 0, 1):
        # 0 / 1: the form to_dict wrote before the winner became a side name
        raise ValueError(f"state.winner: expected 'us', 'germans' or null, got {w!r}")
    s.winner = NONE if w is None else w
    s.end_reason = _choice(d, "end_reason", "state", END_REASONS, "")
    armies = _need(d, "armies", "state")
    if not isinstance(armies, list) or len(armies) != 2:
        raise ValueError("state.armies: expected a list of two armies (US, Germans)")
    for a in range(2):
        _build_army(&s, a, armies[a], f"armies[{a}]", tix)
    if check:
        if und_validate(&s, msg, 160):
            raise ValueError(f"invalid undaunted state: {msg.decode()}")
    return state_bytes(&s)


cdef _build_army(UState *s, int a, object d, str where, object tix):
    cdef Army *ar = &s.army[a]
    cdef uint8_t *zones[6]
    zones[0] = ar.deck
    zones[1] = ar.hand
    zones[2] = ar.discard
    zones[3] = ar.play
    zones[4] = ar.supply
    zones[5] = ar.removed
    if not isinstance(d, dict):
        raise ValueError(f"{where}: expected a dict")
    for k, zname in enumerate(ZONES):
        z = d.get(zname) or {}
        if not isinstance(z, dict):
            raise ValueError(f"{where}.{zname}: expected a table of card counts")
        for name, n in z.items():
            c = _card(name, f"{where}.{zname}")
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAXCOUNT:
                raise ValueError(f"{where}.{zname}.{name}: expected a count from 0 to {MAXCOUNT}, got {n!r}")
            zones[k][c] = n
    ar.unknown_hand = _int(d, "unknown_hand", where, 0, 255, 0)
    for u in range(NUNIT):
        ar.token[u] = OFF
    tokens = d.get("tokens") or {}
    if not isinstance(tokens, dict):
        raise ValueError(f"{where}.tokens: expected a table unit -> tile")
    for name, t in tokens.items():
        u = _unit(name, f"{where}.tokens")
        if isinstance(t, str):
            t = {"tile": t}
        if not isinstance(t, dict):
            raise ValueError(f"{where}.tokens.{name}: expected a tile name or {{tile, suppressed}}")
        ar.token[u] = tix(_need(t, "tile", f"{where}.tokens.{name}"), f"{where}.tokens.{name}.tile")
        sup = t.get("suppressed", False)
        if not isinstance(sup, bool):
            raise ValueError(f"{where}.tokens.{name}.suppressed: expected true or false")
        if sup:
            ar.suppressed |= 1 << u
    for key in ("scouted", "controlled"):
        lst = d.get(key) or []
        if not isinstance(lst, list):
            raise ValueError(f"{where}.{key}: expected a list of tile names")
        for n in lst:
            t = tix(n, f"{where}.{key}")
            if key == "scouted":
                ar.scouted |= 1u << t
            else:
                ar.controlled |= 1u << t
    if ar.scouted & ar.controlled:
        raise ValueError(f"{where}: a tile is both scouted and controlled (one marker per army and tile)")
    ar.spawn = tix(_need(d, "spawn", where), f"{where}.spawn")
    ar.target = tix(d.get("target"), f"{where}.target", True)
    ar.goal = _choice(d, "goal", where, GOALS)
    ar.goal_points = _int(d, "goal_points", where, 0, 255, 0)
    bid = d.get("bid")
    ar.bid = NONE if bid is None else UNKNOWN if bid == "unknown" else _card(bid, f"{where}.bid")
    _build_record(s, a, d, where)


cdef _build_record(UState *s, int a, dict d, str where):
    """The public record of the hand (RULES.md, Hidden information). Without
    `known` and `record` keys: nothing known, every other card of the hand one
    block of hidden draws (a hand dealt from the pool)."""
    cdef Army *ar = &s.army[a]
    known = d.get("known")
    if known is None:
        known = {CARD_NAMES[c]: ar.hand[c] for c in range(NCARD) if ar.hand[c]} if s.viewer == 1 - a else {}
    if not isinstance(known, dict):
        raise ValueError(f"{where}.known: expected a table of card counts")
    for name, n in known.items():
        c = _card(name, f"{where}.known")
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAXCOUNT:
            raise ValueError(f"{where}.known.{name}: expected a count from 0 to {MAXCOUNT}, got {n!r}")
        ar.known[c] = n
    rec = d.get("record")
    if rec is None:
        if s.viewer == 1 - a:
            hidden = ar.unknown_hand
        else:
            hidden = sum(max(0, ar.hand[c] + (ar.bid == c and a == s.initiative and s.phase in (PH_BID2, PH_REVEAL))
                             - ar.known[c]) for c in range(NCARD))
        if hidden > 255:
            raise ValueError(f"{where}: more than 255 cards in hand that the opponent does not know")
        rec = {"blocks": [{"draws": hidden}] if hidden else []}
    if not isinstance(rec, dict) or not isinstance(rec.get("blocks", []), list):
        raise ValueError(f"{where}.record: expected {{dirty, blocks: [{{draws, lower, exact}}, ...]}}")
    blocks = rec.get("blocks", [])
    if len(blocks) > MAXB:
        raise ValueError(f"{where}.record.blocks: at most {MAXB} blocks, got {len(blocks)}")
    ar.kblocks = len(blocks)
    dirty = rec.get("dirty", False)
    if not isinstance(dirty, bool):
        raise ValueError(f"{where}.record.dirty: expected true or false, got {dirty!r}")
    ar.kdirty = dirty
    for k, b in enumerate(blocks):
        bw = f"{where}.record.blocks[{k}]"
        if not isinstance(b, dict):
            raise ValueError(f"{bw}: expected {{draws, lower, exact}}")
        ar.kdraws[k] = _int(b, "draws", bw, 1, 255)
        lower = b.get("lower") or {}
        if not isinstance(lower, dict):
            raise ValueError(f"{bw}.lower: expected a table of card counts")
        for name, n in lower.items():
            c = _card(name, f"{bw}.lower")
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 255:
                raise ValueError(f"{bw}.lower.{name}: expected a count from 0 to 255, got {n!r}")
            ar.klo[k * NCARD + c] = n
        exact = b.get("exact") or []
        if not isinstance(exact, list):
            raise ValueError(f"{bw}.exact: expected a list of cards")
        for name in exact:
            ar.kpin[k] |= 1 << _card(name, f"{bw}.exact")


def from_dict(d, params=None):
    """Structured state -> raw state bytes (validated); ValueError naming the
    problem. The dict carries its own board and limits, so the game's
    parameters are not needed."""
    return build_state(d, True)


def pack_setup(d):
    """A scenario's state before its first round (the to_dict schema) -> the
    parameters struct bytes; init() on it must give a valid state."""
    cdef UState s, check
    cdef char msg[160]
    raw = build_state(d, False)
    load_state(raw, &s)
    und_init(&check, &s, 0)
    if und_validate(&check, msg, 160):
        raise ValueError(f"scenario gives an invalid start: {msg.decode()}")
    return raw


# ---------------------------------------------------------------- observation tensor
OBS_SIZE = 2 * 6 * NCARD + 2 + 2 * NUNIT * (MAXT + 1) + 2 * 2 * MAXT + 2 * MAXT + MAXT * 6 + 10 + 6


def observation_tensor(raw, int player):
    """A float32 vector of what `player` sees (its view): own zones, the
    opponent's public zones and pool, tokens, markers, targets, board, phase."""
    cdef UState s
    cdef Army *ar
    load_state(raw, &s)
    if player not in (0, 1):
        raise ValueError("player must be 0 or 1")
    out = np.zeros(OBS_SIZE, dtype=np.float32)
    i = 0
    for a in (player, 1 - player):
        ar = &s.army[a]
        for z in (counts(ar.deck), counts(ar.hand), counts(ar.discard), counts(ar.play),
                  counts(ar.supply), counts(ar.removed)):
            for c in range(NCARD):
                out[i + c] = z[c] / 4.0
            i += NCARD
    out[i] = s.army[1 - player].unknown_hand / 4.0
    out[i + 1] = 1.0 if s.army[1 - player].bid != NONE else 0.0
    i += 2
    for a in (player, 1 - player):
        for u in range(NUNIT):
            t = s.army[a].token[u]
            if t != OFF and t < MAXT:
                out[i + t] = 1.0
                out[i + MAXT] = (s.army[a].suppressed >> u) & 1
            i += MAXT + 1
    for a in (player, 1 - player):
        for t in range(MAXT):
            out[i + t] = (s.army[a].scouted >> t) & 1
            out[i + MAXT + t] = (s.army[a].controlled >> t) & 1
        i += 2 * MAXT
    for a in (player, 1 - player):
        if s.army[a].target < MAXT:
            out[i + s.army[a].target] = 1.0
        i += MAXT
    for t in range(MAXT):
        if t < s.ntiles:
            out[i + min(s.cover[t], 4)] = 1.0
            out[i + 5] = s.objective[t] / 3.0
        i += 6
    if s.phase <= PH_OVER:
        out[i + s.phase] = 1.0
    i += 10
    out[i] = 1.0 if s.to_move == player else 0.0
    out[i + 1] = 1.0 if s.initiative == player else 0.0
    out[i + 2] = s.turn_index
    out[i + 3] = s.round / max(1.0, s.max_rounds)
    out[i + 4] = points(&s, player) / 5.0
    out[i + 5] = points(&s, 1 - player) / 5.0
    return out


# ---------------------------------------------------------------- test helpers (raw bytes in, out)
def _init(setup):
    cdef UState s, prm
    load_state(setup, &prm)
    und_init(&s, &prm, 0)
    return state_bytes(&s)


def _validate(raw):
    cdef UState s
    cdef char msg[160]
    load_state(raw, &s)
    if und_validate(&s, msg, 160):
        return msg.decode()
    return None


def _current(raw):
    cdef UState s
    load_state(raw, &s)
    return und_current_player(&s)


def _legal(raw):
    cdef UState s
    cdef ard_action buf[MAX_LEGAL]
    load_state(raw, &s)
    n = und_legal_actions(&s, buf)
    return [buf[i] for i in range(n)]


def _chance(raw):
    cdef UState s
    cdef ard_action buf[16]
    cdef double probs[16]
    load_state(raw, &s)
    n = und_chance_outcomes(&s, buf, probs)
    return [(buf[i], probs[i]) for i in range(n)]


def _apply(raw, int action):
    cdef UState s
    load_state(raw, &s)
    und_apply(&s, action)
    return state_bytes(&s)


def _returns(raw):
    cdef UState s
    cdef double r[2]
    load_state(raw, &s)
    und_returns(&s, r)
    return [r[0], r[1]]


def _evaluate(raw, int player):
    cdef UState s
    load_state(raw, &s)
    return und_evaluate(&s, player)


def _observe(raw, int player):
    cdef UState s, v
    load_state(raw, &s)
    und_observe(&s, player, &v)
    return state_bytes(&v)


def _determinize(raw, int player, uint64_t seed):
    cdef UState s
    cdef ard_rng rng
    load_state(raw, &s)
    ard_rng_seed(&rng, seed)
    und_determinize(&s, player, &rng)
    return state_bytes(&s)


def _visible(raw, int action, int player):
    cdef UState s
    load_state(raw, &s)
    return und_action_visible(&s, action, player)


def _to_string(raw, int action):
    cdef UState s
    cdef char buf[32]
    load_state(raw, &s)
    n = und_action_to_string(&s, action, buf, 32)
    return None if n < 0 else buf[:n].decode()


def _from_string(raw, text):
    cdef UState s
    load_state(raw, &s)
    b = text.encode()
    return und_string_to_action(&s, b)


def _hit_probability(int dice, int defence):
    return hit_probability(dice, defence)


def _distance(raw, a, b):
    cdef UState s
    load_state(raw, &s)
    return distance(&s, a, b)


# ---------------------------------------------------------------- benchmarks, greedy check
cdef long playout(UState *st, ard_rng *rng, ard_action *buf) noexcept nogil:
    cdef long steps = 0
    cdef int n
    while st.phase != PH_OVER:
        if und_current_player(st) == ARD_CHANCE:
            und_apply(st, und_sample_chance(st, rng))
        else:
            n = und_legal_actions(st, buf)
            und_apply(st, buf[ard_rng_below(rng, n)])
        steps += 1
    return steps


def _bench_playouts(int games, uint64_t seed, setup):
    """Random playouts through the vtable with the GIL released: (actions, seconds)."""
    cdef UState start, st
    cdef ard_rng rng
    cdef ard_action buf[MAX_LEGAL]
    cdef long total = 0
    cdef int i
    load_state(setup, &st)
    und_init(&start, &st, 0)
    ard_rng_seed(&rng, seed)
    t0 = time.perf_counter()
    with nogil:
        for i in range(games):
            memcpy(&st, &start, sizeof(UState))
            total += playout(&st, &rng, buf)
    return total, time.perf_counter() - t0


cdef int greedy_pick(const UState *s, ard_action *buf, int n, ard_rng *rng) noexcept nogil:
    cdef UState child
    cdef int i, best = 0, p = s.to_move, ties = 0
    cdef double v, best_v = -2.0
    for i in range(n):
        memcpy(&child, s, sizeof(UState))
        und_apply(&child, buf[i])
        v = und_evaluate(&child, p)
        if v > best_v + 1e-12:
            best_v = v
            best = i
            ties = 1
        elif v > best_v - 1e-12:
            ties += 1
            if ard_rng_below(rng, ties) == 0:
                best = i
    return best


def _greedy_vs_random(int games, uint64_t seed, setup):
    """One-ply greedy on evaluate against uniform random, sides alternating:
    (greedy wins, greedy losses)."""
    cdef UState start, st
    cdef ard_rng rng
    cdef ard_action buf[MAX_LEGAL]
    cdef int i, n, greedy, wins = 0, cp
    load_state(setup, &st)
    und_init(&start, &st, 0)
    ard_rng_seed(&rng, seed)
    with nogil:
        for i in range(games):
            memcpy(&st, &start, sizeof(UState))
            greedy = i & 1
            while st.phase != PH_OVER:
                cp = und_current_player(&st)
                if cp == ARD_CHANCE:
                    und_apply(&st, und_sample_chance(&st, &rng))
                    continue
                n = und_legal_actions(&st, buf)
                if cp == greedy:
                    und_apply(&st, buf[greedy_pick(&st, buf, n, &rng)])
                else:
                    und_apply(&st, buf[ard_rng_below(&rng, n)])
            if st.winner == greedy:
                wins += 1
    return wins, games - wins
