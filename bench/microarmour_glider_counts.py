"""What the Micro Armour glider differential set reaches: replays the games of
tests/test_microarmour_differential.py's GLIDER set (same parameters, seeds and
random choices as play_both, engine only) and counts the glider scatter
distances, the rolls forward and the crashes among them, the paratroop HQ
delay rolls (the HQ lost on its arrival roll or after landing) and the HQ
appointments after a delay. bench/README.md records a run:

    MA_DIFF_GLIDER=200 python -m bench.microarmour_glider_counts
"""
from __future__ import annotations

import os
import random
import sys
from collections import Counter

import ardsearch
from ardsearch.games.microarmour import SPEC

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests"))
from test_microarmour_differential import GLIDER  # noqa: E402


def counts(games):
    c = Counter()
    for params, seed in games:
        st = ardsearch.Game(SPEC, params).new_initial_state(seed=seed)
        rng = random.Random(seed)                # play_both's choices: the same rng, the same order
        hq_landed = delay_seen = False
        while not st.is_terminal():
            if st.is_chance_node():
                st.apply_random_chance()
                s = st.history_strings()[-1]
                if s.startswith("scatter:") and params.get("jump", "").startswith("glider"):
                    c["glider scatter distances"] += 1
                if s.startswith("glide:"):
                    c["rolls forward"] += 1
                    c["crashes"] += st.to_dict()["drop"]["step"] != "landing"
                if s.startswith("hq_delay:"):
                    c["HQ delay rolls"] += 1
                    c["lost after landing" if hq_landed else "lost on arrival"] += 1
                    delay_seen = True
            else:
                st.apply_action(rng.choice(st.legal_actions()))
                c["appointments after a delay"] += delay_seen and st.history_strings()[-1].startswith("appoint")
            if not hq_landed:
                hq_landed = any(x["id"] == "fjhq" and x["alive"] for x in st.to_dict()["stands"])
        c["games"] += 1
    return c


if __name__ == "__main__":
    for k, v in counts(GLIDER).items():
        print(f"{k}: {v}")
