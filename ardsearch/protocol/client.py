"""Drive any engine that speaks the ardsearch protocol.

    from ardsearch.protocol.client import Engine, Limit
    with Engine.popen(["ardsearch", "engine"]) as engine:
        engine.new_game("ardennes", variant="basic")
        result = engine.play(state, Limit(nodes=2000))
        state.apply_action(result.action)

    async with await AsyncEngine.popen(["ardsearch", "engine"]) as engine:
        result = await engine.play(state, Limit(time=0.5))

The client is the referee's side: it owns the real State with all its
randomness and hidden information, and for each go it sends the seat to move
only that seat's view of the history (`?` for every event the seat did not
see). Every call has a timeout; a dead, silent or lying engine raises
EngineTerminatedError, EngineTimeoutError or EngineError instead of hanging.

The conversation logic is written once, as generators that yield ("send",
line) and ("recv", deadline) requests; the sync and asyncio drivers only
move lines.
"""
from __future__ import annotations

import asyncio
import queue
import shlex
import subprocess
import threading
import time
from dataclasses import dataclass, field

from ardsearch.protocol.words import from_word, to_word

DEFAULT_TIMEOUT = 10.0
# Extra seconds granted to a timed search before a bestmove is overdue.
SEARCH_SLACK = 5.0


class EngineError(RuntimeError):
    """The engine answered with an error or broke the protocol."""


class EngineTerminatedError(EngineError):
    """The engine process ended (crashed or quit) while we needed it."""


class EngineTimeoutError(EngineError, TimeoutError):
    """The engine did not answer in time."""


@dataclass(frozen=True)
class Limit:
    """When a search stops: any of time (seconds per decision), nodes, depth,
    iterations; or a clock: remaining seconds per seat and increments."""

    time: float | None = None
    nodes: int | None = None
    depth: int | None = None
    iterations: int | None = None
    clocks: tuple[float, float] | None = None
    increments: tuple[float, float] | None = None
    movestogo: int | None = None

    def go_args(self) -> list[str]:
        args = []
        if self.nodes is not None:
            args += ["nodes", str(int(self.nodes))]
        if self.iterations is not None:
            args += ["iterations", str(int(self.iterations))]
        if self.depth is not None:
            args += ["depth", str(int(self.depth))]
        if self.time is not None:
            # movetime is at least 1 ms (docs/protocol.md, Grammar: posint).
            args += ["movetime", str(max(1, int(round(self.time * 1000))))]
        if self.clocks is not None:
            # A clock that ran past zero is sent as 0: times are unsigned.
            ms = [str(max(0, int(c * 1000))) for c in self.clocks]
            args += ["wtime", ms[0], "btime", ms[1]]
            inc = self.increments or (0.0, 0.0)
            args += ["winc", str(max(0, int(inc[0] * 1000))), "binc", str(max(0, int(inc[1] * 1000)))]
        if self.movestogo is not None:
            args += ["movestogo", str(int(self.movestogo))]
        return args

    def expected_seconds(self) -> float | None:
        """Longest a search under this limit should take, if it says."""
        if self.time is not None:
            return self.time
        if self.clocks is not None:
            return max(self.clocks)
        return None


@dataclass
class Option:
    name: str
    type: str
    default: str
    min: int | None = None
    max: int | None = None
    vars: list[str] = field(default_factory=list)


@dataclass
class PlayResult:
    action: int   # the engine's choice as an action of the state
    move: str     # the same in notation
    info: dict    # the last info line(s): depth, nodes, nps, time, wp, pv, actions


