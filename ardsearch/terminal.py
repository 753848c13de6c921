"""`ardsearch play`: a person against a bot in the terminal, on a Session.

The person sees only their own view: the board from their side, chance
outcomes they saw, the bot's moves where they are public. Commands are
listed by `help`; anything else is read as a move.
"""
from __future__ import annotations

import random
from importlib import resources

from ardsearch._refusals import group_moves
from ardsearch.session import HUMAN, Session, top_moves, value_texts

MOVES_SHOWN = 120          # a longer move list is cut, saying how many more there are

HELP = """commands:
  (anything else is a move, in notation; case does not matter where unambiguous)
  moves [TEXT]   the legal moves, grouped; with TEXT only those that start with it
  board          the board again          legend   what the board's letters mean
  hint           the bot's advice for your move (it sees only what you see)
  undo           take back your last move (and the replies to it)
  history        the events so far
  save FILE      save the game record (docs/records.md); `ardsearch play --load FILE` goes on
  load FILE      load a saved game and go on from it
  rules          the rules as the engine plays them
  help           this text              quit     leave the game"""


def rules_text(name: str) -> str:
    """A game's RULES.md from the installed package."""
    return (resources.files(f"ardsearch.games.{name}") / "RULES.md").read_text(encoding="utf-8")


def legend_text(name: str) -> str:
    """The "Reading the board" section of a game's RULES.md."""
    text = rules_text(name)
    start = text.find("## Reading the board")
    if start < 0:
        return "this game's RULES.md has no legend section"
    end = text.find("\n## ", start + 3)
    return text[start:end if end > 0 else None].strip()


def game_text(game) -> str:
    """The game as the command line names it, with the parameters that differ
    from their defaults: ardennes(road_length=8)."""
    changed = [f"{p.name}={game.params[p.name]}" for p in game.spec.params
               if game.params[p.name] != p.default_in(game.params)]
    return f"{game.name}({','.join(changed)})" if changed else game.name


def replay_command(session: Session, human: int) -> str:
    bot = session.seats[1 - human].name
    text = game_text(session.game)
    quoted = f"'{text}'" if "(" in text else text
    return f"ardsearch play {quoted} --vs {bot} --as {session.sides[human]} --seed {session.seed}"


def new_seed() -> int:
    return random.SystemRandom().randrange(1, 10 ** 6)


