python -m bench.scaling mortain --rate 58746 --times 0.01 0.03 0.1 0.3 1 --pairs 10 10 8 6 --seed 3 --results bench/results/s36-scaling/scaling-mortain-seed3.jsonl
