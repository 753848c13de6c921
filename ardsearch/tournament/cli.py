"""`ardsearch tournament` and `ardsearch replay`: argument parsing and output.

    ardsearch tournament ardennes --bots mcts greedy random --games 10 --seed 1 --out results.jsonl
    ardsearch tournament ardennes --bots mcts-fast --engine "mine=python my_engine.py" \\
        --opt mine.movetime=0.2 --format gauntlet --games 100 --concurrency 2 --recover
    ardsearch tournament ardennes --bots new=mcts:exploration=1.2 old=mcts --games 2000 \\
        --sprt "elo0=0 elo1=10 alpha=0.05 beta=0.05"
    ardsearch replay results.jsonl --game 3
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import ardsearch
from ardsearch.stats import parse_sprt
from ardsearch.tournament.backends import BACKENDS
from ardsearch.tournament.config import TournamentConfig
from ardsearch.tournament.entrants import apply_settings, limits_from_options, parse_bot, parse_engine
from ardsearch.tournament.schedule import FORMATS


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (try --help)\n")


def tournament_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="ardsearch tournament", description="Bot-vs-bot tournament with duplicate pairs.")
    p.add_argument("game", help="game, e.g. ardennes or 'ardennes(road_length=12)'")
    p.add_argument("--bots", nargs="+", default=[], metavar="SPEC",
                   help="bot entrants: [name=]preset[:key=value,...] (keys nodes, movetime, depth, tc, clock "
                        "are limits, others bot parameters)")
    p.add_argument("--engine", action="append", default=[], metavar="NAME=CMD",
                   help="an external engine speaking the ardsearch protocol (repeatable)")
    p.add_argument("--opt", action="append", default=[], metavar="NAME.key=value",
                   help="a limit or option for one entrant (engine options go to setoption)")
    p.add_argument("--nodes", type=int, help="default nodes (simulations) per decision")
    p.add_argument("--movetime", type=float, help="default seconds per decision")
    p.add_argument("--depth", type=int, help="default search depth")
    p.add_argument("--tc", help="default clock per game: seconds[+increment]")
    p.add_argument("--clock", choices=("wall", "cpu"),
                   help="what --movetime (and a preset's time_limit) counts: wall time (the default) or cpu, "
                        "each search thread's own CPU time, so equal-time matches stay equal on a loaded machine")
    p.add_argument("--format", choices=FORMATS, default="round-robin",
                   help="round-robin (all pairs) or gauntlet (the first entrant against each other one)")
    p.add_argument("--games", type=int, default=2, help="games per pairing, even (2 = one duplicate pair)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="results.jsonl", help="results file, one JSON line per game")
    p.add_argument("--resume", action="store_true", help="continue the interrupted tournament in --out")
    p.add_argument("--overwrite", action="store_true", help="replace an existing --out")
    p.add_argument("--sprt", metavar="'elo0=.. elo1=.. alpha=.. beta=..'",
                   help="stop when the SPRT decides (two entrants)")
    p.add_argument("--recover", action="store_true",
                   help="keep going after a fault (the faulting side loses the game; crashed engines restart)")
    p.add_argument("--timeout", type=float, default=10.0,
                   help="seconds an engine has to answer a command, beyond its move time")
    p.add_argument("--backend", choices=BACKENDS, default="local")
    p.add_argument("--concurrency", type=int, default=1, help="games at once (worker processes or Ray CPUs)")
    p.add_argument("--address", help="Ray cluster address (ray backend; default: start a local instance)")
    p.add_argument("--plot", metavar="PNG", help="write ratings and score over games to this PNG (matplotlib)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def config_from_args(args, parser) -> TournamentConfig:
    try:
        game = ardsearch.load_game(args.game)
        entrants = [parse_bot(s) for s in args.bots] + [parse_engine(s) for s in args.engine]
        defaults, _ = limits_from_options({k: v for k, v in (("nodes", args.nodes), ("movetime", args.movetime),
                                                             ("depth", args.depth), ("tc", args.tc),
                                                             ("clock", args.clock)) if v is not None})
        entrants = apply_settings(entrants, args.opt, defaults)
        sprt = parse_sprt(args.sprt) if args.sprt else None
    except ValueError as exc:
        parser.error(str(exc))
    if len(entrants) < 2:
        parser.error(f"a tournament needs at least 2 entrants (--bots/--engine), got {len(entrants)}")
    if args.games < 2 or args.games % 2:
        parser.error(f"--games must be an even number of at least 2 (games come in duplicate pairs), got {args.games}")
    if args.concurrency < 1:
        parser.error(f"--concurrency must be at least 1, got {args.concurrency}")
    if args.timeout <= 0:
        parser.error(f"--timeout must be positive, got {args.timeout}")
    if sprt is not None and len(entrants) != 2:
        parser.error(f"--sprt compares two entrants, got {len(entrants)}")
    return TournamentConfig(game.name, dict(game.params), tuple(entrants), args.format, args.games, args.seed,
                            sprt, args.timeout)


def _tables(out: Path) -> tuple[Path, Path]:
    """The Markdown and JSON tables written next to the results file."""
    stem = out.with_suffix("") if out.suffix == ".jsonl" else out
    return Path(f"{stem}.md"), Path(f"{stem}.summary.json")


def main_tournament(argv: list[str]) -> int:
    from ardsearch.tournament.records import check_output_file
    from ardsearch.tournament.report import markdown_report, plot, text_report
    from ardsearch.tournament.runner import run_tournament
    parser = tournament_parser()
    args = parser.parse_args(argv)
    config = config_from_args(args, parser)
    out = Path(args.out)
    md, js = _tables(out)
    # Every file this run writes is checked before the first game, so a bad
    # path is one line and exit status 2, with nothing written.
    try:
        for path in (md, js):
            check_output_file(path, "--out")
        if args.plot:
            check_output_file(args.plot, "--plot")
    except ValueError as exc:
        parser.error(str(exc))
    try:
        result = run_tournament(config, out, resume=args.resume, overwrite=args.overwrite, backend=args.backend,
                                concurrency=args.concurrency, address=args.address, recover=args.recover,
                                progress=not args.quiet)
    except ValueError as exc:
        parser.error(str(exc))
    except RuntimeError as exc:
        print(f"ardsearch tournament: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            raise
        print(f"ardsearch tournament: error: cannot write {exc.filename or out}: {exc.strerror or exc}; "
              f"the finished games are kept: free the folder and rerun with --resume, or choose another --out",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\nardsearch tournament: interrupted; the finished games are in {out}: "
              "rerun the same command with --resume to continue", file=sys.stderr)
        return 130
    summary = result.summary
    # The tables first: they are files, the text report only a view of them.
    try:
        md.write_text(markdown_report(summary, f"{config.game_text()} tournament, seed {config.seed}"))
        js.write_text(json.dumps(summary, indent=1) + "\n")
    except OSError as exc:
        print(f"ardsearch tournament: error: cannot write {exc.filename}: {exc.strerror or exc}; the games "
              f"are in {out}: free the folder and rerun with --resume to write the tables", file=sys.stderr)
        return 2
    print(text_report(summary))
    print(f"\nresults: {out}  tables: {md}, {js}")
    if args.plot:
        try:
            plot(summary, result.standings, args.plot)
            print(f"plot: {args.plot}")
        except RuntimeError as exc:
            print(f"ardsearch tournament: {exc}", file=sys.stderr)
            return 1
    if result.stopped == "fault":
        fault = next(r["fault"] for r in reversed(result.records) if r["fault"])
        print(f"ardsearch tournament: stopped after a fault ({fault['entrant']}: {fault['kind']}: "
              f"{fault['message']}); rerun with --resume --recover to go on", file=sys.stderr)
        return 1
    return 0


def replay_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="ardsearch replay", description="Print a recorded game move by move (docs/records.md).")
    p.add_argument("results", help="a records file: written by tournament --out, match --out or play --save")
    p.add_argument("--game", type=int, default=None, help="game index (default: list the games)")
    p.add_argument("--no-board", action="store_true", help="moves only, no board after each")
    return p


def _ending(record) -> str:
    """How a recorded game ended, as a person reads it: the outcome's
    sentence, the termination of a game cut short, or that it is not over
    (a game saved in progress: result `*`, termination `normal`)."""
    if record.outcome:
        return record.outcome["sentence"]
    if record.result == "*" and record.termination == "normal":
        return "not over (saved in progress)"
    return record.termination


def main_replay(argv: list[str]) -> int:
    parser = replay_parser()
    args = parser.parse_args(argv)
    from ardsearch.records import RecordError, read_records
    try:
        records = read_records(args.results)
    except RecordError as exc:
        parser.error(str(exc))
    if not records:
        parser.error(f"{args.results} holds no game record")
    numbers = [r.extra.get("index", k) for k, r in enumerate(records)]
    if args.game is None:
        for number, r in zip(numbers, records):
            players = " - ".join(f"{p['name']} ({p['side']})" for p in r.players)
            why = _ending(r)
            print(f"{number:>5}  {players}  {r.result:<8}{len(r.moves)} events  seed {r.seed}  {why}")
        return 0
    if args.game not in numbers:
        held = f"games {min(numbers)}..{max(numbers)}"
        parser.error(f"no game {args.game} in {args.results} (it holds {held}; omit --game to list them)")
    record = records[numbers.index(args.game)]
    titles = record.load_game().player_titles
    print(f"game {args.game}: " + ", ".join(f"{titles[i]}: {p['name']}" for i, p in enumerate(record.players))
          + f"; seed {record.seed}")
    states = record.states()
    state = next(states)
    if not args.no_board:
        print(state)
    for number, (move, state) in enumerate(zip(record.moves, states), 1):
        who = "chance" if move["player"] < 0 else titles[move["player"]]
        notes = [f"{move['time']:.3f}s" if "time" in move else "",
                 f"{move['nodes']} nodes" if "nodes" in move else "",
                 f"wp {move['wp']:.0%}" if "wp" in move else ""]
        extra = ", ".join(n for n in notes if n)
        print(f"{number:>4}. {who}: {move['move']}" + (f"  ({extra})" if extra else ""))
        if not args.no_board:
            print(state)
    fault = record.extra.get("fault")
    end = _ending(record)
    if fault and not record.outcome:
        end += f" ({fault['entrant']}: {fault['message']})"
    print(f"result {record.result}: {end}")
    return 0


if __name__ == "__main__":   # python -m ardsearch.tournament.cli tournament|replay ...
    from ardsearch.cli import main
    if len(sys.argv) < 2 or sys.argv[1] not in ("tournament", "replay"):
        print("usage: python -m ardsearch.tournament.cli tournament|replay ...", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1:]))   # the ardsearch command's handling of Ctrl-C and closed pipes
