#!/bin/sh
# Spends a set time on every turn, timed from when it has read the whole
# turn input, as contest bots do, then waits: budget.sh FIRST LATER (seconds;
# the statement's budgets are 1 and 0.05).
. "$(dirname "$0")/common.sh"
first=$1 later=$2 t=$1
while turn; do sleep "$t"; echo WAIT; t=$later; done
