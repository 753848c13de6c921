"""The `ardsearch` command: list | show | rules | play | match | perft | engine |
tournament | replay | tune | bench, and Micro Armour's set-up tools
microarmour-map (a generated table) and microarmour-build (a point-buy force).

Games are named as in the API: `ardennes` or `ardennes(variant=basic)`.
Bad arguments print one line on stderr and exit with status 2. Ctrl-C exits
with status 130 (`match` first prints the games that finished). A reader that
goes away (`ardsearch replay ... | head`) ends any command quietly with status
141, as a command killed by SIGPIPE would.
"""
from __future__ import annotations

import argparse
import functools
import os
import sys

import ardsearch
from ardsearch.records import side_names


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
    from ardsearch.levels import levels, not_stronger_by_game
    ranked = levels()
    for name in list_bots():
        if name not in {lv.preset for lv in ranked}:
            print(f"  {name:<14}{preset_description(name)}")
    print("levels (ardsearch play GAME --level NAME; Elo measured per game, random = 0):")
    flat = not_stronger_by_game(ranked)
    for lv in ranked:
        elo = ", ".join(f"{g} {e:.0f}{'*' if lv.preset in flat[g] else ''}"
                        for g, e in sorted(lv.elo.items())) or "not measured yet"
        print(f"  {lv.preset:<10}{lv.title:<11}Elo: {elo}")
    if any(flat.values()):
        print("  * not measured stronger than a weaker level in that game: its ladder's steps there are within\n"
              "    their error (bench/README.md, \"Difficulty levels: the Elo ladder\")")
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
        print(f"  {p.name}={game.params[p.name]!s:<10} ({p.describe()}; default {p.default_in(game.params)}) {p.meaning}")
    state = game.new_initial_state(seed=args.seed)
    while state.is_chance_node():
        state.apply_random_chance()
    print()
    if game.hidden_information:   # never show what a side keeps hidden
        print(f"the starting board as {side_names(game)[0]} see it (the other side's hidden cards are not shown):")
        print(state.observation_string(0))
    else:
        print(state)
    return 0


def _side(game, text):
    """A seat given as a side name or title (any case) or 0/1."""
    try:
        return game.player_index(text)
    except ValueError as exc:
        raise ValueError(f"--as: {exc}") from None


def cmd_play(args):
    from ardsearch.session import HUMAN, Session
    from ardsearch.terminal import TerminalPlay, new_seed
    if args.load:
        session = Session.load(args.load)
        humans = [i for i, s in enumerate(session.seats) if s.kind == HUMAN]
        if len(humans) != 1:
            raise ValueError(f"{args.load} is not a game of one person against a bot")
        human = humans[0]
    else:
        if args.game is None:
            raise ValueError("name a game to play (see `ardsearch list`), or --load FILE")
        game = args.game
        human = _side(game, args.as_player)
        seed = new_seed() if args.seed is None else args.seed
        opponent = _opponent(args)
        seats = [HUMAN, opponent] if human == 0 else [opponent, HUMAN]
        over = _overrides(args.set)
        settings = ({}, over) if human == 0 else (over, {})
        session = Session(game, seats, seed, bot_settings=settings)
    play = TerminalPlay(session, human, _capped_reader(args.input or sys.stdin),
                        functools.partial(print, flush=True), hint_preset=args.hint)
    code = play.run()
    if args.save:
        play.session.save(args.save)
        print(f"game record saved to {args.save} (`ardsearch replay {args.save}` shows it)")
    return code


def _opponent(args):
    """The bot preset to play against: --level (a level's name, title or
    number) or --vs (a preset), not both; by default the `mcts` preset (the
    strongest level)."""
    if args.level is not None:
        if args.vs is not None:
            raise ValueError("give --level or --vs, not both: --level picks a difficulty level, "
                             "--vs any bot preset")
        from ardsearch.levels import find_level
        lv = find_level(args.level)
        print(f"difficulty: {lv.description}", flush=True)
        return lv.preset
    return args.vs or "mcts"


