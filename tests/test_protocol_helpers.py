"""Shared helpers for the protocol tests: an in-process engine with captured
output, and the command line of our engine as a child process."""
from __future__ import annotations

import os
import sys
import threading

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENGINE_CMD = [sys.executable, "-m", "ardsearch.protocol"]
FAULTY = os.path.join(ROOT, "tests", "engines", "faulty.py")


def faulty_cmd(mode: str) -> list[str]:
    return [sys.executable, FAULTY, mode]


def engine_env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    return env


def require_search():
    """Skips when the game or the search extension is not built."""
    try:
        import ardsearch
        from ardsearch import _search  # noqa: F401

        ardsearch.load_game("ardennes")
    except Exception as exc:  # pragma: no cover - depends on the build
        pytest.skip(f"ardennes or the search extension is not built: {exc}")


def recording_engine(timeout: float = 30):
    """A module-scoped pytest fixture: our engine as a child process (seed 3)
    that keeps every line sent to it in `.sent`, for the tests that check what
    a client tells each seat's engine (masked histories)."""
    from ardsearch.protocol.client import Engine

    class Recording(Engine):
        def _write(self, text):
            self.sent = getattr(self, "sent", []) + [text]
            super()._write(text)

    @pytest.fixture(scope="module")
    def engine():
        require_search()
        with Recording.popen(ENGINE_CMD, timeout=timeout, env=engine_env()) as e:
            e.configure({"Seed": 3})
            yield e

    return engine


class Captured:
    """A LineWriter stand-in that keeps the lines."""

    def __init__(self):
        self.lines: list[str] = []
        self.closed = False
        self._lock = threading.Lock()

    def write(self, line: str) -> None:
        with self._lock:
            self.lines.append(line)

    def close(self) -> None:
        self.closed = True

    def take(self) -> list[str]:
        with self._lock:
            out, self.lines = self.lines, []
        return out


class InProcess:
    """An EngineServer driven line by line; run() returns what each command printed."""

    def __init__(self):
        from ardsearch.protocol.engine import EngineServer

        self.out = Captured()
        self.server = EngineServer(self.out)

    def send(self, text: str | bytes) -> bool:
        from ardsearch.protocol.lineio import decode_line

        line = decode_line(text if isinstance(text, bytes) else text.encode("ascii"))
        return self.server.handle(line)

    def run(self, *commands, wait: bool = True) -> list[str]:
        for c in commands:
            self.send(c)
        if wait:
            assert self.server.wait_job(60), "job did not finish"
        return self.out.take()

    def errors(self, text) -> list[str]:
        return [s for s in self.run(text) if s.startswith("error ")]


BOOK_INFO = "info string book move: the game's book (its RULES.md), not a search"


def go_book_move(engine: InProcess, go: str, bestmove: str) -> list[str]:
    """Runs `go` on an engine whose position is in the game's book: the answer
    is `bestmove` with the book's info line (docs/protocol.md). Returns the output."""
    out = engine.run(go)
    assert out[-1] == f"bestmove {bestmove}", out
    assert BOOK_INFO in out, out
    return out
