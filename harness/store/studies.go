package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"gauntlet/internal/sqldb"
)

// The tables of the tuning studies (package tuning) beside Goptuna's
// (rdb.v2, made by Goptuna through gorm: goptunaTables):
//
//	tune_studies    a study's definition, its units and the default
//	                configuration's per-unit scores
//	tune_heartbeats one row per running trial, renewed by its worker (trials.go)
//	tune_scores     each trial's per-unit scores (JSON array, unit order)
//	tune_units      each finished unit's score by configuration (units.go)
var studySchema = []string{
	`CREATE TABLE IF NOT EXISTS tune_studies (
		study_name VARCHAR(512) PRIMARY KEY,
		spec TEXT NOT NULL,
		units TEXT NOT NULL,
		default_scores TEXT NOT NULL DEFAULT '',
		created_at TEXT NOT NULL
	)`,
	`CREATE TABLE IF NOT EXISTS tune_heartbeats (
		trial_id INTEGER PRIMARY KEY,
		study_id INTEGER NOT NULL,
		worker TEXT NOT NULL,
		beat_at BIGINT NOT NULL,
		stale_ms BIGINT NOT NULL
	)`,
	`CREATE TABLE IF NOT EXISTS tune_scores (
		trial_id INTEGER PRIMARY KEY,
		study_id INTEGER NOT NULL,
		scores TEXT NOT NULL
	)`,
	// One row per scored unit (a case, or an (opponent, case) pair) a
	// trial finished, keyed by the study, the configuration played and
	// the trial: the re-run of an interrupted trial plays only the units
	// it lacks, and a trial of a deterministic study takes the scores an
	// earlier trial of its configuration stored.
	`CREATE TABLE IF NOT EXISTS tune_units (
		study_id INTEGER NOT NULL,
		config TEXT NOT NULL,
		unit INTEGER NOT NULL,
		trial_id INTEGER NOT NULL,
		score DOUBLE PRECISION NOT NULL,
		PRIMARY KEY (study_id, config, unit, trial_id)
	)`,
}

// goptunaTables are the tables Goptuna's storage (rdb.v2) makes.
var goptunaTables = []string{"studies", "study_user_attributes", "study_system_attributes", "trials",
	"trial_user_attributes", "trial_system_attributes", "trial_params", "trial_values"}

// GoptunaTables returns the names of the tables Goptuna's storage makes.
func GoptunaTables() []string { return append([]string(nil), goptunaTables...) }

// Studies are the statements on the tables of the tuning studies: ours
// (tune_*) and the reads of Goptuna's that its storage does not offer. They
// run on the store's database (Store.Studies) or in a transaction of it
// (Store.StudiesIn), where Goptuna's storage works too.
type Studies struct {
	c sqldb.Conn
	d sqldb.Dialect
}

// Studies are the study statements on the store's database.
func (s *Store) Studies() Studies { return Studies{s.db, s.dialect} }

// StudiesIn are the study statements in a transaction of the store's
// database: tx is its *sql.Tx, or gorm's connection of it
// (gorm.DB.Statement.ConnPool).
func (s *Store) StudiesIn(tx sqldb.Conn) Studies { return Studies{tx, s.dialect} }

// q is query with the database's placeholders.
func (q Studies) q(query string) string { return q.d.Rebind(query) }

// CreateTables makes the study tables the store lacks; run in the
// transaction that holds sqldb.LockTuneSchema and makes Goptuna's.
func (q Studies) CreateTables(ctx context.Context) error {
	for _, c := range studySchema {
		if _, err := q.c.ExecContext(ctx, c); err != nil {
			return err
		}
	}
	return nil
}

// StudyDef is a tuning study's stored definition.
type StudyDef struct {
	Name string
	// Spec and Units are JSON texts of package tuning's Spec and unit
	// list, compared as text when a worker joins the study.
	Spec, Units string
	// DefaultScores are the default configuration's per-unit scores; nil
	// until a summary computed them.
	DefaultScores []float64
	Created       time.Time
}

// DefineStudy stores def when no study of its name is stored, and returns
// the stored definition (def itself when it was stored now). Run it in a
// transaction holding the name's lock (sqldb.LockTuneName).
func (q Studies) DefineStudy(ctx context.Context, def StudyDef) (StudyDef, error) {
	stored, err := q.Study(ctx, def.Name)
	if err != nil || stored != nil {
		return deref(stored), err
	}
	if def.Created.IsZero() {
		def.Created = time.Now()
	}
	_, err = q.c.ExecContext(ctx, q.q(`INSERT INTO tune_studies (study_name, spec, units, default_scores, created_at) VALUES (?,?,?,?,?)`),
		def.Name, def.Spec, def.Units, "", def.Created.UTC().Format(time.RFC3339Nano))
	return def, err
}

func deref(d *StudyDef) StudyDef {
	if d == nil {
		return StudyDef{}
	}
	return *d
}

