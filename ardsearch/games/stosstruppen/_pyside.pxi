# Python side: parameters, the structured state (to_dict / from_dict), the
# observation tensor, and thin wrappers over the C functions for tests and
# benchmarks. Slow and friendly; never on a search path.

SIDES = ("german", "british")
PHASES = ("draw", "move", "fire", "assault", "rally", "advance", "over")
STATUS = ("normal", "pinned", "suppressed")
FACINGS = ("n", "e", "s", "w")
CARD_NAMES = ("Gm", "Gf", "Ga", "Gr", "Bm", "Bf", "Ba", "Br")
MARKER_KINDS = ("none", "barrage-stock", "cas-stock", "barrage", "gas", "cas", "fighter", "bomber")
PENDING = ("none", "hq-test", "cross-test", "adjacent-mover", "adjacent-enemy", "fire",
           "arrival", "aircraft", "blast", "assault", "rally")
TYPE_IDS = tuple(u["id"] for u in UNIT_TYPES)


cdef int load_state(object raw, StState *s) except -1:
    if not isinstance(raw, (bytes, bytearray, memoryview)):
        raise ValueError(f"a stosstruppen state is {sizeof(StState)} raw bytes, got {type(raw).__name__}")
    b = bytes(raw)
    if len(b) != sizeof(StState):
        raise ValueError(f"a stosstruppen state is {sizeof(StState)} bytes, got {len(b)}")
    memcpy(s, <const char *>b, sizeof(StState))
    return 0


cdef bytes state_bytes(const StState *s):
    return PyBytes_FromStringAndSize(<const char *>s, sizeof(StState))


def pack_params(values):
    """Validated parameter values by name -> the StParams struct bytes."""
    cdef StParams prm
    name = values.get("scenario", "kaiserschlacht")
    if name not in SCENARIO_NAMES:
        raise ValueError(f"parameter scenario={name!r}: expected one of {', '.join(SCENARIO_NAMES)}")
    turns = values.get("turns", 0)
    if isinstance(turns, bool) or not isinstance(turns, int) or not 0 <= turns <= 30:
        raise ValueError(f"parameter turns={turns!r}: expected an integer from 0 (the scenario's) to 30")
    prm.scenario = SCENARIO_NAMES.index(name)
    prm.turns = turns
    return PyBytes_FromStringAndSize(<const char *>&prm, sizeof(StParams))


def square_name(sq):
    return None if sq == NOSQ else f"{chr(97 + sq % STRIDE)}{sq // STRIDE + 1}"


# For the refusal reasons (_illegal_reasons.py), so the square geometry lives only in the engine.
def _square_index(name):
    """'c3' -> the engine's square index; None for anything that is not a square."""
    at = _data.parse_square(name)
    return None if at is None else at[1] * STRIDE + at[0]


def _named_square(name):
    """'c3' -> the engine's square index; ValueError on anything else."""
    sq = _square_index(name)
    if sq is None:
        raise ValueError(f"expected a square like 'c3' (columns a-p, rows 1-12), got {name!r}")
    return sq


def square_distance(a, b):
    """Squares between two squares named like 'c3': the engine's distance
    (Chebyshev, a diagonal step is 1)."""
    return cheb(_named_square(a), _named_square(b))


def in_front_arc(facing, a, b):
    """Whether square b lies in the 45-degree arc looking `facing` ('n', 'e',
    's' or 'w') from square a: the engine's arc test."""
    if facing not in FACINGS:
        raise ValueError(f"expected a facing n, e, s or w, got {facing!r}")
    return bool(in_arc(FACINGS.index(facing), _named_square(a), _named_square(b)))


def in_assault_contact(a, b):
    """Whether two squares are neighbours, diagonals included (Chebyshev 1):
    the engine's assault contact."""
    return bool(in_contact(_named_square(a), _named_square(b)))


