cd /work/main
while pgrep -f "seed 5000 --bots a=mcts" >/dev/null; do sleep 10; done
echo "start $(date -u +%H:%M:%S) $(uptime)" > bench/results/s14-cal/ard.load
bash bench/results/s14-cal/ard.cmd > bench/results/s14-cal/ard.out 2>&1
echo "end $(date -u +%H:%M:%S) $(uptime)" >> bench/results/s14-cal/ard.load
