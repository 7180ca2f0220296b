#!/bin/sh
# Answers every tick message after spending $1 seconds from its reading,
# always going left (the start_game message gets no answer).
while read -r l; do
	case "$l" in
	'{"type": "tick"'*) sleep "$1"; echo '{"command": "left"}' ;;
	'{"type": "end_game"'*) exit 0 ;;
	esac
done
