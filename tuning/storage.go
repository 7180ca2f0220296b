package tuning

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
// gorm) plus tables of ours in the same database, kept by package store
// (store.Studies: definitions, heartbeats, scores, units), on the store's
// one connection pool.
//
// Several processes, on one machine (SQLite) or many (PostgreSQL), share a
// study through it. Creating the next trial is serialised with a database
// lock: an immediate transaction on SQLite, a transaction-scoped advisory
// lock on PostgreSQL.
type Storage struct {
	hs  *store.Store
	db  *gorm.DB
	url string
	rdb *rdb.Storage
}

// OpenStorage opens the store at url ("sqlite:FILE" or "postgres://...",
// as store.Open reads it: an SQLite file must be a gauntlet store or new)
// and creates the tuning tables it lacks.
func OpenStorage(ctx context.Context, url string) (*Storage, error) {
	return store.OpenLayer(ctx, url, false, StorageOn)
}

// OpenStorageReadOnly opens the store at url for reading its studies
// only (store.OpenReadOnly): nothing is written to it, and a store
// without the tuning tables holds no study.
func OpenStorageReadOnly(ctx context.Context, url string) (*Storage, error) {
	return store.OpenLayer(ctx, url, true, StorageOn)
}

// StorageOn puts Goptuna's storage on the open store hs, whose connections
// it shares (closing either closes both), and creates the tuning tables
// unless hs is read-only (an SQLite file opened by store.OpenReadOnly,
// where the missing ones read as empty). On error hs is left open.
func StorageOn(ctx context.Context, hs *store.Store) (*Storage, error) {
	url := hs.URL()
	var dial gorm.Dialector = sqlite.New(sqlite.Config{Conn: hs.DB()})
	if hs.Dialect() == sqldb.Postgres {
		dial = postgres.New(postgres.Config{Conn: hs.DB()})
	}
	db, err := gorm.Open(dial, &gorm.Config{Logger: logger.Default.LogMode(logger.Silent)})
	if err != nil {
		return nil, fmt.Errorf("storage %q: %w", redact(url), err)
	}
	s := &Storage{hs: hs, db: db, url: url, rdb: rdb.NewStorage(db)}
	if !hs.ReadOnly() {
		if err := s.migrate(ctx); err != nil {
			return nil, fmt.Errorf("storage %q: creating tables: %w", redact(url), err)
		}
	}
	return s, nil
}

// redact hides a password in a URL for messages.
func redact(url string) string { return store.RedactURL(url) }

// migrate makes Goptuna's tables and ours, holding sqldb.LockTuneSchema.
func (s *Storage) migrate(ctx context.Context) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := s.advisory(tx, sqldb.KeyLock(sqldb.LockTuneSchema, 0)); err != nil {
			return err
		}
		missing := false
		for _, t := range store.GoptunaTables() {
			if !tx.Migrator().HasTable(t) {
				missing = true
			}
		}
		if missing {
			if err := rdb.RunAutoMigrate(tx); err != nil {
				return err
			}
		}
		return s.in(tx).CreateTables(tx.Statement.Context)
	})
}

// in are the store's study statements in gorm's transaction tx, where
// Goptuna's storage (rdb.NewStorage(tx)) works too.
func (s *Storage) in(tx *gorm.DB) store.Studies { return s.hs.StudiesIn(tx.Statement.ConnPool) }

// advisory takes lock in gorm's transaction tx (sqldb.Lock.Take).
func (s *Storage) advisory(tx *gorm.DB, lock sqldb.Lock) error {
	return lock.Take(tx.Statement.Context, tx.Statement.ConnPool, s.hs.Dialect())
}

// locked runs fn in one transaction holding the study's lock; fn must do
// all its database work through tx (on SQLite another connection would wait
// for this transaction's lock). ctx is tx.Statement.Context.
func (s *Storage) locked(ctx context.Context, studyID int, fn func(tx *gorm.DB) error) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := s.advisory(tx, sqldb.KeyLock(sqldb.LockTuneStudy, int32(studyID))); err != nil {
			return err
		}
		return fn(tx)
	})
}

// Close closes the database.
func (s *Storage) Close() error { return s.hs.Close() }

// Goptuna returns the Goptuna storage of the database (rdb.v2).
func (s *Storage) Goptuna() goptuna.Storage { return s.rdb }

// Dialect is the database's dialect.
func (s *Storage) Dialect() sqldb.Dialect { return s.hs.Dialect() }

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
		stored, err := s.in(tx).DefineStudy(tx.Statement.Context, store.StudyDef{Name: name, Spec: string(specJS), Units: string(unitsJS)})
		if err != nil {
			return err
		}
		if stored.Spec != string(specJS) {
			return fmt.Errorf("study %q: %w (stored %s; now %s); pick another --study name", name, ErrStudyMismatch, stored.Spec, specJS)
		}
		if stored.Units != string(unitsJS) {
			return fmt.Errorf("study %q: %w: case set %q now expands to other cases than when the study was created; pick another --study name", name, ErrStudyMismatch, spec.Cases)
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

// study reads our record of a study; nil when it is not stored.
func (s *Storage) study(ctx context.Context, name string) (*studyRow, error) {
	def, err := s.hs.Studies().Study(ctx, name)
	if err != nil || def == nil {
		return nil, err
	}
	r := &studyRow{DefaultScores: def.DefaultScores, Created: def.Created}
	if err := json.Unmarshal([]byte(def.Spec), &r.Spec); err != nil {
		return nil, fmt.Errorf("study %q: spec: %w", name, err)
	}
	if err := json.Unmarshal([]byte(def.Units), &r.Units); err != nil {
		return nil, fmt.Errorf("study %q: cases: %w", name, err)
	}
	return r, nil
}

// saveDefaultScores records the default configuration's per-case scores
// (the first writer wins; the scores are deterministic anyway).
func (s *Storage) saveDefaultScores(ctx context.Context, name string, scores []float64) error {
	return s.hs.Studies().SetDefaultScores(ctx, name, scores)
}

// saveScores stores a trial's per-case scores so far.
func (s *Storage) saveScores(ctx context.Context, studyID, trialID int, scores []float64) error {
	return s.hs.Studies().SaveScores(ctx, studyID, trialID, scores)
}

// TrialScores returns a trial's per-case scores (in case order; fewer than
// the study's cases when the trial was pruned or is running).
func (s *Storage) TrialScores(trialID int) ([]float64, error) {
	return s.hs.Studies().TrialScores(context.Background(), trialID)
}

// DeleteStudy removes a study: Goptuna's records and ours.
func (s *Storage) DeleteStudy(ctx context.Context, name string) error {
	return s.hs.DeleteStudy(ctx, name)
}