def parse_info(tokens: list[str], info: dict) -> None:
    """Merges one `info ...` line (tokens after `info`) into info."""
    if tokens[:1] == ["string"]:
        info.setdefault("string", []).append(" ".join(tokens[1:]))
        return
    if tokens[:1] == ["action"] and len(tokens) >= 6:
        try:
            info.setdefault("actions", {})[from_word(tokens[1])] = {"visits": int(tokens[3]), "value": float(tokens[5])}
        except ValueError:
            pass
        return
    i = 0
    while i < len(tokens):
        key = tokens[i]
        if key == "pv":
            info["pv"] = [from_word(t) for t in tokens[i + 1:]]
            return
        if i + 1 < len(tokens):
            value = tokens[i + 1]
            try:
                if key in ("depth", "seldepth", "nodes", "nps", "multipv", "tree", "hashfull"):
                    info[key] = int(value)
                elif key == "time":
                    info["time"] = int(value) / 1000.0
                elif key == "wp":
                    info["wp"] = float(value)
                else:
                    info[key] = value
            except ValueError:
                pass
        i += 2


def _position_line(state, seat: int, seed: int) -> str:
    events = state.masked_history(seat)
    line = f"position startpos seed {seed}"
    return line + (" moves " + " ".join(to_word(e) for e in events) if events else "")


class _Deadline(float):
    """A time.monotonic() deadline that remembers the budget it was set
    from, so a timeout can say which budget ran out."""
    budget: float

    def __new__(cls, budget: float):
        d = super().__new__(cls, time.monotonic() + budget)
        d.budget = budget
        return d


def _timed_out(deadline) -> EngineTimeoutError:
    budget = getattr(deadline, "budget", None)
    within = f" within {budget:g} s" if budget is not None else " in time"
    return EngineTimeoutError(f"engine did not answer{within}: it may be hung or too slow for this "
                              f"machine; pass a larger timeout (Engine.popen(..., timeout=...) or "
                              f"the call's timeout=)")


