package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"gauntlet/strategies/param"
)

// LoadResults rebuilds a stored eval or ab run: its plan (from the stored
// spec, with the entrants parsed again in reg, see reparse) and its
// finished games, in plan order. Unplayed matches are nil in Results.
func LoadResults(ctx context.Context, st *Store, reg *Registry, runID string) (*Results, *RunRecord, error) {
	rec, err := st.Run(ctx, runID)
	if err != nil {
		return nil, nil, err
	}
	if err := json.Unmarshal([]byte(rec.Spec), &rec.spec); err != nil {
		return nil, nil, fmt.Errorf("run %s: spec: %w", runID, err)
	}
	spec := rec.spec
	g, err := reg.specGame(spec)
	if err != nil {
		return nil, nil, fmt.Errorf("run %s: %w", runID, err)
	}
	ents := make([]*Entrant, len(spec.Entrants))
	for i, key := range spec.Entrants {
		var er EntrantRecord
		if i < len(rec.Entrants) && rec.Entrants[i].Key == key {
			er = rec.Entrants[i]
		}
		ents[i] = reg.reparse(spec.Game, key, er)
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
	sp := DefaultSPRT
	if raw, ok := rec.spec.Extra["sprt"]; ok {
		js, err := json.Marshal(raw)
		if err == nil {
			err = json.Unmarshal(js, &sp)
		}
		if err != nil {
			return nil, fmt.Errorf("run %s: sprt: %w", runID, err)
		}
	}
	sum, err := SummarizeAB(rs, sp)
	if err != nil {
		return nil, err
	}
	sum.CountStored(rs.Resumed) // every game of the plan the store holds
	return sum, nil
}

// reparse parses an entrant of a stored run again from its key. One
// that no longer parses, or parses to another key (its strategy gained or
// lost a parameter since), is kept as rec, its stored record: the run's
// tables and reports still name it as the run did, and whatever would make
// it play (a replay played again) fails with the reason.
func (r *Registry) reparse(game, key string, rec EntrantRecord) *Entrant {
	e, err := r.ParseEntrant(game, key)
	if err == nil && e.Key() == key {
		return e
	}
	switch {
	case err == nil && e.IsExternal():
		err = fmt.Errorf("the command reads as %s now", e.Key())
	case err == nil:
		err = fmt.Errorf("strategy %s has changed since the run (%s)", e.Name(), paramDrift(e.Specs(), rec.Params))
	}
	if rec.Key == "" { // a run stored without its entrants' records
		name, _, _ := strings.Cut(key, ":")
		rec = EntrantRecord{Key: key, Label: key, Strategy: name}
	}
	return &Entrant{stored: &storedEntrant{rec: rec, why: err}}
}

// paramDrift says which parameters a strategy declares now that the run's
// record did not hold, and which it held that are gone.
func paramDrift(now param.Specs, then map[string]any) string {
	var added, gone []string
	for _, sp := range now {
		if _, ok := then[sp.Name]; !ok {
			added = append(added, sp.Name)
		}
	}
	for name := range then {
		if !slices.ContainsFunc(now, func(sp param.Spec) bool { return sp.Name == name }) {
			gone = append(gone, name)
		}
	}
	slices.Sort(gone)
	var parts []string
	if len(added) > 0 {
		parts = append(parts, "new parameters: "+strings.Join(added, ", "))
	}
	if len(gone) > 0 {
		parts = append(parts, "parameters no longer declared: "+strings.Join(gone, ", "))
	}
	if len(parts) == 0 {
		return "its key reads differently"
	}
	return strings.Join(parts, "; ")
}

// PlannedGames is the number of games a stored eval or ab run holds once
// complete: its case set's cases, twice for an ab run (both seatings, or
// both entrants of a single-player game), or the number its --games kept.
// It counts from the spec rather than building the plan (LoadResults):
// that would parse the entrants again, hashing an external bot's files for
// every run a listing shows.
func PlannedGames(reg *Registry, rec *RunRecord) (int, error) {
	var spec RunSpec
	if err := json.Unmarshal([]byte(rec.Spec), &spec); err != nil {
		return 0, fmt.Errorf("run %s: spec: %w", rec.ID, err)
	}
	g, err := reg.specGame(spec)
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
func (r *Registry) specGame(spec RunSpec) (Game, error) {
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
