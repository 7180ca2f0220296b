package tuning

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/c-bata/goptuna"
	rdb "github.com/c-bata/goptuna/rdb.v2"
	"gorm.io/driver/postgres"
	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"gauntlet/harness/store"
	"gauntlet/internal/sqldb"
)

// Storage is where studies live: Goptuna's RDB tables (rdb.v2, through
// gorm) plus three tables of ours in the same database:
//
//	tune_studies    the study's definition (Spec), its cases and the default
//	                configuration's per-case scores
//	tune_heartbeats one row per running trial, renewed by its worker
//	tune_scores     each trial's per-case scores (JSON array, case order)
//	tune_units      each finished case's score by configuration (units.go)
//
// Several processes, on one machine (SQLite) or many (PostgreSQL), share a
// study through it. Creating the next trial is serialised with a database
// lock: an immediate transaction on SQLite, a transaction-scoped advisory
// lock on PostgreSQL.
type Storage struct {
	db      *gorm.DB
	sql     *sql.DB
	dialect sqldb.Dialect
	url     string
	rdb     *rdb.Storage
}

var ownSchema = []string{
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
	unitsSchema,
}

// goptunaTables are the tables rdb.v2 creates.
var goptunaTables = []string{"studies", "study_user_attributes", "study_system_attributes", "trials",
	"trial_user_attributes", "trial_system_attributes", "trial_params", "trial_values"}

func init() { store.RegisterTables(ownSchema, goptunaTables...) }

// OpenStorage opens the database at url ("sqlite:FILE" or
// "postgres://...", read by store.ParseStorage: SQLite gets WAL, a busy
// timeout and immediate transactions) and creates the tables it lacks.
func OpenStorage(ctx context.Context, url string) (*Storage, error) {
	st, err := store.ParseStorage(url)
	if err != nil {
		return nil, err
	}
	cfg := &gorm.Config{Logger: logger.Default.LogMode(logger.Silent)}
	var dial gorm.Dialector
	if st.Dialect == "postgres" {
		dial = postgres.Open(st.DSN)
	} else {
		if st.Path != ":memory:" {
			if dir := filepath.Dir(st.Path); dir != "." {
				if _, err := os.Stat(dir); err != nil {
					return nil, fmt.Errorf("storage %q: directory %s: %w", url, dir, err)
				}
			}
		}
		if err := newSQLite(ctx, url, st.Path); err != nil {
			return nil, err
		}
		dial = sqlite.Open(st.DSN)
	}
	db, err := gorm.Open(dial, cfg)
	if err != nil {
		return nil, fmt.Errorf("storage %q: %w", redact(url), err)
	}
	sqlDB, err := db.DB()
	if err != nil {
		return nil, err
	}
	pctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if err := sqlDB.PingContext(pctx); err != nil {
		_ = sqlDB.Close() // the ping's error is the one to report
		return nil, fmt.Errorf("storage %q unreachable: %w", redact(url), err)
	}
	if st.Dialect == "sqlite" {
		sqlDB.SetMaxOpenConns(4)
	}
	s := &Storage{db: db, sql: sqlDB, dialect: st.Dialect, url: url, rdb: rdb.NewStorage(db)}
	if err := s.migrate(ctx); err != nil {
		_ = sqlDB.Close() // the migration's error is the one to report
		return nil, fmt.Errorf("storage %q: creating tables: %w", redact(url), err)
	}
	return s, nil
}

// newSQLite opens the SQLite file through the harness's store first, which
// refuses a database that is not a gauntlet store before anything is
// written to it (the connections below switch it to WAL), and makes a
// missing file whole, in WAL mode, and links it into place. Made by the
// first connection of each of two workers starting together, the file went
// from a rollback journal to WAL while the other worker read it, and one of
// them could fail to open with "database is locked".
func newSQLite(ctx context.Context, url, path string) error {
	if path == ":memory:" {
		return nil
	}
	hs, err := store.Open(ctx, url)
	if err != nil {
		return err
	}
	return hs.Close()
}

