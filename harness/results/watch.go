package results

import (
	"context"
	"fmt"
	"strings"

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
	rs, rec, err := LoadResults(ctx, st, reg, runID)
	if err != nil {
		return nil, nil, err
	}
	v, ok := rs.Plan.Game.(contract.Viewer)
	if !ok {
		return nil, nil, fmt.Errorf("game %s has no replay viewer", rec.Game)
	}
	idx := -1
	var keys []string
	for i, m := range rs.Plan.Matches {
		if m.Key == key {
			idx = i
		}
		if rs.Results[i] != nil && len(keys) < 6 {
			keys = append(keys, m.Key)
		}
	}
	if idx < 0 {
		return nil, nil, fmt.Errorf("run %s has no game %q (its games: %s ...)", runID, key, strings.Join(keys, ", "))
	}
	res := rs.Results[idx]
	if res == nil {
		return nil, nil, fmt.Errorf("run %s: game %s was not played", runID, key)
	}
	m := &rs.Plan.Matches[idx]
	labels := make([]string, len(m.Seats))
	for seat, ei := range m.Seats {
		labels[seat] = rs.Plan.Entrants[ei].Label()
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
			if rs.Plan.Entrants[ei].IsExternal() {
				return nil, nil, fmt.Errorf("run %s game %s: no moves were recorded for its external bot", runID, key)
			}
		}
		again, _, err := runner.PlayMatch(ctx, rs.Plan, m, contract.PlayOptions{RecordMoves: true, NoTimeLimit: true})
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
