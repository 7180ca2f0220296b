package harness

import (
	"context"
	"encoding/json"
	"fmt"
)

// LoadResults rebuilds a stored eval or ab run: its plan (from the stored
// spec, with the entrants parsed again in reg) and its finished games, in
// plan order. Unplayed matches are nil in Results.
func LoadResults(ctx context.Context, st *Store, reg *Registry, runID string) (*Results, *RunRecord, error) {
	rec, err := st.Run(ctx, runID)
	if err != nil {
		return nil, nil, err
	}
	var spec RunSpec
	if err := json.Unmarshal([]byte(rec.Spec), &spec); err != nil {
		return nil, nil, fmt.Errorf("run %s: spec: %w", runID, err)
	}
	g, err := reg.Game(spec.Game)
	if err != nil {
		return nil, nil, fmt.Errorf("run %s: %w", runID, err)
	}
	ents := make([]*Entrant, len(spec.Entrants))
	for i, key := range spec.Entrants {
		if ents[i], err = reg.ParseEntrant(spec.Game, key); err != nil {
			return nil, nil, fmt.Errorf("run %s: entrant %d: %w", runID, i, err)
		}
	}
	var p *Plan
	switch spec.Kind {
	case "eval":
		if len(ents) == 0 {
			return nil, nil, fmt.Errorf("run %s has no entrants", runID)
		}
		p, err = EvalPlan(g, spec.Cases, ents[0], ents[1:], runID)
	case "ab":
		if len(ents) < 2 {
			return nil, nil, fmt.Errorf("run %s: an ab run needs two entrants", runID)
		}
		maxGames := 0
		if v, ok := spec.Extra["games"].(float64); ok {
			maxGames = int(v)
		}
		p, err = ABPlan(g, spec.Cases, ents[0], ents[1], ents[2:], maxGames, runID, spec.Extra)
	default:
		return nil, nil, fmt.Errorf("run %s is a %q run; only eval and ab runs hold games", runID, spec.Kind)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("run %s: %w", runID, err)
	}
	games, err := st.Games(ctx, runID)
	if err != nil {
		return nil, nil, err
	}
	rs := &Results{Plan: p, Results: make([]*Result, len(p.Matches))}
	for i, m := range p.Matches {
		gr, ok := games[m.Key]
		if !ok {
			continue
		}
		rs.Results[i] = &Result{Index: i, Outcome: gr.Outcome, Wall: gr.Wall, Resumed: true}
		rs.Resumed++
	}
	rs.Stopped = rec.Status == "stopped"
	return rs, rec, nil
}

// LoadEvalSummary recomputes the summary of a stored eval run.
func LoadEvalSummary(ctx context.Context, st *Store, reg *Registry, runID string) (*EvalSummary, error) {
	rs, rec, err := LoadResults(ctx, st, reg, runID)
	if err != nil {
		return nil, err
	}
	if rec.Kind != "eval" {
		return nil, fmt.Errorf("run %s is an %s run, not an eval run", runID, rec.Kind)
	}
	return SummarizeEval(rs), nil
}

// LoadABSummary recomputes the summary of a stored ab run, with the
// sequential test it was run with.
func LoadABSummary(ctx context.Context, st *Store, reg *Registry, runID string) (*ABSummary, error) {
	rs, rec, err := LoadResults(ctx, st, reg, runID)
	if err != nil {
		return nil, err
	}
	if rec.Kind != "ab" {
		return nil, fmt.Errorf("run %s is an %s run, not an ab run", runID, rec.Kind)
	}
	var spec RunSpec
	_ = json.Unmarshal([]byte(rec.Spec), &spec)
	sp := DefaultSPRT
	if raw, ok := spec.Extra["sprt"]; ok {
		js, _ := json.Marshal(raw)
		if err := json.Unmarshal(js, &sp); err != nil {
			return nil, fmt.Errorf("run %s: sprt: %w", runID, err)
		}
	}
	return SummarizeAB(rs, sp)
}
