package tuning

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"gorm.io/gorm"

	"gauntlet/strategies/param"
)

// unitsSchema is the table of finished units: one row per scored unit
// (a case, or an (opponent, case) pair) a trial finished, keyed by the
// study, the configuration played (configKey) and the trial. A trial
// writes its finished units after every chunk and when it is interrupted
// (Ctrl-C, --timeout), so that the re-run of an interrupted trial plays
// only the units it lacks, and a trial of a deterministic study whose
// configuration an earlier trial played takes the scores it stored.
const unitsSchema = `CREATE TABLE IF NOT EXISTS tune_units (
		study_id INTEGER NOT NULL,
		config TEXT NOT NULL,
		unit INTEGER NOT NULL,
		trial_id INTEGER NOT NULL,
		score DOUBLE PRECISION NOT NULL,
		PRIMARY KEY (study_id, config, unit, trial_id)
	)`

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

// storedUnit is a unit's score as a trial stored it.
type storedUnit struct {
	Unit    int
	TrialID int
	Score   float64
}

// saveUnits records the scores of the units a trial finished (unit index
// to score); units stored before are kept as they were.
func (s *Storage) saveUnits(ctx context.Context, studyID, trialID int, config string, scores map[int]float64) error {
	if len(scores) == 0 {
		return nil
	}
	units := slices.Sorted(maps.Keys(scores))
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		// Batches of rows keep each statement well under the databases'
		// limits on bound variables.
		const batch = 150
		for lo := 0; lo < len(units); lo += batch {
			part := units[lo:min(lo+batch, len(units))]
			var q strings.Builder
			q.WriteString(`INSERT INTO tune_units (study_id, config, unit, trial_id, score) VALUES `)
			args := make([]any, 0, 5*len(part))
			for i, u := range part {
				if i > 0 {
					q.WriteString(",")
				}
				q.WriteString("(?,?,?,?,?)")
				args = append(args, studyID, config, u, trialID, scores[u])
			}
			q.WriteString(` ON CONFLICT (study_id, config, unit, trial_id) DO NOTHING`)
			if err := tx.Exec(q.String(), args...).Error; err != nil {
				return err
			}
		}
		return nil
	})
}

// loadUnits returns the units stored for a configuration of a study: by
// the trials named in from, or by any trial when from is nil.
func (s *Storage) loadUnits(ctx context.Context, studyID int, config string, from []int) ([]storedUnit, error) {
	if from != nil && len(from) == 0 {
		return nil, nil
	}
	var rows []storedUnit
	q := s.db.WithContext(ctx).Raw(`SELECT unit, trial_id, score FROM tune_units WHERE study_id = ? AND config = ? ORDER BY unit, trial_id`, studyID, config)
	if err := q.Scan(&rows).Error; err != nil {
		return nil, err
	}
	if from == nil {
		return rows, nil
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
