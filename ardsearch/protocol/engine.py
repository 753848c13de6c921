"""The ardsearch protocol engine: a line server on stdin/stdout.

    ardsearch engine                      # serve stdin/stdout
    ardsearch engine "newgame ardennes first=allies" "position startpos moves obj:3 ?" "go nodes 2000"
    ardsearch engine --compliance [CMD]   # run the compliance suite against CMD (ours by default)

The main thread reads commands; searches, perft and bench run in one worker
thread, so `isready`, `stop` and `quit` are answered while they run. At most
one such job runs at a time; which one (if any) is held under one lock, and a
job prints its last line and leaves that state in one step under that lock,
so a command always sees the engine either busy with that job or idle with
the job's last line already printed (see _Job). Every
command either succeeds quietly (or with its documented reply) or gets
exactly one `error <code> <message>` line, and the engine keeps its previous
state. The specification is docs/protocol.md.
"""
from __future__ import annotations

import os
import re
import shlex
import sys
import threading
import time

from ardsearch._refusals import refusal_message

from .lineio import Line, LineReader, LineWriter
from .options import OptionError, engine_options
from .position import PositionError, build_position
from .searcher import GoLimits, SearchJob, StopSignal
from .strength import StrengthError, check_elo
from .words import from_word, word

PROTOCOL_VERSION = 1
AUTHOR = "the ardsearch team"
# How long quit/EOF waits for a running job before leaving anyway.
QUIT_GRACE_S = 0.5
# How long a command after `stop` waits for the stopping job.
STOP_WAIT_S = 2.0


class _Job:
    """One go, perft or bench. `EngineServer._job` is the running one, or
    None; it is read and changed only under `EngineServer._cond`. A job ends
    by `EngineServer._finish(job, line)`, which prints its last line and
    clears `_job` under that lock, and only if `_job` is still that job: a
    finished job can never clear (or print for) a job started after it."""

    __slots__ = ("id", "stop", "thread")

    def __init__(self, job_id: int):
        self.id = job_id
        self.stop = StopSignal()
        self.thread: threading.Thread | None = None


