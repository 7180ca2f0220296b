#!/bin/sh
# Prints an entry for another game and two for this one (the later counts).
. "$(dirname "$0")/common.sh"
printf '[{"problemId":99,"seed":1,"solution":"x"},{"problemId":%s,"seed":%s,"solution":"a"},{"problemId":%s,"seed":%s,"solution":"ei!"}]\n' "$id" "$seed" "$id" "$seed"
