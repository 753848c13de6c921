python -m ardsearch tournament mortain --bots mcts mcts-v1 --movetime 0.1 --clock cpu --games 40 --seed 13 --concurrency 1 --out bench/results/s36-mortain-v1/eqtime-mortain-mcts-vs-v1-seed13.jsonl
