"""The results file (one JSON line per game) and the resume state file.

Write order makes an interruption at any instant safe: a game's line is
appended and fsynced to `results.jsonl` first, then `results.jsonl.state`
is replaced atomically (write a temporary file, rename) with the list of
finished games. On resume, only games listed in the state file count; a
line written after the last state update or cut short by a kill is dropped
and its game is played again (with the same seed, so to the same result).
"""
from __future__ import annotations

import gzip
import json
import os
import zlib
from pathlib import Path

from ardsearch.tournament.config import TournamentConfig

STATE_VERSION = 1


def state_path(results: Path) -> Path:
    return results.with_name(results.name + ".state")


def check_output_file(path, option: str = "--out") -> None:
    """ValueError, before anything is written, unless `path` can be written as
    a file: not a folder, in a folder that exists (not under a file) and that
    this process may write. The message says what to do instead."""
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"{option} {path} is a folder, not a file: give a file path such as "
                         f"{path / 'results.jsonl'}")
    folder = path.parent
    if not folder.is_dir():
        up = folder
        while not up.exists() and up != up.parent:
            up = up.parent
        if up.exists() and not up.is_dir():
            raise ValueError(f"{option} {path} is under {up}, which is a file, not a folder: "
                             f"choose another {option}")
        raise ValueError(f"{option} {path}: folder {folder} does not exist: create it first "
                         f"(mkdir -p {folder}) or choose another {option}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(f"{option} {path}: folder {folder} is not writable: choose another {option}")
    if path.exists() and not os.access(path, os.W_OK):
        raise ValueError(f"{option} {path} is not writable: choose another {option}")


def _replace_atomically(path: Path, write) -> None:
    """Writes a temporary file next to `path` with write(f), fsyncs it and
    renames it over `path`; on any failure the temporary file is removed."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "w") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise


def read_results(path) -> list[dict]:
    """Every complete game record of a results file, in file order; a torn
    last line (a killed writer) is ignored, any other bad line is an error.
    A name ending in .gz is read gzipped (bench/ keeps its records so)."""
    path = Path(path)
    try:
        if path.suffix == ".gz":
            text = gzip.decompress(path.read_bytes()).decode()
        else:
            text = path.read_text()
    except OSError as exc:
        raise ValueError(f"cannot read results file {path}: {exc.strerror or exc}") from None
    except (EOFError, zlib.error, UnicodeDecodeError) as exc:   # a truncated or corrupt .gz, or binary data
        raise ValueError(f"cannot read results file {path}: {exc}") from None
    records = []
    lines = text.split("\n")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            if number == len(lines):   # the unterminated last line of an interrupted write
                break
            raise ValueError(f"{path}:{number}: not a JSON game record") from None
        if not isinstance(record, dict) or "index" not in record:
            hint = (": this is a resume state file; pass the results file beside it"
                    if path.name.endswith(".state") else "")
            raise ValueError(f"{path}:{number}: not a game record (no 'index'){hint}")
        records.append(record)
    return records


class ResultsWriter:
    """Appends game records and keeps the state file in step."""

    def __init__(self, path, config: TournamentConfig, records: list[dict]):
        self.path = Path(path)
        self.state = state_path(self.path)
        self.config = config
        self.done = sorted(r["index"] for r in records)

        # Rewrite the file with exactly the records that count, in index order.
        def write(f):
            for r in sorted(records, key=lambda r: r["index"]):
                f.write(json.dumps(r, separators=(",", ":")) + "\n")

        _replace_atomically(self.path, write)
        self._file = open(self.path, "a")
        self._write_state(finished=False)

    def add(self, record: dict) -> None:
        self._file.write(json.dumps(record, separators=(",", ":")) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())
        self.done.append(record["index"])
        self._write_state(finished=False)

    def finish(self, summary: dict | None = None) -> None:
        self._write_state(finished=True, summary=summary)
        self._file.close()

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()

    def _write_state(self, finished: bool, summary=None) -> None:
        data = {"version": STATE_VERSION, "config": self.config.to_json(),
                "done": sorted(self.done), "finished": finished}
        if summary is not None:
            data["summary"] = summary
        _replace_atomically(self.state, lambda f: json.dump(data, f))


def load_for_resume(path, config: TournamentConfig) -> list[dict]:
    """The finished games of an interrupted run of the same tournament."""
    path = Path(path)
    state = state_path(path)
    try:
        data = json.loads(state.read_text())
    except OSError:
        raise ValueError(f"cannot resume: no state file {state} (was {path} written by a tournament?)") from None
    except json.JSONDecodeError:
        raise ValueError(f"cannot resume: state file {state} is damaged") from None
    if data.get("version") != STATE_VERSION:
        raise ValueError(f"cannot resume: state file {state} has version {data.get('version')}, "
                         f"this ardsearch writes version {STATE_VERSION}")
    saved = TournamentConfig.from_json(data["config"])
    diff = saved.differences(config)
    if diff:
        raise ValueError(f"cannot resume {path}: it was started with other settings ({', '.join(diff)} differ); "
                         f"repeat the original arguments or write to a new --out")
    done = set(data["done"])
    by_index = {}
    if path.exists():
        for r in read_results(path):
            if r["index"] in done:
                by_index[r["index"]] = r
    missing = done - set(by_index)
    if missing:
        raise ValueError(f"cannot resume: {path} lacks {len(missing)} finished games listed in {state}")
    return [by_index[i] for i in sorted(by_index)]
