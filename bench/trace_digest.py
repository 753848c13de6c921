"""`python -m bench.trace_digest [--games N] GAME [GAME ...]`: one digest per
game of seeded random games played through the Python API: every legal-action
list, every chance node's outcomes and probabilities, the state bytes after
every action, a player's view bytes and evaluation now and then, the returns.

For speed work that must not change behaviour: run it with the build before
and the build after (e.g. PYTHONPATH pointing at two copies of the tree) and
compare the lines; any difference in legal order, chance outcomes or state
layout changes the digest. GAME is a name or a spec as load_game reads it,
e.g. 'microarmour(scenario=ambush,hot_shot=true)'; GAME `microarmour-all` stands
for MICROARMOUR_SPECS below (every scenario plain, close and with options)."""
from __future__ import annotations

import argparse
import hashlib
import random
import sys

import ardsearch


# Every Micro Armour scenario plain and with the optional rules; deployment=close
# where a scenario accepts it (the hidden set-ups refuse it); the two hidden
# scenarios with most rules at once also under night, weather and the options
# their spotting, minefield and transport paths read.
_MA_SCENARIOS = ("introductory", "airstrike", "barrage", "combined", "minefield", "meeting", "ambush",
                 "ambush_support", "outpost")
_MA_HIDDEN = ("ambush", "ambush_support", "outpost")
MICROARMOUR_SPECS = (
    [f"microarmour(scenario={s})" for s in _MA_SCENARIOS]
    + [f"microarmour(scenario={s},deployment=close)" for s in _MA_SCENARIOS if s not in _MA_HIDDEN]
    + [f"microarmour(scenario={s},hot_shot=true)" for s in _MA_SCENARIOS]
    + [f"microarmour(scenario={s},{opts})" for s in ("ambush_support", "outpost") for opts in (
        "night=night", "weather=fog", "weather=haze_percent", "ground=deep_snow",
        "tank_riders=true,support=true", "low_ammo=true,intuitive_action=true,conflicting_orders=true")]
)


def digest(spec, games):
    """(actions played, hex digest) of `games` random games of spec, seeds 0.."""
    game = ardsearch.load_game(spec)
    h = hashlib.sha256()
    steps = 0
    for seed in range(games):
        rng = random.Random(seed)
        s = game.new_initial_state(seed)
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                h.update(repr(outcomes).encode())
                a = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                legal = s.legal_actions()
                h.update(repr(legal).encode())
                if steps % 97 == 0:     # views and evaluation cost more: a sample of them
                    h.update(repr(s.evaluate(0)).encode())
                    h.update(bytes(s.view(s.current_player()).raw()))
                a = rng.choice(legal)
            h.update(s.raw())
            s.apply_action(a)
            steps += 1
        h.update(repr(s.returns()).encode())
    return steps, h.hexdigest()[:16]


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.trace_digest", description=__doc__.split("\n")[0])
    p.add_argument("games", nargs="+", metavar="GAME")
    p.add_argument("--games", dest="n", type=int, default=60, help="random games per spec (default 60)")
    a = p.parse_args(argv)
    specs = [x for g in a.games for x in (MICROARMOUR_SPECS if g == "microarmour-all" else [g])]
    for spec in specs:
        steps, hexd = digest(spec, a.n)
        print(f"{spec:56s} {steps:9d} actions  {hexd}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