class _Protocol:
    """The conversation, independent of how lines travel."""

    def __init__(self, timeout: float):
        self.timeout = timeout
        self.id: dict[str, str] = {}
        self.games: dict[str, str] = {}
        self.options: dict[str, Option] = {}
        self.protocol_version: int | None = None
        self._game_key = None  # (name, params) last sent with newgame

    # Each conversation yields ("send", text) or ("recv", deadline); a recv
    # gets the next line back (str).
    def _deadline(self, timeout):
        return _Deadline(self.timeout if timeout is None else timeout)

    def _handshake(self, timeout=None):
        deadline = self._deadline(timeout)
        yield ("send", "ard")
        while True:
            line = yield ("recv", deadline)
            tokens = line.split()
            if not tokens:
                continue
            head = tokens[0]
            if head == "ardok":
                break
            if head == "id" and len(tokens) >= 2:
                self.id[tokens[1]] = " ".join(tokens[2:])
            elif head == "protocol" and len(tokens) == 2 and tokens[1].isdigit():
                self.protocol_version = int(tokens[1])
            elif head == "game" and len(tokens) == 3:
                self.games[tokens[1]] = tokens[2]
            elif head == "option":
                opt = _parse_option(tokens)
                if opt is not None:
                    self.options[opt.name] = opt
            elif head == "error":
                raise EngineError(f"engine refused the handshake: {line}")
        if self.protocol_version is None:
            raise EngineError("engine did not say which protocol it speaks (no 'protocol <n>' line)")

    def _ping(self, timeout=None):
        """isready/readyok; returns the error lines seen before readyok."""
        deadline = self._deadline(timeout)
        yield ("send", "isready")
        errors = []
        while True:
            line = yield ("recv", deadline)
            if line == "readyok":
                return errors
            if line.startswith("error "):
                errors.append(line)

    def _command(self, text, timeout=None):
        """Sends a command that has no reply and checks for its error."""
        yield ("send", text)
        errors = yield from self._ping(timeout)
        if errors:
            raise EngineError(f"engine refused {text[:80]!r}: {errors[0]}")

    def _configure(self, options: dict, timeout=None):
        for name, value in options.items():
            if self.options and name not in self.options:
                raise EngineError(f"engine has no option {name!r} (it has: {', '.join(self.options)})")
            if isinstance(value, bool):
                value = "true" if value else "false"
            yield from self._command(f"setoption name {name} value {value}", timeout)

    def _new_game(self, game: str, params: dict, timeout=None):
        if self.games and game.split("(")[0] not in self.games:
            raise EngineError(f"engine does not offer game {game!r} (it offers: {', '.join(self.games)})")
        words = ["newgame", game] + [f"{k}={_param_text(v)}" for k, v in params.items()]
        yield from self._command(" ".join(words), timeout)
        self._game_key = (game, tuple(sorted((k, _param_text(v)) for k, v in params.items())))

    def _ensure_game(self, state, timeout):
        game = getattr(state, "game", None)
        if game is None:
            if self._game_key is None:
                raise EngineError("call new_game() first: this state does not say its game")
            return
        params = dict(getattr(game, "params", {}) or {})
        key = (game.name, tuple(sorted((k, _param_text(v)) for k, v in params.items())))
        if key != self._game_key:
            yield from self._new_game(game.name, params, timeout)

    def _go(self, state, limit: Limit, seed, timeout, searchactions=None):
        """Sends the seat's position and go; returns (bestmove, info)."""
        if state.is_terminal() or state.is_chance_node():
            raise EngineError("play/analyse need a decision node (the referee applies chance outcomes)")
        yield from self._ensure_game(state, timeout)
        seed = getattr(state, "seed", None) if seed is None else seed
        if seed is None:
            raise EngineError("the state does not carry its seed: pass seed= (the one given to new_initial_state)")
        seat = state.current_player()
        yield from self._command(_position_line(state, seat, int(seed)), timeout)
        words = ["go"] + limit.go_args()
        if searchactions:
            words += ["searchactions"] + [to_word(state.action_to_string(a) if isinstance(a, int) else str(a))
                                          for a in searchactions]
        expected = limit.expected_seconds()
        budget = (self.timeout if timeout is None else timeout) + (expected or 0.0) + \
            (SEARCH_SLACK if expected is not None else 0.0)
        deadline = _Deadline(budget)
        yield ("send", " ".join(words))
        info: dict = {}
        while True:
            line = yield ("recv", deadline)
            tokens = line.split()
            if not tokens:
                continue
            if tokens[0] == "info":
                parse_info(tokens[1:], info)
            elif tokens[0] == "bestmove":
                if len(tokens) < 2:
                    raise EngineError(f"malformed bestmove line: {line!r}")
                return from_word(tokens[1]), info
            elif tokens[0] == "error":
                raise EngineError(f"engine refused {' '.join(words)[:80]!r}: {line}")

    def _play(self, state, limit, seed=None, timeout=None):
        move, info = yield from self._go(state, limit, seed, timeout)
        try:
            action = state.string_to_action(move)
        except ValueError:
            raise EngineError(f"engine played {move[:40]!r}, which is not notation of this game") from None
        if action not in state.legal_actions():
            raise EngineError(f"engine played the illegal move {move!r}")
        return PlayResult(action, move, info)

    def _analyse(self, state, limit, seed=None, timeout=None, searchactions=None):
        move, info = yield from self._go(state, limit, seed, timeout, searchactions)
        info["bestmove"] = move
        return info


def _param_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _parse_option(tokens: list[str]) -> Option | None:
    try:
        name = tokens[tokens.index("name") + 1]
        opt = Option(name, tokens[tokens.index("type") + 1], "")
        if "default" in tokens:
            opt.default = tokens[tokens.index("default") + 1]
        if "min" in tokens:
            opt.min = int(tokens[tokens.index("min") + 1])
        if "max" in tokens:
            opt.max = int(tokens[tokens.index("max") + 1])
        opt.vars = [tokens[i + 1] for i, t in enumerate(tokens[:-1]) if t == "var"]
        return opt
    except (ValueError, IndexError):
        return None


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("ascii").rstrip("\r\n")
    except UnicodeDecodeError:
        raise EngineError(f"engine sent a line that is not ASCII: {raw[:60]!r}") from None


