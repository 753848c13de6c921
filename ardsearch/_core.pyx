# cython: language_level=3
"""The generic core: one Python Game/State API over any game's C vtable.

Written once for every game. A State owns one buffer of the game's state
struct; every rule question goes to the vtable. Python objects live only at
this boundary: perft and random playouts run in C with the GIL released.
"""
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid
from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcmp, memcpy

import hashlib
import struct
import time

import numpy as np

from ardsearch.game cimport *

CHANCE = ARD_CHANCE
TERMINAL = ARD_TERMINAL
HIDDEN = ARD_HIDDEN_OUTCOME

# serialize(): MAGIC, ABI version (u16), name length (u16), name, parameters text length
# (u16), parameters text (UTF-8, "key=value,..." in the game's parameter order),
# parameters fingerprint (u64: the first 8 bytes of BLAKE2b over the packed
# parameters the engine is initialized with), state size (u32), state bytes.
# The parameters make a state from the same game under other parameters
# (another road length, scenario, turn limit) an error, not a state whose game
# says one thing and whose bytes play by another.
_MAGIC = b"ARD2"
_MAGIC_V1 = b"ARDS"   # format 1: no parameters in the header
_HEADER = struct.Struct("<4sHH")


class IllegalMoveError(ValueError):
    """A well-formed move that is not legal in this state (the state is unchanged)."""


class InvalidMoveError(ValueError):
    """Text that is not a move of this game at all (the state is unchanged)."""


cdef const ard_game *_vtable(object capsule) except NULL:
    if not PyCapsule_IsValid(capsule, ARD_CAPSULE_NAME):
        raise TypeError("expected a game capsule named 'ardsearch.game'")
    cdef const ard_game *g = <const ard_game *>PyCapsule_GetPointer(capsule, ARD_CAPSULE_NAME)
    if g.abi_version != <uint32_t>ARD_ABI_VERSION:
        raise ImportError(f"game '{g.name.decode()}' was built for ABI {g.abi_version}, "
                          f"the core expects {ARD_ABI_VERSION}: rebuild the package")
    if g.num_features < 0 or g.num_features > ARD_MAX_FEATURES or (
            g.num_features > 0 and (g.features == NULL or g.weights == NULL or g.feature_names == NULL)):
        raise ImportError(f"game '{g.name.decode()}' declares {g.num_features} evaluation features "
                          f"without their function, names or weights (at most {ARD_MAX_FEATURES}): fix its vtable")
    return g


def engine_feature_names(capsule):
    """The evaluation feature names a game's vtable declares (empty if none);
    for ardsearch.evaluation, which loads weights before any Game exists."""
    cdef const ard_game *g = _vtable(capsule)
    return tuple(g.feature_names[i].decode() for i in range(g.num_features))


def engine_weights(capsule):
    """A numpy copy of a game's static weights table (empty if no features)."""
    cdef const ard_game *g = _vtable(capsule)
    cdef int i
    out = np.zeros(g.num_features, dtype=np.float64)
    for i in range(g.num_features):
        out[i] = g.weights[i]
    return out


def set_engine_weights(capsule, values):
    """Overwrite a game's static weights table (process-wide: evaluate() of
    every state of that game changes). ValueError on a wrong count or a
    non-finite number."""
    cdef const ard_game *g = _vtable(capsule)
    cdef int i, n = g.num_features
    name = g.name.decode()
    if n == 0:
        raise ValueError(f"{name} has no evaluation features to weight")
    w = np.asarray(values, dtype=np.float64).reshape(-1)
    if w.shape[0] != n:
        names = ", ".join(g.feature_names[i].decode() for i in range(n))
        raise ValueError(f"{name} has {n} features ({names}), got {w.shape[0]} weights")
    if not np.all(np.isfinite(w)):
        raise ValueError(f"{name}: every weight must be a finite number, got {w.tolist()}")
    for i in range(n):
        g.weights[i] = w[i]