class CommandError(Exception):
    """A command refused: becomes one `error <code> <message>` line."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def _one_line(text: str) -> str:
    text = " ".join(str(text).split())
    return text[:400] if len(text) > 400 else text


_DIGITS = re.compile(r"[0-9]+")
# An integer game parameter may be negative (microarmour german_quality -2..3).
_GAME_INT = re.compile(r"-?[0-9]+")
# More digits than this cannot be in any range of the protocol (2^64 has 20).
_MAX_DIGITS = 24


def _int_arg(token: str, what: str, lo: int = 0, hi: int = 2**63 - 1) -> int:
    """A number of the protocol: unsigned decimal digits, no sign, no
    exponent, no separators (docs/protocol.md, Grammar), from lo to hi."""
    if not _DIGITS.fullmatch(token):
        raise CommandError("bad-argument", f"{what} needs a whole number written as decimal digits "
                           f"(no sign, no exponent), got {token[:40]!r}")
    if len(token) > _MAX_DIGITS:
        raise CommandError("bad-argument", f"{what} must be from {lo} to {hi}, got {token[:40]}...")
    value = int(token, 10)
    if not lo <= value <= hi:
        raise CommandError("bad-argument", f"{what} must be from {lo} to {hi}, got {value}")
    return value


def _no_arguments(command: str, args) -> None:
    if args:
        raise CommandError("bad-argument", f"{command} takes no arguments, got {' '.join(args)[:40]!r}: "
                           f"send {command} alone")


# go limits that take a number, with their smallest value: a budget of 0
# nodes, 0 ms or depth 0 means nothing, and movestogo counts this decision.
GO_NUMERIC = {"nodes": 1, "iterations": 1, "movetime": 1, "depth": 1, "movestogo": 1,
              "wtime": 0, "btime": 0, "winc": 0, "binc": 0}


class EngineServer:
    """The protocol state machine. `handle(line)` runs one command;
    it returns False when the engine should exit."""

    def __init__(self, writer: LineWriter, oneshot: bool = False):
        self.out = writer
        self.oneshot = oneshot
        self.options = engine_options()
        self.values = {name: opt.default for name, opt in self.options.items()}
        self.game = None
        self.position = None
        # The job state machine (see _Job): the running job or None, under _cond.
        self._cond = threading.Condition(threading.Lock())
        self._job: _Job | None = None
        self._jobs_started = 0
        self._last_thread: threading.Thread | None = None
        self.commands = {
            "ard": self.cmd_ard, "isready": self.cmd_isready, "setoption": self.cmd_setoption,
            "newgame": self.cmd_newgame, "position": self.cmd_position, "go": self.cmd_go,
            "stop": self.cmd_stop, "quit": self.cmd_quit, "legal": self.cmd_legal, "d": self.cmd_d,
            "eval": self.cmd_eval, "perft": self.cmd_perft, "bench": self.cmd_bench,
            "query": self.cmd_query,
        }

    # ---- plumbing --------------------------------------------------------
    def send(self, line: str) -> None:
        self.out.write(line)

    def error(self, code: str, message: str) -> None:
        self.send(f"error {code} {_one_line(message)}")

    def handle(self, line: Line) -> bool:
        if line.problem is not None:
            self.error("bad-argument", line.problem)
            return True
        tokens = line.text.split()
        if not tokens:
            return True  # blank lines are ignored, as in UCI
        name, args = tokens[0], tokens[1:]
        command = self.commands.get(name)
        if command is None:
            self.error("unknown-command", f"unknown command {name[:40]!r} (commands: "
                       + ", ".join(sorted(self.commands)) + ")")
            return True
        try:
            return command(args) is not False
        except CommandError as exc:
            self.error(exc.code, str(exc))
        except Exception as exc:  # never let a bug end the session
            self.error("internal", f"{name}: {type(exc).__name__}: {exc}")
        return True

    def busy(self) -> bool:
        with self._cond:
            return self._job is not None

    def require_idle(self, what: str) -> None:
        with self._cond:
            job = self._job
            if job is not None and job.stop.is_set():
                # After a stop the client may send its next command before the
                # bestmove arrives; let the stopping job finish rather than refuse.
                self._cond.wait_for(lambda: self._job is not job, STOP_WAIT_S)
            if self._job is not None:
                raise CommandError("busy", f"{what} is not allowed while a search, perft or bench runs; "
                                   "send stop first")

    def require_position(self):
        if self.game is None:
            raise CommandError("no-game", "no game selected; send newgame <game> first")
        if self.position is None:
            raise CommandError("no-position", "no position set; send position startpos [seed n] [moves ...] first")
        return self.position

    def start_job(self, target) -> None:
        """Runs target(stop, final) in the worker; stop is the job's StopSignal
        and final(line) prints the job's last line and ends the job."""
        with self._cond:
            if self._job is not None:  # callers check require_idle first; this keeps the invariant
                raise CommandError("busy", "a search, perft or bench is already running; send stop first")
            self._jobs_started += 1
            job = _Job(self._jobs_started)
            job.thread = threading.Thread(target=self._run_job, args=(job, target),
                                          name=f"ardsearch-job-{job.id}", daemon=True)
            self._job, self._last_thread = job, job.thread
            job.thread.start()
        if self.oneshot:
            job.thread.join()

    def _run_job(self, job: _Job, target) -> None:
        try:
            target(job.stop, lambda line: self._finish(job, line))
        except Exception as exc:  # a job bug must not leave the engine busy forever
            self._finish(job, f"error internal job failed: {type(exc).__name__}: {_one_line(exc)}")
        finally:
            self._finish(job, None)

    def _finish(self, job: _Job, line: str | None) -> None:
        """Prints the job's last line and marks the engine idle, as one step
        for the command thread; nothing if the job has already finished."""
        with self._cond:
            if self._job is not job:
                return
            if line is not None:
                self.send(line)
            self._job = None
            self._cond.notify_all()

    def stop_job(self) -> None:
        """Asks the running job, if any, to stop."""
        with self._cond:
            if self._job is not None:
                self._job.stop.set()

    def wait_job(self, timeout: float | None = None) -> bool:
        """True if no job thread is left running."""
        thread = self._last_thread
        if thread is not None:
            thread.join(timeout)
        return thread is None or not thread.is_alive()

    # ---- commands --------------------------------------------------------
    def cmd_ard(self, args):
        import ardsearch

        from .gameinfo import game_lines

        _no_arguments("ard", args)
        self.send(f"id name ardsearch {ardsearch.__version__}")
        self.send(f"id author {AUTHOR}")
        self.send(f"protocol {PROTOCOL_VERSION}")
        for text in game_lines():
            self.send(text)
        for opt in self.options.values():
            self.send(opt.declaration())
        self.send("ardok")

    def cmd_isready(self, args):
        _no_arguments("isready", args)
        self.send("readyok")

    def cmd_setoption(self, args):
        self.require_idle("setoption")
        if len(args) < 2 or args[0] != "name":
            raise CommandError("bad-argument", "usage: setoption name <id> value <x>")
        if "value" in args:
            at = args.index("value")
            name, value = " ".join(args[1:at]), " ".join(args[at + 1:])
        else:
            name, value = " ".join(args[1:]), ""
        key = next((k for k in self.options if k.lower() == name.lower()), None)
        if key is None:
            raise CommandError("unknown-option", f"no option {name[:40]!r} (options: {', '.join(self.options)})")
        opt = self.options[key]
        if value == "" and opt.type != "string":
            raise CommandError("bad-argument", f"option {key} needs a value: setoption name {key} value <x>")
        try:
            coerced = opt.coerce(value)
            if key == "Elo":
                check_elo(self.game, coerced)
        except OptionError as exc:
            raise CommandError(exc.code, str(exc)) from None
        except StrengthError as exc:
            raise CommandError("bad-argument", f"option Elo: {exc}") from None
        self.values[key] = coerced

    def cmd_newgame(self, args):
        self.require_idle("newgame")
        if not args:
            raise CommandError("bad-argument", "usage: newgame <game> [key=value ...]")
        import ardsearch

        params = {}
        for item in args[1:]:
            key, eq, value = item.partition("=")
            if not eq or not key:
                raise CommandError("bad-argument", f"game parameter {item[:40]!r} must be key=value")
            if key in params:
                raise CommandError("bad-argument", f"game parameter {key[:40]!r} given twice")
            params[key] = value
        base = args[0].split("(", 1)[0]
        if base not in ardsearch.list_games():
            raise CommandError("unknown-game", f"unknown game {args[0][:40]!r} "
                               f"(games: {', '.join(ardsearch.list_games())})")
        try:
            game = ardsearch.load_game(args[0], **params)
        except ValueError as exc:
            raise CommandError("bad-argument", str(exc)) from None
        except ImportError as exc:
            raise CommandError("unknown-game", f"game {base} is not available in this build: {exc}") from None
        for param in game.spec.params:
            text = params.get(param.name)
            if param.type is int and text is not None and not _GAME_INT.fullmatch(text):
                raise CommandError("bad-argument", f"game parameter {param.name}={text[:40]!r}: expected "
                                   f"{param.describe()}, written as decimal digits (no '+', no exponent)")
        self.game, self.position = game, None

    def cmd_position(self, args):
        self.require_idle("position")
        if self.game is None:
            raise CommandError("no-game", "no game selected; send newgame <game> first")
        if not args or args[0] != "startpos":
            raise CommandError("bad-argument", "usage: position startpos [seed <n>] [moves <e1> <e2> ...]")
        rest, seed = args[1:], 0
        if rest[:1] == ["seed"]:
            if len(rest) < 2:
                raise CommandError("bad-argument", "seed needs a number: position startpos seed <n>")
            seed = _int_arg(rest[1], "seed", 0, 2**64 - 1)
            rest = rest[2:]
        moves: list[str] = []
        if rest:
            if rest[0] != "moves":
                raise CommandError("bad-argument", f"unexpected {rest[0][:40]!r}: expected seed <n> or moves ...")
            moves = rest[1:]
        if len(moves) > max(self.game.max_game_length, 1):
            raise CommandError("illegal-move", f"{len(moves)} events is more than a {self.game.name} game "
                               f"can last ({self.game.max_game_length})")
        try:
            self.position = build_position(self.game, seed, moves)
        except PositionError as exc:
            raise CommandError(exc.code, str(exc)) from None

    def cmd_go(self, args):
        self.require_idle("go")
        pos = self.require_position()
        state = pos.state
        if state.is_terminal():
            raise CommandError("bad-state", "the game is over: nothing to search (query result gives the result)")
        if state.is_chance_node():
            raise CommandError("bad-state", "the position is at a chance node: the referee draws the outcome "
                               "and sends it in position ... moves")
        mover = state.current_player()
        if pos.viewer is not None and pos.viewer != mover:
            raise CommandError("bad-state", f"the position is player {pos.viewer}'s view but player {mover} "
                               "is to move: an engine searches only for its own player")
        started = time.monotonic()
        limits = self.parse_go(args, state)
        if self.oneshot and limits.infinite:
            raise CommandError("bad-argument", "go infinite needs a stop from stdin; not allowed as a one-shot command")
        view = state if pos.viewer is not None or not self.game.hidden_information else state.view(mover)
        job = SearchJob(self.game, view, limits, dict(self.values), self.send)
        # Parsing the limits (on the first clock go of a game: measuring its
        # typical length) and making the view are part of the decision's time.
        job.t0 = started
        self.start_job(job.run)

    def parse_go(self, args, state) -> GoLimits:
        limits = GoLimits()
        seen: set[str] = set()
        i = 0
        while i < len(args):
            word = args[i]
            if word in seen:
                raise CommandError("bad-argument", f"go {word} is given twice: give each limit once")
            seen.add(word)
            if word in GO_NUMERIC:
                if i + 1 >= len(args):
                    raise CommandError("bad-argument", f"go {word} needs a number")
                setattr(limits, word, _int_arg(args[i + 1], f"go {word}", GO_NUMERIC[word]))
                i += 2
            elif word == "infinite":
                limits.infinite = True
                i += 1
            elif word == "searchactions":
                names = args[i + 1:]
                if not names:
                    raise CommandError("bad-argument", "go searchactions needs at least one action")
                legal = set(state.legal_actions())
                for text in names:
                    try:
                        action = state.string_to_action(from_word(text))
                    except ValueError as exc:
                        raise CommandError("illegal-move", f"searchactions {text[:40]!r}: {exc}") from None
                    if action not in legal:
                        raise CommandError("illegal-move", refusal_message(
                            state, state.action_to_string(action), f"searchactions {text[:40]!r} is not legal here"))
                    if action not in limits.searchactions:
                        limits.searchactions.append(action)
                break
            else:
                raise CommandError("bad-argument", f"go: unknown limit {word[:40]!r} (nodes, iterations, movetime, "
                                   "depth, wtime, btime, winc, binc, movestogo, infinite, searchactions)")
        limits.mover = state.current_player()
        if limits.clock_ms()[0] is not None:
            from .timeman import expected_decisions_left

            # The mover's own decisions still to come, not events (chance
            # and the opponent's moves cost it no time).
            pos, mover = self.position, limits.mover
            limits.decisions_left, limits.latency_decisions = expected_decisions_left(
                self.game, mover, pos.decisions[mover], pos.choices[mover])
        return limits

    def cmd_stop(self, args):
        _no_arguments("stop", args)
        # Stop with no search running is ignored, not an error: the search
        # may have ended on its own while the stop was on its way (UCI does
        # the same), and a client must not see an error for that race.
        self.stop_job()

    def cmd_quit(self, args):
        _no_arguments("quit", args)
        return False

    def cmd_legal(self, args):
        _no_arguments("legal", args)
        state = self.require_position().state
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            if not outcomes:  # a view at a chance node it does not see
                self.send("chance ? 1")
                return
            self.send("chance " + " ".join(f"{word(state, a)} {p:.6g}" for a, p in outcomes))
        else:
            self.send(" ".join(["legal"] + [word(state, a) for a in state.legal_actions()]))

    def cmd_d(self, args):
        _no_arguments("d", args)
        state = self.require_position().state
        for row in str(state).splitlines():
            self.send(f"board {row}".rstrip())
        self.send("boardok")

    def cmd_eval(self, args):
        _no_arguments("eval", args)
        state = self.require_position().state
        player = state.current_player()
        if player not in (0, 1):
            player = 0
        self.send(f"eval {state.evaluate(player):.4f} player {player}")

    def cmd_perft(self, args):
        self.require_idle("perft")
        state = self.require_position().state
        if len(args) != 1:
            raise CommandError("bad-argument", "usage: perft <depth>")
        depth = _int_arg(args[0], "perft depth", 0, 64)
        state = state.clone()

        def run(stop, final):
            from ardsearch import _core

            t0 = time.perf_counter()
            count, complete = _core.perft_until(state, depth, stop.flag)
            final(f"perft {depth} nodes {count} time {int((time.perf_counter() - t0) * 1000)}"
                  + ("" if complete else " partial"))

        self.start_job(run)

    def cmd_bench(self, args):
        self.require_idle("bench")
        from .bench import DEFAULT_NODES, run_bench

        nodes = _int_arg(args[0], "bench nodes", 1, 10**9) if args else DEFAULT_NODES
        if len(args) > 1:
            raise CommandError("bad-argument", "usage: bench [nodes per position]")
        self.start_job(lambda stop, final: run_bench(self.send, nodes, stop, final))

    def cmd_query(self, args):
        state = self.require_position().state
        if len(args) != 1 or args[0] not in ("result", "tomove", "hash"):
            raise CommandError("bad-argument", "usage: query result|tomove|hash")
        if args[0] == "result":
            if state.is_terminal():
                r = state.returns()
                self.send(f"result {r[0]:g} {r[1]:g}")
            else:
                self.send("result none")
        elif args[0] == "tomove":
            p = state.current_player()
            self.send("tomove " + {-1: "chance", -4: "terminal"}.get(p, str(p)))
        else:
            self.send(f"hash {state.hash():016x}")


