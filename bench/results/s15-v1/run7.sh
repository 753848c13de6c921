cd /work/main
D=bench/results/s15-v1
for seed in 9; do
n=eqtime-microarmour-mcts-vs-v1-003-seed$seed
echo "nice -n 5 .venv/bin/python -m ardsearch tournament microarmour --bots mcts mcts-v1 --movetime 0.03 --clock cpu --games 20 --seed $seed --concurrency 1 --out $D/$n.jsonl" > $D/$n.cmd
echo "start $(date -u +%H:%M:%S) $(uptime)" > $D/$n.load
bash $D/$n.cmd > $D/$n.out 2>&1
echo "end $(date -u +%H:%M:%S) $(uptime)" >> $D/$n.load
done
