package tuning

import (
	"bytes"
	"context"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	"gauntlet/harness/contract"
)

// trialLine is a "tune: trial ..." log line's attributes.
func trialLine(t *testing.T, line string) map[string]string {
	t.Helper()
	attrs := map[string]string{}
	for _, f := range strings.Fields(line) {
		if k, v, ok := strings.Cut(f, "="); ok {
			attrs[k] = strings.Trim(v, `"`)
		}
	}
	return attrs
}

// TestTrialLinesShowTheBestSoFar: every finished trial's line says the
// trials finished of the budget, the best value so far and its trial (the
// best of the values of the lines up to it, in the study's direction), and
// an ETA; the last line's best is the summary's. A line is logged at
// info level, so --quiet has none.
func TestTrialLinesShowTheBestSoFar(t *testing.T) {
	for _, game := range []string{"knob", "cost"} {
		t.Run(game, func(t *testing.T) {
			tu, err := New(toyRegistry(0), Config{Game: game, Strategy: "dial", Cases: "seeds:4", Sampler: "random", Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			var logs bytes.Buffer
			const trials = 12
			sum, err := tu.Run(context.Background(), openStorage(t, sqliteURL(t)), RunOptions{Study: "s", Trials: trials, Jobs: 1,
				Heartbeat: time.Second, Log: slog.New(slog.NewTextHandler(&logs, nil))})
			if err != nil {
				t.Fatal(err)
			}
			minimize := tu.Spec().Direction == contract.Lower
			if minimize != (game == "cost") {
				t.Fatalf("%s: minimize %v", game, minimize)
			}
			var best float64
			bestTrial, n := -1, 0
			for l := range strings.Lines(logs.String()) {
				if !strings.Contains(l, `msg="tune: trial complete"`) {
					continue
				}
				a := trialLine(t, l)
				n++
				v, err := strconv.ParseFloat(a["value"], 64)
				if err != nil {
					t.Fatalf("value in %s", l)
				}
				if bestTrial < 0 || minimize && v < best || !minimize && v > best {
					best, bestTrial = v, n-1
				}
				if a["trials"] != strconv.Itoa(n)+"/"+strconv.Itoa(trials) || a["best"] != strconv.FormatFloat(best, 'g', -1, 64) ||
					a["best_trial"] != strconv.Itoa(bestTrial) || a["trial"] != strconv.Itoa(n-1) || a["eta"] == "" {
					t.Errorf("after %d trials (best %v, trial %d) the line says %v", n, best, bestTrial, a)
				}
			}
			if n != trials || sum.BestValue == nil || *sum.BestValue != best {
				t.Errorf("%d trial lines, best %v; the summary's best %v", n, best, sum.BestValue)
			}
		})
	}
}
