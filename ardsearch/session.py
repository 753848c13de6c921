"""A game between people and bots, as a front end drives it: the terminal's
`ardsearch play` and the browser's `ardsearch serve` both sit on this.

The session keeps the true state and the game record (docs/records.md);
people see only their own view. Chance is keyed to the event's number
(chance event k is decided by the game seed and k alone, as a tournament's
duplicate pairs are), so taking a move back and playing on gives the same
dice and cards as before: undo cannot re-roll. A saved session is its
record, so loading it replays every event and goes on from there with the
same chance to come; bots are rebuilt from the settings in the record (a
search bot's tree and a random bot's stream start afresh, so a bot may not
repeat the moves it would have made in the unsaved game).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import ardsearch
# group_moves moved to the core's refusals; still importable from here
from ardsearch._refusals import group_moves, refusal_message  # noqa: F401
from ardsearch.match import move_comments
from ardsearch.records import Record, read_record, side_names, write_record
from ardsearch.tournament.duplicate import uniform

HUMAN = "human"


@dataclass
class Event:
    """One thing that happened: a chance outcome, a bot move or a person's move."""
    ply: int                 # index in the record
    player: int              # -1 chance
    side: str                # side name or "chance"
    move: str                # notation ("?" where the audience may not see it)
    info: dict | None = None  # a bot's analysis (one search)
    seconds: float = 0.0


@dataclass
class Seat:
    kind: str                # "human" or "bot"
    name: str                # person's name or bot preset
    bot: object = None
    settings: dict = field(default_factory=dict)