cdef class Game:
    """A game with fixed parameters: makes states and reads them back."""

    cdef const ard_game *g
    cdef readonly object spec
    cdef readonly object capsule
    cdef readonly dict params
    cdef bytes _packed
    cdef bytes _params_text      # "key=value,..." as serialized
    cdef bytes _fingerprint      # 8 bytes: BLAKE2b of _packed
    # scratch for legality checks and outcome lists (the GIL serializes their use)
    cdef ard_action *_actions
    cdef double *_probs

    def __cinit__(self):
        self._actions = NULL
        self._probs = NULL

    def __init__(self, spec, dict params=None):
        self.spec = spec
        self.capsule = spec.capsule
        self.g = _vtable(spec.capsule)
        self.params = _checked_params(spec, params or {})
        self._packed = bytes(spec.pack_params(self.params))
        if len(self._packed) != self.g.params_size:
            raise RuntimeError(f"{spec.name}: pack_params gave {len(self._packed)} bytes, "
                               f"the engine expects {self.g.params_size}")
        self._params_text = ",".join(f"{k}={v}" for k, v in self.params.items()).encode("utf-8")
        if len(self._params_text) > 0xFFFF:
            raise ValueError(f"{spec.name}: parameters too long to serialize "
                             f"({len(self._params_text)} bytes of text; the limit is 65535)")
        self._fingerprint = hashlib.blake2b(self._packed, digest_size=8).digest()
        self._actions = <ard_action *>malloc(sizeof(ard_action) * (self.g.max_legal + 1))
        self._probs = <double *>malloc(sizeof(double) * (self.g.max_legal + 1))
        if self._actions == NULL or self._probs == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self._actions)
        free(self._probs)

    def __reduce__(self):
        from ardsearch import load_game
        return (_load_for_pickle, (self.spec.name, self.params))

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"load_game({self.spec.name!r}, {args})"

    property name:
        def __get__(self): return self.spec.name
    property title:
        def __get__(self): return self.spec.title
    property num_actions:
        def __get__(self): return self.g.num_actions
    property max_legal:
        def __get__(self): return self.g.max_legal
    property max_game_length:
        def __get__(self): return self.g.max_game_length
    property state_size:
        def __get__(self): return self.g.state_size
    property has_chance:
        def __get__(self): return bool(self.g.flags & ARD_FLAG_CHANCE)
    property hidden_information:
        def __get__(self): return bool(self.g.flags & ARD_FLAG_HIDDEN)
    property num_players:
        def __get__(self): return 2
    property feature_names:
        """Names of the evaluation's features, in order (empty if the game has none)."""
        def __get__(self):
            return tuple(self.g.feature_names[i].decode() for i in range(self.g.num_features))
    property weights:
        """The evaluation's weights (a numpy copy; empty if the game has no features).

        Setting them changes evaluate() for every state of this game in the
        process (the weights are the engine's static table, like its charts)."""
        def __get__(self):
            return engine_weights(self.capsule)
        def __set__(self, values):
            set_engine_weights(self.capsule, values)
    property observation_shape:
        def __get__(self): return tuple(self.spec.observation_shape)
    property player_names:
        """The two sides as the structured state names them, player 0 first
        (e.g. ('allies', 'germans'))."""
        def __get__(self): return tuple(self.spec.player_names)
    property player_titles:
        """The two sides as a person reads them, player 0 first (e.g. ('Allies', 'Germans'))."""
        def __get__(self): return tuple(self.spec.player_titles)

    def player_index(self, side):
        """The player (0 or 1) a side names: its name or title in any case
        ('allies', 'Germans'), or its index (0, 1, '0', '1'). ValueError naming
        the choices otherwise."""
        if isinstance(side, int) and not isinstance(side, bool):
            if side in (0, 1):
                return side
        elif isinstance(side, str):
            key = side.strip().lower()
            if key in ("0", "1"):
                return int(key)
            for i in range(2):
                if key in (self.spec.player_names[i].lower(), self.spec.player_titles[i].lower()):
                    return i
        names = self.spec.player_names
        raise ValueError(f"{self.name}: unknown side {side!r}: expected {names[0]!r} or 0, "
                         f"{names[1]!r} or 1")

    def new_initial_state(self, seed=0):
        """The start of a game. `seed` seeds the state's own RNG (used by
        sample_chance / apply_random_chance) and any random setup."""
        cdef uint64_t s = _seed64(seed)
        cdef State st = State._make(self)
        self.g.init(st.buf, <const char *>self._packed, s)
        ard_rng_seed(&st.rng, s ^ 0x5DEECE66DULL)
        st.seed = seed
        return st

    def state_from_raw(self, raw):
        """A State from the bare struct bytes (state.raw()); ValueError if invalid."""
        raw = bytes(raw)
        if len(raw) != self.g.state_size:
            raise ValueError(f"{self.name}: a raw state has {self.g.state_size} bytes, got {len(raw)}")
        cdef State st = State._make(self)
        memcpy(st.buf, <const char *>raw, self.g.state_size)
        st._check_valid("raw state")
        return st

    def deserialize_state(self, data):
        """The inverse of State.serialize() for a state of this game under these
        parameters; ValueError on anything else (another game, other parameters,
        corrupt bytes), naming what differs."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise ValueError(f"deserialize_state expects bytes, got {type(data).__name__}")
        data = bytes(data)
        if len(data) < _HEADER.size:
            raise ValueError(f"serialized state too short ({len(data)} bytes): not an ardsearch state")
        magic, abi, nlen = _HEADER.unpack_from(data)
        if magic == _MAGIC_V1:
            raise ValueError("serialized by an older ardsearch (format 1, which does not record the game's "
                             "parameters, so they cannot be checked): serialize the state again with "
                             "this version")
        if magic != _MAGIC:
            raise ValueError("not an ardsearch serialized state (bad magic)")
        if abi != ARD_ABI_VERSION:
            raise ValueError(f"serialized with game ABI {abi}, this build reads ABI {ARD_ABI_VERSION}")
        pos = _HEADER.size
        name = data[pos:pos + nlen]
        pos += nlen
        if name != self.name.encode():
            raise ValueError(f"serialized state is of game {name.decode('ascii', 'replace')!r}, "
                             f"not {self.name!r}")
        if len(data) < pos + 2:
            raise ValueError("serialized state truncated in its header")
        (plen,) = struct.unpack_from("<H", data, pos)
        pos += 2
        if len(data) < pos + plen + 8 + 4:
            raise ValueError("serialized state truncated in its header")
        params_text = data[pos:pos + plen]
        pos += plen
        fingerprint = data[pos:pos + 8]
        pos += 8
        if params_text != self._params_text:
            theirs = params_text.decode("utf-8", "replace")
            raise ValueError(f"serialized state is of {self.name}({theirs}), this game is "
                             f"{self.name}({self._params_text.decode()}): a state only loads into a "
                             f"game with the same parameters; load that game with "
                             f"ardsearch.load_game(\"{self.name}({theirs})\")")
        if fingerprint != self._fingerprint:
            raise ValueError(f"serialized state is of {self.name}({self._params_text.decode()}) but "
                             f"its parameters packed to other data (a scenario file changed since?): "
                             f"serialize it again from a game loaded now")
        (size,) = struct.unpack_from("<I", data, pos)
        pos += 4
        if size != self.g.state_size or len(data) != pos + size:
            raise ValueError(f"serialized {self.name} state has {len(data) - pos} bytes of state "
                             f"(header says {size}), this build expects {self.g.state_size}")
        st = self.state_from_raw(data[pos:])
        return st

    def state_from_dict(self, d):
        """A State from the structured state (schema in the game's RULES.md)."""
        if not isinstance(d, dict):
            raise ValueError(f"state_from_dict expects a dict, got {type(d).__name__}")
        if d.get("game", self.name) != self.name:
            raise ValueError(f"structured state is of game {d.get('game')!r}, not {self.name!r}")
        # A dict that names a game parameter must agree with this game's (as
        # this game's own states write it, so "0 = the scenario's" reads as the
        # scenario's value): a state set up for other parameters would play by
        # rules its game does not say.
        mine = self.new_initial_state(seed=0).to_dict()
        for p in self.spec.params:
            if p.name in d and p.name in mine and d[p.name] != mine[p.name]:
                raise ValueError(f"structured state has {p.name}={d[p.name]!r}, this game has "
                                 f"{p.name}={mine[p.name]!r}: load the game with that parameter "
                                 f"(load_game({self.name!r}, {p.name}=...))")
        raw = self.spec.from_dict(d, self.params)
        return self.state_from_raw(raw)


def _load_for_pickle(name, params):
    from ardsearch import load_game
    return load_game(name, **params)


cdef uint64_t _seed64(object seed) except? 0:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    return <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)


