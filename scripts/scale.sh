#!/usr/bin/env bash
# Measures how the harness's per-game path scales with cores (README,
# "Performance"): the 40 µs brew games of `gauntlet eval` at --jobs 1 up to
# the machine's cores on each store, several workers sharing one
# PostgreSQL run (each check ends with every game stored exactly once),
# a worker killed with -9 among them, Paper.io's slower games, games of a
# referee program, and a league's games.
#
#   scripts/scale.sh BIN PGURL [GAMES]
#
# BIN is a gauntlet binary; PGURL a PostgreSQL database that runs may be
# written into (every measurement is a run of its own); GAMES the brew
# games of one measurement (default 200000). With BARE set to a
# games test binary (go test -c), the bare loop of the same games
# is timed first, with the 20,000-game eval beside it, and three bare loops
# side by side (what the machine gives three processes) before the
# workers. PSQL (default psql) counts the stored games; SECTIONS (default
# "overhead jobs workers kill paperio") picks the measurements, ROUNDS
# (default 2) the rounds of the workers', WORKERS (default "1 3 6") and
# WJOBS (default "1 4") their counts and --jobs. With RELAY set to the
# relay package's test binary (go test -c ./referees/relay), section
# "referee" times games of a referee program (that binary as the referee
# of RELAY_ROUNDS rounds, default 100, and as both bots: three processes
# a game) at --jobs 1 up to the cores; section "league" times a brew
# league of six versions at --jobs 1 up to the cores, then 1 and 3
# workers of one league at --jobs 4 (LEAGUE games each, default GAMES/2).
# Neither needs PGURL (give any word). Output: one line a measurement.
set -euo pipefail

BIN=${1:?usage: scale.sh BIN PGURL [GAMES]}
PG=${2:?usage: scale.sh BIN PGURL [GAMES]}
N=${3:-200000}
PSQL=${PSQL:-psql}
CORES=$(nproc)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
TAG=s$(date +%s)
SECTIONS=${SECTIONS:-overhead jobs workers kill paperio referee league}
ROUNDS=${ROUNDS:-2}
WORKERS=${WORKERS:-1 3 6}
WJOBS=${WJOBS:-1 4}
on() { [[ " $SECTIONS " == *" $1 "* ]]; }
# bare K: the bare loop's games per second, K processes side by side (64,000 games each).
bare() {
	local k=$1 i
	for i in $(seq "$k"); do
		"$BARE" -test.run '^$' -test.bench 'BrewBare$' -test.benchtime 1000x >"$TMP/b$i" &
	done
	wait
	cat "$TMP"/b[0-9]* | awk '{for (i = 1; i < NF; i++) if ($(i+1) == "games/s") s += $i} END {printf "%.0f", s}'
	rm -f "$TMP"/b[0-9]*
}

now() { date +%s.%N; }
# secs START: seconds since START, to the millisecond.
secs() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.0f", n / s }'; }
sql() { "$PSQL" "$PG" -Atc "$1"; }
brew() { "$BIN" eval --game brew --strategy greedy --opponents random --quiet "$@" >"$TMP/out" 2>&1 || { cat "$TMP/out"; exit 1; }; }
# played FILE: the games the worker that wrote FILE played.
played() { sed -n 's/^run [^:]*: \([0-9]*\) played.*/\1/p' "$1"; }

echo "# $(uname -m), $CORES cores, $(date -u +%FT%TZ), $("$BIN" help 2>&1 | head -n 1)"

if [ -n "${BARE:-}" ] && on overhead; then
	echo "## the 20,000-game eval against the bare loop (5 rounds: seconds)"
	for round in 1 2 3 4 5; do
		gps=$("$BARE" -test.run '^$' -test.bench 'BrewBare$' -test.benchtime 313x | awk '/games\/s/ {for (i = 1; i < NF; i++) if ($(i+1) == "games/s") print $i}')
		line="bare $(awk -v g="$gps" 'BEGIN { printf "%.3f", 20000 / g }')"
		for store in none sqlite; do
			for jobs in 1 2; do
				rm -f "$TMP"/o.db*
				s=none
				[ $store = sqlite ] && s=sqlite:$TMP/o.db
				t=$(now)
				brew --cases seeds:20000 --jobs $jobs --storage "$s"
				line="$line $store/j$jobs $(secs "$t")"
			done
		done
		echo "round $round: $line"
	done
