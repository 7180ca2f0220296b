#!/bin/sh
# A bot of the race (relayed.py): steps $1 (default 3) every turn. With
# --crash it exits at its second turn, --slow sleeps a second at its second
# turn, --late 0.7 s (inside the late window of the tests' 500 ms), --flood
# prints a 20,000-byte line at its second turn, --talk writes a line to
# stderr every turn, --html answers markup and a terminal escape at
# its first turn (the referee takes it for a step of 0), --pdata writes
# psyleague's metadata lines to stderr every turn ([PDATA] turns, mode;
# [PDATA+] steps).
step=${1:-3}
mode=$2
turn=0
while read -r target pos; do
	turn=$((turn + 1))
	if [ "$mode" = --talk ]; then
		echo "bot: turn $turn at $pos" >&2
	fi
	if [ "$mode" = --pdata ]; then
		printf '[PDATA] turns = %d\n[PDATA] mode = step%d\n[PDATA+] steps = %d\n' "$turn" "$step" "$step" >&2
	fi
	if [ "$mode" = --html ] && [ "$turn" = 1 ]; then
		printf '<script>alert(1)</script>&amp;\033[2J\n'
		continue
	fi
	if [ "$turn" = 2 ]; then
		case "$mode" in
		--crash) echo "bot: crashing" >&2; exit 4 ;;
		--slow) sleep 1 ;;
		--late) sleep 0.7 ;;
		--flood) head -c 20000 /dev/zero | tr '\0' 'x'; echo ;;
		esac
	fi
	echo "$step"
done
