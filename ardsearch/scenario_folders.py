"""Where a game finds its scenario files: its own `scenarios/` folder and,
if the user names one in an environment variable, a folder of more files.

The extra folder lets a player try a scenario (or a test build a position on
a map of its own) without copying files into the installed package. A game's
scenario tables are built when its engine is imported, so the variable must
be set before that."""
from __future__ import annotations

import os


def scenario_files(shipped_dir: str, env_var: str) -> dict[str, str]:
    """{scenario name: path} of shipped_dir/*.toml and of the folder named by
    $env_var (if set). A name is its file name without `.toml`; an extra file
    may not reuse a shipped (or another extra) name."""
    files = {f[:-5]: os.path.join(shipped_dir, f) for f in sorted(os.listdir(shipped_dir)) if f.endswith(".toml")}
    extra = os.environ.get(env_var)
    if not extra:
        return files
    if not os.path.isdir(extra):
        raise ValueError(f"{env_var}={extra}: expected a folder of scenario .toml files "
                         f"(unset the variable to play the shipped scenarios only)")
    for f in sorted(os.listdir(extra)):
        if f.endswith(".toml"):
            name = f[:-5]
            if name in files:
                raise ValueError(f"{env_var}: {f}: a scenario of that name is already in play "
                                 f"({files[name]}); rename the file")
            files[name] = os.path.join(extra, f)
    return files
