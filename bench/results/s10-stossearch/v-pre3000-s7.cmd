nice -n 5 python -m ardsearch tournament 'stosstruppen(scenario=villers)' --bots 'mcts:nodes=3000' greedy --games 20 --seed 7 --concurrency 1  --out bench/results/s10-stossearch/v-pre3000-s7.jsonl
