"""The protocol compliance suite: checks any engine command at the wire level.

    python -m ardsearch.protocol --compliance "my-engine --flag"
    report = ardsearch.protocol.compliance.run(["ardsearch", "engine"])
    assert report.passed, report.text()

It needs nothing from the engine but the protocol: to reach a decision node
it asks the engine's own `legal` for chance outcomes and moves. Each check
starts from what the previous ones left; a failed check is reported and the
suite goes on where that still makes sense.
"""
from __future__ import annotations

import queue
import re
import shlex
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

STOP_LATENCY_S = 0.100
QUIT_LATENCY_S = 1.0
# `go depth 1` must not wait for a periodic check (the old engine took 500 ms).
DEPTH1_LATENCY_S = 0.300
# A go sent the moment a bestmove arrives, then `go infinite` + `stop`: trials.
RACE_TRIALS = 100

_NUM = r"\d+"
_FLOAT = r"[0-9]*\.?[0-9]+(?:[eE][-+]?\d+)?"
INFO_FIELDS = {
    "depth": _NUM, "seldepth": _NUM, "nodes": _NUM, "nps": _NUM, "time": _NUM,
    "wp": _FLOAT, "multipv": _NUM, "hashfull": _NUM, "tree": _NUM,
}
_ACTION_INFO = re.compile(rf"^info action \S+ visits {_NUM} value -?{_FLOAT}$")


def info_line_problem(line: str) -> str | None:
    """None if `line` is a well-formed info line, else what is wrong."""
    tokens = line.split()
    if tokens[:1] != ["info"]:
        return "does not start with 'info'"
    if tokens[1:2] == ["string"]:
        return None
    if tokens[1:2] == ["action"]:
        return None if _ACTION_INFO.match(line) else "info action must read: info action <a> visits <n> value <v>"
    i = 1
    while i < len(tokens):
        key = tokens[i]
        if key == "pv":
            return None if i + 1 < len(tokens) else "pv without moves"
        if key not in INFO_FIELDS:
            return f"unknown info field {key!r}"
        if i + 1 >= len(tokens) or not re.fullmatch(INFO_FIELDS[key], tokens[i + 1]):
            return f"info {key} needs a number"
        if key == "wp" and not 0.0 <= float(tokens[i + 1]) <= 1.0:
            return f"wp {tokens[i + 1]} is outside 0..1"
        i += 2
    return None


@dataclass
class Check:
    name: str
    passed: bool
    detail: str = ""
    seconds: float = 0.0


@dataclass
class Report:
    command: list[str]
    checks: list[Check] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return bool(self.checks) and all(c.passed for c in self.checks)

    def failures(self) -> list[Check]:
        return [c for c in self.checks if not c.passed]

    def text(self) -> str:
        lines = [f"compliance of: {' '.join(self.command)}"]
        for c in self.checks:
            mark = "PASS" if c.passed else "FAIL"
            lines.append(f"  {mark}  {c.name:<34} {c.seconds * 1000:8.1f} ms  {c.detail}")
        ok = sum(c.passed for c in self.checks)
        lines.append(f"{ok}/{len(self.checks)} checks passed")
        return "\n".join(lines)


class WireError(Exception):
    pass