def _capped_reader(stream):
    """Input lines for play, cut from raw input with the protocol's cap
    (MAX_LINE): a stream without newlines never grows a line beyond it."""
    from ardsearch.protocol.lineio import MAX_LINE, line_reader_for
    reader = line_reader_for(stream)

    def read():
        line = reader.read_line()
        if line is None:
            return None
        if line.problem:
            raise ValueError(f"input not read: {line.problem}. Type a move (at most {MAX_LINE} bytes a line), "
                             "`moves` or `help`")
        return line.text
    return read


def cmd_serve(args):
    from ardsearch.web.server import serve
    return serve(args.host, args.port, args.searches, args.open)


def cmd_rules(args):
    from ardsearch.terminal import legend_text, rules_text
    print(legend_text(args.game.name) if args.legend else rules_text(args.game.name))
    return 0


def _bot_spec(spec, overrides, option):
    """`preset[:key=value,...]` (as `ardsearch tournament` writes a bot) into
    the preset and its settings, merged with the option's KEY=VALUE ones."""
    from ardsearch.tournament.entrants import parse_settings
    preset, colon, text = spec.partition(":")
    if not colon:
        return spec, overrides
    inline = parse_settings(text, f"bot {spec!r}")
    if "seed" in inline:
        raise ValueError(f"bot {spec!r}: the bots' seeds come from --seed; give --seed instead")
    twice = sorted(set(inline) & set(overrides))
    if twice:
        raise ValueError(f"bot {spec!r} and {option} both set {', '.join(twice)}: give each setting once")
    return preset.strip(), {**inline, **overrides}


def _label(preset, settings):
    """A bot as the match table names it: `preset` or `preset:key=value,...`."""
    return preset + (":" + ",".join(f"{k}={v}" for k, v in settings.items()) if settings else "")


def cmd_match(args):
    from ardsearch.match import MatchInterrupted, run_match
    game = args.game
    preset_a, set_a = _bot_spec(args.bot_a, _overrides(args.set_a, "--set-a"), "--set-a")
    preset_b, set_b = _bot_spec(args.bot_b, _overrides(args.set_b, "--set-b"), "--set-b")
    over = (set_a, set_b)
    try:
        result = run_match(game, preset_a, preset_b, games=args.games, seed=args.seed,
                           jobs=args.jobs, overrides=over, progress=not args.quiet, clock=args.clock)
    except MatchInterrupted as stop:
        print(f"{game.title}: {args.bot_a} vs {args.bot_b}, seed {args.seed}: interrupted after "
              f"{stop.result.games} of {stop.planned} games")
        stop.result.preset_a, stop.result.preset_b = _label(preset_a, set_a), _label(preset_b, set_b)
        print(stop.result.table())
        sys.stdout.flush()
        print(f"ardsearch match: interrupted after {stop.result.games} of {stop.planned} games "
              "(the table holds the finished ones)", file=sys.stderr)
        return 130
    print(f"{game.title}: {args.bot_a} vs {args.bot_b}, seed {args.seed}")
    # each row named by its preset and settings, so two bots of one preset read apart
    result.preset_a, result.preset_b = _label(preset_a, set_a), _label(preset_b, set_b)
    print(result.table())
    if args.out:
        _write_records(args.out, [r.record for r in result.records])
        print(f"game records: {args.out} (`ardsearch replay {args.out}` lists them)")
    return 0


def _write_records(path, records):
    """Every game's record (docs/records.md), one a line, written whole or not at all."""
    from pathlib import Path
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "w") as f:
            for k, rec in enumerate(records):
                rec.extra.setdefault("index", k)
                f.write(rec.to_line() + "\n")
        tmp.replace(path)
    finally:
        if tmp.exists():
            tmp.unlink()


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


