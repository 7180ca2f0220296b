package workflow

import (
	"testing"
	"time"
)

// TestInterimWaitsForItsShare: a due interim line waits until reportShare
// times the last summary's cost has passed since the last line, once
// summaries cost freeCost or more.
func TestInterimWaitsForItsShare(t *testing.T) {
	t0 := time.Now()
	a := &abInterim{at: t0, cost: 5 * time.Millisecond}
	for _, c := range []struct {
		after time.Duration
		wait  bool
	}{{0, true}, {49 * time.Millisecond, true}, {50 * time.Millisecond, false}, {time.Second, false}} {
		if got := a.waits(t0.Add(c.after)); got != c.wait {
			t.Errorf("%v after a line whose summary took 5ms: waits %v, want %v", c.after, got, c.wait)
		}
	}
	for _, cost := range []time.Duration{0, freeCost - 1} {
		if (&abInterim{at: t0, cost: cost}).waits(t0) {
			t.Errorf("the last summary took %v: a line waits", cost)
		}
	}
}