class Wire:
    """A raw line connection to an engine process: every output line is kept
    with its arrival time, so latency checks measure the engine, not us."""

    def __init__(self, command: list[str]):
        self.command = command
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, bufsize=0)
        self.lines: queue.Queue = queue.Queue()
        self.raw_problems: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while True:
            try:
                raw = self.proc.stdout.readline()
            except (OSError, ValueError):
                raw = b""
            now = time.monotonic()
            if not raw:
                self.lines.put((now, None))
                return
            try:
                text = raw.decode("ascii").rstrip("\r\n")
            except UnicodeDecodeError:
                self.raw_problems.append(f"non-ASCII output {raw[:40]!r}")
                text = raw.decode("ascii", "replace").rstrip("\r\n")
            self.lines.put((now, text))

    def send(self, text: str | bytes) -> float:
        data = text if isinstance(text, bytes) else (text + "\n").encode("ascii")
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise WireError("engine closed its input") from None
        return time.monotonic()

    def recv(self, timeout: float) -> tuple[float, str]:
        try:
            at, line = self.lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            raise WireError(f"no answer within {timeout:.1f} s") from None
        if line is None:
            self.lines.put((at, None))
            raise WireError(f"engine exited (status {self.proc.poll()})")
        return at, line

    def until(self, predicate, timeout: float) -> tuple[list[str], float]:
        """Lines up to and including the first matching one; its arrival time."""
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            at, line = self.recv(deadline - time.monotonic())
            seen.append(line)
            if predicate(line):
                return seen, at

    def sync(self, timeout: float = 5.0) -> list[str]:
        """isready/readyok; returns the lines before readyok."""
        self.send("isready")
        lines, _ = self.until(lambda s: s == "readyok", timeout)
        return lines[:-1]

    def quiet(self, seconds: float) -> list[str]:
        """Lines that arrive within `seconds` (expecting none, usually)."""
        out = []
        deadline = time.monotonic() + seconds
        while True:
            try:
                out.append(self.recv(deadline - time.monotonic())[1])
            except WireError:
                return out

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def default_command() -> list[str]:
    return [sys.executable, "-m", "ardsearch.protocol"]


