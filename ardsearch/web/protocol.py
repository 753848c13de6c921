"""The browser's messages, checked before anything acts on them.

Every message is a JSON object with a `type` and exactly the keys that type
allows, each of the expected type and size; anything else is refused with
a ProtocolError whose text the browser shows. A refused message changes
nothing.
"""
from __future__ import annotations

import json


class ProtocolError(ValueError):
    """A message the server refuses; the text says what was wrong."""


_TABLE = ("table", str, True)
_SPEEDS = ("slow", "normal", "fast", "instant")

# type -> (key, type, required) for every key the message may carry
SCHEMA = {
    "new": [("game", str, True), ("params", dict, False), ("seats", list, True),
            ("seed", int, False), ("audience", (int, str), False), ("speed", str, False)],
    "load": [("record", str, True)],
    "move": [_TABLE, ("move", str, True)],
    "undo": [_TABLE], "hint": [_TABLE], "stop": [_TABLE], "save": [_TABLE], "close": [_TABLE],
    "pause": [_TABLE], "resume": [_TABLE, ("speed", str, False)],
    "speed": [_TABLE, ("speed", str, True)],
    "jump": [_TABLE, ("ply", int, True)],
}


def parse_message(raw: str) -> dict:
    try:
        msg = json.loads(raw)
    except (ValueError, RecursionError):
        raise ProtocolError("not a JSON message") from None
    if not isinstance(msg, dict):
        raise ProtocolError("a message is a JSON object with a 'type'")
    kind = msg.get("type")
    if kind not in SCHEMA:
        raise ProtocolError(f"unknown message type {kind!r} (one of {', '.join(sorted(SCHEMA))})")
    allowed = {k for k, _, _ in SCHEMA[kind]} | {"type"}
    extra = sorted(set(msg) - allowed)
    if extra:
        raise ProtocolError(f"{kind}: unexpected key {extra[0]!r}")
    for key, typ, required in SCHEMA[kind]:
        if key not in msg or msg[key] is None:
            if required:
                raise ProtocolError(f"{kind}: missing {key!r}")
            continue
        value = msg[key]
        if not isinstance(value, typ) or isinstance(value, bool):
            raise ProtocolError(f"{kind}: {key!r} has the wrong type")
        if isinstance(value, str) and len(value) > (60000 if key == "record" else 200):
            raise ProtocolError(f"{kind}: {key!r} is too long")
    if kind == "new":
        seats = msg["seats"]
        if len(seats) != 2 or not all(isinstance(s, str) and len(s) <= 40 for s in seats):
            raise ProtocolError("new: 'seats' must be two names (human or a bot preset)")
        params = msg.get("params") or {}
        if len(params) > 30 or not all(isinstance(k, str) and isinstance(v, (str, int, float, bool))
                                       for k, v in params.items()):
            raise ProtocolError("new: 'params' must map parameter names to plain values")
        if "seed" in msg and msg["seed"] is not None and not 0 <= msg["seed"] < 2 ** 63:
            raise ProtocolError("new: 'seed' must be from 0 to 2**63-1")
        if msg.get("audience", 0) not in (0, 1, "full"):
            raise ProtocolError("new: 'audience' must be 0, 1 or 'full'")
    for key in ("speed",):
        if key in msg and msg[key] is not None and msg[key] not in _SPEEDS:
            raise ProtocolError(f"{kind}: 'speed' must be one of {', '.join(_SPEEDS)}")
    if kind == "jump" and msg["ply"] < 0:
        raise ProtocolError("jump: 'ply' must be 0 or more")
    return msg
