#!/bin/sh
# Writes to stderr every turn and waits: its turn number, hostile text on
# its first turn (a terminal escape, markup), and [PDATA] lines. With an
# argument N > 0 it crashes in turn N, after a last line on stderr.
. "$(dirname "$0")/common.sh"
echo "[PDATA] version = 3" >&2
t=0
while turn; do
	t=$((t + 1))
	echo "turn $t thinking" >&2
	if [ "$t" = 1 ]; then printf '\033[2J<b>bold</b>\n' >&2; fi
	if [ "$t" = "${1:-0}" ]; then echo "dying in turn $t" >&2; exit 3; fi
	echo "[PDATA] turns = $t" >&2
	echo "WAIT"
done
