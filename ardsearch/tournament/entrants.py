"""Who plays: entrant specifications and how they are read from the command line.

An entrant is either a bot preset run in-process (`mcts`, `greedy`, ...) or an
external engine command that speaks the ardsearch protocol. Each has its own
limits (nodes, movetime, depth, a clock `tc=base+inc`, and `clock=wall|cpu`:
what movetime counts) and options (bot parameters for a preset, `setoption`
values for an engine).

    mcts-fast                       preset, named after itself
    fast=mcts-fast:simulations=200  preset under another name, with a bot parameter
    stock=python -m ardsearch.protocol     (--engine) an external engine

Entrants are plain data (picklable, JSON-ready) so they travel to worker
processes and Ray tasks unchanged and are stored in the resume state file.
"""
from __future__ import annotations

import re
import shlex
from dataclasses import asdict, dataclass, field

# Keys that are limits for any entrant; every other key is an option.
LIMIT_KEYS = ("nodes", "movetime", "depth", "tc", "clock")
# What movetime counts: wall time, or the searching thread's own CPU time
# (equal-time matches that stay equal on a loaded machine).
CLOCKS = ("wall", "cpu")
_NAME = re.compile(r"^[A-Za-z0-9_.+-]{1,40}$")


@dataclass(frozen=True)
class TimeControl:
    """A chess clock: `base` seconds per game for each seat plus `increment` per move."""
    base: float
    increment: float = 0.0

    @staticmethod
    def parse(text: str) -> TimeControl:
        base, plus, inc = str(text).partition("+")
        try:
            tc = TimeControl(float(base), float(inc) if plus else 0.0)
        except ValueError:
            raise ValueError(f"cannot read time control {text!r}: expected seconds[+increment], e.g. 10+0.1") from None
        if tc.base <= 0 or tc.increment < 0:
            raise ValueError(f"time control {text!r} needs a positive base and a non-negative increment")
        return tc

    def __str__(self):
        return f"{self.base:g}+{self.increment:g}"


@dataclass(frozen=True)
class Limits:
    """Per decision: nodes (simulations), movetime (seconds), depth; per game: a
    clock (tc); clock: what movetime counts, "wall" or "cpu" (None: wall)."""
    nodes: int | None = None
    movetime: float | None = None
    depth: int | None = None
    tc: TimeControl | None = None
    clock: str | None = None

    def merged_over(self, defaults: Limits) -> Limits:
        """These limits, with unset ones taken from `defaults`."""
        return Limits(*(mine if mine is not None else theirs
                        for mine, theirs in zip(self._values(), defaults._values())))

    def _values(self):
        return (self.nodes, self.movetime, self.depth, self.tc, self.clock)

    def is_empty(self) -> bool:
        return all(v is None for v in self._values())

    def to_json(self) -> dict:
        d = {k: v for k, v in asdict(self).items() if v is not None}
        if self.tc is not None:
            d["tc"] = str(self.tc)
        return d

    @staticmethod
    def from_json(d: dict) -> Limits:
        return limits_from_options(dict(d))[0]


def limits_from_options(options: dict) -> tuple[Limits, dict]:
    """Splits key=value options into (Limits, the remaining options)."""
    rest = dict(options)
    values = {}
    for key in LIMIT_KEYS:
        if key in rest:
            values[key] = rest.pop(key)

    def whole(key):
        v = values[key]
        if isinstance(v, str):
            try:
                v = int(v.strip())
            except ValueError:
                pass
        elif isinstance(v, float) and v.is_integer():
            v = int(v)
        if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
            raise ValueError(f"limit {key}={values[key]!r} is not valid: expected a positive integer")
        return v

    def seconds(key):
        v = values[key]
        try:
            v = float(v) if not isinstance(v, bool) else None
        except (TypeError, ValueError):
            v = None
        if v is None or not v > 0 or v == float("inf"):
            raise ValueError(f"limit {key}={values[key]!r} is not valid: expected a positive number of seconds")
        return v

    def clock():
        v = values["clock"]
        if not (isinstance(v, str) and v.strip().lower() in CLOCKS):
            raise ValueError(f"limit clock={v!r} is not valid: expected wall (movetime counts wall time) "
                             f"or cpu (each search thread's own CPU time)")
        return v.strip().lower()

    limits = Limits(
        nodes=whole("nodes") if "nodes" in values else None,
        movetime=seconds("movetime") if "movetime" in values else None,
        depth=whole("depth") if "depth" in values else None,
        tc=(values["tc"] if isinstance(values.get("tc"), TimeControl)
            else TimeControl.parse(values["tc"]) if "tc" in values else None),
        clock=clock() if "clock" in values else None,
    )
    return limits, rest