class Session:
    """seats: two entries, each "human" or a bot preset name (or a Bot).
    `seed` decides the game's chance events; bots get seeds derived from it
    unless their settings give one."""

    def __init__(self, game, seats, seed: int, bot_settings=({}, {}), names=("you", "you")):
        if isinstance(game, str):
            game = ardsearch.load_game(game)
        self.game = game
        self.seed = int(seed)
        self.sides = side_names(game)
        self.seats = []
        for i, who in enumerate(seats):
            if who == HUMAN:
                self.seats.append(Seat(HUMAN, names[i]))
            elif isinstance(who, str):
                settings = {"seed": self.seed + 1 + i, **(bot_settings[i] or {})}
                bot = ardsearch.load_bot(who, game, **settings)
                self.seats.append(Seat("bot", who, bot, dict(getattr(bot, "settings", settings))))
            else:
                self.seats.append(Seat("bot", who.name, who, dict(getattr(who, "settings", {}))))
        self.state = game.new_initial_state(seed=self.seed)
        self.record = Record.start(game, self.seed, [self._player_entry(s) for s in self.seats])
        self._chance_events = 0
        self._since = time.perf_counter()   # when the position last changed: a person's clock starts here

    def _player_entry(self, seat: Seat) -> dict:
        p = {"name": seat.name, "kind": seat.kind}
        if seat.kind == "bot" and seat.settings:
            p["settings"] = seat.settings
        return p

    # --- who is to act ---------------------------------------------------
    def to_move(self) -> int:
        """-1 chance, 0/1 a seat, -2 game over."""
        if self.state.is_terminal():
            return -2
        if self.state.is_chance_node():
            return -1
        return self.state.current_player()

    def waiting_for_human(self) -> bool:
        p = self.to_move()
        return p >= 0 and self.seats[p].kind == HUMAN

    def over(self) -> bool:
        return self.state.is_terminal()

    # --- playing ----------------------------------------------------------
    def step(self) -> Event:
        """Plays the next chance outcome or bot move (not a person's move)."""
        p = self.to_move()
        if p == -2:
            raise ValueError("the game is over")
        if p == -1:
            return self._apply(self._chance(), -1)
        return self.commit(self.think())

    def think(self):
        """The bot to move searches a copy of the state: (seat, action, info,
        seconds) for commit(). Safe to run in another thread while the
        session is read (nothing here changes the session)."""
        p = self.to_move()
        if p < 0:
            raise ValueError("no bot is to move")
        seat = self.seats[p]
        if seat.kind == HUMAN:
            raise ValueError(f"{self.sides[p]} is played by a person: give their move")
        t0 = time.perf_counter()
        action, info = seat.bot.play(self.state.clone())
        return p, action, info, time.perf_counter() - t0

    def commit(self, thought) -> Event:
        """Plays a bot move found by think(), if the position has not moved on."""
        p, action, info, seconds = thought
        if self.to_move() != p or action not in self.state.legal_actions():
            raise ValueError("the position changed while the bot was thinking")
        return self._apply(action, p, info, seconds)

    def chance_step(self) -> Event:
        """Plays the next chance outcome (keyed to its number)."""
        if self.to_move() != -1:
            raise ValueError("this is not a chance event")
        return self._apply(self._chance(), -1)

    def advance(self):
        """Plays chance and bot moves until a person must move or the game ends;
        yields each event."""
        while not self.over() and not self.waiting_for_human():
            yield self.step()

    def move(self, text: str) -> Event:
        """A person's move in notation (case-insensitive where unambiguous)."""
        p = self.to_move()
        if p < 0 or self.seats[p].kind != HUMAN:
            raise ValueError("it is not a person's turn to move")
        action = parse_move(self.state, text)
        return self._apply(action, p, seconds=time.perf_counter() - self._since)

    def _chance(self) -> int:
        u = uniform(self.seed, self._chance_events)
        total = 0.0
        outcomes = self.state.chance_outcomes()
        for action, prob in outcomes:
            total += prob
            if u < total:
                return action
        return outcomes[-1][0]

    def _apply(self, action, player, info=None, seconds=0.0) -> Event:
        comments = move_comments(info)
        if player >= 0:
            comments["time"] = round(seconds, 4)
        note = self.state.action_to_string(action)
        before = len(self.record.moves)
        self.record.add(self.state, action, **comments)
        try:
            self.state.apply_action(action)
        except ValueError:
            del self.record.moves[before:]      # nothing changes on a refused move
            raise
        if player < 0:
            self._chance_events += 1
        self._since = time.perf_counter()
        if self.state.is_terminal():
            self.record.finish(self.state)
        side = "chance" if player < 0 else self.sides[player]
        return Event(len(self.record.moves) - 1, player, side, note, info, seconds)

    def visible(self, event: Event, seat: int) -> bool:
        """Whether `seat` saw this event (its masked history shows it)."""
        return self.state.masked_history(seat)[event.ply] != "?"

    # --- taking back --------------------------------------------------------
    def undo(self, seat: int) -> int:
        """Takes back `seat`'s last move and everything after it: the position is
        again the one where `seat` chose that move. Returns how many events went."""
        plies = [k for k, m in enumerate(self.record.moves) if m["player"] == seat]
        if not plies:
            raise ValueError("nothing to undo: you have not moved yet")
        return self._truncate(plies[-1])

    def _truncate(self, ply: int) -> int:
        gone = len(self.record.moves) - ply
        moves = self.record.moves[:ply]
        self.state = self.game.new_initial_state(seed=self.seed)
        for m in moves:
            self.state.apply(m["move"])
        self.record.moves = moves
        self.record.result, self.record.outcome, self.record.termination = "*", None, "normal"
        self._chance_events = sum(1 for m in moves if m["player"] < 0)
        self._since = time.perf_counter()
        for s in self.seats:
            if s.bot is not None:
                s.bot.reset()
        return gone

    # --- help -------------------------------------------------------------------
    def hint(self, seat: int, preset: str = "mcts", **settings) -> dict:
        """A bot's analysis of `seat`'s own view (never of what it cannot see)."""
        if self.to_move() != seat:
            raise ValueError("a hint is for your own move: it is not your turn")
        view = self.state.view(seat) if self.game.hidden_information else self.state.clone()
        bot = ardsearch.load_bot(preset, self.game, **{"seed": self.seed, **settings})
        return bot.analyze(view)

    # --- saving -------------------------------------------------------------------
    def save(self, path) -> None:
        write_record(path, self.record)

    @classmethod
    def load(cls, path, human_names=None) -> Session:
        """A session from a saved record: the same game, seats and events."""
        rec = read_record(path)
        game = rec.load_game()
        seats, settings = [], []
        for p in rec.players:
            if p.get("kind") == HUMAN:
                seats.append(HUMAN)
                settings.append({})
            elif p.get("kind") == "bot":
                s = dict(p.get("settings") or {})
                seats.append(s.pop("preset", p["name"]))
                settings.append(s)
            else:
                raise ValueError(f"{path}: seat {p['side']} is an external engine; "
                                 "a session can only seat people and bots")
        names = tuple(p["name"] for p in rec.players)
        session = cls(game, seats, rec.seed or 0, tuple(settings), names)
        session._truncate(0)
        for m in rec.moves:
            session.record.moves.append(dict(m))
            session.state.apply(m["move"])
            if m["player"] < 0:
                session._chance_events += 1
        if session.state.is_terminal():
            session.record.finish(session.state)
        return session

    def outcome(self) -> dict | None:
        return self.record.outcome