class TerminalPlay:
    """One game in the terminal. `read()` returns the next input line, None at
    the end of input, or raises ValueError for a line it could not read
    (too long, not text); `write(text)` prints."""

    def __init__(self, session: Session, human: int, read, write, hint_preset="mcts"):
        self.session = session
        self.human = human
        self.read = read
        self.write = write
        self.hint_preset = hint_preset
        self.shown = None

    @property
    def game(self):
        return self.session.game

    def side(self, seat: int) -> str:
        titles = getattr(self.game, "player_titles", None)
        return titles[seat] if titles else self.session.sides[seat]

    def banner(self) -> None:
        s = self.session
        bot_seat = 1 - self.human
        self.write(f"{self.game.title}: you play {self.side(self.human)}, the bot "
                   f"({s.seats[bot_seat].name}) plays {self.side(bot_seat)}.")
        self.write(f"seed {s.seed}: `{replay_command(s, self.human)}` deals this game again.")
        self.write("Type `help` for commands, `legend` for the board's symbols.")

    # --- the loop -------------------------------------------------------------
    def run(self) -> int:
        self.banner()
        while True:
            for event in self.session.advance():
                self.report(event)
            if self.session.over():
                self.finish()
                return 0
            self.show_board()
            self.write(f"{self.side(self.human)} to move> ", end="")
            try:
                line = self.read()
            except ValueError as exc:
                self.write(f"\n{exc}")
                continue
            if line is None:
                self.write("\nend of input: leaving the game (`save FILE` keeps a game to go on with later)")
                return 0
            if self.command(line.strip()) == "quit":
                return 0

    def report(self, event) -> None:
        if event.player < 0:
            seen = self.session.visible(event, self.human)
            self.write(f"chance: {event.move if seen else '? (hidden from you)'}")
            return
        seen = self.session.visible(event, self.human)
        text = event.move if seen else "? (hidden from you)"
        extra = ""
        info = event.info or {}
        if isinstance(info.get("wp"), float):
            extra = f"  (the bot gives itself {info['wp']:.0%})"
        self.write(f"{self.side(event.player)} (bot) plays {text}{extra}")

    def show_board(self, force=False) -> None:
        board = self.session.state.observation_string(self.human)
        if force or board != self.shown:
            self.write("")
            self.write(board)
            self.shown = board

    def finish(self) -> None:
        self.show_board(force=True)
        outcome = self.session.outcome() or {}
        winner = outcome.get("winner")
        if winner == "draw":
            verdict = "a draw"
        elif winner == self.session.sides[self.human]:
            verdict = "you win"
        else:
            verdict = "the bot wins"
        self.write(f"game over: {verdict}. {outcome.get('sentence', '')}".rstrip())

    # --- commands ---------------------------------------------------------------
    def command(self, line: str):
        if not line:
            return None
        word, _, rest = line.partition(" ")
        word = word.lower()
        rest = rest.strip()
        handler = {
            "quit": lambda: "quit", "exit": lambda: "quit", "help": self.help, "?": self.help,
            "moves": lambda: self.moves(rest), "board": lambda: self.show_board(force=True),
            "legend": lambda: self.write(legend_text(self.game.name)),
            "rules": lambda: self.write(rules_text(self.game.name)),
            "undo": self.undo, "hint": self.hint, "history": self.history,
            "save": lambda: self.save(rest), "load": lambda: self.load(rest),
        }.get(word)
        if handler is not None and (word in ("moves", "save", "load") or not rest):
            return handler()
        try:
            self.session.move(line)
        except ValueError as exc:
            self.write(f"{exc} (type `moves` for the legal moves, `help` for commands)")
        return None

    def help(self) -> None:
        self.write(HELP)

    def moves(self, prefix: str = "") -> None:
        state = self.session.state
        notes = [state.action_to_string(a) for a in state.legal_actions()]
        if prefix:
            notes = [n for n in notes if n.lower().startswith(prefix.lower())]
            if not notes:
                self.write(f"no legal move starts with {prefix!r}")
                return
        self.write(f"{len(notes)} legal move{'' if len(notes) == 1 else 's'}:")
        shown = 0
        for key, group in group_moves(notes):
            if shown >= MOVES_SHOWN:
                break
            take = group[:MOVES_SHOWN - shown]
            self.write(f"  {key}: " + ", ".join(take))
            shown += len(take)
        if shown < len(notes):
            self.write(f"  ... and {len(notes) - shown} more (`moves TEXT` lists those starting with TEXT)")

    def undo(self) -> None:
        try:
            gone = self.session.undo(self.human)
        except ValueError as exc:
            self.write(str(exc))
            return
        self.write(f"took back {gone} event{'s' if gone != 1 else ''}: your move again")
        self.shown = None

    def hint(self) -> None:
        self.write(f"thinking ({self.hint_preset}, on what you can see)...")
        info = self.session.hint(self.human, self.hint_preset)
        self.write(f"hint: {info['move']}  (win probability {info.get('wp', 0.5):.0%})")
        if info.get("book"):
            self.write("  from the game's book, not a search (see `rules`)")
            return
        top = top_moves(info, 5)
        width = max([16] + [len(m) + 2 for m, _, _ in top])   # Mortain's `setup 1-120 1004` is 16 wide
        for (m, visits, _), text in zip(top, value_texts([value for _, _, value in top])):
            v = f"visits {visits:>6}  " if visits is not None else ""
            self.write(f"  {m:<{width}}{v}value {text}")
        if info.get("pv"):
            self.write("  line: " + " ".join(info["pv"]))

    def history(self) -> None:
        s = self.session
        masked = s.state.masked_history(self.human)
        for k, m in enumerate(s.record.moves):
            who = "chance" if m["player"] < 0 else self.side(m["player"])
            self.write(f"{k + 1:>4}. {who}: {masked[k]}")

    def save(self, path: str) -> None:
        if not path:
            self.write("save needs a file name: save FILE")
            return
        try:
            self.session.save(path)
        except OSError as exc:
            self.write(f"cannot save to {path}: {exc.strerror}")
            return
        self.write(f"saved {len(self.session.record.moves)} events to {path}")

    def load(self, path: str) -> None:
        if not path:
            self.write("load needs a file name: load FILE")
            return
        try:
            session = Session.load(path)
        except (OSError, ValueError) as exc:
            self.write(f"cannot load {path}: {exc}")
            return
        humans = [i for i, s in enumerate(session.seats) if s.kind == HUMAN]
        if len(humans) != 1:
            self.write(f"cannot load {path}: it is not a game of one person against a bot")
            return
        self.session, self.human, self.shown = session, humans[0], None
        self.write(f"loaded {path}: {len(session.record.moves)} events")
        self.banner()
