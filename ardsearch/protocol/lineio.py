"""Byte-level line reading and line-safe writing for the text protocol.

The engine must survive anything on stdin: binary garbage, lines of many
megabytes, a stream that ends in the middle of a line. Reading text with
Python's io layer would raise on bad encodings and buffer unbounded lines,
so lines are cut from raw bytes here and decoded one at a time.
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass

# Longest accepted command line, in bytes (the newline excluded).
MAX_LINE = 1 << 20
_CHUNK = 1 << 16


@dataclass(frozen=True)
class Line:
    """One input line: its text, or why it has none.

    ``problem`` is None for a good line; otherwise ``text`` is empty and
    ``problem`` says what was wrong (the engine answers it with one error).
    """

    text: str
    problem: str | None = None


def decode_line(raw: bytes) -> Line:
    """Bytes of one line (no newline) -> a Line; CR and NUL never pass through."""
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError as exc:
        return Line("", f"line is not ASCII (byte 0x{raw[exc.start]:02x} at column {exc.start + 1})")
    if any(ord(c) < 32 and c != "\t" or ord(c) == 127 for c in text):
        bad = next(c for c in text if ord(c) < 32 and c != "\t" or ord(c) == 127)
        return Line("", f"line holds the control character 0x{ord(bad):02x}")
    return Line(text)


class LineReader:
    """Reads Lines from a file descriptor without ever holding more than
    MAX_LINE bytes of one line. An oversized line yields exactly one Line with
    a problem, and the rest of it (up to its newline) is discarded. A final
    line without a newline is still delivered before EOF.

    `source` is a file descriptor, or a stream without one (io.StringIO, a
    wrapped socket...): it is read in chunks of at most 64 KiB through
    `read1` or `read`, text encoded as UTF-8 (so non-ASCII is reported)."""

    def __init__(self, source, max_line: int = MAX_LINE):
        if isinstance(source, int):
            self._read = lambda: os.read(source, _CHUNK)
        else:
            self._read = _chunk_reader(source)
        self._max = max_line
        self._buf = bytearray()
        self._discarding = False
        self._eof = False

    def read_line(self) -> Line | None:
        """The next line, or None at end of input."""
        while True:
            nl = self._buf.find(b"\n")
            if nl >= 0:
                raw = bytes(self._buf[:nl])
                del self._buf[: nl + 1]
                if self._discarding:
                    self._discarding = False
                    continue
                if len(raw) > self._max:
                    return Line("", f"line too long ({len(raw)} bytes; the limit is {self._max})")
                return decode_line(raw)
            if self._discarding:
                self._buf.clear()
            elif len(self._buf) > self._max:
                self._buf.clear()
                self._discarding = True
                return Line("", f"line too long (over {self._max} bytes); discarded up to its newline")
            if self._eof:
                if self._buf and not self._discarding:
                    raw = bytes(self._buf)
                    self._buf.clear()
                    return decode_line(raw)
                return None
            try:
                chunk = self._read()
            except InterruptedError:
                continue
            except (OSError, ValueError):
                chunk = b""
            if not chunk:
                self._eof = True
            else:
                self._buf += chunk


def _chunk_reader(stream):
    """A function reading at most _CHUNK bytes of `stream` per call (b"" at EOF)."""
    read = getattr(stream, "read1", None) or stream.read

    def chunk() -> bytes:
        data = read(_CHUNK)
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogateescape")
        return data or b""

    return chunk


def line_reader_for(stream) -> LineReader:
    """A LineReader over a stream of the `sys.stdin` kind: its file descriptor
    when it has one (nothing read through the stream yet), else the stream."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return LineReader(stream)
    return LineReader(fd)


class LineWriter:
    """Writes whole lines to a binary stream under a lock, flushing each, so
    the search thread and the command loop never interleave output. After the
    reader has gone away (broken pipe) writes are dropped silently."""

    def __init__(self, stream):
        self._stream = stream
        self._lock = threading.Lock()
        self.closed = False

    def write(self, line: str) -> None:
        data = (line + "\n").encode("ascii", "replace")
        with self._lock:
            if self.closed:
                return
            try:
                self._stream.write(data)
                self._stream.flush()
            except (BrokenPipeError, OSError, ValueError):
                self.closed = True

    def close(self) -> None:
        with self._lock:
            self.closed = True
