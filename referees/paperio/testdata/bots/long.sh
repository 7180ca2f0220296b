#!/bin/sh
# Answers every tick with a 20,000-byte line (valid JSON, but the contest's
# relay cut lines at 10,000 bytes).
pad=$(head -c 20000 /dev/zero | tr '\0' ' ')
while read -r l; do
	case "$l" in
	'{"type": "tick"'*) echo "{\"command\": \"left\"}$pad" ;;
	esac
done
