"""The ardsearch text protocol (UCI-style, with chance and hidden information).

- engine: the server (`ardsearch engine`, `python -m ardsearch.protocol`)
- client: Engine / AsyncEngine to drive any engine that speaks it
- compliance: the wire-level compliance suite

The specification is docs/protocol.md.
"""
from .client import (AsyncEngine, Engine, EngineError, EngineTerminatedError, EngineTimeoutError, Limit,
                     PlayResult)

PROTOCOL_VERSION = 1

__all__ = ["AsyncEngine", "Engine", "EngineError", "EngineTerminatedError", "EngineTimeoutError", "Limit",
           "PlayResult", "PROTOCOL_VERSION"]