class Engine(_Protocol):
    """A synchronous engine in a child process. Use Engine.popen(cmd)."""

    def __init__(self, process: subprocess.Popen, timeout: float):
        super().__init__(timeout)
        self.process = process
        self._lines: queue.Queue = queue.Queue()
        self._reader = threading.Thread(target=self._read_loop, daemon=True, name="ardsearch-client-reader")
        self._reader.start()

    @classmethod
    def popen(cls, command, timeout: float = DEFAULT_TIMEOUT, stderr=None, **popen_args) -> Engine:
        """Starts the engine and does the handshake (within `timeout` seconds)."""
        if isinstance(command, str):
            command = shlex.split(command)
        try:
            process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=stderr, bufsize=0, **popen_args)
        except OSError as exc:
            raise EngineTerminatedError(f"cannot start engine {command!r}: {exc}") from None
        engine = cls(process, timeout)
        try:
            engine._run(engine._handshake(timeout))
        except BaseException:
            engine.close()
            raise
        return engine

    def _read_loop(self):
        stream = self.process.stdout
        while True:
            try:
                raw = stream.readline()
            except (OSError, ValueError):
                raw = b""
            if not raw:
                self._lines.put(None)
                return
            self._lines.put(raw)

    def _run(self, conversation):
        try:
            request = next(conversation)
            while True:
                kind, arg = request
                if kind == "send":
                    self._write(arg)
                    request = conversation.send(None)
                else:
                    request = conversation.send(self._readline(arg))
        except StopIteration as stop:
            return stop.value

    def _write(self, text: str) -> None:
        if self.process.poll() is not None:
            raise EngineTerminatedError(f"engine exited with status {self.process.returncode}")
        try:
            self.process.stdin.write((text + "\n").encode("ascii"))
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise EngineTerminatedError("engine closed its input (it has probably exited)") from None

    def _readline(self, deadline: float) -> str:
        remaining = deadline - time.monotonic()
        try:
            raw = self._lines.get(timeout=max(0.0, remaining))
        except queue.Empty:
            raise _timed_out(deadline) from None
        if raw is None:
            self._lines.put(None)  # stay terminated for later calls
            try:
                status = self.process.wait(1.0)
            except subprocess.TimeoutExpired:
                status = None
            raise EngineTerminatedError(f"engine ended its output (exit status {status})")
        return _decode(raw)

    # ---- public API ------------------------------------------------------
    def ping(self, timeout: float | None = None) -> None:
        errors = self._run(self._ping(timeout))
        if errors:
            raise EngineError(errors[0])

    def configure(self, options: dict, timeout: float | None = None) -> None:
        self._run(self._configure(options, timeout))

    def new_game(self, game: str, timeout: float | None = None, **params) -> None:
        self._run(self._new_game(game, params, timeout))

    def play(self, state, limit: Limit, *, seed: int | None = None, timeout: float | None = None) -> PlayResult:
        return self._run(self._play(state, limit, seed, timeout))

    def analyse(self, state, limit: Limit, *, seed: int | None = None, timeout: float | None = None,
                searchactions=None) -> dict:
        return self._run(self._analyse(state, limit, seed, timeout, searchactions))

    def send_line(self, text: str) -> None:
        """Sends a raw command (for helpers such as `d` or `perft`)."""
        self._write(text)

    def quit(self, timeout: float | None = None) -> int:
        """Asks the engine to quit; kills it if it does not within timeout. Returns its exit status."""
        if self.process.poll() is None:
            try:
                self._write("quit")
            except EngineTerminatedError:
                pass
            try:
                self.process.wait(self.timeout if timeout is None else timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.close()
        return self.process.returncode

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc) -> None:
        try:
            self.quit(timeout=2.0)
        except EngineError:
            self.close()


