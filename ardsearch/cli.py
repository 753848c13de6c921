"""The `ardsearch` command: list | show | play | match | perft | engine | tournament |
replay | bench.

Games are named as in the API: `ardennes` or `ardennes(variant=basic)`.
Bad arguments print one line on stderr and exit with status 2. Ctrl-C exits
with status 130 (`match` first prints the games that finished). A reader that
goes away (`ardsearch replay ... | head`) ends any command quietly with status
141, as a command killed by SIGPIPE would.
"""
from __future__ import annotations

import argparse
import os
import random
import sys

import ardsearch


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (try --help)\n")


def _game(text):
    try:
        return ardsearch.load_game(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _overrides(pairs, option="--set"):
    """KEY=VALUE bot settings; values read as int, float, true/false or text.
    The bot checks each against its setting's type when it is built, before
    anything starts; here only the form is checked."""
    from ardsearch.tournament.entrants import _typed
    out = {}
    for pair in pairs or []:
        key, eq, value = pair.partition("=")
        key = key.strip()
        if not eq or not key:
            raise ValueError(f"{option} expects KEY=VALUE (a bot setting, e.g. simulations=2000), got {pair!r}")
        if key == "seed":
            raise ValueError(f"{option} {pair!r}: the bots' seeds come from --seed; give --seed instead")
        if key in out:
            raise ValueError(f"{option} sets {key} twice ({key}={out[key]!r} and {pair!r}): give it once")
        out[key] = _typed(value.strip())
    return out


def cmd_list(args):
    print("games:")
    for name in ardsearch.list_games():
        print(f"  {name:<14}{ardsearch.load_game(name).title}")
    print("bots:")
    from ardsearch.bots import list_bots, preset_description
    for name in list_bots():
        print(f"  {name:<14}{preset_description(name)}")
    return 0


def cmd_show(args):
    game = args.game
    spec = game.spec
    print(f"{spec.title} ({spec.name})")
    if spec.summary:
        print(spec.summary)
    print(f"actions: {game.num_actions}, state: {game.state_size} bytes, "
          f"chance: {'yes' if game.has_chance else 'no'}, "
          f"hidden information: {'yes' if game.hidden_information else 'no'}")
    print("parameters:")
    for p in spec.params:
        print(f"  {p.name}={game.params[p.name]!s:<10} ({p.describe()}; default {p.default}) {p.meaning}")
    state = game.new_initial_state(seed=args.seed)
    while state.is_chance_node():
        state.apply_random_chance()
    print()
    print(state)
    return 0


def _print_legal(state, out=print):
    if state.is_chance_node():
        out("chance: " + ", ".join(f"{state.action_to_string(a)} {p:.3f}"
                                   for a, p in state.chance_outcomes()))
    else:
        out("moves: " + " ".join(state.action_to_string(a) for a in state.legal_actions()))


PLAY_HELP = """commands:
  <move>   play a move in notation (see `moves`)
  moves    list the legal moves
  board    show the board again
  help     this text
  quit     leave the game"""


def cmd_play(args):
    from ardsearch.protocol.lineio import MAX_LINE, line_reader_for
    game = args.game
    human = args.as_player
    bot = ardsearch.load_bot(args.vs, game, seed=args.seed, **_overrides(args.set))
    state = game.new_initial_state(seed=args.seed)
    # Lines are cut from raw input with a cap (the protocol's MAX_LINE): a
    # stream without newlines never grows a line beyond it.
    reader = line_reader_for(args.input or sys.stdin)
    names = ("player 0", "player 1")
    print(f"{game.title}: you are player {human}, the bot ({args.vs}) is player {1 - human}. "
          "Type `help` for commands.")
    shown = None
    while not state.is_terminal():
        player = state.current_player()
        if state.is_chance_node():
            action = state.sample_chance()
            hidden = game.hidden_information and not _visible(state, action, human)
            state.apply_action(action)
            print(f"chance: {'? (hidden from you)' if hidden else state.history_strings()[-1]}")
            continue
        if player != human:
            info = bot.analyze(state)
            action = info["best"]
            wp = info.get("wp")
            extra = f" (bot's win probability {wp:.0%})" if isinstance(wp, float) else ""
            print(f"bot plays {state.action_to_string(action)}{extra}")
            state.apply_action(action)
            continue
        board = state.observation_string(human)
        if board != shown:  # the board once per position the human has to answer
            print()
            print(board)
            shown = board
        sys.stdout.write(f"{names[human]} to move> ")
        sys.stdout.flush()
        line = reader.read_line()
        if line is None:
            print("\nend of input: leaving the game")
            return 0
        if line.problem:
            print(f"input not read: {line.problem}. Type a move (at most {MAX_LINE} bytes a line), "
                  "`moves` or `help`")
            continue
        cmd = line.text.strip()
        if cmd in ("quit", "exit"):
            return 0
        if cmd in ("help", "?"):
            print(PLAY_HELP)
        elif cmd == "moves":
            _print_legal(state)
        elif cmd == "board":
            print(board)
        elif cmd:
            try:
                state.apply(cmd)
            except ValueError as e:
                print(f"{e}")
    print()
    print(state)
    r = state.returns()
    if r[human] > 0:
        print("you win")
    elif r[human] < 0:
        print("the bot wins")
    else:
        print("draw")
    return 0


def _visible(state, action, player):
    probe = state.clone()
    probe.apply_action(action)
    return probe.masked_history(player)[-1] != "?"


def cmd_match(args):
    from ardsearch.match import MatchInterrupted, run_match
    game = args.game
    over = (_overrides(args.set_a, "--set-a"), _overrides(args.set_b, "--set-b"))
    try:
        result = run_match(game, args.bot_a, args.bot_b, games=args.games, seed=args.seed,
                           jobs=args.jobs, overrides=over, progress=not args.quiet)
    except MatchInterrupted as stop:
        print(f"{game.title}: {args.bot_a} vs {args.bot_b}, seed {args.seed}: interrupted after "
              f"{stop.result.games} of {stop.planned} games")
        print(stop.result.table())
        sys.stdout.flush()
        print(f"ardsearch match: interrupted after {stop.result.games} of {stop.planned} games "
              "(the table holds the finished ones)", file=sys.stderr)
        return 130
    print(f"{game.title}: {args.bot_a} vs {args.bot_b}, seed {args.seed}")
    print(result.table())
    return 0


def cmd_perft(args):
    game = args.game
    state = game.new_initial_state(seed=args.seed)
    for m in args.moves or []:
        state.apply(m)
    from ardsearch._core import perft
    total = 0
    for a, n in perft(state, args.depth, divide=True):
        print(f"{state.action_to_string(a)}: {n}")
        total += n
    if args.depth == 0:
        total = 1
    print(f"\nNodes searched: {total}")
    return 0


def cmd_engine(args):
    from ardsearch.protocol.engine import main as engine_main
    return engine_main(args.rest)


def cmd_tournament(args):
    from ardsearch.tournament.cli import main_tournament
    return main_tournament(args.rest)


def cmd_replay(args):
    from ardsearch.tournament.cli import main_replay
    return main_replay(args.rest)


def cmd_bench(args):
    from ardsearch.benchmark import main as bench_main
    return bench_main(args.rest)


def build_parser():
    p = _Parser(prog="ardsearch", description="Engines and AI opponents for tabletop wargames.")
    p.add_argument("--version", action="version", version=f"ardsearch {ardsearch.__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    s = sub.add_parser("list", help="the games and the bot presets")
    s.set_defaults(run=cmd_list)

    s = sub.add_parser("show", help="a game's parameters and starting board")
    s.add_argument("game", type=_game)
    s.add_argument("--seed", type=int, default=0)
    s.set_defaults(run=cmd_show)

    s = sub.add_parser("play", help="play against a bot in the terminal")
    s.add_argument("game", type=_game)
    s.add_argument("--vs", default="mcts", help="bot preset (default mcts; see `ardsearch list`)")
    s.add_argument("--as", dest="as_player", type=int, choices=(0, 1), default=0,
                   help="your seat: 0 or 1 (default 0)")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--set", action="append", metavar="KEY=VALUE", help="bot parameter override")
    s.set_defaults(run=cmd_play, input=None)

    s = sub.add_parser("match", help="bot against bot, seats alternating")
    s.add_argument("game", type=_game)
    s.add_argument("bot_a")
    s.add_argument("bot_b")
    s.add_argument("--games", type=int, default=10)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--jobs", type=int, default=1, help="games played in parallel processes")
    s.add_argument("--set-a", action="append", metavar="KEY=VALUE", help="override for bot A")
    s.add_argument("--set-b", action="append", metavar="KEY=VALUE", help="override for bot B")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.set_defaults(run=cmd_match)

    s = sub.add_parser("perft", help="count the game tree's leaves (per root action)")
    s.add_argument("game", type=_game)
    s.add_argument("depth", type=int)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--moves", nargs="*", help="events applied first, in notation")
    s.set_defaults(run=cmd_perft)

    s = sub.add_parser("engine", help="the ardsearch text protocol on stdin/stdout",
                       add_help=False)
    s.add_argument("rest", nargs=argparse.REMAINDER)
    s.set_defaults(run=cmd_engine)

    s = sub.add_parser("tournament", help="bots and engines in a round robin or gauntlet",
                       add_help=False)
    s.add_argument("rest", nargs=argparse.REMAINDER)
    s.set_defaults(run=cmd_tournament)

    s = sub.add_parser("replay", help="print a recorded tournament game move by move",
                       add_help=False)
    s.add_argument("rest", nargs=argparse.REMAINDER)
    s.set_defaults(run=cmd_replay)

    s = sub.add_parser("bench", help="speed figures of every game and search", add_help=False)
    s.add_argument("rest", nargs=argparse.REMAINDER)
    s.set_defaults(run=cmd_bench)
    return p


# Subcommands with parsers of their own: everything after the name is theirs.
PASSTHROUGH = {
    "engine": ("ardsearch.protocol.engine", "main"),
    "tournament": ("ardsearch.tournament.cli", "main_tournament"),
    "replay": ("ardsearch.tournament.cli", "main_replay"),
    "bench": ("ardsearch.benchmark", "main"),
}


def _run(argv):
    if argv and argv[0] in PASSTHROUGH:
        import importlib
        module, func = PASSTHROUGH[argv[0]]
        return getattr(importlib.import_module(module), func)(argv[1:]) or 0
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args) or 0
    except (ValueError, OSError) as e:
        if isinstance(e, BrokenPipeError):
            raise
        print(f"ardsearch: error: {e}", file=sys.stderr)
        return 2


def _stdout_to_devnull():
    """After the reader of stdout went away: send what is still buffered to
    /dev/null, so the flush at exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (AttributeError, OSError, ValueError):
        pass


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        code = _run(argv)
        sys.stdout.flush()    # inside the try: a closed pipe shows here, not at exit
        return code
    except BrokenPipeError:
        _stdout_to_devnull()
        return 141
    except KeyboardInterrupt:
        try:
            print("\ninterrupted", file=sys.stderr)
        except (BrokenPipeError, OSError, ValueError):
            pass
        return 130


if __name__ == "__main__":
    sys.exit(main())
