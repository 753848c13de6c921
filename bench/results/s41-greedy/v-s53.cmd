python -m ardsearch tournament stosstruppen(scenario=villers) --bots mcts:nodes=1000 greedy --games 16 --seed 53 --clock cpu --concurrency 1 --out bench/results/s41-greedy/v-s53.jsonl