// OpenStorageReadOnly opens the database at url for reading its studies
// only (store.OpenReadOnly): nothing is written to it, and a store
// without the tuning tables holds no study.
func OpenStorageReadOnly(ctx context.Context, url string) (*Storage, error) {
	hs, err := store.OpenReadOnly(ctx, url)
	if err != nil {
		return nil, err
	}
	var dial gorm.Dialector = sqlite.New(sqlite.Config{Conn: hs.DB()})
	if hs.Dialect() == "postgres" {
		dial = postgres.New(postgres.Config{Conn: hs.DB()})
	}
	db, err := gorm.Open(dial, &gorm.Config{Logger: logger.Default.LogMode(logger.Silent)})
	if err != nil {
		_ = hs.Close() // gorm's error is the one to report
		return nil, fmt.Errorf("storage %q: %w", redact(url), err)
	}
	s := &Storage{db: db, sql: hs.DB(), dialect: hs.Dialect(), url: url, rdb: rdb.NewStorage(db)}
	if !hs.ReadOnly() {
		// PostgreSQL or in memory: the tables are made as by OpenStorage.
		if err := s.migrate(ctx); err != nil {
			_ = hs.Close() // the migration's error is the one to report
			return nil, fmt.Errorf("storage %q: creating tables: %w", redact(url), err)
		}
	}
	return s, nil
}

// redact hides a password in a URL for messages.
func redact(url string) string { return store.RedactURL(url) }

func (s *Storage) migrate(ctx context.Context) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := s.advisory(tx, sqldb.KeyLock(sqldb.LockTuneSchema, 0)); err != nil {
			return err
		}
		missing := false
		for _, t := range goptunaTables {
			if !tx.Migrator().HasTable(t) {
				missing = true
			}
		}
		if missing {
			if err := rdb.RunAutoMigrate(tx); err != nil {
				return err
			}
		}
		for _, q := range ownSchema {
			if err := tx.Exec(q).Error; err != nil {
				return err
			}
		}
		return nil
	})
}

// advisory takes lock in gorm's transaction tx (sqldb.Lock.Take).
func (s *Storage) advisory(tx *gorm.DB, lock sqldb.Lock) error {
	return lock.Take(tx.Statement.Context, tx.Statement.ConnPool, s.dialect)
}

// locked runs fn in one transaction holding the study's lock; fn must do
// all its database work through tx (on SQLite another connection would wait
// for this transaction's lock).
func (s *Storage) locked(ctx context.Context, studyID int, fn func(tx *gorm.DB) error) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := s.advisory(tx, sqldb.KeyLock(sqldb.LockTuneStudy, int32(studyID))); err != nil {
			return err
		}
		return fn(tx)
	})
}

// Close closes the database.
func (s *Storage) Close() error { return s.sql.Close() }

// Goptuna returns the Goptuna storage of the database (rdb.v2).
func (s *Storage) Goptuna() goptuna.Storage { return s.rdb }

// Dialect is the database's dialect.
func (s *Storage) Dialect() sqldb.Dialect { return s.dialect }

// ErrStudyMismatch is returned when a study name is reused for another
// configuration.
var ErrStudyMismatch = errors.New("study exists with a different configuration")

// studyRow is our record of a study.
type studyRow struct {
	Spec          Spec
	Units         []UnitInfo
	DefaultScores []float64
	Created       time.Time
}

// ensureStudy creates the study (ours and Goptuna's, in the spec's direction) or checks
// that the stored one has the same definition; it returns Goptuna's study
// ID.
func (s *Storage) ensureStudy(ctx context.Context, name string, spec Spec, units []UnitInfo) (int, error) {
	specJS, err := json.Marshal(spec)
	if err != nil {
		return 0, err
	}
	unitsJS, err := json.Marshal(units)
	if err != nil {
		return 0, err
	}
	var id int
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := s.advisory(tx, sqldb.KeyLock(sqldb.LockTuneName, sqldb.HashName(name))); err != nil {
			return err
		}
		var rows []struct {
			Spec  string
			Units string
		}
		if err := tx.Raw(`SELECT spec, units FROM tune_studies WHERE study_name = ?`, name).Scan(&rows).Error; err != nil {
			return err
		}
		if len(rows) == 0 {
			if err := tx.Exec(`INSERT INTO tune_studies (study_name, spec, units, default_scores, created_at) VALUES (?,?,?,?,?)`,
				name, string(specJS), string(unitsJS), "", time.Now().UTC().Format(time.RFC3339Nano)).Error; err != nil {
				return err
			}
		} else {
			if rows[0].Spec != string(specJS) {
				return fmt.Errorf("study %q: %w (stored %s; now %s); pick another --study name", name, ErrStudyMismatch, rows[0].Spec, specJS)
			}
			if rows[0].Units != string(unitsJS) {
				return fmt.Errorf("study %q: %w: case set %q now expands to other cases than when the study was created; pick another --study name", name, ErrStudyMismatch, spec.Cases)
			}
		}
		ts := rdb.NewStorage(tx)
		sid, err := ts.GetStudyIDFromName(name)
		if errors.Is(err, gorm.ErrRecordNotFound) {
			if sid, err = ts.CreateNewStudy(name); err != nil {
				return err
			}
			if err := ts.SetStudyDirection(sid, spec.StudyDirection()); err != nil {
				return err
			}
		} else if err != nil {
			return err
		} else if d, err := ts.GetStudyDirection(sid); err != nil {
			return err
		} else if d != spec.StudyDirection() {
			return fmt.Errorf("study %q: the Goptuna study is set to %s; this study must %s", name, d, spec.StudyDirection())
		}
		id = sid
		return nil
	})
	return id, err
}

