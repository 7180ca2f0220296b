#!/bin/sh
# Answers after sleeping $1 seconds.
s=$1
shift
. "$(dirname "$0")/common.sh"
sleep "$s"
printf '[{"problemId":%s,"seed":%s,"tag":"slow","solution":"ei!"}]\n' "$id" "$seed"