def cmd_tune(args):
    from ardsearch.tuning import main_tune
    return main_tune(args.rest)


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
    s.add_argument("game", type=_game, nargs="?", help="the game (not needed with --load)")
    s.add_argument("--vs", default=None, help="bot preset (default mcts, the strongest level; see `ardsearch list`)")
    s.add_argument("--level", default=None, metavar="NAME",
                   help="a difficulty level by name, title or number: level-1 .. level-6, beginner, novice, "
                        "club, strong, expert, strongest (see `ardsearch list`)")
    s.add_argument("--as", dest="as_player", default="0",
                   help="your side: its name (e.g. germans) or seat 0/1 (default 0)")
    s.add_argument("--seed", type=int, default=None,
                   help="deal a game again (default: a fresh random seed, printed at the start)")
    s.add_argument("--set", action="append", metavar="KEY=VALUE", help="bot parameter override")
    s.add_argument("--hint", default="mcts", metavar="PRESET", help="the preset that gives hints (default mcts)")
    s.add_argument("--load", metavar="FILE", help="go on with a saved game (a game record)")
    s.add_argument("--save", metavar="FILE", help="write the game record here when the game ends or you leave")
    s.set_defaults(run=cmd_play, input=None)

    s = sub.add_parser("serve", help="play in a browser: a local web app (pip install \"ardsearch[web]\")")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    s.add_argument("--port", type=int, default=0, help="port (default 0: a free one, printed with the URL)")
    s.add_argument("--searches", type=int, default=2, help="bot searches at once, all games together (default 2)")
    s.add_argument("--open", action="store_true", help="open the URL in the default browser")
    s.set_defaults(run=cmd_serve)

    s = sub.add_parser("rules", help="a game's rules as the engine plays them (its RULES.md)")
    s.add_argument("game", type=_game)
    s.add_argument("--legend", action="store_true", help="only how to read the board")
    s.set_defaults(run=cmd_rules)

    s = sub.add_parser("match", help="bot against bot, seats alternating")
    s.add_argument("game", type=_game)
    s.add_argument("bot_a", help="a preset (`ardsearch list`), optionally with settings as a "
                                 "tournament writes them: mcts:simulations=2000,exploration=0.5")
    s.add_argument("bot_b", help="the other bot, in the same form")
    s.add_argument("--games", type=int, default=10)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--jobs", type=int, default=1, help="games played in parallel processes")
    s.add_argument("--set-a", action="append", metavar="KEY=VALUE", help="override for bot A")
    s.add_argument("--set-b", action="append", metavar="KEY=VALUE", help="override for bot B")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.add_argument("--out", metavar="FILE", help="write every game's record here (docs/records.md)")
    s.add_argument("--clock", choices=("wall", "cpu"),
                   help="what both bots' time limits count: wall time (their default) or cpu, each search "
                        "thread's own CPU time, so equal-time matches stay equal on a loaded machine")
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

    s = sub.add_parser("tune", help="fit a game's evaluation weights to self-play results",
                       add_help=False)
    s.add_argument("rest", nargs=argparse.REMAINDER)
    s.set_defaults(run=cmd_tune)

    s = sub.add_parser("bench", help="speed figures of every game and search", add_help=False)
    s.add_argument("rest", nargs=argparse.REMAINDER)
    s.set_defaults(run=cmd_bench)

    for name, what in (("microarmour-map", "Micro Armour: a scenario file with a generated table (open, mixed, "
                                           "closed terrain density)"),
                       ("microarmour-build", "Micro Armour: a scenario file from a point-buy roster")):
        s = sub.add_parser(name, help=what, add_help=False)     # listed in --help; PASSTHROUGH runs them
        s.add_argument("rest", nargs=argparse.REMAINDER)
    return p


# Subcommands with parsers of their own: everything after the name is theirs.
PASSTHROUGH = {
    "engine": ("ardsearch.protocol.engine", "main"),
    "tournament": ("ardsearch.tournament.cli", "main_tournament"),
    "replay": ("ardsearch.tournament.cli", "main_replay"),
    "tune": ("ardsearch.tuning", "main_tune"),
    "bench": ("ardsearch.benchmark", "main"),
    "microarmour-map": ("ardsearch.games.microarmour.terrain_gen", "main"),
    "microarmour-build": ("ardsearch.games.microarmour.force_build", "main"),
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


def pipe_safe(run, *args):
    """run(*args)'s exit code, or 141 (as a shell reports SIGPIPE) without a
    traceback when stdout's reader went away: `... | head` is normal use."""
    try:
        code = run(*args)
        sys.stdout.flush()    # inside the try: a closed pipe shows here, not at exit
        return code
    except BrokenPipeError:
        _stdout_to_devnull()
        return 141


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        return pipe_safe(_run, argv)
    except KeyboardInterrupt:
        try:
            print("\ninterrupted", file=sys.stderr)
        except (BrokenPipeError, OSError, ValueError):
            pass
        return 130


if __name__ == "__main__":
    sys.exit(main())
