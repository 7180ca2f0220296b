package tuning

import (
	"strings"
	"testing"
	"time"
)

// A TPE study says it is reproducible exactly when each trial saw the
// results it would have seen in an uninterrupted run, or both histories
// were shorter than TPE's random start-up trials.
func TestReproducibilityFollowsTheHistory(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Second) }
	// trials builds slots 0..n-1 run one after another, the trial of slot
	// lost (if >= 0) killed and re-run after the trial of slot rerunAfter.
	trials := func(n, lost, rerunAfter int) []TrialRecord {
		var out []TrialRecord
		clock := 0
		run := func(slot int, state string) {
			tr := TrialRecord{Number: len(out), Slot: slot, State: state, Start: at(clock), Worker: "w"}
			clock++
			if state != StateLost {
				tr.End = at(clock)
			}
			clock++
			out = append(out, tr)
		}
		for s := range n {
			if s == lost {
				run(s, StateLost)
				if rerunAfter < s {
					run(s, StateComplete)
				}
			} else {
				run(s, StateComplete)
			}
			if s == rerunAfter && lost >= 0 && rerunAfter >= lost {
				run(lost, StateComplete)
			}
		}
		return out
	}
	startup := (&TPESampler{}).startup()
	cases := []struct {
		name           string
		n, lost, after int
		sampler        string
		want           bool
	}{
		{"uninterrupted", 2 * startup, -1, -1, "tpe", true},
		{"lost trial re-run at once", 2 * startup, 3, 2, "tpe", true},
		{"re-run after later slots, all within the start-up", startup, 2, 6, "tpe", true},
		{"re-run after later slots, past the start-up", 2 * startup, 2, startup + 3, "tpe", false},
		{"late trial re-run after the start-up ended elsewhere", 2 * startup, startup + 1, startup + 4, "tpe", false},
		{"random sampler, any order", 2 * startup, 2, startup + 3, "random", true},
	}
	for _, c := range cases {
		rec := &StudyRecord{Spec: Spec{Sampler: c.sampler, Seed: 1}, Trials: trials(c.n, c.lost, c.after)}
		got, note := reproducibility(rec)
		if got != c.want {
			t.Errorf("%s: reproducible=%v (%s), want %v", c.name, got, note, c.want)
		}
		if got != strings.HasPrefix(note, "reproducible") {
			t.Errorf("%s: note %q disagrees with %v", c.name, note, got)
		}
	}
}