def _checked_params(spec, dict given):
    """All parameters of the game, validated; ValueError on an unknown key or bad value."""
    known = {p.name: p for p in spec.params}
    for key in given:
        if key not in known:
            valid = ", ".join(known) or "none"
            raise ValueError(f"{spec.name}: unknown parameter {key!r} (valid: {valid})")
    # plain defaults first; then the defaults that depend on them (Param.default_for)
    values = {p.name: p.coerce(given[p.name]) if p.name in given else p.default
              for p in spec.params}
    for p in spec.params:
        if p.default_for is not None and p.name not in given:
            values[p.name] = p.coerce(p.default_for(values))
    return values


cdef class State:
    """One position of a game. Mutable: apply_action changes it in place."""

    cdef readonly Game game
    cdef const ard_game *g
    cdef uint8_t *buf
    cdef ard_rng rng
    cdef list _history      # actions; ARD_HIDDEN_OUTCOME where this state's owner did not see
    cdef list _seen         # per history entry: bit p set if player p saw it
    cdef list _notes        # per history entry: notation ("?" for hidden)
    # undo stack: one (raw state, RNG state, history length) per player
    # decision applied, taken just before it
    cdef list _undo
    cdef public object seed

    def __cinit__(self):
        self.buf = NULL

    def __dealloc__(self):
        free(self.buf)

    @staticmethod
    cdef State _make(Game game):
        cdef State st = State.__new__(State)
        st.game = game
        st.g = game.g
        st.buf = <uint8_t *>malloc(game.g.state_size)
        if st.buf == NULL:
            raise MemoryError()
        st._history = []
        st._seen = []
        st._notes = []
        st._undo = []
        st.seed = None
        ard_rng_seed(&st.rng, 0)
        return st

    cdef _check_valid(self, what):
        cdef char msg[ARD_MESSAGE_MAX]
        msg[0] = 0
        if self.g.validate(self.buf, msg, ARD_MESSAGE_MAX) != 0:
            raise ValueError(f"invalid {self.game.name} {what}: {msg.decode('utf-8', 'replace')}")

    # ---- queries -------------------------------------------------------
    def current_player(self):
        return self.g.current_player(self.buf)

    def is_chance_node(self):
        return self.g.current_player(self.buf) == ARD_CHANCE

    def is_terminal(self):
        return self.g.current_player(self.buf) == ARD_TERMINAL

    def legal_actions(self):
        """Legal actions at a decision node (chance nodes: the outcomes' actions; terminal: [])."""
        cdef int cp = self.g.current_player(self.buf)
        cdef int n, i
        if cp == ARD_TERMINAL:
            return []
        if cp == ARD_CHANCE:
            n = self.g.chance_outcomes(self.buf, self.game._actions, self.game._probs)
        else:
            n = self.g.legal_actions(self.buf, self.game._actions)
        return [self.game._actions[i] for i in range(n)]

    def chance_outcomes(self):
        """[(action, probability)] at a chance node, else []."""
        if self.g.current_player(self.buf) != ARD_CHANCE:
            return []
        cdef int n = self.g.chance_outcomes(self.buf, self.game._actions, self.game._probs)
        return [(self.game._actions[i], self.game._probs[i]) for i in range(n)]

    def returns(self):
        cdef double r[2]
        self.g.returns(self.buf, r)
        return [r[0], r[1]]

    def evaluate(self, int player, weights=None):
        """The game's heuristic value in [-1, 1] for player (0 or 1). With
        `weights` (one number per Game.feature_names entry) the value is
        tanh(weights . features / 2) with those weights instead of the game's
        own table (a bot with its own weights; terminal states keep their
        evaluate() value, the game's result)."""
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, got {player}")
        if weights is None:
            return self.g.evaluate(self.buf, player)
        cdef int i, n = self.g.num_features
        if n == 0:
            raise ValueError(f"{self.game.spec.name} has no evaluation features: evaluate() takes no weights")
        w = np.asarray(weights, dtype=np.float64).reshape(-1)
        if w.shape[0] != n:
            raise ValueError(f"{self.game.spec.name} has {n} features, got {w.shape[0]} weights")
        if self.g.current_player(self.buf) == ARD_TERMINAL:
            return self.g.evaluate(self.buf, player)
        cdef double buf[ARD_MAX_FEATURES]
        cdef double ww[ARD_MAX_FEATURES]
        for i in range(n):
            ww[i] = w[i]
        self.g.features(self.buf, player, buf)
        return ard_linear_value(ww, buf, n)

    def features(self, int player):
        """The evaluation's features of this state from player's side (a numpy
        array in Game.feature_names order; evaluate() = tanh(weights . features / 2))."""
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, got {player}")
        cdef int n = self.g.num_features
        if n == 0:
            raise ValueError(f"{self.game.spec.name} has no evaluation features")
        cdef double buf[ARD_MAX_FEATURES]
        self.g.features(self.buf, player, buf)
        return np.array([buf[i] for i in range(n)], dtype=np.float64)

    def hash(self):
        return self.g.hash(self.buf)

    def viewer(self):
        """-1 for a full state, else the player whose view this is."""
        return self.g.viewer(self.buf)

    def raw(self):
        """The bare state struct as bytes (what the search takes)."""
        return (<char *>self.buf)[:self.g.state_size]

    def history(self):
        """Every action and chance outcome so far (ardsearch.HIDDEN where unseen)."""
        return list(self._history)

    def history_strings(self):
        return list(self._notes)

    def masked_history(self, int player):
        """The history in notation as `player` saw it: '?' for what they did not see."""
        return [note if (seen >> player) & 1 else "?" for note, seen in zip(self._notes, self._seen)]

    # ---- notation ------------------------------------------------------
    def action_to_string(self, action):
        cdef char buf[ARD_NOTATION_MAX]
        if action == ARD_HIDDEN_OUTCOME:
            return "?"
        if not isinstance(action, int) or not 0 <= action < self.g.num_actions:
            raise InvalidMoveError(f"action {action!r} is out of range 0..{self.g.num_actions - 1}")
        cdef int n = self.g.action_to_string(self.buf, <ard_action>action, buf, ARD_NOTATION_MAX)
        if n < 0:
            raise InvalidMoveError(f"action {action} has no notation in {self.game.name}")
        return buf[:n].decode("ascii")

    def string_to_action(self, text):
        """The action named by `text` (notation), legal or not; InvalidMoveError if none."""
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move in notation must be a str, got {type(text).__name__}")
        text = text.strip()
        if text == "?":
            return ARD_HIDDEN_OUTCOME
        try:
            b = text.encode("ascii")
        except UnicodeEncodeError:
            raise InvalidMoveError(f"{text!r} is not {self.game.name} notation (non-ASCII)") from None
        if len(b) >= ARD_NOTATION_MAX or b"\0" in b:
            raise InvalidMoveError(f"{text[:40]!r} is not {self.game.name} notation")
        cdef ard_action a = self.g.string_to_action(self.buf, b)
        if a < 0:
            hint = self.game.spec.notation_hint(text) if self.game.spec.notation_hint else None
            raise InvalidMoveError(f"{text!r} is not {self.game.name} notation "
                                   + (f"({hint}; " if hint else "(")
                                   + f"see RULES.md; legal here: {', '.join(self._legal_notes()[:12])})")
        return a

    def _legal_notes(self):
        return [self.action_to_string(a) for a in self.legal_actions()]

    # ---- moves ---------------------------------------------------------
    def apply_action(self, action):
        """Applies a legal action or chance outcome; IllegalMoveError otherwise (state unchanged)."""
        if isinstance(action, bool) or not isinstance(action, int):
            raise InvalidMoveError(f"an action must be an int, got {action!r}")
        cdef int cp = self.g.current_player(self.buf)
        cdef int viewer, i, n
        cdef ard_action a
        if cp == ARD_TERMINAL:
            raise IllegalMoveError(f"move {self._describe(action)} is illegal: the game is over")
        if action == ARD_HIDDEN_OUTCOME:
            # '?' is an event the view's owner did not see: a hidden chance
            # outcome, or a decision of the opponent made out of sight (a
            # simultaneous bid).
            viewer = self.g.viewer(self.buf)
            if viewer < 0:
                raise IllegalMoveError("'?' (an unseen event) is only legal in a player's view")
            if cp == viewer:
                raise IllegalMoveError(f"'?' is illegal here: player {viewer} makes this move and sees it")
            if cp == ARD_CHANCE:
                n = self.g.chance_outcomes(self.buf, self.game._actions, self.game._probs)
            else:
                n = self.g.legal_actions(self.buf, self.game._actions)
            if n == 0 or self.g.action_visible(self.buf, self.game._actions[0], viewer):
                raise IllegalMoveError(f"'?' is illegal here: player {viewer} sees this event")
            if cp >= 0:
                self._snapshot()
            self._push(ARD_HIDDEN_OUTCOME, "?", 1 << (1 - viewer))
            return
        if not 0 <= action < self.g.num_actions:
            raise InvalidMoveError(f"action {action} is out of range 0..{self.g.num_actions - 1}")
        a = <ard_action>action
        viewer = self.g.viewer(self.buf)
        if viewer >= 0 and not self.g.action_visible(self.buf, a, viewer):
            raise IllegalMoveError(f"{self._describe(action)}: player {viewer} does not see this "
                                   f"event in their view; apply '?' instead")
        if cp == ARD_CHANCE:
            n = self.g.chance_outcomes(self.buf, self.game._actions, self.game._probs)
        else:
            n = self.g.legal_actions(self.buf, self.game._actions)
        for i in range(n):
            if self.game._actions[i] == a:
                break
        else:
            what = "chance outcome" if cp == ARD_CHANCE else f"move for player {cp}"
            # the refusal path only: the game's reason, or the core's (ardsearch/_refusals.py)
            from ardsearch._refusals import refusal_message
            raise IllegalMoveError(refusal_message(self, self.action_to_string(action),
                                                   f"{self._describe(action)} is not a legal {what} here"))
        note = self.action_to_string(action)
        cdef int seen = self.g.action_visible(self.buf, a, 0) | (self.g.action_visible(self.buf, a, 1) << 1)
        if cp >= 0:
            self._snapshot()
        self._push(a, note, seen)

    cdef _snapshot(self):
        # sliced straight from C (no Python method call): this runs on every decision
        self._undo.append(((<char *>self.buf)[:self.g.state_size], (<char *>&self.rng)[:sizeof(ard_rng)],
                           len(self._history)))

    cdef _restore(self, tuple entry):
        raw, rng, n = entry
        memcpy(self.buf, <const char *>raw, self.g.state_size)
        memcpy(&self.rng, <const char *>rng, sizeof(ard_rng))
        del self._history[n:]
        del self._seen[n:]
        del self._notes[n:]

    def undo(self):
        """Takes back the last player decision and every chance outcome after
        it: the state, its RNG, history and notation are exactly as they were
        at that decision point. Returns the action taken back (ardsearch.HIDDEN
        for an opponent's decision a view saw as '?'). ValueError if
        there is nothing to undo (no decision since the start, or a state read
        back by deserialize_state / state_from_dict / state_from_raw, or a
        sample from resample_from_infostate, which carry no undo history)."""
        if not self._undo:
            raise ValueError(f"nothing to undo: no player decision has been made in this {self.game.name} "
                             f"state's recorded past (states read back from bytes, dicts or samples "
                             f"start with no undo history)")
        entry = self._undo.pop()
        action = self._history[entry[2]]
        self._restore(entry)
        return action

    def can_undo(self):
        """True if undo() has a decision to take back."""
        return bool(self._undo)

    def undo_depth(self):
        """How many player decisions undo() can take back."""
        return len(self._undo)

    def outcome(self):
        """None while the game is on; at the end an ardsearch.Outcome: winner
        (0, 1 or None for a draw), winner_name, reason (a code listed in the
        game's RULES.md, "How the game ends") and sentence."""
        if self.g.current_player(self.buf) != ARD_TERMINAL:
            return None
        from ardsearch._spec import Outcome
        fn = self.game.spec.outcome
        if fn is not None:
            return fn(self)
        r = self.returns()
        winner = 0 if r[0] > r[1] else 1 if r[1] > r[0] else None
        return Outcome.make(self.game.spec, winner, "game-over", "the game is over")

    cdef _push(self, ard_action a, str note, int seen):
        self.g.apply(self.buf, a)
        viewer = self.g.viewer(self.buf)
        self._history.append(a if viewer < 0 or (seen >> viewer) & 1 else ARD_HIDDEN_OUTCOME)
        self._seen.append(seen)
        self._notes.append(note)

    def _describe(self, action):
        try:
            return f"{self.action_to_string(action)!r} ({action})"
        except ValueError:
            return str(action)

    def apply(self, text):
        """Applies a move given in notation (see the game's RULES.md)."""
        self.apply_action(self.string_to_action(text))

    def sample_chance(self):
        """A chance outcome drawn with this state's seeded RNG (not applied)."""
        if self.g.current_player(self.buf) != ARD_CHANCE:
            raise ValueError("sample_chance: not a chance node")
        return self.g.sample_chance(self.buf, &self.rng)

    def apply_random_chance(self):
        """Draws a chance outcome with this state's RNG, applies it, returns it."""
        a = self.sample_chance()
        self.apply_action(a)
        return a

    # ---- copies, views -------------------------------------------------
    def clone(self):
        cdef State st = State._make(self.game)
        memcpy(st.buf, self.buf, self.g.state_size)
        st.rng = self.rng
        st._history = list(self._history)
        st._seen = list(self._seen)
        st._notes = list(self._notes)
        st._undo = list(self._undo)
        st.seed = self.seed
        return st

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def view(self, int player):
        """What `player` knows: everything else replaced by unknowns."""
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, got {player}")
        cdef State st = self.clone()
        self.g.observe(self.buf, player, st.buf)
        st._history = [a if (s >> player) & 1 else ARD_HIDDEN_OUTCOME
                       for a, s in zip(self._history, self._seen)]
        st._notes = self.masked_history(player)
        cdef State tmp
        if self.g.flags & ARD_FLAG_HIDDEN and self._undo:
            # undoing in a view gives the view of the earlier position
            tmp = State._make(self.game)
            st._undo = []
            for raw, rng, n in self._undo:
                self.g.observe(<const char *>raw, player, tmp.buf)
                st._undo.append((tmp.raw(), rng, n))
        return st

    def resample_from_infostate(self, int player, seed=0):
        """A full state drawn uniformly among those consistent with `player`'s view.
        Its history keeps '?' where player did not see the outcome."""
        cdef State st = self.view(player)
        cdef ard_rng r
        ard_rng_seed(&r, _seed64(seed))
        self.g.determinize(st.buf, player, &r)
        st._undo = []   # a sample's past is not determined: no undo history
        return st

    def observation_string(self, int player):
        return self.game.spec.render(self.view(player).raw())

    def observation_tensor(self, int player):
        return np.asarray(self.game.spec.observation_tensor(self.view(player).raw(), player),
                          dtype=np.float32)

    # ---- formats -------------------------------------------------------
    def serialize(self):
        name = self.game.name.encode()
        text = self.game._params_text
        return (_HEADER.pack(_MAGIC, ARD_ABI_VERSION, len(name)) + name
                + struct.pack("<H", len(text)) + text + self.game._fingerprint
                + struct.pack("<I", self.g.state_size) + self.raw())

    def to_dict(self):
        return self.game.spec.to_dict(self.raw())

    def __str__(self):
        return self.game.spec.render(self.raw())

    def __repr__(self):
        return f"<{self.game.name} State player={self.current_player()} moves={len(self._history)}>"

    def __eq__(self, other):
        if not isinstance(other, State):
            return NotImplemented
        return self.game.name == other.game.name and self.raw() == other.raw()

    __hash__ = None

    def __reduce__(self):
        return (_restore_state, (self.game, self.serialize(), self._history, self._seen,
                                 self._notes, self.seed, (<char *>&self.rng)[:sizeof(ard_rng)],
                                 self._undo))


