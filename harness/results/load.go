package results

import (
	"context"
	"encoding/json"
	"fmt"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/runner"
	"gauntlet/harness/store"
)

// loadPlan reads a stored run's record and rebuilds its plan from the
// stored spec.
func loadPlan(ctx context.Context, st *store.Store, reg *contract.Registry, runID string) (*runner.Plan, *store.RunRecord, error) {
	rec, err := st.Run(ctx, runID)
	if err != nil {
		return nil, nil, err
	}
	var spec runner.RunSpec
	if err := json.Unmarshal([]byte(rec.Spec), &spec); err != nil {
		return nil, nil, fmt.Errorf("run %s: spec: %w", runID, err)
	}
	g, err := specGame(reg, spec)
	if err != nil {
		return nil, nil, fmt.Errorf("run %s: %w", runID, err)
	}
	ents := make([]*entrant.Entrant, len(spec.Entrants))
	for i, key := range spec.Entrants {
		var er store.EntrantRecord
		if i < len(rec.Entrants) && rec.Entrants[i].Key == key {
			er = rec.Entrants[i]
		}
		ents[i] = entrant.Reparse(reg, spec.Game, key, er)
	}
	var p *runner.Plan
	switch spec.Kind {
	case "eval":
		if len(ents) == 0 {
			return nil, nil, fmt.Errorf("run %s has no entrants", runID)
		}
		p, err = runner.EvalPlan(g, spec.Cases, ents[0], ents[1:], runID)
	case "ab":
		if len(ents) < 2 {
			return nil, nil, fmt.Errorf("run %s: an ab run needs two entrants", runID)
		}
		maxGames := 0
		if v, ok := spec.Extra["games"].(float64); ok {
			maxGames = int(v)
		}
		p, err = runner.ABPlan(g, spec.Cases, ents[0], ents[1], ents[2:], maxGames, runID, spec.Extra)
	default:
		return nil, nil, fmt.Errorf("run %s is a %q run; only eval and ab runs hold games", runID, spec.Kind)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("run %s: %w", runID, err)
	}
	return p, rec, nil
}

// LoadResults reads a stored run back: its plan, rebuilt from the stored
// spec, and the results of the games stored so far.
func LoadResults(ctx context.Context, st *store.Store, reg *contract.Registry, runID string) (*runner.Results, *store.RunRecord, error) {
	f, err := follow(ctx, st, reg, runID)
	if err != nil {
		return nil, nil, err
	}
	return f.Results(), f.Record(), nil
}

// LoadEvalSummary recomputes the summary of a stored eval run.
func LoadEvalSummary(ctx context.Context, st *store.Store, reg *contract.Registry, runID string) (*EvalSummary, error) {
	f, err := follow(ctx, st, reg, runID)
	if err != nil {
		return nil, err
	}
	return f.EvalSummary()
}

// LoadABSummary recomputes the summary of a stored ab run, with the
// sequential test it was run with.
func LoadABSummary(ctx context.Context, st *store.Store, reg *contract.Registry, runID string) (*ABSummary, error) {
	f, err := follow(ctx, st, reg, runID)
	if err != nil {
		return nil, err
	}
	return f.ABSummary()
}

// follow reads a stored run once.
func follow(ctx context.Context, st *store.Store, reg *contract.Registry, runID string) (*Follower, error) {
	f, err := Follow(ctx, st, reg, runID)
	if err != nil {
		return nil, err
	}
	return f, f.Update(ctx)
}

// PlannedGames is the number of games a stored eval or ab run holds once
// complete: its case set's cases, twice for an ab run (both seatings, or
// both entrants of a single-player game), or the number its --games kept.
// It counts from the spec rather than building the plan (LoadResults):
// that would parse the entrants again, hashing an external bot's files for
// every run a listing shows.
func PlannedGames(reg *contract.Registry, rec *store.RunRecord) (int, error) {
	var spec runner.RunSpec
	if err := json.Unmarshal([]byte(rec.Spec), &spec); err != nil {
		return 0, fmt.Errorf("run %s: spec: %w", rec.ID, err)
	}
	g, err := specGame(reg, spec)
	if err != nil {
		return 0, fmt.Errorf("run %s: %w", rec.ID, err)
	}
	cases, err := g.Cases(spec.Cases)
	if err != nil {
		return 0, fmt.Errorf("run %s: %w", rec.ID, err)
	}
	switch spec.Kind {
	case "eval":
		return len(cases), nil
	case "ab":
		if v, ok := spec.Extra["games"].(float64); ok {
			return int(v), nil
		}
		return 2 * len(cases), nil
	}
	return 0, fmt.Errorf("run %s is a %q run; only eval and ab runs hold games", rec.ID, spec.Kind)
}

// specGame is the game of a stored run: by its name, or, for a game made
// from a referee program that this process has not resolved, by its
// source.
func specGame(r *contract.Registry, spec runner.RunSpec) (contract.Game, error) {
	g, err := r.Game(spec.Game)
	if err != nil && spec.Source != "" {
		if g, err2 := r.Game(spec.Source); err2 == nil {
			return g, nil
		} else {
			return nil, fmt.Errorf("%w; its source %q: %w", err, spec.Source, err2)
		}
	}
	return g, err
}
