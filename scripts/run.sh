#!/usr/bin/env bash
# The main job behind `make run`: a short seeded tuning study on embedded
# SQLite (brew's greedy bot against its own defaults), the tuned values
# checked on held-out seeds with an A/B test, a hextris evaluation with the
# leaderboard's per-problem table, and the tables, plots and HTML report of
# each in OUT/.
set -euo pipefail
BIN=${1:-bin/gauntlet}
OUT=${2:-out}
TRIALS=${TRIALS:-60}
mkdir -p "$OUT"
DB="sqlite:$OUT/gauntlet.db"

echo "== tune: brew greedy against default greedy on seeds 1..200, $TRIALS trials (TPE seed 1, Wilcoxon pruner)"
"$BIN" tune --game brew --strategy greedy --opponents greedy --cases seeds:200 --trials "$TRIALS" \
  --sampler tpe --seed 1 --pruner wilcoxon --jobs 2 --storage "$DB" --study make-run-brew-greedy \
  --best-json "$OUT/greedy-best.json" --quiet

echo
echo "== ab: tuned greedy against default greedy on held-out seeds 1001..1400"
"$BIN" ab --game brew --a greedy --a-params-file "$OUT/greedy-best.json" --b greedy \
  --cases seeds:1001-1400 --sprt 0,10 --storage "$DB" --run make-run-ab --quiet \
  --md "$OUT/ab.md" --csv "$OUT/ab.csv"

echo
echo "== eval: hexgreedy on the hextris smoke set (leaderboard aggregation per problem)"
"$BIN" eval --game hextris --strategy hexgreedy --cases smoke --storage "$DB" --run make-run-eval --quiet \
  --md "$OUT/eval.md" --csv "$OUT/eval.csv"

echo
echo "== report"
"$BIN" report --study make-run-brew-greedy --storage "$DB" --out "$OUT/report-tune"
"$BIN" report --ab make-run-ab --storage "$DB" --out "$OUT/report-ab"
"$BIN" report --run make-run-eval --storage "$DB" --out "$OUT/report-eval"
echo
echo "open $OUT/report-tune/index.html (also $OUT/report-ab/ and $OUT/report-eval/)"
echo
echo "== this job's runs and study live in $DB, not the default store: look at them again with"
echo "$BIN runs --storage $DB"
echo "$BIN tune --list --storage $DB"
echo "$BIN report --study make-run-brew-greedy --storage $DB --out $OUT/report-tune"
echo "$BIN report --ab make-run-ab --storage $DB --out $OUT/report-ab"
echo "$BIN report --run make-run-eval --storage $DB --out $OUT/report-eval"
