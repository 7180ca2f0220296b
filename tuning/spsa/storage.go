package spsa

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"gauntlet/harness/store"
	"gauntlet/internal/sqldb"
)

// Storage keeps SPSA studies in the results database (SQLite or
// PostgreSQL) in three tables of their own (see the package comment).
type Storage struct {
	store   *store.Store
	db      *sql.DB
	dialect sqldb.Dialect
	url     string
}

var schema = []string{
	`CREATE TABLE IF NOT EXISTS spsa_studies (
		name VARCHAR(512) PRIMARY KEY,
		spec TEXT NOT NULL,
		theta TEXT NOT NULL,
		applied INTEGER NOT NULL,
		next_iter INTEGER NOT NULL,
		created_at TEXT NOT NULL,
		updated_at TEXT NOT NULL
	)`,
	`CREATE TABLE IF NOT EXISTS spsa_blocks (
		study VARCHAR(512) NOT NULL,
		first_iter INTEGER NOT NULL,
		n INTEGER NOT NULL,
		theta TEXT NOT NULL,
		applied_at_claim INTEGER NOT NULL,
		owner TEXT NOT NULL,
		expires_at BIGINT NOT NULL,
		attempts INTEGER NOT NULL,
		done INTEGER NOT NULL,
		PRIMARY KEY (study, first_iter)
	)`,
	`CREATE TABLE IF NOT EXISTS spsa_iterations (
		study VARCHAR(512) NOT NULL,
		iter INTEGER NOT NULL,
		seq INTEGER NOT NULL,
		case_id TEXT NOT NULL,
		flips TEXT NOT NULL,
		wins INTEGER NOT NULL,
		draws INTEGER NOT NULL,
		losses INTEGER NOT NULL,
		theta TEXT NOT NULL,
		in_order INTEGER NOT NULL,
		worker TEXT NOT NULL,
		finished_at TEXT NOT NULL,
		PRIMARY KEY (study, iter)
	)`,
}

func init() { store.RegisterTables(schema) }

// OpenStorage opens the database at url ("sqlite:FILE" or "postgres://...",
// as store.Open reads it) and creates the SPSA tables it lacks.
func OpenStorage(ctx context.Context, url string) (*Storage, error) {
	hs, err := store.Open(ctx, url)
	if err != nil {
		return nil, err
	}
	s := &Storage{store: hs, db: hs.DB(), dialect: hs.Dialect(), url: url}
	if err := s.migrate(ctx); err != nil {
		_ = hs.Close() // the migration's error is the one to report
		return nil, fmt.Errorf("storage %q: creating the SPSA tables: %w", store.RedactURL(url), err)
	}
	return s, nil
}

// OpenStorageReadOnly opens the database at url for reading its studies
// only (store.OpenReadOnly): nothing is written to it, and a store
// without the SPSA tables holds no study.
func OpenStorageReadOnly(ctx context.Context, url string) (*Storage, error) {
	hs, err := store.OpenReadOnly(ctx, url)
	if err != nil {
		return nil, err
	}
	s := &Storage{store: hs, db: hs.DB(), dialect: hs.Dialect(), url: url}
	if !hs.ReadOnly() {
		// PostgreSQL or in memory: the tables are made as by OpenStorage.
		if err := s.migrate(ctx); err != nil {
			_ = hs.Close() // the migration's error is the one to report
			return nil, fmt.Errorf("storage %q: creating the SPSA tables: %w", store.RedactURL(url), err)
		}
	}
	return s, nil
}

// Close closes the database.
func (s *Storage) Close() error { return s.store.Close() }

