nice -n 5 python -m ardsearch tournament 'stosstruppen(scenario=villers)' --bots 'mcts:nodes=1000' greedy --games 20 --seed 8 --concurrency 1  --out bench/results/s10-stossearch/v-pre1000-s8.jsonl
