"""The engine's options: declarations (sent in the `ard` handshake) and the
parsing of `setoption` values."""
from __future__ import annotations

import re
from dataclasses import dataclass

# setoption numbers (docs/protocol.md, Grammar): decimal digits; a spin may
# carry a minus sign (its range says whether a negative value is allowed).
_SPIN = re.compile(r"-?[0-9]+")
_DECIMAL = re.compile(r"[0-9]+(\.[0-9]*)?|\.[0-9]+")


class OptionError(ValueError):
    """A setoption that names no option or gives a value the option refuses."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Option:
    name: str
    type: str  # spin, check, combo, string
    default: object
    min: float | None = None
    max: float | None = None
    vars: tuple[str, ...] = ()
    # for type string: a parser that raises ValueError (e.g. float)
    parse: object = None

    def declaration(self) -> str:
        default = self.default
        if self.type == "check":
            default = "true" if default else "false"
        elif default == "":
            default = "<empty>"
        text = f"option name {self.name} type {self.type} default {default}"
        if self.type == "spin":
            text += f" min {self.min:g} max {self.max:g}" if isinstance(self.min, float) else f" min {self.min} max {self.max}"
        for v in self.vars:
            text += f" var {v}"
        return text

    def coerce(self, value: str):
        """The option's value from setoption text, or OptionError."""
        if self.type == "spin":
            if not _SPIN.fullmatch(value) or len(value) > 24:
                raise OptionError("bad-argument", f"option {self.name} needs a whole number written as decimal "
                                  f"digits (no '+', no exponent), got {value[:40]!r}")
            v = int(value, 10)
            if not self.min <= v <= self.max:
                raise OptionError("bad-argument", f"option {self.name} must be from {self.min} to {self.max}, got {v}")
            return v
        if self.type == "check":
            if value not in ("true", "false"):
                raise OptionError("bad-argument", f"option {self.name} needs true or false, got {value!r}")
            return value == "true"
        if self.type == "combo":
            if value not in self.vars:
                raise OptionError("bad-argument", f"option {self.name} must be one of {', '.join(self.vars)}, got {value!r}")
            return value
        if value == "<empty>":
            value = ""
        if self.parse is not None:
            try:
                return self.parse(value)
            except (TypeError, ValueError) as exc:
                raise OptionError("bad-argument", f"option {self.name}: {exc}") from None
        return value


def _exploration(text: str):
    if text == "auto":       # the preset's value for the game
        return text
    if not _DECIMAL.fullmatch(text):
        raise ValueError(f"needs a decimal number such as 1.4 (digits and one '.', no sign, no exponent), "
                         f"got {text[:40]!r}")
    v = float(text)
    if not 0.0 <= v <= 100.0 or v != v:
        raise ValueError(f"must be from 0 to 100, got {text}")
    return v


def preset_names() -> tuple[str, ...]:
    """Named bot presets of the roster, if the bots module lists them."""
    try:
        from .. import bots
        names = getattr(bots, "list_presets", None) or getattr(bots, "list_bots", None)
        if names is not None:
            return tuple(sorted(str(n) for n in names()))
    except Exception:  # the roster is optional for the protocol
        pass
    return ()


def engine_options() -> dict[str, Option]:
    from .strength import declared_elo_range
    presets = preset_names()
    elo_low, elo_high = declared_elo_range()
    opts = [
        Option("Threads", "spin", 1, 1, 256),
        Option("Hash", "spin", 64, 1, 65536),
        Option("Algorithm", "combo", "auto", vars=("auto", "mcts", "ismcts", "expectimax")),
        Option("Exploration", "string", "auto", parse=_exploration),
        Option("Seed", "spin", 0, 0, 2**63 - 1),
        Option("MultiPV", "spin", 1, 1, 1024),
        Option("MoveOverhead", "spin", 30, 0, 10000),
        Option("Preset", "combo", "none", vars=("none",) + presets) if presets
        else Option("Preset", "string", ""),
        # Playing weaker on purpose, as UCI_LimitStrength / UCI_Elo
        # (ardsearch/protocol/strength.py): Elo is on the ladder of the
        # difficulty levels, anchored at random = 0; its range is the
        # measured levels' over every game, each game checks its own.
        Option("LimitStrength", "check", False),
        Option("Elo", "spin", elo_high, elo_low, elo_high),
        # What `go movetime` (and a preset's time limit) counts: wall time, or
        # the search threads' own CPU time, so equal-time matches stay equal
        # on a loaded machine. A game clock (wtime/btime) is always wall time.
        Option("Clock", "combo", "wall", vars=("wall", "cpu")),
    ]
    return {o.name: o for o in opts}
