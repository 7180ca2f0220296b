#!/bin/sh
# The race of relayed.py, plainly: a relayed referee for the tests that play
# many games. Each turn every player is sent the target (5 + seed % 7) and
# its position and answers a step, held within 0 to 3 (an answer that is no
# whole number counts 0, with an ###Error line); the first at or past the
# target wins, players who arrive in the same turn tie, and after 50 turns
# the nearest place first. No options (the tests of a referee's faults use
# relayed.py) but relayed.py's REFEREE_CRASH_SEEDS, a comma-separated list
# of the seeds whose games it fails. A shell starts in a few milliseconds
# where Python takes a few hundred on a loaded machine.
seed=1
read -r word arg || exit 2
if [ "$word" = "###Seed" ]; then
	seed=$arg
	read -r word arg || exit 2
fi
n=$arg
case ",$REFEREE_CRASH_SEEDS," in
*",$seed,"*)
	echo "referee: no game for seed $seed" >&2
	exit 5
	;;
esac
target=$((5 + seed % 7))
i=0
while [ "$i" -lt "$n" ]; do
	eval "pos$i=0"
	i=$((i + 1))
done
turn=0
while :; do
	turn=$((turn + 1))
	i=0
	while [ "$i" -lt "$n" ]; do
		eval "p=\$pos$i"
		printf '###Input %d\n%d %d\n###Output %d 1\n' "$i" "$target" "$p" "$i"
		read -r answer || answer=
		case "$answer" in
		'' | - | *[!0-9-]* | ?*-*)
			printf "###Error %d bad answer '%s'\n" "$i" "$answer"
			;;
		-*) ;;
		*)
			step=${answer#"${answer%%[!0]*}"} # leading zeros are not octal here
			step=${step:-0}
			p=$((p + (step > 3 ? 3 : step)))
			;;
		esac
		eval "pos$i=$p"
		i=$((i + 1))
	done
	# The places: those at the target together, then the others by their
	# positions, the farthest first.
	done=""
	i=0
	while [ "$i" -lt "$n" ]; do
		eval "p=\$pos$i"
		[ "$p" -ge "$target" ] && done="$done$i"
		i=$((i + 1))
	done
	if [ -n "$done" ] || [ "$turn" -ge 50 ]; then
		groups=$done
		p=$((target - 1))
		while [ "$p" -ge 0 ]; do
			g=""
			i=0
			while [ "$i" -lt "$n" ]; do
				eval "q=\$pos$i"
				[ "$q" = "$p" ] && g="$g$i"
				i=$((i + 1))
			done
			[ -n "$g" ] && groups="$groups $g"
			p=$((p - 1))
		done
		echo "###End ${groups# }"
		break
	fi
done
# Like some referees: wait for another game, and fail when the input closes.
read -r _
exit 3