def parse_move(state, text: str) -> int:
    """The legal action written `text`: exact notation first, then a unique
    case-insensitive match; a clear ValueError otherwise. A move that is
    notation (also in lower case) but not legal is refused with the reason."""
    text = " ".join(text.split())
    try:
        action = state.string_to_action(text)
    except ValueError as exact_error:
        notes = {state.action_to_string(a): a for a in state.legal_actions()}
        folded = [n for n in notes if n.lower() == text.lower()]
        if len(folded) == 1:
            return notes[folded[0]]
        if len(folded) > 1:
            raise ValueError(f"{text!r} could be {' or '.join(folded)}: write it exactly") from None
        action = _lower_case_notation(state, text)
        if action is None:
            raise exact_error
    if action not in state.legal_actions():
        note = state.action_to_string(action)
        raise ardsearch.IllegalMoveError(refusal_message(state, note, f"{text!r} is not a legal move here"))
    return action


def _lower_case_notation(state, text: str) -> int | None:
    """The action `text` names when written in lower case (`SETUP 743 0604`),
    or None: so that an illegal move typed in another case is refused with
    its reason rather than as not notation."""
    if text.lower() == text:
        return None
    try:
        return state.string_to_action(text.lower())
    except ValueError:
        return None


def value_texts(values: list[float], least: int = 3, most: int = 6) -> list[str]:
    """The values signed, with the fewest decimals (from `least` to `most`)
    at which values that differ read differently. A search's values can
    differ only in the fifth decimal (in Stand at Mortain a move is worth a
    few thousandths of the evaluation or less), and at three decimals five
    moves of different visits all read "-0.531", as if rated level."""
    texts: list[str] = []
    distinct = len({round(v, most) for v in values})
    for digits in range(least, most + 1):
        texts = [f"{v:+.{digits}f}" for v in values]
        if len(set(texts)) == distinct:
            break
    return texts


def top_moves(info: dict, count: int) -> list[tuple[str, int | None, float]]:
    """A bot's analysis as a person reads it: up to `count` (move, visits,
    value), most visited first, then by value. A search's children it never
    visited are left out: their value is a placeholder 0, not an estimate,
    and listing them beside the searched moves read as "rated level". A bot
    that scores moves without visits (greedy) gives visits None."""
    visits = info.get("visits") or {}
    values = info.get("values") or {}
    if visits:
        moves = [m for m in values if visits.get(m, 0) > 0]
    else:
        moves = list(values)
    moves.sort(key=lambda m: (visits.get(m, 0), values[m]), reverse=True)
    return [(m, visits[m] if visits else None, float(values[m])) for m in moves[:count]]