def serve(fd_in: int = 0, stream_out=None) -> int:
    """Serve the protocol until quit or end of input; returns the exit status."""
    writer = LineWriter(stream_out if stream_out is not None else sys.stdout.buffer)
    server = EngineServer(writer)
    reader = LineReader(fd_in)
    while True:
        line = reader.read_line()
        if line is None or not server.handle(line):
            break
    return shutdown(server)


def shutdown(server: EngineServer) -> int:
    server.stop_job()
    if not server.wait_job(QUIT_GRACE_S):
        # A job that cannot stop (a deep perft, say) must not keep us alive:
        # quit promises an exit within a second.
        server.out.close()
        _hard_exit(0)
    server.out.close()
    return 0


def _hard_exit(status: int) -> None:
    try:
        sys.stdout.flush()
    except Exception:
        pass
    os._exit(status)


def run_oneshot(commands: list[str]) -> int:
    """Stockfish-style: each argument is one command, run to completion."""
    writer = LineWriter(sys.stdout.buffer)
    server = EngineServer(writer, oneshot=True)
    for text in commands:
        if not server.handle(Line(text) if text.isascii() else Line("", "argument is not ASCII")):
            break
    return shutdown(server)


def main(argv: list[str] | None = None) -> int:
    """Entry point of `ardsearch engine [commands...] [--compliance [CMD]]`."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__.strip().split("\n\n")[1])
        return 0
    if "--compliance" in argv:
        at = argv.index("--compliance")
        target = argv[at + 1:]
        if len(target) == 1:
            target = shlex.split(target[0])
        from .compliance import default_command, run

        report = run(target or default_command())
        print(report.text())
        return 0 if report.passed else 1
    if argv:
        return run_oneshot(argv)
    return serve()
