#!/bin/sh
# Crashes on its first turn.
. "$(dirname "$0")/common.sh"
turn
echo "boom" >&2
exit 3
