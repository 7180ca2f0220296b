#!/bin/bash
# Answers every tick message after spending $1 seconds from its reading,
# always going left (the start_game message gets no answer). It waits with a
# timed read on a pipe that never has data (a builtin: no process to start,
# so the time spent is the budget, as in a compiled bot).
exec 9< <(sleep 3600)
while read -r l; do
	case "$l" in
	'{"type": "tick"'*) read -r -t "$1" -u 9 _; echo '{"command": "left"}' ;;
	'{"type": "end_game"'*) exit 0 ;;
	esac
done