fi

on jobs && echo "## one worker, brew, $N games: jobs, seconds, games/s"
for store in none sqlite postgres; do
	on jobs || break
	for jobs in 1 2 4 8 16; do
		[ "$jobs" -gt "$CORES" ] && break
		case $store in
		none) s=none ;;
		sqlite) rm -f "$TMP"/s.db*; s=sqlite:$TMP/s.db ;;
		postgres) s=$PG ;;
		esac
		t=$(now)
		brew --cases seeds:"$N" --jobs "$jobs" --storage "$s" --run "$TAG-$store-$jobs"
		w=$(secs "$t")
		echo "$store jobs $jobs: $w s, $(rate "$N" "$w") games/s"
	done
done

# workers W JOBS GAMES RUN: W workers of one PostgreSQL run; prints the wall
# time from the first start to the last end and checks that the workers'
# played games add up to GAMES and that each is stored once.
workers() {
	local w=$1 jobs=$2 games=$3 run=$4 pids=() t sum=0
	t=$(now)
	for i in $(seq "$w"); do
		"$BIN" eval --game brew --strategy greedy --opponents random --quiet --cases seeds:"$games" \
			--jobs "$jobs" --storage "$PG" --run "$run" >"$TMP/w$i" 2>&1 &
		pids+=($!)
	done
	for p in "${pids[@]}"; do wait "$p"; done
	local wall
	wall=$(secs "$t")
	for i in $(seq "$w"); do sum=$((sum + $(played "$TMP/w$i"))); done
	echo "workers $w x jobs $jobs: $wall s, $(rate "$games" "$wall") games/s; played $sum of $games; stored $(sql "SELECT COUNT(*) || ' rows, ' || COUNT(DISTINCT match_key) || ' keys' FROM games WHERE run_id = '$run'")"
	for i in $(seq "$w"); do echo "  $(grep '^run ' "$TMP/w$i")"; done
	[ "$sum" = "$games" ] || { echo "FAIL: the workers played $sum games, not $games"; exit 1; }
}

on workers && echo "## workers sharing one PostgreSQL run, brew: 1 and 3 (and 6) workers"
for round in $(seq "$ROUNDS"); do
	on workers || break
	if [ -n "${BARE:-}" ]; then
		one=$(bare 1)
		three=$(bare 3)
		echo "bare loop: 1 process $one games/s, 3 side by side $three games/s ($(awk -v a="$three" -v b="$one" 'BEGIN { printf "%.2f", a / b }') x)"
	fi
	for jobs in $WJOBS; do
		for w in $WORKERS; do
			[ $((w * jobs)) -gt "$CORES" ] && continue
			games=$((N * 3 / 2))
			[ "$jobs" -gt 1 ] && games=$((games * 2))
			workers "$w" "$jobs" "$games" "$TAG-w$w-j$jobs-$round"
		done
	done
done

if on kill; then
echo "## three workers, one killed with -9 and started again"
games=$((N * 3))
run=$TAG-kill
pids=()
for i in 1 2 3; do
	"$BIN" eval --game brew --strategy greedy --opponents random --quiet --cases seeds:"$games" \
		--jobs 1 --storage "$PG" --run "$run" >"$TMP/k$i" 2>&1 &
	pids+=($!)
done
sleep 3
kill -9 "${pids[1]}"
victim=${pids[1]}
wait "${pids[1]}" 2>/dev/null || true
"$BIN" eval --game brew --strategy greedy --opponents random --quiet --cases seeds:"$games" \
	--jobs 1 --storage "$PG" --run "$run" >"$TMP/k4" 2>&1 &
pids[1]=$!
for p in "${pids[@]}"; do wait "$p"; done
byvictim=$(sql "SELECT COUNT(*) FROM games WHERE run_id = '$run' AND worker LIKE '%:$victim.%'")
sum=$byvictim
for i in 1 3 4; do sum=$((sum + $(played "$TMP/k$i"))); done
echo "kill: the killed worker stored $byvictim; all stored $(sql "SELECT COUNT(*) || ' rows, ' || COUNT(DISTINCT match_key) || ' keys' FROM games WHERE run_id = '$run'") of $games; played and stored once: $sum"
[ "$sum" = "$games" ] || { echo "FAIL: $sum games stored or played, not $games"; exit 1; }
fi