// Study reads a study's definition; nil when none is stored.
func (q Studies) Study(ctx context.Context, name string) (*StudyDef, error) {
	d := &StudyDef{Name: name}
	var scores, created string
	err := q.c.QueryRowContext(ctx, q.q(`SELECT spec, units, default_scores, created_at FROM tune_studies WHERE study_name = ?`), name).
		Scan(&d.Spec, &d.Units, &scores, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	if scores != "" {
		if err := json.Unmarshal([]byte(scores), &d.DefaultScores); err != nil {
			return nil, fmt.Errorf("study %q: default scores: %w", name, err)
		}
	}
	if d.Created, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return nil, fmt.Errorf("study %q: created: %w", name, err)
	}
	return d, nil
}

// StudyNames lists the stored studies by name, or oldest first when
// byCreation.
func (q Studies) StudyNames(ctx context.Context, byCreation bool) ([]string, error) {
	query := `SELECT study_name FROM tune_studies ORDER BY study_name`
	if byCreation {
		query = `SELECT study_name FROM tune_studies ORDER BY created_at, study_name`
	}
	rows, err := q.c.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		names = append(names, n)
	}
	return names, rows.Err()
}

// SetDefaultScores records the default configuration's per-unit scores
// of a study (the first writer wins; the scores are deterministic).
func (q Studies) SetDefaultScores(ctx context.Context, name string, scores []float64) error {
	js, err := json.Marshal(scores)
	if err != nil {
		return err
	}
	_, err = q.c.ExecContext(ctx, q.q(`UPDATE tune_studies SET default_scores = ? WHERE study_name = ? AND default_scores = ''`), string(js), name)
	return err
}

// SaveScores stores a trial's per-unit scores so far.
func (q Studies) SaveScores(ctx context.Context, studyID, trialID int, scores []float64) error {
	js, err := json.Marshal(scores)
	if err != nil {
		return err
	}
	_, err = q.c.ExecContext(ctx, q.q(`INSERT INTO tune_scores (trial_id, study_id, scores) VALUES (?,?,?)
		ON CONFLICT (trial_id) DO UPDATE SET scores = excluded.scores`), trialID, studyID, string(js))
	return err
}

// TrialScores returns a trial's per-unit scores (nil when it stored none).
func (q Studies) TrialScores(ctx context.Context, trialID int) ([]float64, error) {
	var js string
	err := q.c.QueryRowContext(ctx, q.q(`SELECT scores FROM tune_scores WHERE trial_id = ?`), trialID).Scan(&js)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var out []float64
	if err := json.Unmarshal([]byte(js), &out); err != nil {
		return nil, fmt.Errorf("trial %d: scores: %w", trialID, err)
	}
	return out, nil
}

// StudyScores returns every trial's scores of a study by trial ID.
func (q Studies) StudyScores(ctx context.Context, studyID int) (map[int][]float64, error) {
	rows, err := q.c.QueryContext(ctx, q.q(`SELECT trial_id, scores FROM tune_scores WHERE study_id = ?`), studyID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int][]float64{}
	for rows.Next() {
		var id int
		var js string
		if err := rows.Scan(&id, &js); err != nil {
			return nil, err
		}
		var xs []float64
		if err := json.Unmarshal([]byte(js), &xs); err != nil {
			return nil, fmt.Errorf("trial %d: scores: %w", id, err)
		}
		out[id] = xs
	}
	return out, rows.Err()
}

// DeleteStudy removes a study: Goptuna's records and ours, in one
// transaction.
func (s *Store) DeleteStudy(ctx context.Context, name string) error {
	return sqldb.Tx(ctx, s.db, s.dialect, sqldb.KeyLock(sqldb.LockTuneName, sqldb.HashName(name)), func(tx *sql.Tx) error {
		var id int
		err := tx.QueryRowContext(ctx, s.rebind(`SELECT study_id FROM studies WHERE study_name = ?`), name).Scan(&id)
		if err == nil {
			for _, q := range []string{
				`DELETE FROM tune_heartbeats WHERE study_id = ?`,
				`DELETE FROM tune_scores WHERE study_id = ?`,
				`DELETE FROM tune_units WHERE study_id = ?`,
				`DELETE FROM trial_params WHERE trial_id IN (SELECT trial_id FROM trials WHERE study_id = ?)`,
				`DELETE FROM trial_values WHERE trial_id IN (SELECT trial_id FROM trials WHERE study_id = ?)`,
				`DELETE FROM trial_user_attributes WHERE trial_id IN (SELECT trial_id FROM trials WHERE study_id = ?)`,
				`DELETE FROM trial_system_attributes WHERE trial_id IN (SELECT trial_id FROM trials WHERE study_id = ?)`,
				`DELETE FROM trials WHERE study_id = ?`,
				`DELETE FROM study_user_attributes WHERE study_id = ?`,
				`DELETE FROM study_system_attributes WHERE study_id = ?`,
				`DELETE FROM studies WHERE study_id = ?`,
			} {
				if _, err := tx.ExecContext(ctx, s.rebind(q), id); err != nil {
					return err
				}
			}
		} else if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		_, err = tx.ExecContext(ctx, s.rebind(`DELETE FROM tune_studies WHERE study_name = ?`), name)
		return err
	})
}