def to_dict(raw):
    """The structured state (schema: RULES.md, Structured state)."""
    cdef StState s
    load_state(raw, &s)
    cp = st_current_player(&s)
    units = []
    for i in range(NUNITS):
        if s.u[i].type == NOTYPE:
            continue
        st, tk = s.u[i].st, s.u[i].tk
        u = {"slot": i, "side": SIDES[i // UPS], "type": TYPE_IDS[s.u[i].type],
             "square": square_name(s.u[i].sq), "status": STATUS[min(st & 3, 2)],
             "spotted": bool(st & ST_SPOTTED), "moved": bool(st & ST_MOVED),
             "fired": bool(st & ST_FIRED), "acted": bool(st & ST_ACTED), "stuck": bool(st & ST_STUCK)}
        if UT[s.u[i].type].tank:
            u.update(facing=FACINGS[tk >> TK_FACING_SHIFT], damaged=bool(tk & TK_DAMAGED),
                     main_out=bool(tk & TK_MAIN_OUT), secondary_out=bool(tk & TK_SEC_OUT),
                     immobilised=bool(tk & TK_IMMOB), main_fired=bool(tk & TK_MAIN_FIRED),
                     secondary_fired=bool(tk & TK_SEC_FIRED))
        units.append(u)
    markers = []
    for m in range(8):
        if s.scenario < NSCN and SC[s.scenario].mkind[m // MPS][m % MPS] == MK_NONE:
            continue
        kind = s.mk[m][0] & 127
        markers.append({"slot": m, "side": SIDES[m // MPS],
                        "kind": MARKER_KINDS[kind] if kind < 8 else str(kind),
                        "armed": bool(s.mk[m][0] & MK_ARMED), "square": square_name(s.mk[m][1])})
    return {
        "game": "stosstruppen",
        "scenario": SCENARIO_NAMES[s.scenario] if s.scenario < NSCN else str(s.scenario),
        "turns": s.turns, "turn": s.turn,
        "phase": PHASES[s.phase] if s.phase <= PH_OVER else str(s.phase),
        "card": CARD_NAMES[s.card] if PH_MOVE <= s.phase <= PH_ADVANCE else None,
        "drawn": [CARD_NAMES[c] for c in range(8) if (s.drawn >> c) & 1],
        "to_move": {ARD_CHANCE: "chance", ARD_TERMINAL: "terminal"}.get(cp, SIDES[cp] if cp in (0, 1) else "?"),
        "winner": SIDES[s.winner] if s.winner in (0, 1) else None,
        "units": units,
        "markers": markers,
        "pending": {"kind": PENDING[s.pend] if s.pend <= P_LAST else str(s.pend),
                    "unit": s.pu, "target": s.pt, "square": square_name(s.psq) if s.psq != NOSQ else None,
                    "aux": s.paux, "flags": s.pflags},
    }


def _need(d, key, where="state"):
    if not isinstance(d, dict):
        raise ValueError(f"{where}: expected a dict, got {type(d).__name__}")
    if key not in d:
        raise ValueError(f"{where}: missing key {key!r}")
    return d[key]


def _choice(d, key, choices, where="state"):
    v = _need(d, key, where)
    if v not in choices:
        raise ValueError(f"{where}: {key}={v!r}: expected one of {', '.join(map(str, choices))}")
    return choices.index(v)


def _int(d, key, lo, hi, where="state"):
    v = _need(d, key, where)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ValueError(f"{where}: {key}={v!r}: expected an integer from {lo} to {hi}")
    return v


def _bool(d, key, where):
    v = d.get(key, False)
    if not isinstance(v, bool):
        raise ValueError(f"{where}: {key}={v!r}: expected true or false")
    return v


def _square(v, where, key):
    if v is None:
        return NOSQ
    sq = _square_index(v)
    if sq is None:
        raise ValueError(f"{where}: {key}={v!r}: expected a square like 'c3' or null")
    return sq


def from_dict(d, params=None):
    """Structured state -> raw bytes; ValueError naming the problem."""
    cdef StState s
    cdef StParams prm
    cdef char msg[160]
    if not isinstance(d, dict):
        raise ValueError(f"a stosstruppen state is a dict, got {type(d).__name__}")
    if d.get("game", "stosstruppen") != "stosstruppen":
        raise ValueError(f"state: game={d.get('game')!r}: expected 'stosstruppen'")
    params = dict(params or {})
    if "scenario" in d:
        params["scenario"] = d["scenario"]
    if "turns" in d:
        params["turns"] = d["turns"]
    pb = pack_params(params)
    memcpy(&prm, <const char *>pb, sizeof(StParams))
    st_init(&s, &prm, 0)
    s.turn = _int(d, "turn", 1, s.turns)
    s.phase = _choice(d, "phase", PHASES)
    card = d.get("card")
    s.card = 0 if card is None else _choice(d, "card", CARD_NAMES)
    drawn = _need(d, "drawn")
    if not isinstance(drawn, list) or any(c not in CARD_NAMES for c in drawn):
        raise ValueError(f"state: drawn={drawn!r}: expected a list of card names ({', '.join(CARD_NAMES)})")
    s.drawn = sum(1 << CARD_NAMES.index(c) for c in set(drawn))
    w = d.get("winner")
    s.winner = WIN_NONE if w is None else _choice(d, "winner", SIDES)
    units = _need(d, "units")
    if not isinstance(units, list):
        raise ValueError("state: units: expected a list")
    given = set()
    for k, u in enumerate(units):
        where = f"state: units[{k}]"
        i = _int(u, "slot", 0, NUNITS - 1, where)
        if i in given:
            raise ValueError(f"{where}: slot {i} given twice")
        given.add(i)
        if s.u[i].type == NOTYPE:
            raise ValueError(f"{where}: slot {i} holds no unit in this scenario")
        if _choice(u, "side", SIDES, where) != i // UPS:
            raise ValueError(f"{where}: side does not match slot {i} (slots 0-15 german, 16-31 british)")
        if _choice(u, "type", TYPE_IDS, where) != s.u[i].type:
            raise ValueError(f"{where}: type {u['type']!r} differs from the scenario's {TYPE_IDS[s.u[i].type]!r}")
        s.u[i].sq = _square(_need(u, "square", where), where, "square")
        st = _choice(u, "status", STATUS, where)
        for key, bit in (("spotted", ST_SPOTTED), ("moved", ST_MOVED), ("fired", ST_FIRED),
                         ("acted", ST_ACTED), ("stuck", ST_STUCK)):
            if _bool(u, key, where):
                st |= bit
        tk = 0
        if UT[s.u[i].type].tank:
            tk = FACINGS.index(u.get("facing", "n")) << TK_FACING_SHIFT if u.get("facing", "n") in FACINGS else None
            if tk is None:
                raise ValueError(f"{where}: facing={u.get('facing')!r}: expected n, e, s or w")
            for key, bit in (("damaged", TK_DAMAGED), ("main_out", TK_MAIN_OUT),
                             ("secondary_out", TK_SEC_OUT), ("immobilised", TK_IMMOB),
                             ("main_fired", TK_MAIN_FIRED), ("secondary_fired", TK_SEC_FIRED)):
                if _bool(u, key, where):
                    tk |= bit
        if s.u[i].sq == NOSQ:
            st = tk = 0
        s.u[i].st = st
        s.u[i].tk = tk
    missing = [i for i in range(NUNITS) if s.u[i].type != NOTYPE and i not in given]
    if missing:
        raise ValueError(f"state: units: slot {missing[0]} missing (list every unit of the scenario)")
    markers = d.get("markers", [])
    if not isinstance(markers, list):
        raise ValueError("state: markers: expected a list")
    for k, mk in enumerate(markers):
        where = f"state: markers[{k}]"
        m = _int(mk, "slot", 0, 7, where)
        s.mk[m][0] = _choice(mk, "kind", MARKER_KINDS, where) | (MK_ARMED if _bool(mk, "armed", where) else 0)
        s.mk[m][1] = _square(mk.get("square"), where, "square")
    pend = d.get("pending") or {"kind": "none"}
    s.pend = _choice(pend, "kind", PENDING, "state: pending")
    s.pu = _int(pend, "unit", 0, NUNITS - 1, "state: pending") if "unit" in pend else 0
    s.pt = _int(pend, "target", 0, NUNITS - 1, "state: pending") if "target" in pend else 0
    s.psq = _square(pend.get("square"), "state: pending", "square") if pend.get("square") else 0
    s.paux = _int(pend, "aux", 0, 255, "state: pending") if "aux" in pend else 0
    s.pflags = _int(pend, "flags", 0, 15, "state: pending") if "flags" in pend else 0
    # "spotted ... once an enemy [is] within 10 cm": a hand-built position with an
    # enemy that close is spotted whatever its flag says (play keeps it so after every move)
    update_spotting(&s)
    if st_validate(&s, msg, sizeof(msg)):
        raise ValueError("state: " + msg.decode("ascii", "replace"))
    return state_bytes(&s)


OBS_PLANES = 26
OBSERVATION_SHAPE = (OBS_PLANES, 12, 16)


def observation_tensor(raw, int player):
    """Planes over the 12 x 16 grid: 10 terrain one-hot, hill, wire, objective;
    then for the observer's units and the opponent's (in that order): present,
    pinned, suppressed, tank, spotted, fired/moved this turn; placed markers
    (own, opponent's); turn fraction. No hidden information."""
    cdef StState s
    cdef const Scn *sc
    load_state(raw, &s)
    if player not in (0, 1):
        raise ValueError(f"player must be 0 or 1, got {player}")
    sc = &SC[s.scenario] if s.scenario < NSCN else &SC[0]
    out = np.zeros(OBSERVATION_SHAPE, dtype=np.float32)
    for sq in range(NSQ):
        r, c = sq // STRIDE, sq % STRIDE
        if c >= sc.width or r >= sc.height:
            continue
        out[min(sc.terrain[sq], 9), r, c] = 1.0
        out[10, r, c] = 1.0 if sc.flags[sq] & F_HILL else 0.0
        out[11, r, c] = 1.0 if sc.flags[sq] & F_WIRE else 0.0
        out[12, r, c] = 1.0 if sc.flags[sq] & F_OBJECTIVE else 0.0
    for i in range(NUNITS):
        sq = s.u[i].sq
        if sq == NOSQ or s.u[i].type == NOTYPE or sq >= NSQ:
            continue
        r, c = sq // STRIDE, sq % STRIDE
        base = 13 if i // UPS == player else 19
        out[base, r, c] = 1.0
        out[base + 1, r, c] = 1.0 if (s.u[i].st & 3) == 1 else 0.0
        out[base + 2, r, c] = 1.0 if (s.u[i].st & 3) >= 2 else 0.0
        out[base + 3, r, c] = 1.0 if UT[s.u[i].type].tank else 0.0
        out[base + 4, r, c] = 1.0 if s.u[i].st & ST_SPOTTED else 0.0
        out[base + 5, r, c] = 1.0 if s.u[i].st & (ST_FIRED | ST_MOVED) else 0.0
    for m in range(8):
        sq = s.mk[m][1]
        if sq < NSQ and (s.mk[m][0] & 127) >= MK_BARRAGE:
            out[25, sq // STRIDE, sq % STRIDE] = 1.0 if m // MPS == player else -1.0
    return out


def scenario_info(name_or_index):
    """The scenario dict data.py loaded (map, armies, objectives)."""
    if isinstance(name_or_index, str):
        name_or_index = SCENARIO_NAMES.index(name_or_index)
    return SCENARIOS[name_or_index]


# ----------------------------------------------------------------- test and benchmark helpers
def _new(params=None):
    cdef StState s
    cdef bytes prm = pack_params(params or {})
    st_init(&s, <const char *>prm, 0)
    return state_bytes(&s)


def _validate(raw):
    """None if the bytes are a valid state, else the reason."""
    cdef StState s
    cdef char msg[160]
    b = bytes(raw)
    if len(b) != sizeof(StState):
        return f"wrong size {len(b)}"
    memcpy(&s, <const char *>b, sizeof(StState))
    if st_validate(&s, msg, sizeof(msg)):
        return msg.decode("ascii", "replace")
    return None


def _legal(raw):
    cdef StState s
    cdef ard_action out[MAX_LEGAL]
    load_state(raw, &s)
    return [out[i] for i in range(st_legal_actions(&s, out))]


def _chance(raw):
    cdef StState s
    cdef ard_action acts[8]
    cdef double probs[8]
    load_state(raw, &s)
    n = st_chance_outcomes(&s, acts, probs)
    return [(acts[i], probs[i]) for i in range(n)]


def _apply(raw, int action):
    cdef StState s
    load_state(raw, &s)
    st_apply(&s, action)
    return state_bytes(&s)


def _evaluate(raw, int player):
    cdef StState s
    load_state(raw, &s)
    return st_evaluate(&s, player)


def _notation(raw, int action):
    cdef StState s
    cdef char buf[32]
    load_state(raw, &s)
    n = st_action_to_string(&s, action, buf, sizeof(buf))
    return None if n < 0 else buf[:n].decode("ascii")


def _los(int scenario, int a, int b):
    return bool(has_los(&SC[scenario], a, b))


cdef long playout(const ard_game *g, void *st, ard_rng *rng, ard_action *buf) noexcept nogil:
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
    cdef StState start, st
    cdef ard_rng rng
    cdef ard_action buf[MAX_LEGAL]
    cdef long total = 0
    cdef int i
    cdef const ard_game *g = &ST_GAME
    cdef bytes prm = pack_params(params or {})
    g.init(&start, <const char *>prm, 0)
    ard_rng_seed(&rng, seed)
    t0 = time.perf_counter()
    with nogil:
        for i in range(games):
            memcpy(&st, &start, sizeof(StState))
            total += playout(g, &st, &rng, buf)
    return total, time.perf_counter() - t0
