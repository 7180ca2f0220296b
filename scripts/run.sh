#!/usr/bin/env bash
# The main job behind `make run`: a short seeded tuning study of the hextris
# greedy strategy on embedded SQLite, the tuned values checked against the
# defaults, a brew A/B comparison, and the tables, plots and HTML report of
# each in OUT/.
set -euo pipefail
BIN=${1:-bin/gauntlet}
OUT=${2:-out}
TRIALS=${TRIALS:-24}
mkdir -p "$OUT"
DB="sqlite:$OUT/gauntlet.db"

echo "== tune: hexgreedy on the hextris smoke set, $TRIALS trials (TPE, seed 1)"
"$BIN" tune --game hextris --strategy hexgreedy --cases smoke --trials "$TRIALS" \
  --sampler tpe --seed 1 --jobs 2 --storage "$DB" --study make-run-hexgreedy \
  --best-json "$OUT/hexgreedy-best.json"

echo
echo "== eval: the tuned hexgreedy on the smoke set"
"$BIN" eval --game hextris --strategy hexgreedy --params-file "$OUT/hexgreedy-best.json" \
  --cases smoke --storage "$DB" --run make-run-eval --quiet \
  --md "$OUT/eval.md" --csv "$OUT/eval.csv"

echo
echo "== ab: brew greedy against random, 100 games"
"$BIN" ab --game brew --a greedy --b random --games 100 --storage "$DB" --run make-run-ab --quiet \
  --md "$OUT/ab.md"

echo
echo "== report"
"$BIN" report --study make-run-hexgreedy --storage "$DB" --out "$OUT/report-tune"
"$BIN" report --run make-run-eval --storage "$DB" --out "$OUT/report-eval"
"$BIN" report --ab make-run-ab --storage "$DB" --out "$OUT/report-ab"
echo
echo "open $OUT/report-tune/index.html (also report-eval/, report-ab/)"
