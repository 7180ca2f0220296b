package store

import (
	"context"
	"database/sql"
	"maps"
	"slices"
	"strings"

	"gauntlet/internal/sqldb"
)

// StoredUnit is a unit's score as a trial stored it (tune_units).
type StoredUnit struct {
	Unit    int
	TrialID int
	Score   float64
}

// SaveUnits records, in one transaction, the scores of the units a trial
// of a study finished playing configuration config (unit index to score);
// units stored before are kept as they were.
func (s *Store) SaveUnits(ctx context.Context, studyID, trialID int, config string, scores map[int]float64) error {
	if len(scores) == 0 {
		return nil
	}
	units := slices.Sorted(maps.Keys(scores))
	return sqldb.Tx(ctx, s.db, s.dialect, sqldb.NoLock, func(tx *sql.Tx) error {
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
			if _, err := tx.ExecContext(ctx, s.rebind(q.String()), args...); err != nil {
				return err
			}
		}
		return nil
	})
}

// LoadUnits returns the units stored for configuration config of a study,
// by unit and trial.
func (q Studies) LoadUnits(ctx context.Context, studyID int, config string) ([]StoredUnit, error) {
	rows, err := q.c.QueryContext(ctx, q.q(`SELECT unit, trial_id, score FROM tune_units WHERE study_id = ? AND config = ? ORDER BY unit, trial_id`), studyID, config)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []StoredUnit
	for rows.Next() {
		var u StoredUnit
		if err := rows.Scan(&u.Unit, &u.TrialID, &u.Score); err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}
