#!/bin/sh
# Answers every tick with a command that is no direction: the runner keeps
# the bot's direction, so it never moves.
while read -r l; do
	case "$l" in
	'{"type": "tick"'*) echo '{"command": "BANANA"}' ;;
	esac
done
