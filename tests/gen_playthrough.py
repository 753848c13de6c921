"""Write a golden playthrough of a game: tests/playthroughs/<game>.txt.

    python tests/gen_playthrough.py <game> [--seed N] [--params key=value,...] [--name FILE]

A seeded game played by a seeded random policy through the public API. At
every step the file shows the board text (str(state)), the legal moves in
notation (or the chance outcomes with their probabilities) and the move
played. The first line records the arguments, so tests/test_playthroughs.py
can regenerate the file in memory and compare: any change to rules, notation
or board text shows up as a diff. Rerun this script when the change is
intended, and review the diff before committing it.

Policy: rng = random.Random(seed); a chance outcome is drawn by walking the
outcomes' cumulative probabilities with rng.random(); a decision is
rng.choice(legal actions).
"""
from __future__ import annotations

import argparse
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PLAYTHROUGH_DIR = os.path.join(HERE, "playthroughs")
MAX_PLIES = 2000  # a guard against a game that never ends


def parse_params(text):
    params = {}
    for item in filter(None, (text or "").split(",")):
        key, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"--params: expected key=value, got {item!r}")
        params[key.strip()] = value.strip()
    return params


def playthrough(game_name, seed, params_text="", plies=None, name=None):
    """The playthrough text (what the file holds); `plies` stops a long game
    early so the golden file stays readable; `name`, the file's name when it is
    not the game's, goes into the command that regenerates it."""
    import ardsearch

    game = ardsearch.load_game(game_name, **parse_params(params_text))
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    args = f"{game_name} --seed {seed}" + (f" --params {params_text}" if params_text else "")
    args += f" --plies {plies}" if plies else ""
    limit = min(plies or MAX_PLIES, MAX_PLIES)
    out = [f"# args: {args}",
           f"# Golden playthrough written by tests/gen_playthrough.py; regenerate with:",
           f"#   python tests/gen_playthrough.py {args}" + (f" --name {name}" if name and name != game_name else ""),
           f"game: {game.name} {dict(sorted(game.params.items()))}",
           ""]
    ply = 0
    while not state.is_terminal() and ply < limit:
        out.append(f"== ply {ply}  player {state.current_player()}")
        out.append(str(state))
        if state.is_chance_node():
            outcomes = list(state.chance_outcomes())
            out.append("chance: " + " ".join(
                f"{state.action_to_string(a)}={p!r}" for a, p in outcomes))
            r, acc, action = rng.random(), 0.0, outcomes[-1][0]
            for a, p in outcomes:
                acc += p
                if r < acc:
                    action = a
                    break
        else:
            legal = list(state.legal_actions())
            out.append("legal: " + " ".join(state.action_to_string(a) for a in legal))
            action = rng.choice(legal)
        out.append(f"played: {state.action_to_string(action)}")
        out.append("")
        state.apply_action(action)
        ply += 1
    out.append(f"== end after {ply} plies")
    out.append(str(state))
    out.append(f"returns: {list(state.returns())}")
    return "\n".join(out) + "\n"


def path_for(game_name):
    return os.path.join(PLAYTHROUGH_DIR, f"{game_name}.txt")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--params", default="", help="game parameters: key=value,key=value")
    parser.add_argument("--plies", type=int, default=None, help="stop after this many plies")
    parser.add_argument("--name", default=None,
                        help="file name without .txt (default: the game's name); a second playthrough of a "
                             "game, e.g. another scenario, needs its own")
    a = parser.parse_args(argv)
    text = playthrough(a.game, a.seed, a.params, a.plies, a.name)
    os.makedirs(PLAYTHROUGH_DIR, exist_ok=True)
    path = path_for(a.name or a.game)
    with open(path, "w") as f:
        f.write(text)
    print(f"wrote {path} ({text.count('== ply')} plies)")


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(HERE))  # the project root, for an in-place build
    main()
