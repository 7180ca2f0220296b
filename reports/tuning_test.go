package reports

import (
	"strings"
	"testing"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/tuning"
)

// The summary text of a study whose default trial failed says so, with the
// reason, and prints no improvement figures; repeats are counted.
func TestTuneSummaryFailedDefault(t *testing.T) {
	zero, best := 0, 1
	v := 0.5
	s := &tuning.Summary{Study: "s", Game: "g", Strategy: "st", Cases: "seeds:2", Units: 2, Complete: 3, Failed: 1,
		BestTrial: &best, BestValue: &v, DefaultTrial: &zero, DefaultState: tuning.StateFailed, DefaultReason: "the bot crashed",
		Distinct: 2, Repeats: 2, Deterministic: true, DeterministicNote: "deterministic",
		Trials: []tuning.TrialRow{{Number: 0, State: tuning.StateFailed, Reason: "the bot crashed", Base: true},
			{Number: 1, State: tuning.StateComplete, Value: &v}, {Number: 2, State: tuning.StateComplete, Value: &v, RepeatOf: &best}}}
	var b strings.Builder
	WriteTuneSummary(&b, s, time.Second)
	out := b.String()
	for _, want := range []string{"default (trial 0): failed (the bot crashed); no improvement figures",
		"configurations: 2 distinct in 4 finished trials; 2 repeats took the scores of earlier trials without playing",
		"complete (repeat of 1)", "scores of trial 1 taken, nothing played"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"default value 0", "improvement (", "CI"} {
		if strings.Contains(out, bad) {
			t.Errorf("summary says %q:\n%s", bad, out)
		}
	}
}

// TestTuningStudyObjective: a study's report words its objective as the
// study's summary does (tuning.Spec.Objective), with and without an
// opponent pool.
func TestTuningStudyObjective(t *testing.T) {
	for _, sp := range []tuning.Spec{{Game: "g", Strategy: "s"}, {Game: "g", Strategy: "s", Opponents: []string{"a", "b"}}, {Game: "g", Strategy: "s", Direction: contract.Lower}} {
		rec := &tuning.StudyRecord{Name: "st", Spec: sp}
		sum := tuning.BuildSummary(rec)
		got := TuningStudy(contract.NewRegistry(), rec, sum).Objective
		if got != sum.Objective || got != sp.Objective() || got == "" {
			t.Errorf("opponents %v: report's objective %q, summary's %q, spec's %q", sp.Opponents, got, sum.Objective, sp.Objective())
		}
	}
}