def _restore_state(game, data, history, seen, notes, seed, rng=None, undo=None):
    cdef State st = game.deserialize_state(data)
    st._history = list(history)
    st._seen = list(seen)
    st._notes = list(notes)
    st.seed = seed
    if rng is not None:
        if len(rng) != sizeof(ard_rng):
            raise ValueError("pickled state: RNG state of the wrong size")
        memcpy(&st.rng, <const char *>rng, sizeof(ard_rng))
    for raw, r, n in undo or ():
        if len(raw) != st.g.state_size or len(r) != sizeof(ard_rng) or not 0 <= n <= len(st._history):
            raise ValueError("pickled state: a corrupt undo entry")
    st._undo = list(undo or ())
    return st


# ---- whole-game loops in C ------------------------------------------------

cdef extern from *:
    """
    /* A stop request that another thread may set while C code runs without
     * the GIL: read from memory at every call. */
    static inline int ard_stop_requested(const unsigned char *flag) {
        return *(const volatile unsigned char *)flag != 0;
    }
    """
    int ard_stop_requested(const unsigned char *flag) noexcept nogil

cdef unsigned char _NO_STOP = 0


cdef uint64_t _perft(const ard_game *g, uint8_t *stack, int depth, ard_action *acts,
                     double *probs, const unsigned char *stop, int *cut) noexcept nogil:
    """Leaves at `depth` below stack[0:size]; chance nodes expanded over all outcomes.
    stack holds depth+1 states; acts/probs hold max_legal entries per level.
    Once *stop is nonzero it returns what it has counted and sets *cut."""
    cdef int cp = g.current_player(stack)
    if depth == 0 or cp == ARD_TERMINAL:
        return 1
    cdef int n, i
    cdef uint64_t total = 0
    cdef uint32_t size = g.state_size
    if cp == ARD_CHANCE:
        n = g.chance_outcomes(stack, acts, probs)
    else:
        n = g.legal_actions(stack, acts)
    for i in range(n):
        if ard_stop_requested(stop):
            cut[0] = 1
            break
        memcpy(stack + size, stack, size)
        g.apply(stack + size, acts[i])
        total += _perft(g, stack + size, depth - 1, acts + g.max_legal, probs + g.max_legal, stop, cut)
    return total