on paperio && echo "## one worker, Paper.io simple against simple, SQLite: jobs, seconds, games/s"
pgames=$((N / 25))
for jobs in 1 2 4 8 16; do
	on paperio || break
	[ "$jobs" -gt "$CORES" ] && break
	rm -f "$TMP"/p.db*
	t=$(now)
	"$BIN" eval --game paperio --strategy simple --opponents simple --quiet --cases seeds:"$pgames" \
		--jobs "$jobs" --storage sqlite:"$TMP/p.db" >"$TMP/out" 2>&1 || { cat "$TMP/out"; exit 1; }
	w=$(secs "$t")
	echo "paperio jobs $jobs: $w s, $(rate "$pgames" "$w") games/s"
done

if on referee && [ -n "${RELAY:-}" ]; then
	rgames=$((N / 100))
	echo "## one worker, games of a referee program ($rgames games of ${RELAY_ROUNDS:-100} rounds, 3 processes each), SQLite: jobs, seconds, games/s"
	referee="referee:env RELAY_TEST_ROLE=referee RELAY_TEST_ROUNDS=${RELAY_ROUNDS:-100} $RELAY -test.run=^\$"
	bot="cmd:env RELAY_TEST_ROLE=bot $RELAY -test.run=^\$"
	for jobs in 1 2 4 8 16; do
		[ "$jobs" -gt "$CORES" ] && break
		rm -f "$TMP"/r.db*
		t=$(now)
		"$BIN" eval --game "$referee" --strategy "$bot" --opponent "$bot" --quiet --cases seeds:"$rgames" \
			--jobs "$jobs" --storage sqlite:"$TMP/r.db" >"$TMP/out" 2>&1 || { cat "$TMP/out"; exit 1; }
		w=$(secs "$t")
		echo "referee jobs $jobs: $w s, $(rate "$rgames" "$w") games/s"
	done
fi

# league DB: a new brew league of six versions in the SQLite file DB.
league() {
	local v
	rm -f "$1"*
	for v in greedy random greedy:price_weight=0.5 greedy:price_weight=1.5 greedy:price_weight=2 greedy:price_weight=4; do
		"$BIN" league add --league L --game brew --storage sqlite:"$1" "$v" >"$TMP/out" 2>&1 || { cat "$TMP/out"; exit 1; }
	done
}
# stored DB: the games the league in DB holds.
stored() { "$BIN" league show --league L --storage sqlite:"$1" --json | sed -n 's/^  "games": \([0-9]*\),$/\1/p'; }

if on league; then
	lgames=${LEAGUE:-$((N / 2))}
	echo "## a brew league of six versions, $lgames games, SQLite: jobs, seconds, games/s"
	for jobs in 1 2 4 8 16; do
		[ "$jobs" -gt "$CORES" ] && break
		league "$TMP/l.db"
		t=$(now)
		"$BIN" league run --league L --total "$lgames" --jobs "$jobs" --quiet --storage sqlite:"$TMP/l.db" >"$TMP/out" 2>&1 || { cat "$TMP/out"; exit 1; }
		w=$(secs "$t")
		echo "league jobs $jobs: $w s, $(rate "$lgames" "$w") games/s"
	done
	echo "## workers of one league, --jobs 4 each, SQLite: workers, seconds, games/s, games stored"
	for w in 1 3; do
		[ $((w * 4)) -gt "$CORES" ] && continue
		league "$TMP/l.db"
		pids=()
		t=$(now)
		for i in $(seq "$w"); do
			"$BIN" league run --league L --total "$lgames" --jobs 4 --quiet --storage sqlite:"$TMP/l.db" >"$TMP/lw$i" 2>&1 &
			pids+=($!)
		done
		for p in "${pids[@]}"; do wait "$p" || { cat "$TMP"/lw*; exit 1; }; done
		wall=$(secs "$t")
		echo "league workers $w: $wall s, $(rate "$lgames" "$wall") games/s; stored $(stored "$TMP/l.db")"
	done
fi
