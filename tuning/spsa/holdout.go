package spsa

import (
	"context"
	"encoding/json"
	"fmt"

	"gauntlet/harness/results"
	"gauntlet/tuning"
)

// HoldoutRun is the name of the run that plays study's hold-out on cases
// (`spsa --holdout`): the A/B of its final values against its start,
// stored beside the study under this name, so that the same command
// resumes it and a reader of the store finds it.
func HoldoutRun(study, cases string) string { return tuning.HoldoutName(study, cases, "") }

// holdoutOf says whether run is the name of one of study's hold-outs, and
// on which cases.
func holdoutOf(study, run string) (cases string, ok bool) {
	cases, leaf, ok := tuning.ParseHoldout(study, run)
	// A run with a leaf is a hold-out of one of study's hold-outs, or one
	// of tune's studies: not an SPSA hold-out of study.
	if !ok || leaf != "" {
		return "", false
	}
	return cases, true
}

// Holdout is one of a study's hold-outs as stored: the run that plays it,
// and the run's summary once it has finished.
type Holdout struct {
	Cases   string             `json:"cases"`
	Run     string             `json:"run"`
	Status  string             `json:"status"`            // the run's: "running" until it finishes
	Stored  int                `json:"stored"`            // games stored
	Summary *results.ABSummary `json:"summary,omitempty"` // nil while it is played
}

// Holdouts reads the hold-outs of study from the store's A/B runs, newest
// first: those finished with their summaries, and any still being played.
func (s *Storage) Holdouts(ctx context.Context, study string) ([]Holdout, error) {
	runs, err := s.store.RunsWithPrefix(ctx, tuning.HoldoutPrefix(study))
	if err != nil {
		return nil, err
	}
	var out []Holdout
	for _, r := range runs {
		cases, ok := holdoutOf(study, r.ID)
		if !ok || r.Kind != "ab" {
			continue
		}
		h := Holdout{Cases: cases, Run: r.ID, Status: r.Status, Stored: r.GameCount}
		if r.Status != "running" && len(r.Summary) > 0 && string(r.Summary) != "null" {
			h.Summary = new(results.ABSummary)
			if err := json.Unmarshal(r.Summary, h.Summary); err != nil {
				return nil, fmt.Errorf("SPSA study %q: hold-out run %q: summary: %w", study, r.ID, err)
			}
		}
		out = append(out, h)
	}
	return out, nil
}
