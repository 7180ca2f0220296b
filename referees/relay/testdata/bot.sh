#!/bin/sh
# A bot of the race (relayed.py): steps $1 (default 3) every turn. With
# --crash it exits at its second turn, --slow sleeps a second at its second
# turn, --flood prints a 20,000-byte line at its second turn.
step=${1:-3}
mode=$2
turn=0
while read -r target pos; do
	turn=$((turn + 1))
	if [ "$turn" = 2 ]; then
		case "$mode" in
		--crash) echo "bot: crashing" >&2; exit 4 ;;
		--slow) sleep 1 ;;
		--flood) head -c 20000 /dev/zero | tr '\0' 'x'; echo ;;
		esac
	fi
	echo "$step"
done