def perft(State state, int depth, bint divide=False):
    """Leaf count of the game tree `depth` plies below state (chance outcomes are plies).
    With divide=True: [(action, count)] for each root action or outcome."""
    if depth < 0:
        raise ValueError(f"perft depth must be >= 0, got {depth}")
    cdef const ard_game *g = state.g
    cdef int levels = depth + 1
    cdef uint8_t *stack = <uint8_t *>malloc(g.state_size * (levels + 1))
    cdef ard_action *acts = <ard_action *>malloc(sizeof(ard_action) * g.max_legal * (levels + 1))
    cdef double *probs = <double *>malloc(sizeof(double) * g.max_legal * (levels + 1))
    cdef uint64_t count = 0
    cdef int i
    cdef int cut = 0
    if stack == NULL or acts == NULL or probs == NULL:
        free(stack); free(acts); free(probs)
        raise MemoryError()
    try:
        if not divide:
            memcpy(stack, state.buf, g.state_size)
            with nogil:
                count = _perft(g, stack, depth, acts, probs, &_NO_STOP, &cut)
            return count
        result = []
        for a in state.legal_actions() if depth > 0 else []:
            memcpy(stack, state.buf, g.state_size)
            g.apply(stack, a)
            with nogil:
                count = _perft(g, stack, depth - 1, acts, probs, &_NO_STOP, &cut)
            result.append((a, count))
        return result
    finally:
        free(stack)
        free(acts)
        free(probs)


