package results

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/harness/runner"
	"gauntlet/harness/store"
)

// WatchStored rebuilds the replay of one stored game of a run, given its
// match key (an eval's case ID; an ab game's "CASE/ab" or "CASE/ba"): from
// its recorded moves, or, where the run kept none (built-in strategies, which
// play the same game again from the same seeds), by playing it again with
// its moves recorded — which must give the stored scores.
func WatchStored(ctx context.Context, st *store.Store, reg *contract.Registry, runID, key string) (*contract.Replay, contract.Viewer, error) {
	plan, rec, err := loadPlan(ctx, st, reg, runID)
	if err != nil {
		return nil, nil, err
	}
	v, ok := plan.Game.(contract.Viewer)
	if !ok {
		return nil, nil, fmt.Errorf("game %s has no replay viewer", rec.Game)
	}
	idx := slices.IndexFunc(plan.Matches, func(m runner.Match) bool { return m.Key == key })
	if idx < 0 {
		return nil, nil, noGame(ctx, st, reg, runID, key)
	}
	// Only the game watched is read: a run may hold a million.
	var res *runner.Result
	err = st.Outcomes(ctx, runID, []string{key}, func(k []byte) (int, bool) { return idx, string(k) == key && res == nil },
		func(i int, o contract.Outcome, wall time.Duration) {
			res = &runner.Result{Index: i, Outcome: o, Wall: wall, Resumed: true}
		})
	if err != nil {
		return nil, nil, err
	}
	if res == nil {
		return nil, nil, fmt.Errorf("run %s: game %s was not played", runID, key)
	}
	m := &plan.Matches[idx]
	labels := make([]string, len(m.Seats))
	for seat, ei := range m.Seats {
		labels[seat] = plan.Entrants[ei].Label()
		if ei < len(rec.Entrants) {
			labels[seat] = rec.Entrants[ei].Label
		}
	}
	out := res.Outcome
	if out.Moves, err = st.GameMoves(ctx, runID, key); err != nil {
		return nil, nil, err
	}
	if len(out.Moves) == 0 {
		for _, ei := range m.Seats {
			if plan.Entrants[ei].IsExternal() {
				return nil, nil, fmt.Errorf("run %s game %s: no moves were recorded for its external bot", runID, key)
			}
		}
		again, _, err := runner.PlayMatch(ctx, plan, m, contract.PlayOptions{RecordMoves: true, NoTimeLimit: true})
		if err != nil {
			return nil, nil, err
		}
		for seat := range again.Seats {
			if again.Seats[seat].Score != out.Seats[seat].Score {
				return nil, nil, fmt.Errorf("run %s game %s: played again, seat %d scores %v where the run stored %v (a strategy with a time budget?)",
					runID, key, seat, again.Seats[seat].Score, out.Seats[seat].Score)
			}
		}
		out.Moves = again.Moves
	}
	r, err := v.Watch(m.Case, out, labels)
	if err != nil {
		return nil, nil, err
	}
	logs, err := st.BotLogs(ctx, runID, key)
	if err != nil {
		return nil, nil, err
	}
	for _, l := range logs {
		r.AddLog(l.Seat, l.Record.Turns, v)
	}
	return r, v, nil
}

// noGame says that run runID has no game key, naming a few of its games.
func noGame(ctx context.Context, st *store.Store, reg *contract.Registry, runID, key string) error {
	rs, _, err := LoadResults(ctx, st, reg, runID)
	if err != nil {
		return err
	}
	var keys []string
	for i, m := range rs.Plan.Matches {
		if rs.Results[i] != nil && len(keys) < 6 {
			keys = append(keys, m.Key)
		}
	}
	return fmt.Errorf("run %s has no game %q (its games: %s ...)", runID, key, strings.Join(keys, ", "))
}