class _Suite:
    def __init__(self, command: list[str], report: Report):
        self.command = command
        self.report = report
        self.games: list[str] = []
        self.game: str | None = None
        self.moves: list[str] = []

    def check(self, name: str, fn) -> bool:
        t0 = time.monotonic()
        try:
            detail = fn() or ""
            ok = True
        except (WireError, AssertionError) as exc:
            detail, ok = str(exc) or type(exc).__name__, False
        except Exception as exc:  # a suite bug must not hide the other checks
            detail, ok = f"{type(exc).__name__}: {exc}", False
        self.report.checks.append(Check(name, ok, detail, time.monotonic() - t0))
        return ok

    # --- the checks -----------------------------------------------------
    def handshake(self, w: Wire):
        w.send("ard")
        lines, _ = w.until(lambda s: s == "ardok", 10.0)
        assert any(s.startswith("id name ") for s in lines), "no 'id name' line"
        assert "protocol 1" in lines, "no 'protocol 1' line"
        self.games = [s.split()[1] for s in lines if re.fullmatch(r"game \S+ [0-9a-f]+", s)]
        assert self.games, "no 'game <name> <hash>' line"
        names = {s.split()[2] for s in lines if s.startswith("option name ")}
        for needed in ("Threads", "Hash", "Algorithm", "Exploration", "Seed", "MultiPV", "Preset"):
            assert needed in names, f"option {needed} not declared"
        for s in lines:
            if s.startswith("option ") and not re.match(r"option name \S+ type (spin|check|combo|string) default", s):
                raise AssertionError(f"malformed option line {s!r}")
        self.game = "ardennes" if "ardennes" in self.games else self.games[0]
        return f"{len(self.games)} games, {len(names)} options"

    def isready(self, w: Wire):
        extra = w.sync(5.0)
        assert not extra, f"unexpected lines before readyok: {extra!r}"

    def reach_decision(self, w: Wire):
        """newgame, then chance outcomes (and first moves) from `legal` until a decision node."""
        w.send(f"newgame {self.game}")
        self.moves = []
        for _ in range(200):
            w.send("position startpos seed 1" + (" moves " + " ".join(self.moves) if self.moves else ""))
            w.send("legal")
            lines, _ = w.until(lambda s: s.startswith(("legal", "chance", "error")), 5.0)
            last = lines[-1]
            assert not last.startswith("error"), f"engine refused its own line: {last}"
            if last.startswith("legal"):
                legal = last.split()[1:]
                assert legal, "no legal move at the start of the game"
                self.legal = legal
                return f"{len(self.moves)} setup events, {len(legal)} legal moves"
            self.moves.append(last.split()[1])
        raise AssertionError("no decision node within 200 chance events")

    def bad_input(self, w: Wire):
        cases = [
            ("unknown command", b"frobnicate now\n", "unknown-command"),
            ("binary garbage", b"\xff\xfe\x00\x81garbage\n", "bad-argument"),
            ("bad setoption", b"setoption name NoSuchOption value 3\n", None),
            ("bad option value", b"setoption name Threads value many\n", "bad-argument"),
            ("unknown game", b"newgame no_such_game_x\n", None),
            ("bad go limit", b"go nodes lots\n", "bad-argument"),
            ("illegal event", b"position startpos moves zz99zz\n", "illegal-move"),
            ("oversized line", b"go " + b"x" * (1 << 20) + b"\n", "bad-argument"),
        ]
        for label, data, code in cases:
            w.send(data)
            lines = w.sync(10.0)
            errors = [s for s in lines if s.startswith("error ")]
            assert len(errors) == 1 and len(lines) == 1, f"{label}: expected one error line, got {lines!r}"
            if code is not None:
                assert errors[0].split()[1] == code, f"{label}: expected code {code}, got {errors[0]!r}"
        # the engine kept its position: legal still answers the same
        w.send("legal")
        lines, _ = w.until(lambda s: s.startswith(("legal", "error")), 5.0)
        assert lines[-1].split()[1:] == self.legal, "position changed after refused commands"
        return f"{len(cases)} bad inputs, one error each"

    def go_without_position(self):
        w = Wire(self.command)
        try:
            w.send(f"newgame {self.game}")
            w.send("go nodes 10")
            lines = w.sync(5.0)
            assert len(lines) == 1 and lines[0].startswith("error "), f"expected one error, got {lines!r}"
        finally:
            w.close()

    def go_nodes(self, w: Wire):
        self._position(w)
        w.send("go nodes 300")
        lines, _ = w.until(lambda s: s.startswith(("bestmove", "error")), 30.0)
        assert lines[-1].startswith("bestmove"), f"go refused: {lines[-1]}"
        self._check_search_output(lines)
        extra = w.quiet(0.2)
        assert not any(s.startswith("bestmove") for s in extra), "more than one bestmove"
        return lines[-1]

    def _position(self, w: Wire):
        w.send("position startpos seed 1" + (" moves " + " ".join(self.moves) if self.moves else ""))

    def _check_search_output(self, lines):
        infos = [s for s in lines if s.startswith("info")]
        assert infos, "no info line before bestmove"
        for s in infos:
            problem = info_line_problem(s)
            assert problem is None, f"bad info line {s!r}: {problem}"
        for s in lines[:-1]:
            assert s.startswith("info"), f"unexpected line during search: {s!r}"
        move = lines[-1].split()[1]
        assert move in self.legal, f"bestmove {move} is not legal (legal: {' '.join(self.legal[:12])} ...)"
        last = infos[-1].split()
        assert "nodes" in last and "wp" in last, f"final info lacks nodes or wp: {infos[-1]!r}"

    def ready_and_stop(self, w: Wire):
        self._position(w)
        w.send("go infinite")
        time.sleep(0.3)
        sent = w.send("isready")
        lines, at = w.until(lambda s: s in ("readyok",) or s.startswith(("bestmove", "error")), 2.0)
        assert lines[-1] == "readyok", f"expected readyok during the search, got {lines[-1]!r}"
        ready_ms = (at - sent) * 1000
        # the search keeps running, with info at least every 500 ms
        during = w.quiet(0.6)
        assert any(s.startswith("info ") for s in during), "no info line within 600 ms of a running search"
        assert not any(s.startswith("bestmove") for s in during), "go infinite answered before stop"
        lines += during
        sent = w.send("stop")
        lines2, at = w.until(lambda s: s.startswith("bestmove"), 5.0)
        latency = at - sent
        self._check_search_output([s for s in lines if s != "readyok"] + lines2)
        assert not any(s.startswith("bestmove") for s in w.quiet(0.3)), "more than one bestmove after stop"
        assert latency < STOP_LATENCY_S, f"stop took {latency * 1000:.0f} ms (limit {STOP_LATENCY_S * 1000:.0f})"
        return f"readyok in {ready_ms:.1f} ms, bestmove {latency * 1000:.1f} ms after stop"

    def go_at_bestmove(self, w: Wire):
        """A client that answers each bestmove at once: the new search must be
        the running one (a second go refused busy, its stop never lost)."""
        self._position(w)
        for trial in range(RACE_TRIALS):
            w.send("go nodes 1")
            w.until(lambda s: s.startswith(("bestmove", "error")), 10.0)
            w.send("go infinite")
            w.send("go nodes 1")
            w.send("stop")
            try:
                lines, _ = w.until(lambda s: s.startswith("bestmove"), 5.0)
            except WireError:
                w.send("stop")
                raise AssertionError(f"trial {trial + 1}: no bestmove after go infinite + stop sent at once "
                                     "after a bestmove (the stop was lost)") from None
            errors = [s for s in lines if s.startswith("error")]
            assert len(errors) == 1 and errors[0].split()[1] == "busy", \
                f"trial {trial + 1}: a go during go infinite must get one error busy, got {errors!r}"
        extra = w.sync(5.0)
        assert not any(s.startswith("bestmove") for s in extra), f"more than one bestmove: {extra!r}"
        return f"{RACE_TRIALS} trials"

    def depth(self, w: Wire):
        """go depth 1 answers at once; a depth MCTS cannot reach (tree memory
        of 1 MB) still ends (docs/protocol.md, `depth` with MCTS)."""
        self._position(w)
        sent = w.send("go depth 1")
        lines, at = w.until(lambda s: s.startswith(("bestmove", "error")), 10.0)
        self._check_search_output(lines)
        took = at - sent
        assert took < DEPTH1_LATENCY_S, f"go depth 1 took {took * 1000:.0f} ms"
        w.send("setoption name Algorithm value mcts")
        w.send("setoption name Hash value 1")
        w.send("go depth 60")
        try:
            lines, _ = w.until(lambda s: s.startswith(("bestmove", "error")), 20.0)
        except WireError:
            w.send("stop")
            raise AssertionError("go depth 60 with MCTS and Hash 1 did not end within 20 s") from None
        finally:
            w.send("setoption name Hash value 64")
            w.send("setoption name Algorithm value auto")
        self._check_search_output(lines)
        assert not w.sync(5.0), "unexpected lines after go depth"
        return f"go depth 1 in {took * 1000:.0f} ms"

    def stop_perft(self, w: Wire):
        """perft is stopped by stop; its line says partial; position then works."""
        self._position(w)
        w.send("perft 40")
        assert w.sync(5.0) == [], "unexpected lines while perft runs"
        sent = w.send("stop")
        lines, at = w.until(lambda s: s.startswith(("perft", "error")), 5.0)
        latency = at - sent
        assert re.fullmatch(r"perft 40 nodes \d+ time \d+ partial", lines[-1]), \
            f"a stopped perft must answer 'perft 40 nodes <n> time <ms> partial', got {lines[-1]!r}"
        self._position(w)
        extra = w.sync(5.0)
        assert not extra, f"position after a stopped perft: {extra!r}"
        assert latency < STOP_LATENCY_S, f"stop took {latency * 1000:.0f} ms"
        return f"perft line {latency * 1000:.1f} ms after stop"

    def stop_bench(self, w: Wire):
        """bench is stopped by stop; its total says partial; go then works."""
        w.send("bench 1000000000")
        assert w.sync(5.0) == [], "unexpected lines while bench runs"
        time.sleep(0.3)  # into the first search
        sent = w.send("stop")
        lines, at = w.until(lambda s: s.startswith(("Nodes/second", "error")), 5.0)
        latency = at - sent
        totals = [s for s in lines if s.startswith("Nodes searched")]
        assert totals and re.fullmatch(r"Nodes searched : \d+ partial", totals[-1]), \
            f"a stopped bench must print 'Nodes searched : <n> partial', got {lines[-3:]!r}"
        assert lines[-1].startswith("Nodes/second : "), f"bench must end with Nodes/second, got {lines[-1]!r}"
        assert latency < STOP_LATENCY_S, f"stop took {latency * 1000:.0f} ms"
        self._position(w)
        assert not w.sync(5.0), "unexpected lines after a stopped bench"
        return f"bench end {latency * 1000:.1f} ms after stop"

    def movetime(self, w: Wire):
        self._position(w)
        sent = w.send("go movetime 200")
        lines, at = w.until(lambda s: s.startswith(("bestmove", "error")), 5.0)
        self._check_search_output(lines)
        took = at - sent
        assert took < 0.2 + 0.3, f"go movetime 200 took {took * 1000:.0f} ms"
        return f"{took * 1000:.0f} ms"

    def clock(self, w: Wire):
        self._position(w)
        sent = w.send("go wtime 2000 btime 2000 winc 0 binc 0")
        lines, at = w.until(lambda s: s.startswith(("bestmove", "error")), 5.0)
        self._check_search_output(lines)
        took = at - sent
        assert took < 1.0, f"spent {took * 1000:.0f} ms of a 2000 ms clock on one decision"
        return f"{took * 1000:.0f} ms of 2000"

    def quit_latency(self, how: str):
        w = Wire(self.command)
        try:
            w.send("ard")
            w.until(lambda s: s == "ardok", 10.0)
            w.send(f"newgame {self.game}")
            self._position(w)
            w.send("go infinite")
            time.sleep(0.2)
            t0 = time.monotonic()
            if how == "quit":
                w.send("quit")
            else:
                w.proc.stdin.close()
            try:
                status = w.proc.wait(QUIT_LATENCY_S + 1.0)
            except subprocess.TimeoutExpired:
                raise AssertionError(f"still running {QUIT_LATENCY_S + 1:.0f} s after {how}") from None
            took = time.monotonic() - t0
            assert status == 0, f"exit status {status} after {how}"
            assert took < QUIT_LATENCY_S, f"exit took {took * 1000:.0f} ms after {how}"
            return f"exit 0 in {took * 1000:.0f} ms"
        finally:
            w.close()

    def strict_grammar(self, w: Wire):
        """docs/protocol.md, Lines: a command with a word more, or a number
        with a sign, an exponent, separators, empty, or 0 where the spec asks
        for at least 1, gets one `error bad-argument` and is not executed."""
        self._position(w)
        w.sync(5.0)
        cases = ["isready now", "legal now", "d now", "eval now", "query tomove now", "stop now",
                 "quit now", "ard now", "perft 1 now", "go nodes +5", "go nodes 0", "go nodes 1e3",
                 "go nodes 1_0", "go nodes", "go movetime 0", "go depth 0", "go movestogo 0 nodes 5",
                 "go wtime -1 nodes 5", "go nodes 5 nodes 5", "perft -1", "perft +1",
                 "position startpos seed +1", "position startpos seed -1", "bench 0",
                 "setoption name Threads value +1", "setoption name Threads value 1e0",
                 "setoption name MultiPV value 0"]
        try:
            for text in cases:
                w.send(text)
                lines = w.sync(10.0)
                assert len(lines) == 1 and lines[0].startswith("error bad-argument "), \
                    f"{text!r}: expected one 'error bad-argument' line, got {lines[:4]!r}"
        except AssertionError:
            # An engine that executed the command may still be searching or
            # owe a readyok: leave the next checks a quiet line.
            w.send("stop")
            w.quiet(0.5)
            raise
        assert w.proc.poll() is None, "the engine exited on 'quit now'"
        self._position(w)
        w.send("legal")
        lines, _ = w.until(lambda s: s.startswith(("legal", "error")), 5.0)
        assert lines[-1].split()[1:] == self.legal, "position changed after refused commands"
        return f"{len(cases)} malformed commands refused"

    def pv_playable(self, w: Wire):
        """docs/protocol.md, go: the pv is "playable move by move on the view
        of the side to move ... so it never holds a `?`". Each pv of a search
        from the suite's position (a full history at the start of the game)
        is checked by sending the position with the pv appended."""
        self._position(w)
        w.send("go nodes 500")
        lines, _ = w.until(lambda s: s.startswith(("bestmove", "error")), 30.0)
        assert lines[-1].startswith("bestmove"), f"go refused: {lines[-1]}"
        pvs = [s.split(" pv ", 1)[1].split() for s in lines if s.startswith("info") and " pv " in s]
        assert pvs, "no pv in the info lines"
        for pv in pvs:
            assert "?" not in pv, f"pv holds an unseen event '?': {' '.join(pv)}"
            w.send("position startpos seed 1 moves " + " ".join(self.moves + pv))
            out = w.sync(5.0)
            assert not out, f"pv {' '.join(pv)!r} does not play from the position: {out[:1]!r}"
        self._position(w)
        w.sync(5.0)
        return f"{len(pvs)} pv lines played"

    def infinite_with_limits(self, w: Wire):
        """docs/protocol.md, go: "`go infinite` searches until `stop` ... it
        ignores every other limit given with it"."""
        self._position(w)
        w.send("go infinite nodes 1 depth 1 movetime 1")
        during = w.quiet(0.7)
        assert not any(s.startswith("bestmove") for s in during), \
            "go infinite nodes 1 depth 1 movetime 1 answered before stop"
        w.send("stop")
        lines, _ = w.until(lambda s: s.startswith("bestmove"), 5.0)
        assert not any(s.startswith("bestmove") for s in w.quiet(0.2)), "more than one bestmove"
        return "searched until stop"

    def clock_quarter(self, w: Wire):
        """docs/protocol.md, go: one decision spends "at most a quarter of the
        time left after `MoveOverhead` (also with `movestogo 1`)"."""
        self._position(w)
        sent = w.send("go wtime 4000 btime 4000 movestogo 1")
        lines, at = w.until(lambda s: s.startswith(("bestmove", "error")), 10.0)
        self._check_search_output(lines)
        took = at - sent
        assert took < 1.0 + 0.4, f"spent {took * 1000:.0f} ms of a 4000 ms clock with movestogo 1 (a quarter: 1000)"
        return f"{took * 1000:.0f} ms of 4000"

    def one_sided_clock(self, w: Wire):
        """docs/protocol.md, go: with no time left given for the side to move
        the engine searches as without a clock (here: a node budget)."""
        self._position(w)
        w.send("query tomove")
        lines, _ = w.until(lambda s: s.startswith(("tomove", "error")), 5.0)
        mover = lines[-1].split()[1]
        other = "btime" if mover == "0" else "wtime"
        for go in (f"go {other} 1000 nodes 200", "go winc 100 binc 100 nodes 200"):
            w.send(go)
            lines, _ = w.until(lambda s: s.startswith(("bestmove", "error")), 30.0)
            assert lines[-1].startswith("bestmove"), f"{go!r} refused: {lines[-1]}"
            self._check_search_output(lines)
        return "answered"

    def only_protocol_lines(self, w: Wire):
        assert not w.raw_problems, "; ".join(w.raw_problems[:3])


