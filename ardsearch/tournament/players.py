"""Entrants at the table: an in-process bot or an engine process, and the
faults a game can end with.

A player lives as long as its worker: an engine process is started once and
pinned to the worker (restarted only after a fault), a bot is rebuilt for
each game with that game's seed so its play does not depend on which games
the worker happened to play before.
"""
from __future__ import annotations

import subprocess
import time

import ardsearch
from ardsearch.match import move_comments
from ardsearch.records import side_names
from ardsearch.tournament.entrants import Entrant, Limits

# How the games can end besides normally; each fault loses the game for the faulting side.
FAULTS = ("timeout", "crash", "illegal", "stall", "protocol")


class GameFault(Exception):
    """The side in `seat` broke the game: timeout, crash, illegal move, stall or protocol error."""

    def __init__(self, kind: str, seat: int, message: str):
        assert kind in FAULTS, kind
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.seat = seat
        self.message = message


class Clock:
    """One seat's clock under `tc`; None when the entrant plays without one."""

    def __init__(self, limits: Limits):
        self.tc = limits.tc
        self.remaining = limits.tc.base if limits.tc else None

    def charge(self, seconds: float) -> bool:
        """Charges one decision; False when the flag fell."""
        if self.tc is None:
            return True
        self.remaining -= seconds
        if self.remaining < 0:
            return False
        self.remaining += self.tc.increment
        return True

    def budget(self) -> float | None:
        """Seconds to spend on this decision (a simple allocation for in-process bots)."""
        if self.tc is None:
            return None
        return max(0.001, min(self.remaining * 0.5, self.remaining / 30 + self.tc.increment * 0.8))


class BotPlayer:
    """A bot preset, rebuilt for every game with that game's seed."""

    def __init__(self, entrant: Entrant):
        self.entrant = entrant
        self.bot = None

    def new_game(self, game, seat: int, seed: int) -> None:
        try:
            self.bot = ardsearch.load_bot(self.entrant.preset, game, seed=seed, **self.entrant.options)
        except Exception as exc:
            raise GameFault("crash", seat, f"bot {self.entrant.preset!r} could not be built: {exc}") from exc
        self._apply_limits(self.entrant.limits)

    def _apply_limits(self, limits: Limits) -> None:
        # Limits map onto the search budget attributes the bot reads at each
        # search. A node budget alone drops the preset's time limit, so the
        # game is reproducible on any machine.
        bot = self.bot
        node_attr = "simulations" if hasattr(bot, "simulations") else "nodes" if hasattr(bot, "nodes") else None
        if limits.nodes is not None and node_attr:
            setattr(bot, node_attr, limits.nodes)
            if limits.movetime is None and limits.tc is None and hasattr(bot, "time_limit"):
                bot.time_limit = None
        if limits.movetime is not None and hasattr(bot, "time_limit"):
            bot.time_limit = limits.movetime
        if limits.depth is not None and hasattr(bot, "depth"):
            bot.depth = limits.depth
        if limits.clock is not None and hasattr(bot, "clock"):
            bot.clock = limits.clock   # what its time limit counts (movetime's clock)

    def decide(self, state, seat: int, clocks) -> tuple[int, dict]:
        budget = clocks[seat].budget()
        if budget is not None and hasattr(self.bot, "time_limit"):
            self.bot.time_limit = budget
        legal = state.legal_actions()
        try:
            if len(legal) == 1:   # a forced move needs no search (as Bot.step does)
                return legal[0], {"nodes": 0}
            info = self.bot.analyze(state)
            action = info["best"]
        except Exception as exc:
            raise GameFault("crash", seat, f"bot raised {type(exc).__name__}: {exc}") from exc
        if action not in legal:
            raise GameFault("illegal", seat, f"bot chose action {action!r}, which is not legal here")
        return action, move_comments(info)

    def close(self) -> None:
        self.bot = None