def perft_until(State state, int depth, const unsigned char[::1] stop):
    """perft(state, depth) that another thread can interrupt: stop is a buffer
    (a bytearray(1), say) whose first byte, once set nonzero, ends the count
    soon. Returns (count, complete): complete is False when the stop cut the
    count short (count is then the leaves found so far, a lower bound)."""
    if depth < 0:
        raise ValueError(f"perft depth must be >= 0, got {depth}")
    if stop.shape[0] < 1:
        raise ValueError("perft_until needs a stop buffer of at least one byte")
    cdef const ard_game *g = state.g
    cdef int levels = depth + 1
    cdef uint8_t *stack = <uint8_t *>malloc(g.state_size * (levels + 1))
    cdef ard_action *acts = <ard_action *>malloc(sizeof(ard_action) * g.max_legal * (levels + 1))
    cdef double *probs = <double *>malloc(sizeof(double) * g.max_legal * (levels + 1))
    cdef const unsigned char *flag = &stop[0]
    cdef uint64_t count = 0
    cdef int cut = 0
    if stack == NULL or acts == NULL or probs == NULL:
        free(stack); free(acts); free(probs)
        raise MemoryError()
    try:
        memcpy(stack, state.buf, g.state_size)
        with nogil:
            count = _perft(g, stack, depth, acts, probs, flag, &cut)
        return count, cut == 0
    finally:
        free(stack)
        free(acts)
        free(probs)


