#!/bin/sh
# Prints its solution, leaves a child in a new session that holds its
# stdout for a minute, and exits 0.
. "$(dirname "$0")/common.sh"
printf '[{"problemId":%s,"seed":%s,"tag":"escape","solution":"ei!"}]\n' "$id" "$seed"
setsid sleep 60 &
exit 0
