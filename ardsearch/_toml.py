"""Reading the games' data files (scenarios, units, charts), written once."""
from __future__ import annotations

import os
import tomllib


def read_toml(path: str, error: type[Exception] = ValueError, what: str = "data file") -> dict:
    """The parsed TOML document at `path`; raises `error` naming the file and
    the reason when it cannot be read or is not valid TOML."""
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as e:
        raise error(f"{path}: cannot read the {what} ({e.strerror})") from None
    except tomllib.TOMLDecodeError as e:
        raise error(f"{os.path.basename(path)}: not valid TOML ({e})") from None
