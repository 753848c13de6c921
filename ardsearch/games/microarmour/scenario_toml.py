"""Scenario documents (the dict read_toml gives for a scenarios/*.toml file)
for the tools that make scenario files, the terrain generator (terrain_gen.py)
and the point-buy builder (force_build.py): a base file made whole, a
document checked by the scenario loader, and a document written back as TOML
text. The writer takes only what scenario files hold: strings, integers, floats,
booleans, lists of those or of inline tables, tables and arrays of tables.
The map's rows are written one per line, top row first, as in the shipped
files, so a person can read the table in the file."""
from __future__ import annotations

import json
import math
import os


def _key(k):
    if k.replace("_", "").replace("-", "").isalnum() and k.isascii():
        return k
    return json.dumps(k)


def _value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"scenario TOML: cannot write the number {v!r} (expected a finite number)")
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)      # a JSON string is a valid TOML basic string
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    raise ValueError(f"scenario TOML: cannot write a {type(v).__name__} value (expected text, numbers, "
                     f"true/false, lists or tables)")


# Lists of tables written as inline tables, one per line (short records such as
# the generator's pieces), rather than as [[arrays of tables]].
INLINE = {"pieces"}


def _is_table_array(v, k=None):
    return isinstance(v, list) and bool(v) and all(isinstance(x, dict) for x in v) and k not in INLINE


def _body(table, prefix, out):
    """Scalars and inline values first, then sub-tables, then arrays of tables (TOML's order)."""
    for k, v in table.items():
        if isinstance(v, dict) or _is_table_array(v, k):
            continue
        if k == "map" and not prefix and isinstance(v, list):
            out.append("map = [")
            out.extend(f"  {_value(row)}," for row in v)
            out.append("]")
        elif k in INLINE and isinstance(v, list) and v:
            out.append(f"{_key(k)} = [")
            out.extend(f"  {_value(x)}," for x in v)
            out.append("]")
        else:
            out.append(f"{_key(k)} = {_value(v)}")
    for k, v in table.items():
        if isinstance(v, dict):
            name = f"{prefix}.{_key(k)}" if prefix else _key(k)
            if any(not isinstance(x, dict) and not _is_table_array(x, kk) for kk, x in v.items()) or not v:
                out.append("")
                out.append(f"[{name}]")
            _body(v, name, out)
    for k, v in table.items():
        if _is_table_array(v, k):
            name = f"{prefix}.{_key(k)}" if prefix else _key(k)
            for item in v:
                out.append(f"[[{name}]]")
                _body(item, name, out)


def dumps(doc, header=""):
    """The TOML text of `doc`, after `header` (comment lines, each starting with '# ')."""
    out = [f"# {line}".rstrip() for line in header.splitlines()] if header else []
    _body(doc, "", out)
    return "\n".join(out) + "\n"


def flat_document(path, seen=()):
    """The scenario file at `path` as one self-contained document: a file
    that takes its table and forces from another (`base = "<scenario>"`, as
    the artillery branch's barrage.toml does) is laid over that file's
    document (its own keys win; its side tables are merged key by key) and
    loses its `base`, so the tools may change the map and the forces."""
    from ardsearch._toml import read_toml
    from ardsearch.games.microarmour import _data
    d = read_toml(path)
    if "base" not in d:
        return d
    base = d["base"]
    base_path = _data._scenario_files().get(base) if isinstance(base, str) else None
    if base_path is None or base_path in seen:
        raise ValueError(f"{path}: base: expected another scenario's name ({', '.join(_data.scenario_names())}), "
                         f"got {base!r}")
    out = flat_document(base_path, seen + (path,))
    for k, v in d.items():
        if k == "side" and isinstance(v, dict) and isinstance(out.get("side"), dict):
            for sk, s in v.items():
                out["side"].setdefault(sk, {}).update(s)
        elif k != "base":
            out[k] = v
    return out


def load_document(doc, charts=None, weapons=None):
    """The scenario loader's result for `doc` (written to a temporary file):
    its ValueError, if any, names the file `scenario.toml`."""
    import tempfile
    from ardsearch.games.microarmour import _data
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "scenario.toml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(dumps(doc))
        return _data.load_scenario(path=path, charts=charts, weapons=weapons)


def write_tool_output(prog, make, out, summary):
    """The end of both scenario-writing tools (microarmour-map, -build): make()
    returns (doc, text); the text goes to `out` or standard output, a one-line
    error (exit 2) on bad input, and summary(doc) is printed when a file was
    written. Returns the exit status."""
    import sys
    try:
        doc, text = make()
        if out:
            with open(out, "w", encoding="utf-8") as f:
                f.write(text)
        else:
            sys.stdout.write(text)
    except (ValueError, OSError) as e:
        print(f"ardsearch {prog}: error: {e}", file=sys.stderr)
        return 2
    if out:
        print(f"{out}: {summary(doc)}")
    return 0