class EnginePlayer:
    """An external engine process, started on first use and after each fault."""

    def __init__(self, entrant: Entrant, timeout: float):
        self.entrant = entrant
        self.timeout = timeout
        self.engine = None

    def _start(self, seat: int):
        self._guard(seat, "start", lambda: self._popen())
        if self.entrant.options:
            self._guard(seat, "setoption", lambda: self.engine.configure(self.entrant.options))
        if self.entrant.limits.clock is not None:   # what `go movetime` counts (docs/protocol.md, Clock)
            self._guard(seat, "setoption", lambda: self.engine.configure({"Clock": self.entrant.limits.clock}))

    def _popen(self):
        from ardsearch.protocol.client import Engine
        self.engine = Engine.popen(list(self.entrant.command), timeout=self.timeout, stderr=subprocess.DEVNULL)

    def new_game(self, game, seat: int, seed: int) -> None:
        # A fault dropped the engine (or it died between games): start a fresh process.
        if self.engine is not None and self.engine.process.poll() is not None:
            self.close(graceful=False)
        if self.engine is None:
            self._start(seat)
        self._guard(seat, "newgame", lambda: self.engine.new_game(game.name, **game.params))

    def decide(self, state, seat: int, clocks) -> tuple[int, dict]:
        from ardsearch.protocol.client import Limit
        # isready first: an engine that no longer answers it has stalled, which is
        # a different fault from a search that runs over its time.
        self._guard(seat, "isready", lambda: self.engine.ping(), timeout_kind="stall")
        lim = self.entrant.limits
        limit = Limit(nodes=lim.nodes, time=lim.movetime, depth=lim.depth,
                      clocks=None if lim.tc is None else tuple(c.remaining if c.remaining is not None
                                                               else lim.tc.base for c in clocks),
                      increments=None if lim.tc is None else (lim.tc.increment, lim.tc.increment))
        info = self._guard(seat, "go", lambda: self.engine.analyse(state, limit), timeout_kind="timeout")
        move = info.get("bestmove", "")
        try:
            action = state.string_to_action(move)
        except ValueError:
            self.close(graceful=False)
            raise GameFault("illegal", seat, f"engine played {move[:40]!r}, which is not notation of this game") from None
        if action not in state.legal_actions():
            self.close(graceful=False)
            raise GameFault("illegal", seat, f"engine played the illegal move {move!r}")
        comments = {"nodes": info.get("nodes"), "wp": info.get("wp"), "depth": info.get("depth")}
        if info.get("pv"):
            comments["pv"] = list(info["pv"]) if not isinstance(info["pv"], str) else info["pv"].split()
        return action, comments

    def _guard(self, seat: int, what: str, call, timeout_kind: str = "stall"):
        """Runs one conversation step, turning engine errors into faults (and
        dropping the engine so the next game starts a fresh process)."""
        from ardsearch.protocol.client import EngineError, EngineTerminatedError, EngineTimeoutError
        try:
            return call()
        except EngineTimeoutError as exc:
            kind, message = timeout_kind, f"no answer to {what} in time ({exc})"
        except EngineTerminatedError as exc:
            kind, message = "crash", f"engine died during {what}: {exc}"
        except EngineError as exc:
            kind, message = "protocol", f"during {what}: {exc}"
        self.close(graceful=False)
        raise GameFault(kind, seat, message)

    def close(self, graceful: bool = True) -> None:
        """Stops the engine: `quit` first when it is healthy, a kill after a fault."""
        if self.engine is not None:
            try:
                if graceful:
                    self.engine.quit(timeout=1.0)
                else:
                    self.engine.close()
            except Exception:
                self.engine.close()
            self.engine = None


class Seat:
    """A player in one seat of one game, as match.play_game sees a bot: it
    charges the clock and logs every decision with its time and nodes."""

    def __init__(self, player, seat: int, clocks, log: list):
        self.player = player
        self.seat = seat
        self.clocks = clocks
        self.log = log
        self.name = player.entrant.name

    def reset(self) -> None:
        pass

    def step(self, state) -> int:
        t0 = time.perf_counter()
        action, info = self.player.decide(state, self.seat, self.clocks)
        spent = time.perf_counter() - t0
        if not self.clocks[self.seat].charge(spent):
            raise GameFault("timeout", self.seat, f"lost on time ({spent:.3f}s spent with "
                                                  f"{self.clocks[self.seat].remaining + spent:.3f}s left)")
        entry = {"side": side_names(state.game)[self.seat], "player": self.seat,
                 "move": state.action_to_string(action), "time": round(spent, 4)}
        for key, value in info.items():     # the move's comments (docs/records.md)
            if value is not None:
                entry.setdefault(key, value)
        self.log.append(entry)
        return action
