cd /work/main
D=bench/results/s15-v1
while pgrep -f "s15-v1/run2.sh" > /dev/null; do sleep 10; done
n=eqtime-ardennes-ne-vs-v1-seed7
echo "nice -n 5 .venv/bin/python -m ardsearch tournament ardennes --bots ne=mcts:normalize=true,eval_children=true mcts-v1 --movetime 0.1 --clock cpu --games 20 --seed 7 --concurrency 1 --out $D/$n.jsonl" > $D/$n.cmd
echo "start $(date -u +%H:%M:%S) $(uptime)" > $D/$n.load
bash $D/$n.cmd > $D/$n.out 2>&1
echo "end $(date -u +%H:%M:%S) $(uptime)" >> $D/$n.load
