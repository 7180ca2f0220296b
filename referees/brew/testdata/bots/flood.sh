#!/bin/sh
# Answers its first turn with an endless line.
. "$(dirname "$0")/common.sh"
turn
exec tr '\0' x < /dev/zero
