#!/bin/sh
# A play command (psyleague's cmd_play_game contract) for the tests: runs
# every player (its command is one argument, a shell command line) with the
# input "SEED 0", reads the number it prints and ranks the players by it,
# the highest first; a player that prints no number has an error. With
# PLAY_MODE=bad it prints output that is not the contract.
seed=${GAUNTLET_SEED:-0}
if [ "$PLAY_MODE" = bad ]; then echo '{"ranks": [0]'; exit 0; fi
vals=""
for p in "$@"; do
	v=$(echo "$seed 0" | sh -c "$p" 2>/dev/null | head -n 1)
	case "$v" in ''|*[!0-9]*) v=-1 ;; esac
	vals="$vals $v"
done
ranks=""; errors=""; pdata=""; sep=""
for v in $vals; do
	r=0
	for w in $vals; do [ "$w" -gt "$v" ] && r=$((r + 1)); done
	if [ "$v" = -1 ]; then e='"no answer"'; else e=false; fi
	ranks="$ranks$sep$r"; errors="$errors$sep$e"; pdata="$pdata$sep{\"value\": $v}"; sep=", "
done
printf '{"ranks": [%s], "errors": [%s], "test_data": {"seed": %s}, "player_data": [%s]}\n' "$ranks" "$errors" "$seed" "$pdata"