def run(command=None) -> Report:
    """Runs every check against `command` (a list or a shell-style string)."""
    if command is None:
        command = default_command()
    if isinstance(command, str):
        command = shlex.split(command)
    report = Report(list(command))
    suite = _Suite(list(command), report)
    try:
        w = Wire(suite.command)
    except OSError as exc:
        report.checks.append(Check("start engine", False, str(exc)))
        return report
    try:
        if not suite.check("handshake", lambda: suite.handshake(w)):
            return report
        suite.check("isready", lambda: suite.isready(w))
        if not suite.check("reach a decision node via legal", lambda: suite.reach_decision(w)):
            return report
        suite.check("one error per bad input", lambda: suite.bad_input(w))
        suite.check("go without position -> error", suite.go_without_position)
        suite.check("go nodes: info grammar, legal bestmove", lambda: suite.go_nodes(w))
        suite.check("readyok during search, stop < 100 ms", lambda: suite.ready_and_stop(w))
        suite.check("go at a bestmove: stop not lost", lambda: suite.go_at_bestmove(w))
        suite.check("go depth: prompt, always ends", lambda: suite.depth(w))
        suite.check("stop ends perft: partial", lambda: suite.stop_perft(w))
        suite.check("stop ends bench: partial", lambda: suite.stop_bench(w))
        suite.check("go movetime respected", lambda: suite.movetime(w))
        suite.check("clock: no time trouble", lambda: suite.clock(w))
        suite.check("clock: movestogo 1 spends <= 1/4", lambda: suite.clock_quarter(w))
        suite.check("clock: one-sided clocks", lambda: suite.one_sided_clock(w))
        suite.check("strict grammar: extra words, numbers", lambda: suite.strict_grammar(w))
        suite.check("pv: playable, no '?'", lambda: suite.pv_playable(w))
        suite.check("go infinite ignores other limits", lambda: suite.infinite_with_limits(w))
        suite.check("only ASCII protocol output", lambda: suite.only_protocol_lines(w))
        suite.check("quit while searching < 1 s", lambda: suite.quit_latency("quit"))
        suite.check("EOF while searching < 1 s", lambda: suite.quit_latency("eof"))
    finally:
        w.close()
    return report


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    report = run(argv or None)
    print(report.text())
    return 0 if report.passed else 1