// migrate creates the tables, under an advisory lock on PostgreSQL so that
// workers starting together on a new database do not race in CREATE TABLE.
func (s *Storage) migrate(ctx context.Context) error {
	return sqldb.Tx(ctx, s.db, s.dialect, sqldb.KeyLock(sqldb.LockSPSASchema, 0), func(tx *sql.Tx) error {
		for _, q := range schema {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
		return nil
	})
}

// locked runs fn in one transaction holding study name's lock.
func (s *Storage) locked(ctx context.Context, name string, fn func(tx *sql.Tx) error) error {
	return sqldb.Tx(ctx, s.db, s.dialect, sqldb.KeyLock(sqldb.LockSPSAStudy, sqldb.HashName(name)), fn)
}

// q is query with the database's placeholders.
func (s *Storage) q(query string) string { return s.dialect.Rebind(query) }

// blocks is the lease protocol on spsa_blocks: leases end by the
// database's clock, which every worker shares.
func (s *Storage) blocks() sqldb.Lease {
	return sqldb.Lease{Dialect: s.dialect, Table: "spsa_blocks", Scope: "study", Item: "first_iter", DBClock: true}
}

// ErrStudyMismatch is returned when a study name is reused for another
// definition.
var ErrStudyMismatch = errors.New("study exists with a different definition")

// ErrNoStudy is returned when a study is not stored.
var ErrNoStudy = errors.New("no such SPSA study")

func nowText() string { return time.Now().UTC().Format(time.RFC3339Nano) }

func encode(theta []float64) (string, error) {
	js, err := json.Marshal(theta)
	return string(js), err
}

func decode(text string) ([]float64, error) {
	var t []float64
	err := json.Unmarshal([]byte(text), &t)
	return t, err
}

// ensureStudy creates the study at θ0, or checks that the stored one has
// the same definition.
func (s *Storage) ensureStudy(ctx context.Context, name string, spec Spec, theta0 []float64) error {
	js, err := json.Marshal(spec)
	if err != nil {
		return err
	}
	th, err := encode(theta0)
	if err != nil {
		return err
	}
	return s.locked(ctx, name, func(tx *sql.Tx) error {
		var stored string
		err := tx.QueryRowContext(ctx, s.q(`SELECT spec FROM spsa_studies WHERE name = ?`), name).Scan(&stored)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			now := nowText()
			_, err = tx.ExecContext(ctx, s.q(`INSERT INTO spsa_studies (name, spec, theta, applied, next_iter, created_at, updated_at) VALUES (?,?,?,?,?,?,?)`),
				name, string(js), th, 0, 1, now, now)
			return err
		case err != nil:
			return err
		case stored != string(js):
			return fmt.Errorf("SPSA study %q: %w (stored %s; now %s); pick another --study name", name, ErrStudyMismatch, stored, js)
		}
		return nil
	})
}

// block is a run of consecutive iterations handed to one worker.
type block struct {
	first, n       int
	theta          []float64 // θ the block starts from
	appliedAtClaim int       // iterations applied when it was first claimed
	attempt        int       // 1 for a first play, more for a re-play
}

// claimed is the outcome of claim: a block, or nothing to do yet (wait:
// other workers hold the last blocks), or the study is finished.
type claimed struct {
	blk  *block
	wait bool
	done bool
}

// claim hands this worker a block: first one whose worker died (its lease
// expired, or its process is gone on this machine), to be played again from
// its θ; otherwise up to want new iterations from the current θ.
func (s *Storage) claim(ctx context.Context, name, owner string, iterations, want int, lease time.Duration) (claimed, error) {
	var c claimed
	err := s.locked(ctx, name, func(tx *sql.Tx) error {
		c = claimed{}
		var theta string
		var applied, next int
		if err := tx.QueryRowContext(ctx, s.q(`SELECT theta, applied, next_iter FROM spsa_studies WHERE name = ?`), name).Scan(&theta, &applied, &next); err != nil {
			return err
		}
		expired, eargs := s.blocks().Expired()
		rows, err := tx.QueryContext(ctx, s.q(`SELECT first_iter, n, theta, applied_at_claim, owner, attempts, `+expired+`
			FROM spsa_blocks WHERE study = ? AND done = 0 ORDER BY first_iter`), append(eargs, name)...)
		if err != nil {
			return err
		}
		type open struct {
			b       block
			owner   string
			expired bool
		}
		var pending []open
		for rows.Next() {
			var o open
			var th string
			if err := rows.Scan(&o.b.first, &o.b.n, &th, &o.b.appliedAtClaim, &o.owner, &o.b.attempt, &o.expired); err != nil {
				rows.Close()
				return err
			}
			if o.b.theta, err = decode(th); err != nil {
				rows.Close()
				return fmt.Errorf("block %d: theta: %w", o.b.first, err)
			}
			pending = append(pending, o)
		}
		if err := rows.Close(); err != nil {
			return err
		}
		for _, o := range pending {
			if !sqldb.Free(o.owner, o.expired) {
				continue
			}
			o.b.attempt++
			if err := s.blocks().Take(ctx, tx, name, o.b.first, owner, lease); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, s.q(`UPDATE spsa_blocks SET attempts = ? WHERE study = ? AND first_iter = ?`), o.b.attempt, name, o.b.first); err != nil {
				return err
			}
			c.blk = &o.b
			return nil
		}
		if next > iterations {
			c.wait, c.done = len(pending) > 0, len(pending) == 0
			return nil
		}
		n := min(want, iterations-next+1)
		t, err := decode(theta)
		if err != nil {
			return fmt.Errorf("theta: %w", err)
		}
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO spsa_blocks (study, first_iter, n, theta, applied_at_claim, owner, expires_at, attempts, done)
			VALUES (?,?,?,?,?,?,`+s.dialect.NowMS()+` + ?,1,0)`), name, next, n, theta, applied, owner, lease.Milliseconds()); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE spsa_studies SET next_iter = ? WHERE name = ?`), next+n, name); err != nil {
			return err
		}
		c.blk = &block{first: next, n: n, theta: t, appliedAtClaim: applied, attempt: 1}
		return nil
	})
	return c, err
}

