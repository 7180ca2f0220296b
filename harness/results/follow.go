package results

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/harness/runner"
	"gauntlet/harness/store"
)

// Follower keeps a stored run's results up to date while its workers play
// it. Its first Update reads every stored game; each later one reads the
// run's match keys, then only the games it has not read, so that following
// a run costs a scan of its keys and the new games' outcomes rather than
// every game's record each time (over a million stored games about 0.4 s
// against 3 s: BenchmarkNewKeys, BenchmarkOutcomes). Games are never
// removed from a run; should the store hold fewer than were read, the next
// Update reads the run again from the start. Not safe for concurrent use.
type Follower struct {
	st    *store.Store
	rec   *store.RunRecord
	rs    *runner.Results
	index map[string]int // plan index by match key
}

// Follow rebuilds a stored run's plan from its spec, for Update to fill in.
func Follow(ctx context.Context, st *store.Store, reg *contract.Registry, runID string) (*Follower, error) {
	p, rec, err := loadPlan(ctx, st, reg, runID)
	if err != nil {
		return nil, err
	}
	index, err := p.KeyIndex()
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", runID, err)
	}
	return &Follower{st: st, rec: rec, index: index,
		rs: &runner.Results{Plan: p, Results: make([]*runner.Result, len(p.Matches))}}, nil
}

// Update reads the run's record and the games stored since the last
// Update.
func (f *Follower) Update(ctx context.Context) error {
	rec, err := f.st.Run(ctx, f.rec.ID)
	if err != nil {
		return err
	}
	var keys []string // nil: the whole run
	if f.rs.Resumed > 0 {
		// A key outside the plan counts as read: it is never taken.
		var total int
		keys, total, err = f.st.NewKeys(ctx, rec.ID, func(key []byte) bool {
			i, ok := f.index[string(key)]
			return !ok || f.rs.Results[i] != nil
		})
		switch {
		case err != nil:
			return err
		case total < f.rs.Resumed:
			clear(f.rs.Results)
			f.rs.Resumed, keys = 0, nil
		case len(keys) == 0:
			f.setRecord(rec)
			return nil
		case len(keys) > len(f.index)/2:
			keys = nil // a list that long costs more than reading the run
		}
	}
	err = f.st.Outcomes(ctx, rec.ID, keys, func(key []byte) (int, bool) {
		i, ok := f.index[string(key)]
		return i, ok && f.rs.Results[i] == nil
	}, func(i int, o contract.Outcome, wall time.Duration) {
		f.rs.Results[i] = &runner.Result{Index: i, Outcome: o, Wall: wall, Resumed: true}
		f.rs.Resumed++
	})
	if err != nil {
		return err
	}
	f.setRecord(rec)
	return nil
}

func (f *Follower) setRecord(rec *store.RunRecord) {
	f.rec = rec
	f.rs.Stopped = rec.Status == "stopped"
}

// Results are the run's results as of the last Update: its plan, and the
// stored games by plan index (nil where none is stored yet). They change
// with the next Update.
func (f *Follower) Results() *runner.Results { return f.rs }

// Record is the run's record as of the last Update.
func (f *Follower) Record() *store.RunRecord { return f.rec }

// EvalSummary summarizes an eval run's results as of the last Update.
func (f *Follower) EvalSummary() (*EvalSummary, error) {
	if f.rec.Kind != "eval" {
		return nil, fmt.Errorf("run %s is an %s run, not an eval run", f.rec.ID, f.rec.Kind)
	}
	return SummarizeEval(f.rs), nil
}

// ABSummary summarizes an ab run's results as of the last Update, with the
// sequential test the run was started with.
func (f *Follower) ABSummary() (*ABSummary, error) {
	if f.rec.Kind != "ab" {
		return nil, fmt.Errorf("run %s is an %s run, not an ab run", f.rec.ID, f.rec.Kind)
	}
	sp := DefaultSPRT
	if raw, ok := f.rs.Plan.Spec().Extra["sprt"]; ok {
		js, err := json.Marshal(raw)
		if err == nil {
			err = json.Unmarshal(js, &sp)
		}
		if err != nil {
			return nil, fmt.Errorf("run %s: sprt: %w", f.rec.ID, err)
		}
	}
	sum, err := SummarizeAB(f.rs, sp)
	if err != nil {
		return nil, err
	}
	sum.CountStored(f.rs.Resumed) // every game of the plan the store holds
	return sum, nil
}
