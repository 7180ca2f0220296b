package tuning

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gauntlet/harness/store"
	"gauntlet/strategies/param"
)

// configKey is the canonical text of a configuration: every parameter's
// value, names sorted (encoding/json sorts map keys and writes floats
// exactly).
func configKey(v param.Values) (string, error) {
	js, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("configuration %v: %w", v, err)
	}
	return string(js), nil
}

// loadUnits returns the units stored for a configuration of a study: by
// the trials named in from, or by any trial when from is nil.
func (s *Storage) loadUnits(ctx context.Context, studyID int, config string, from []int) ([]store.StoredUnit, error) {
	if from != nil && len(from) == 0 {
		return nil, nil
	}
	rows, err := s.hs.Studies().LoadUnits(ctx, studyID, config)
	if err != nil || from == nil {
		return rows, err
	}
	out := rows[:0]
	for _, r := range rows {
		if slices.Contains(from, r.TrialID) {
			out = append(out, r)
		}
	}
	return out, nil
}

// resumeIDs reads a trial's attrResume: the IDs of the interrupted trials
// (the one it re-runs, and the ones that one re-ran) whose units it may
// take.
func resumeIDs(attr string) []int {
	var ids []int
	for _, f := range strings.Split(attr, ",") {
		if id, err := strconv.Atoi(strings.TrimSpace(f)); err == nil {
			ids = append(ids, id)
		}
	}
	return ids
}
