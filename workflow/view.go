package workflow

import (
	"context"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/harness/results"
	"gauntlet/harness/runner"
	"gauntlet/harness/store"
)

// ViewRequest is one game to watch: a stored one (Run and Case, a game key
// of the run) or one played anew (Options.Game, Case, the entrant in seat 0
// and its opponents).
type ViewRequest struct {
	Options
	Run       string // a stored run ("": play the game anew)
	Case      string
	Entrant   EntrantSpec
	Lineup    string
	Opponents []string
}

// View returns req's game as a replay and its game's viewer.
func View(ctx context.Context, req ViewRequest) (*contract.Replay, contract.Viewer, error) {
	if req.Run != "" {
		if req.Game != "" || req.Entrant.Strategy != "" || req.Lineup != "" || len(req.Opponents) > 0 {
			return nil, nil, cli.Usagef("--run replays a stored game: no --game, --strategy or --opponents")
		}
		return viewStored(ctx, req.Storage, req.Run, req.Case)
	}
	g, err := req.ResolveGame()
	if err != nil {
		return nil, nil, err
	}
	viewer, ok := g.(contract.Viewer)
	if !ok {
		return nil, nil, cli.Usagef("game %s has no replay viewer", req.Game)
	}
	c, err := oneCase(g, req.Case)
	if err != nil {
		return nil, nil, err
	}
	ent, err := req.Entrant.Entrant(req.Game)
	if err != nil {
		return nil, nil, err
	}
	opps, err := Opponents(g, req.Lineup, req.Opponents)
	if err != nil {
		return nil, nil, err
	}
	plan, err := runner.EvalPlan(g, c.ID, ent, opps, "")
	if err != nil {
		return nil, nil, err
	}
	opt := req.PlayOptions()
	opt.RecordMoves = true
	m := &plan.Matches[0]
	outcome, _, err := runner.PlayMatch(ctx, plan, m, opt)
	if err != nil {
		return nil, nil, err
	}
	labels := make([]string, len(m.Seats))
	for seat, ei := range m.Seats {
		labels[seat] = plan.Entrants[ei].Label()
	}
	r, err := viewer.Watch(m.Case, outcome, labels)
	if err != nil {
		return nil, nil, err
	}
	for seat, l := range outcome.Logs {
		if l != nil && !l.Empty() {
			r.AddLog(seat, l.Record().Turns, viewer)
		}
	}
	return r, viewer, nil
}

// viewStored returns one game of a stored run.
func viewStored(ctx context.Context, storage, run, key string) (r *contract.Replay, v contract.Viewer, err error) {
	if key == "" {
		return nil, nil, cli.Usagef("--case is required (a case of the run; CASE/ab or CASE/ba for an ab run)")
	}
	if err := ReadStorage("--storage", storage, "--run reads a stored run"); err != nil {
		return nil, nil, err
	}
	st, err := store.OpenReadOnly(ctx, storage)
	if err != nil {
		return nil, nil, err
	}
	defer closeInto(&err, st)
	return results.WatchStored(ctx, st, contract.Default, run, key)
}