// renew extends this worker's lease on a block; false when the block is no
// longer this worker's (another took it over after the lease expired).
func (s *Storage) renew(ctx context.Context, name string, first int, owner string, lease time.Duration) (bool, error) {
	return s.blocks().Renew(ctx, s.db, name, owner, lease, first)
}

// release gives an unfinished block back at once (an interrupted worker),
// so that the next worker re-plays it without waiting for the lease.
func (s *Storage) release(ctx context.Context, name string, first int, owner string) error {
	return s.blocks().Release(ctx, s.db, name, owner, first)
}

// committed is the outcome of commit.
type committed struct {
	lost    bool // the block was no longer this worker's: nothing stored
	theta   []float64
	applied int
	inOrder bool
}

// commit applies a played block in one transaction: each iteration's update
// is added in order to the stored θ with apply (the operation the worker
// applied to its own copy), each iteration is stored with θ after it, and
// the block is marked done. A block this worker no longer holds is left
// alone.
func (s *Storage) commit(ctx context.Context, name, owner string, blk *block, results []pairResult, apply func(theta, update []float64)) (committed, error) {
	var c committed
	err := s.locked(ctx, name, func(tx *sql.Tx) error {
		c = committed{}
		var held string
		var done int
		err := tx.QueryRowContext(ctx, s.q(`SELECT owner, done FROM spsa_blocks WHERE study = ? AND first_iter = ?`), name, blk.first).Scan(&held, &done)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && (held != owner || done != 0)) {
			c.lost = true
			return nil
		} else if err != nil {
			return err
		}
		var theta string
		if err := tx.QueryRowContext(ctx, s.q(`SELECT theta, applied FROM spsa_studies WHERE name = ?`), name).Scan(&theta, &c.applied); err != nil {
			return err
		}
		if c.theta, err = decode(theta); err != nil {
			return fmt.Errorf("theta: %w", err)
		}
		// The block was played from the θ of exactly the iterations before
		// it, and nothing was applied since: the same as one worker playing
		// every iteration in order.
		c.inOrder = blk.appliedAtClaim == blk.first-1 && c.applied == blk.appliedAtClaim
		ins, err := tx.PrepareContext(ctx, s.q(`INSERT INTO spsa_iterations (study, iter, seq, case_id, flips, wins, draws, losses, theta, in_order, worker, finished_at)
			VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`))
		if err != nil {
			return err
		}
		defer ins.Close()
		now := nowText()
		inOrder := 0
		if c.inOrder {
			inOrder = 1
		}
		for _, r := range results {
			apply(c.theta, r.update)
			c.applied++
			th, err := encode(c.theta)
			if err != nil {
				return err
			}
			if _, err := ins.ExecContext(ctx, name, r.iter, c.applied, r.caseID, flipString(r.flips), r.wins, r.draws, r.loss, th, inOrder, owner, now); err != nil {
				return fmt.Errorf("iteration %d: %w", r.iter, err)
			}
		}
		th, err := encode(c.theta)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE spsa_studies SET theta = ?, applied = ?, updated_at = ? WHERE name = ?`), th, c.applied, now, name); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, s.q(`UPDATE spsa_blocks SET done = 1 WHERE study = ? AND first_iter = ?`), name, blk.first)
		return err
	})
	return c, err
}

// DeleteStudy removes a study and its blocks and iterations.
func (s *Storage) DeleteStudy(ctx context.Context, name string) error {
	return s.locked(ctx, name, func(tx *sql.Tx) error {
		for _, q := range []string{`DELETE FROM spsa_iterations WHERE study = ?`, `DELETE FROM spsa_blocks WHERE study = ?`, `DELETE FROM spsa_studies WHERE name = ?`} {
			if _, err := tx.ExecContext(ctx, s.q(q), name); err != nil {
				return err
			}
		}
		return nil
	})
}