cdef uint64_t _playouts(const ard_game *g, const void *params, uint64_t seed, long games,
                        uint8_t *buf, ard_action *acts) noexcept nogil:
    cdef ard_rng r
    cdef uint64_t total = 0
    cdef long k
    cdef int cp, n
    cdef ard_action a
    ard_rng_seed(&r, seed)
    for k in range(games):
        g.init(buf, params, seed + <uint64_t>k)
        while True:
            cp = g.current_player(buf)
            if cp == ARD_TERMINAL:
                break
            if cp == ARD_CHANCE:
                a = g.sample_chance(buf, &r)
            else:
                n = g.legal_actions(buf, acts)
                a = acts[ard_rng_below(&r, <uint32_t>n)]
            g.apply(buf, a)
            total += 1
    return total


def random_playouts(Game game, long games, seed=0):
    """Plays `games` uniformly random games in C (GIL released).
    Returns (actions applied, chance outcomes included; seconds)."""
    if games < 0:
        raise ValueError("games must be >= 0")
    cdef const ard_game *g = game.g
    cdef uint8_t *buf = <uint8_t *>malloc(g.state_size)
    cdef ard_action *acts = <ard_action *>malloc(sizeof(ard_action) * g.max_legal)
    cdef bytes packed = game._packed
    cdef const char *params = packed
    cdef uint64_t s = _seed64(seed)
    cdef uint64_t total
    if buf == NULL or acts == NULL:
        free(buf); free(acts)
        raise MemoryError()
    t0 = time.perf_counter()
    with nogil:
        total = _playouts(g, params, s, games, buf, acts)
    elapsed = time.perf_counter() - t0
    free(buf)
    free(acts)
    return total, elapsed
