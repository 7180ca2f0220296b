#!/bin/bash
# Spends a set time on every turn, timed from when it has read the whole
# turn input, as contest bots do, then waits: budget.sh FIRST LATER (seconds;
# the statement's budgets are 1 and 0.05). It waits with a timed read on a
# pipe that never has data (a builtin: no process to start, so the time
# spent is the budget, as in a compiled bot).
. "$(dirname "$0")/common.sh"
exec 9< <(sleep 3600)
pause() { read -r -t "$1" -u 9 _; }
first=$1 later=$2 t=$1
while turn; do pause "$t"; echo WAIT; t=$later; done
