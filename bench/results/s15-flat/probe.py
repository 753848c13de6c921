"""Time a flat greedy-rollout search at a few positions of a greedy game."""
import sys, time
import ardsearch
from ardsearch.bots import load_bot, MCTSBot

scen = sys.argv[1] if len(sys.argv) > 1 else "villers"
sims = int(sys.argv[2]) if len(sys.argv) > 2 else 200
game = ardsearch.load_game(f"stosstruppen(scenario={scen})")
g = load_bot("greedy", game, seed=1)
state = game.new_initial_state(seed=3)
flat = MCTSBot(game, simulations=sims, seed=1, tree_depth=1, rollout_sample=-1, rollout_extra_runs=1,
               common_random=True, root_margin=0.03, reuse_tree=False)
i = 0
while not state.is_terminal() and i < 120:
    if state.is_chance_node():
        state.apply_random_chance()
    else:
        if i % 15 == 0:
            t = time.process_time()
            a = flat.step(state)
            gch = g.step(state)
            print(i, len(state.legal_actions()), f"{time.process_time()-t:.2f}s", state.action_to_string(a), "greedy:", state.action_to_string(gch), flush=True)
        state.apply_action(g.step(state))
    i += 1