class AsyncEngine(_Protocol):
    """The asyncio twin of Engine: `engine = await AsyncEngine.popen(cmd)`."""

    def __init__(self, process: asyncio.subprocess.Process, timeout: float):
        super().__init__(timeout)
        self.process = process

    @classmethod
    async def popen(cls, command, timeout: float = DEFAULT_TIMEOUT, stderr=None, **popen_args) -> AsyncEngine:
        if isinstance(command, str):
            command = shlex.split(command)
        try:
            process = await asyncio.create_subprocess_exec(
                *command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=stderr,
                limit=1 << 21, **popen_args)
        except OSError as exc:
            raise EngineTerminatedError(f"cannot start engine {command!r}: {exc}") from None
        engine = cls(process, timeout)
        try:
            await engine._run(engine._handshake(timeout))
        except BaseException:
            await engine.close()
            raise
        return engine

    async def _run(self, conversation):
        try:
            request = next(conversation)
            while True:
                kind, arg = request
                if kind == "send":
                    await self._write(arg)
                    request = conversation.send(None)
                else:
                    request = conversation.send(await self._readline(arg))
        except StopIteration as stop:
            return stop.value

    async def _write(self, text: str) -> None:
        if self.process.returncode is not None:
            raise EngineTerminatedError(f"engine exited with status {self.process.returncode}")
        try:
            self.process.stdin.write((text + "\n").encode("ascii"))
            await self.process.stdin.drain()
        except (BrokenPipeError, ConnectionResetError, OSError):
            raise EngineTerminatedError("engine closed its input (it has probably exited)") from None

    async def _readline(self, deadline: float) -> str:
        remaining = max(0.0, deadline - time.monotonic())
        try:
            raw = await asyncio.wait_for(self.process.stdout.readline(), remaining)
        except asyncio.TimeoutError:
            raise _timed_out(deadline) from None
        except (ValueError, asyncio.LimitOverrunError):
            raise EngineError("engine sent an overlong line") from None
        if not raw:
            try:
                status = await asyncio.wait_for(self.process.wait(), 1.0)
            except asyncio.TimeoutError:
                status = None
            raise EngineTerminatedError(f"engine ended its output (exit status {status})")
        return _decode(raw)

    async def ping(self, timeout: float | None = None) -> None:
        errors = await self._run(self._ping(timeout))
        if errors:
            raise EngineError(errors[0])

    async def configure(self, options: dict, timeout: float | None = None) -> None:
        await self._run(self._configure(options, timeout))

    async def new_game(self, game: str, timeout: float | None = None, **params) -> None:
        await self._run(self._new_game(game, params, timeout))

    async def play(self, state, limit: Limit, *, seed: int | None = None,
                   timeout: float | None = None) -> PlayResult:
        return await self._run(self._play(state, limit, seed, timeout))

    async def analyse(self, state, limit: Limit, *, seed: int | None = None, timeout: float | None = None,
                      searchactions=None) -> dict:
        return await self._run(self._analyse(state, limit, seed, timeout, searchactions))

    async def quit(self, timeout: float | None = None) -> int:
        if self.process.returncode is None:
            try:
                await self._write("quit")
            except EngineTerminatedError:
                pass
            try:
                await asyncio.wait_for(self.process.wait(), self.timeout if timeout is None else timeout)
            except asyncio.TimeoutError:
                self.process.kill()
                await self.process.wait()
        await self.close()
        return self.process.returncode

    async def close(self) -> None:
        if self.process.returncode is None:
            self.process.kill()
            await self.process.wait()
        if self.process.stdin is not None:
            self.process.stdin.close()

    async def __aenter__(self) -> AsyncEngine:
        return self

    async def __aexit__(self, *exc) -> None:
        try:
            await self.quit(timeout=2.0)
        except EngineError:
            await self.close()