// study reads our record of a study.
func (s *Storage) study(ctx context.Context, name string) (*studyRow, error) {
	var rows []struct {
		Spec          string
		Units         string
		DefaultScores string
		CreatedAt     string
	}
	if err := s.db.WithContext(ctx).Raw(`SELECT spec, units, default_scores, created_at FROM tune_studies WHERE study_name = ?`, name).Scan(&rows).Error; err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, nil
	}
	r := &studyRow{}
	if err := json.Unmarshal([]byte(rows[0].Spec), &r.Spec); err != nil {
		return nil, fmt.Errorf("study %q: spec: %w", name, err)
	}
	if err := json.Unmarshal([]byte(rows[0].Units), &r.Units); err != nil {
		return nil, fmt.Errorf("study %q: cases: %w", name, err)
	}
	if rows[0].DefaultScores != "" {
		if err := json.Unmarshal([]byte(rows[0].DefaultScores), &r.DefaultScores); err != nil {
			return nil, fmt.Errorf("study %q: default scores: %w", name, err)
		}
	}
	created, err := time.Parse(time.RFC3339Nano, rows[0].CreatedAt)
	if err != nil {
		return nil, fmt.Errorf("study %q: created: %w", name, err)
	}
	r.Created = created
	return r, nil
}

// saveDefaultScores records the default configuration's per-case scores
// (the first writer wins; the scores are deterministic anyway).
func (s *Storage) saveDefaultScores(ctx context.Context, name string, scores []float64) error {
	js, err := json.Marshal(scores)
	if err != nil {
		return err
	}
	return s.db.WithContext(ctx).Exec(`UPDATE tune_studies SET default_scores = ? WHERE study_name = ? AND default_scores = ''`, string(js), name).Error
}

// saveScores stores a trial's per-case scores so far.
func (s *Storage) saveScores(ctx context.Context, studyID, trialID int, scores []float64) error {
	js, err := json.Marshal(scores)
	if err != nil {
		return err
	}
	return s.db.WithContext(ctx).Exec(`INSERT INTO tune_scores (trial_id, study_id, scores) VALUES (?,?,?)
		ON CONFLICT (trial_id) DO UPDATE SET scores = excluded.scores`, trialID, studyID, string(js)).Error
}

// TrialScores returns a trial's per-case scores (in case order; fewer than
// the study's cases when the trial was pruned or is running).
func (s *Storage) TrialScores(trialID int) ([]float64, error) {
	var rows []struct{ Scores string }
	if err := s.db.Raw(`SELECT scores FROM tune_scores WHERE trial_id = ?`, trialID).Scan(&rows).Error; err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, nil
	}
	var out []float64
	if err := json.Unmarshal([]byte(rows[0].Scores), &out); err != nil {
		return nil, fmt.Errorf("trial %d: scores: %w", trialID, err)
	}
	return out, nil
}

// studyScores returns every trial's scores of a study by trial ID.
func (s *Storage) studyScores(ctx context.Context, studyID int) (map[int][]float64, error) {
	var rows []struct {
		TrialID int
		Scores  string
	}
	if err := s.db.WithContext(ctx).Raw(`SELECT trial_id, scores FROM tune_scores WHERE study_id = ?`, studyID).Scan(&rows).Error; err != nil {
		return nil, err
	}
	out := make(map[int][]float64, len(rows))
	for _, r := range rows {
		var xs []float64
		if err := json.Unmarshal([]byte(r.Scores), &xs); err != nil {
			return nil, fmt.Errorf("trial %d: scores: %w", r.TrialID, err)
		}
		out[r.TrialID] = xs
	}
	return out, nil
}

// DeleteStudy removes a study: Goptuna's records and ours.
func (s *Storage) DeleteStudy(ctx context.Context, name string) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		ts := rdb.NewStorage(tx)
		id, err := ts.GetStudyIDFromName(name)
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
				if err := tx.Exec(q, id).Error; err != nil {
					return err
				}
			}
		} else if !errors.Is(err, gorm.ErrRecordNotFound) {
			return err
		}
		return tx.Exec(`DELETE FROM tune_studies WHERE study_name = ?`, name).Error
	})
}
