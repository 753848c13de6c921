#!/usr/bin/env bash
# usage: bench/results/s16-balance/run.sh NAME GAME BOT PAIRS SEED  (from the repo root)
cd "$(dirname "$0")/../../.."
D=bench/results/s16-balance
date -u +%H:%M > $D/$1.start
uptime >> $D/$1.start
.venv/bin/python -m bench.balance "$2" --bot "$3" --pairs "$4" --seed "$5" --progress > $D/$1.out 2> $D/$1.err
date -u +%H:%M > $D/$1.end
uptime >> $D/$1.end
