python -m ardsearch tournament stosstruppen --bots m120=mcts:nodes=120 mcts --games 16 --seed 40 --clock cpu --concurrency 1 --quiet --out bench/results/s38-stoss-preset/m120-vs-mcts-s40.jsonl
