cd /work/main
while pgrep -f "s15-v1/run.sh" > /dev/null; do sleep 10; done
bash bench/results/s15-flat/lane.sh bench/results/s15-flat/q2.txt
