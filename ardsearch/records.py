"""Game records: one documented format for every game, written by `play`,
`match` and `tournament` and read by `replay`, `play --load` and
`read_record` (the specification is docs/records.md).

A record is one JSON object on one line; a records file holds one record a
line (JSON Lines), so a tournament's results file is a records file and a
crash can only ever cut the last line. Reading validates every record in
full, replaying its moves: a damaged record is refused with one error that
names the file, the line and the problem.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

FORMAT = "ardsearch-record"
VERSION = 1
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
PLAYER_KINDS = ("bot", "engine", "human")
# per-move comments a writer may add, and the type each must have
COMMENTS = {"eval": (int, float), "wp": (int, float), "time": (int, float), "nodes": (int,),
            "pv": (list,), "depth": (int,), "text": (str,)}


class RecordError(ValueError):
    """A record that cannot be read: the message names the file, the line and the problem."""


def side_names(game) -> tuple[str, str]:
    """The two side names of a game as records write them (e.g. allies, germans)."""
    return tuple(game.player_names)


def result_text(returns) -> str:
    """The result from seat 0's side: 1-0, 0-1 or 1/2-1/2 (as in PGN)."""
    if returns[0] > returns[1]:
        return "1-0"
    if returns[0] < returns[1]:
        return "0-1"
    return "1/2-1/2"


def outcome_of(state) -> dict | None:
    """The finished game's outcome as a record stores it (None while it goes on)."""
    o = state.outcome()
    if o is None:
        return None
    return {"winner": o.winner_name, "reason": o.reason, "sentence": o.sentence}


@dataclass
class Record:
    """One game: what was played, by whom, with what result.

    `moves` are dicts {"side", "player", "move"} plus optional comments
    (eval, wp, time, nodes, pv, depth, text); `player` is -1 for chance.
    `extra` keeps any other keys a writer added (a tournament's pairing,
    index, faults), written back unchanged."""
    game: str
    params: dict
    seed: int | None
    players: list[dict]
    moves: list[dict] = field(default_factory=list)
    result: str = "*"
    termination: str = "normal"
    outcome: dict | None = None
    extra: dict = field(default_factory=dict)
    source: str = ""          # file:line it was read from, for messages

    # --- building -------------------------------------------------------
    @classmethod
    def start(cls, game, seed, players) -> Record:
        """An empty record for a new game; `players` are two dicts (or names)."""
        names = side_names(game)
        seats = []
        for i, p in enumerate(players):
            p = {"name": p, "kind": "bot"} if isinstance(p, str) else dict(p)
            p.setdefault("kind", "bot")
            p["side"] = names[i]
            seats.append(p)
        return cls(game=game.name, params=dict(game.params), seed=None if seed is None else int(seed),
                   players=seats)

    def add(self, state, action, **comments) -> None:
        """Appends `action`, about to be applied to `state`, with its comments."""
        player = -1 if state.is_chance_node() else state.current_player()
        entry = {"side": "chance" if player < 0 else side_names(state.game)[player],
                 "player": player, "move": state.action_to_string(action)}
        for key, value in comments.items():
            if value is not None:
                entry[key] = value
        self.moves.append(entry)

    def finish(self, state, termination: str = "normal", returns=None, sentence: str | None = None) -> None:
        """Sets the result from the final state (or from `returns` for a game
        that ended early, e.g. on a fault, with a `sentence` saying why)."""
        self.termination = termination
        if returns is None and state.is_terminal():
            returns = state.returns()
        if returns is None:
            self.result, self.outcome = "*", None
            return
        self.result = result_text(returns)
        if termination == "normal":
            self.outcome = outcome_of(state)
        else:
            names = side_names(state.game)
            winner = "draw" if returns[0] == returns[1] else names[0 if returns[0] > returns[1] else 1]
            self.outcome = {"winner": winner, "reason": termination, "sentence": sentence or termination}

    # --- reading back ---------------------------------------------------
    def load_game(self):
        import ardsearch
        return ardsearch.load_game(self.game, **self.params)

    def state(self, ply: int | None = None):
        """The state after the first `ply` moves (0: the start; None: the end)."""
        if ply is None:
            ply = len(self.moves)
        if not 0 <= ply <= len(self.moves):
            raise ValueError(f"ply {ply} is outside this game (0..{len(self.moves)})")
        game = self.load_game()
        state = game.new_initial_state(seed=self.seed or 0)
        for m in self.moves[:ply]:
            state.apply(m["move"])
        return state

    def states(self):
        """The start and the state after each move, in order."""
        game = self.load_game()
        state = game.new_initial_state(seed=self.seed or 0)
        yield state.clone()
        for m in self.moves:
            state.apply(m["move"])
            yield state.clone()

    @property
    def length(self) -> int:
        return len(self.moves)

    # --- serialization --------------------------------------------------
    def to_json(self) -> dict:
        d = {"format": FORMAT, "version": VERSION, "game": self.game, "params": self.params,
             "seed": self.seed, "players": self.players, "result": self.result,
             "termination": self.termination, "outcome": self.outcome, "moves": self.moves}
        for key, value in self.extra.items():
            d.setdefault(key, value)
        return d

    def to_line(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def from_json(cls, d, source: str = "", replay: bool = True) -> Record:
        """A record from its JSON object, validated (and replayed: every move
        must be legal in turn and the result must match the final state)."""
        return _Validator(source).record(d, replay)


# --- files ----------------------------------------------------------------

def write_record(path, record: Record, append: bool = False) -> None:
    """Writes one record as one line; `append` adds it to a records file.
    A new file is written whole or not at all (temporary file, rename)."""
    path = Path(path)
    line = record.to_line() + "\n"
    if append:
        with open(path, "a") as f:
            f.write(line)
        return
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "w") as f:
            f.write(line)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def read_records(path, replay: bool = True) -> list[Record]:
    """Every record of a records file. A torn last line (a killed writer) is
    ignored; any other bad line raises RecordError naming it."""
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path}: not a records file (not UTF-8 text)") from None
    lines = text.split("\n")
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        source = f"{path}:{number}"
        try:
            d = json.loads(line)
        except json.JSONDecodeError as exc:
            if number == len(lines):        # unterminated last line of an interrupted write
                break
            raise RecordError(f"{source}: not a JSON game record ({exc.msg} at column {exc.colno})") from None
        records.append(Record.from_json(d, source, replay))
    return records


