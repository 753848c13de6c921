cd /work/main
for n in und2 ma; do
  echo "start $(date -u +%H:%M:%S) $(uptime)" > bench/results/s15-cal/$n.load
  bash bench/results/s15-cal/$n.cmd > bench/results/s15-cal/$n.out 2>&1
  echo "end $(date -u +%H:%M:%S) $(uptime)" >> bench/results/s15-cal/$n.load
done
