package runner

import (
	"time"

	"gauntlet/harness/contract"
)

// Result is one finished match.
type Result struct {
	Index   int // position in Plan.Matches
	Outcome contract.Outcome
	Wall    time.Duration
	Resumed bool // loaded from the store, not played by this process

	refereeErr *contract.RefereeError // the game's referee failed: no outcome (see RefereeError)
}

// Stopper decides from results, fed in plan order, whether the run may stop
// early (a sequential test). Add is never called concurrently.
type Stopper interface {
	// Add takes the next result in plan order and reports whether the run is
	// decided after it.
	Add(r *Result) (stop bool)
}

// Results is the outcome of Runner.Run.
type Results struct {
	Plan    *Plan
	Results []*Result // by plan index; nil where not played (early stop, interruption)
	// Stopped is true when a Stopper decided the run; StopAt is then the
	// number of leading matches the decision used.
	Stopped bool
	StopAt  int
	Played  int // matches played by this process and stored (or, without a store, played), those finished after an early stop included
	Resumed int // matches loaded from the store: stored earlier or by other workers
	// Duplicates counts matches this process played whose stored result is
	// another worker's: both played it, after this worker's claim expired
	// (it was too slow to renew it).
	Duplicates int
	// RefereeErrors are the games of this process whose referee failed
	// (see RefereeError): not in Results, not stored, played again by a
	// rerun.
	RefereeErrors []contract.RefereeFailure
	Wall          time.Duration

	gathered int // other workers' games read while this one played (see gather)
}

// Decided returns the results the summary uses: the first StopAt results
// after an early stop, otherwise every finished result, in plan order.
func (rs *Results) Decided() []*Result {
	n := len(rs.Results)
	if rs.Stopped {
		n = rs.StopAt
	}
	out := make([]*Result, 0, n)
	for _, r := range rs.Results[:n] {
		if r != nil {
			out = append(out, r)
		}
	}
	return out
}