def read_record(path, index: int | None = None) -> Record:
    """One record of a file: the only one, or the one whose `index` (a
    tournament's game number) or position (0-based) is `index`.

        rec = ardsearch.read_record("game.jsonl")
        rec.state(12)        # the position after 12 moves
    """
    records = read_records(path)
    if not records:
        raise RecordError(f"{path}: holds no game record")
    if index is None:
        if len(records) > 1:
            raise RecordError(f"{path} holds {len(records)} games: choose one with index=")
        return records[0]
    for r in records:
        if r.extra.get("index") == index:
            return r
    if 0 <= index < len(records) and not any("index" in r.extra for r in records):
        return records[index]
    raise RecordError(f"{path}: no game {index} (it holds {len(records)} games)")


# --- validation -------------------------------------------------------------

class _Validator:
    def __init__(self, source: str):
        self.source = source or "record"

    def fail(self, problem: str):
        raise RecordError(f"{self.source}: {problem}")

    def need(self, d, key, types, what):
        if key not in d:
            self.fail(f"missing {key!r} ({what})")
        value = d[key]
        if not isinstance(value, types) or isinstance(value, bool) and bool not in _tuple(types):
            self.fail(f"{key!r} must be {what}, got {value!r}")
        return value

    def record(self, d, replay: bool) -> Record:
        import ardsearch
        if not isinstance(d, dict):
            self.fail("not a game record (expected a JSON object)")
        if d.get("format") != FORMAT:
            self.fail(f"not an ardsearch game record (format is {d.get('format')!r}, expected {FORMAT!r})")
        version = self.need(d, "version", int, "an integer")
        if version > VERSION:
            self.fail(f"record version {version} is newer than this ardsearch reads ({VERSION}); upgrade ardsearch")
        if version < 1:
            self.fail(f"record version {version} is not a version (1..{VERSION})")
        name = self.need(d, "game", str, "a game name")
        params = self.need(d, "params", dict, "an object of game parameters")
        seed = d.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            self.fail(f"'seed' must be an integer or null, got {seed!r}")
        try:
            game = ardsearch.load_game(name, **params)
        except ValueError as exc:
            self.fail(f"cannot load game {name!r} with {params}: {exc}")
        names = side_names(game)
        players = self.need(d, "players", list, "a list of the two players")
        if len(players) != 2:
            self.fail(f"'players' must list 2 players, got {len(players)}")
        for i, p in enumerate(players):
            if not isinstance(p, dict) or not isinstance(p.get("name"), str):
                self.fail(f"players[{i}] must be an object with a 'name', got {p!r}")
            if p.get("kind", "bot") not in PLAYER_KINDS:
                self.fail(f"players[{i}].kind must be one of {', '.join(PLAYER_KINDS)}, got {p.get('kind')!r}")
            if p.get("side", names[i]) != names[i]:
                self.fail(f"players[{i}].side is {p.get('side')!r}, but seat {i} plays {names[i]!r}")
        result = self.need(d, "result", str, "one of " + ", ".join(RESULTS))
        if result not in RESULTS:
            self.fail(f"'result' must be one of {', '.join(RESULTS)}, got {result!r}")
        termination = d.get("termination", "normal")
        if not isinstance(termination, str):
            self.fail(f"'termination' must be text, got {termination!r}")
        outcome = d.get("outcome")
        if outcome is not None:
            if not isinstance(outcome, dict) or not all(isinstance(outcome.get(k), str)
                                                        for k in ("winner", "reason", "sentence")):
                self.fail(f"'outcome' must be null or an object with text winner, reason, sentence; got {outcome!r}")
            if outcome["winner"] not in (*names, "draw"):
                self.fail(f"outcome.winner must be {names[0]!r}, {names[1]!r} or 'draw', got {outcome['winner']!r}")
        moves = self.need(d, "moves", list, "a list of moves")
        for k, m in enumerate(moves):
            where = f"move {k + 1}"
            if not isinstance(m, dict) or not isinstance(m.get("move"), str):
                self.fail(f"{where}: must be an object with the move in notation, got {m!r}")
            for key, types in COMMENTS.items():
                if key in m and (not isinstance(m[key], types) or isinstance(m[key], bool)):
                    self.fail(f"{where}: comment {key!r} has the wrong type ({m[key]!r})")
        extra = {k: v for k, v in d.items() if k not in _KEYS}
        record = Record(game=name, params=dict(game.params), seed=seed, players=players, moves=moves,
                        result=result, termination=termination, outcome=outcome, extra=extra,
                        source=self.source)
        if replay:
            self.replay(game, record, names)
        return record

    def replay(self, game, record: Record, names) -> None:
        state = game.new_initial_state(seed=record.seed or 0)
        for k, m in enumerate(record.moves):
            where = f"move {k + 1} ({m['move']!r})"
            if state.is_terminal():
                self.fail(f"{where}: the game was already over")
            player = -1 if state.is_chance_node() else state.current_player()
            side = "chance" if player < 0 else names[player]
            if m.get("side", side) != side or m.get("player", player) != player:
                self.fail(f"{where}: recorded for {m.get('side', m.get('player'))!r}, but {side} is to move")
            try:
                state.apply(m["move"])
            except ValueError as exc:
                self.fail(f"{where}: not legal here: {exc}")
        if state.is_terminal():
            want = result_text(state.returns())
            if record.result != want:
                self.fail(f"result {record.result!r} does not match the final position ({want})")
        elif record.result != "*" and record.termination == "normal":
            self.fail(f"result {record.result!r} for a game that is not over; "
                      f"use '*' or give the termination (e.g. timeout)")


_KEYS = {"format", "version", "game", "params", "seed", "players", "result", "termination", "outcome", "moves"}


def _tuple(types):
    return types if isinstance(types, tuple) else (types,)