@dataclass(frozen=True)
class Entrant:
    name: str
    kind: str                       # "bot" (a preset played in-process) or "engine" (a command)
    preset: str | None = None       # kind == "bot"
    command: tuple[str, ...] = ()   # kind == "engine"
    options: dict = field(default_factory=dict)   # bot overrides or engine setoption values
    limits: Limits = Limits()

    def with_options(self, options: dict) -> Entrant:
        """A copy with more key=value settings (limits or options) applied."""
        limits, rest = limits_from_options(options)
        if self.kind == "bot" and "seed" in rest:
            raise ValueError(f"entrant {self.name}: seed is not a bot setting in a tournament (every game "
                             f"seeds its bots from the tournament --seed): remove it")
        return Entrant(self.name, self.kind, self.preset, self.command,
                       {**self.options, **rest}, limits.merged_over(self.limits))

    def to_json(self) -> dict:
        d = {"name": self.name, "kind": self.kind, "options": self.options, "limits": self.limits.to_json()}
        if self.kind == "bot":
            d["preset"] = self.preset
        else:
            d["command"] = list(self.command)
        return d

    @staticmethod
    def from_json(d: dict) -> Entrant:
        return Entrant(d["name"], d["kind"], d.get("preset"), tuple(d.get("command", ())),
                       dict(d.get("options", {})), Limits.from_json(d.get("limits", {})))

    def describe(self) -> str:
        what = self.preset if self.kind == "bot" else " ".join(self.command)
        extra = [f"{k}={v}" for k, v in {**self.options, **self.limits.to_json()}.items()]
        return what + (f" ({', '.join(extra)})" if extra else "")


def _typed(value: str):
    """Option values from the command line: int, float, bool, or the text."""
    for conv in (int, float):
        try:
            return conv(value)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(value.lower(), value)


def parse_settings(text: str, what: str) -> dict:
    """`key=value,key=value` into a dict of typed values."""
    out = {}
    for item in text.split(","):
        if not item.strip():
            continue
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"cannot read {item!r} in {what}: expected key=value")
        out[key.strip()] = _typed(value.strip())
    return out


def _check_name(name: str, spec: str) -> str:
    if not _NAME.match(name):
        raise ValueError(f"bad entrant name {name!r} in {spec!r}: use 1-40 letters, digits, '_', '.', '+', '-'")
    return name


def parse_bot(spec: str) -> Entrant:
    """`[name=]preset[:key=value,...]`."""
    head, colon, settings = spec.partition(":")
    name, eq, preset = head.partition("=")
    if not eq:
        name, preset = head, head
    preset = preset.strip()
    if not preset:
        raise ValueError(f"bot {spec!r} names no preset: expected [name=]preset[:key=value,...]")
    entrant = Entrant(_check_name(name.strip(), spec), "bot", preset=preset)
    return entrant.with_options(parse_settings(settings, f"bot {spec!r}")) if colon else entrant


def parse_engine(spec: str) -> Entrant:
    """`name=command line` (the command is split like a shell would)."""
    name, eq, command = spec.partition("=")
    if not eq or not command.strip():
        raise ValueError(f"cannot read engine {spec!r}: expected name=command")
    try:
        argv = tuple(shlex.split(command))
    except ValueError as exc:
        raise ValueError(f"cannot split the command of engine {spec!r}: {exc}") from None
    return Entrant(_check_name(name.strip(), spec), "engine", command=argv)


def apply_settings(entrants: list[Entrant], settings: list[str], defaults: Limits) -> list[Entrant]:
    """Applies `NAME.key=value` settings, then the default limits, and checks names are unique."""
    by_name: dict[str, Entrant] = {}
    for e in entrants:
        if e.name in by_name:
            raise ValueError(f"two entrants are named {e.name!r}: give one another name (name=preset)")
        by_name[e.name] = e
    for item in settings:
        target, dot, rest = item.partition(".")
        if not dot or target not in by_name:
            raise ValueError(f"cannot apply {item!r}: expected NAME.key=value with NAME one of "
                             f"{', '.join(by_name)}")
        by_name[target] = by_name[target].with_options(parse_settings(rest, item))
    out = [Entrant(e.name, e.kind, e.preset, e.command, e.options, e.limits.merged_over(defaults))
           for e in by_name.values()]
    for e in out:
        if e.limits.clock == "cpu" and e.limits.tc is not None:
            raise ValueError(f"entrant {e.name}: clock=cpu applies to movetime, but its tc={e.limits.tc} game "
                             f"clock is charged in wall time: drop one of them (movetime with clock=cpu "
                             f"for equal-time matches)")
    return out
