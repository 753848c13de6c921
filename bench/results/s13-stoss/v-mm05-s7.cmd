python -m ardsearch tournament 'stosstruppen(scenario=villers)' --bots 'mcts:nodes=1000,minimax_weight=0.5' greedy --games 20 --seed 7 --concurrency 1 --out bench/results/s13-stoss/v-mm05-s7.jsonl
