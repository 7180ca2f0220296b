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

// The tables of the SPSA studies (package tuning/spsa): a study's
// definition and current θ, the blocks of iterations handed to workers
// (leased as the run store's blocks are, by the database's clock), and
// every applied iteration.
var spsaSchema = []string{
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

// CreateSPSATables makes the SPSA tables the store lacks, holding the
// advisory lock sqldb.LockSPSASchema on PostgreSQL so that workers starting
// together on a new database do not race in CREATE TABLE.
func (s *Store) CreateSPSATables(ctx context.Context) error {
	return s.createTables(ctx, sqldb.LockSPSASchema, spsaSchema)
}

// spsaLocked runs fn in one transaction holding SPSA study name's lock.
func (s *Store) spsaLocked(ctx context.Context, name string, fn func(tx *sql.Tx) error) error {
	return sqldb.Tx(ctx, s.db, s.dialect, sqldb.KeyLock(sqldb.LockSPSAStudy, sqldb.HashName(name)), fn)
}

// spsaBlocks is the lease protocol on spsa_blocks: leases end by the
// database's clock, which every worker shares.
func (s *Store) spsaBlocks() sqldb.Lease {
	return sqldb.Lease{Dialect: s.dialect, Table: "spsa_blocks", Scope: "study", Item: "first_iter", DBClock: true}
}

func nowText() string { return time.Now().UTC().Format(time.RFC3339Nano) }

func encodeTheta(theta []float64) (string, error) {
	js, err := json.Marshal(theta)
	return string(js), err
}

func decodeTheta(text string) ([]float64, error) {
	var t []float64
	err := json.Unmarshal([]byte(text), &t)
	return t, err
}

// DefineSPSA stores SPSA study name with its definition spec (JSON of
// package spsa's Spec) at θ0 when it is not stored, and returns the stored
// definition (spec itself when it was stored now).
func (s *Store) DefineSPSA(ctx context.Context, name, spec string, theta0 []float64) (string, error) {
	th, err := encodeTheta(theta0)
	if err != nil {
		return "", err
	}
	var stored string
	err = s.spsaLocked(ctx, name, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, s.rebind(`SELECT spec FROM spsa_studies WHERE name = ?`), name).Scan(&stored)
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		stored = spec
		now := nowText()
		_, err = tx.ExecContext(ctx, s.rebind(`INSERT INTO spsa_studies (name, spec, theta, applied, next_iter, created_at, updated_at) VALUES (?,?,?,?,?,?,?)`),
			name, spec, th, 0, 1, now, now)
		return err
	})
	return stored, err
}

// SPSABlock is a run of consecutive iterations of an SPSA study handed to
// one worker.
type SPSABlock struct {
	First, N       int
	Theta          []float64 // θ the block starts from
	AppliedAtClaim int       // iterations applied when it was first claimed
	Attempt        int       // 1 for a first play, more for a re-play
}

// SPSAClaim is the outcome of ClaimSPSA: a block, or nothing to do yet
// (Wait: other workers hold the last blocks), or the study is finished.
type SPSAClaim struct {
	Block *SPSABlock
	Wait  bool
	Done  bool
}

// ClaimSPSA hands owner a block of SPSA study name: first one whose worker
// left it (sqldb.Free: its lease expired, or its process is gone on this
// machine), to be played again from its θ; otherwise up to want new
// iterations of the study's iterations from the current θ, leased for
// lease.
func (s *Store) ClaimSPSA(ctx context.Context, name, owner string, iterations, want int, lease time.Duration) (SPSAClaim, error) {
	var c SPSAClaim
	err := s.spsaLocked(ctx, name, func(tx *sql.Tx) error {
		c = SPSAClaim{}
		var theta string
		var applied, next int
		if err := tx.QueryRowContext(ctx, s.rebind(`SELECT theta, applied, next_iter FROM spsa_studies WHERE name = ?`), name).Scan(&theta, &applied, &next); err != nil {
			return err
		}
		pending, err := s.openSPSABlocks(ctx, tx, name)
		if err != nil {
			return err
		}
		for _, o := range pending {
			if !sqldb.Free(o.owner, o.expired) {
				continue
			}
			o.b.Attempt++
			if err := s.spsaBlocks().Take(ctx, tx, name, o.b.First, owner, lease); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, s.rebind(`UPDATE spsa_blocks SET attempts = ? WHERE study = ? AND first_iter = ?`), o.b.Attempt, name, o.b.First); err != nil {
				return err
			}
			c.Block = &o.b
			return nil
		}
		if next > iterations {
			c.Wait, c.Done = len(pending) > 0, len(pending) == 0
			return nil
		}
		n := min(want, iterations-next+1)
		t, err := decodeTheta(theta)
		if err != nil {
			return fmt.Errorf("theta: %w", err)
		}
		if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO spsa_blocks (study, first_iter, n, theta, applied_at_claim, owner, expires_at, attempts, done)
			VALUES (?,?,?,?,?,?,`+s.dialect.NowMS()+` + ?,1,0)`), name, next, n, theta, applied, owner, lease.Milliseconds()); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.rebind(`UPDATE spsa_studies SET next_iter = ? WHERE name = ?`), next+n, name); err != nil {
			return err
		}
		c.Block = &SPSABlock{First: next, N: n, Theta: t, AppliedAtClaim: applied, Attempt: 1}
		return nil
	})
	return c, err
}

// openSPSABlock is an unfinished block with its owner and whether its
// lease ended.
type openSPSABlock struct {
	b       SPSABlock
	owner   string
	expired bool
}

// openSPSABlocks reads the unfinished blocks of a study in tx, in order.
func (s *Store) openSPSABlocks(ctx context.Context, tx *sql.Tx, name string) ([]openSPSABlock, error) {
	expired, eargs := s.spsaBlocks().Expired()
	rows, err := tx.QueryContext(ctx, s.rebind(`SELECT first_iter, n, theta, applied_at_claim, owner, attempts, `+expired+`
		FROM spsa_blocks WHERE study = ? AND done = 0 ORDER BY first_iter`), append(eargs, name)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []openSPSABlock
	for rows.Next() {
		var o openSPSABlock
		var th string
		if err := rows.Scan(&o.b.First, &o.b.N, &th, &o.b.AppliedAtClaim, &o.owner, &o.b.Attempt, &o.expired); err != nil {
			return nil, err
		}
		if o.b.Theta, err = decodeTheta(th); err != nil {
			return nil, fmt.Errorf("block %d: theta: %w", o.b.First, err)
		}
		out = append(out, o)
	}
	return out, rows.Close()
}

// RenewSPSA extends owner's lease on block first of a study; false when
// the block is no longer owner's (another worker took it over after the
// lease expired).
func (s *Store) RenewSPSA(ctx context.Context, name string, first int, owner string, lease time.Duration) (bool, error) {
	return s.spsaBlocks().Renew(ctx, s.db, name, owner, lease, first)
}

// ReleaseSPSA gives an unfinished block back at once (an interrupted
// worker), so that the next worker re-plays it without waiting for the
// lease.
func (s *Store) ReleaseSPSA(ctx context.Context, name string, first int, owner string) error {
	return s.spsaBlocks().Release(ctx, s.db, name, owner, first)
}

// SPSAResult is one played iteration of a block: the pair's case, the
// perturbation's signs and θ+'s wins, draws and losses against θ−.
type SPSAResult struct {
	Iter                int
	Case, Flips         string
	Wins, Draws, Losses int
}

// SPSACommit is the outcome of CommitSPSA.
type SPSACommit struct {
	Lost    bool // the block was no longer the worker's: nothing stored
	Theta   []float64
	Applied int
	InOrder bool
}

// CommitSPSA applies a played block in one transaction: each result's
// update is added in order to the stored θ by apply(θ, i) (the operation
// the worker applied to its own copy, for results[i]), each iteration is
// stored with θ after it, and the block is marked done. A block owner no
// longer holds is left alone.
func (s *Store) CommitSPSA(ctx context.Context, name, owner string, blk SPSABlock, results []SPSAResult, apply func(theta []float64, i int)) (SPSACommit, error) {
	var c SPSACommit
	err := s.spsaLocked(ctx, name, func(tx *sql.Tx) error {
		c = SPSACommit{}
		var held string
		var done int
		err := tx.QueryRowContext(ctx, s.rebind(`SELECT owner, done FROM spsa_blocks WHERE study = ? AND first_iter = ?`), name, blk.First).Scan(&held, &done)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && (held != owner || done != 0)) {
			c.Lost = true
			return nil
		} else if err != nil {
			return err
		}
		var theta string
		if err := tx.QueryRowContext(ctx, s.rebind(`SELECT theta, applied FROM spsa_studies WHERE name = ?`), name).Scan(&theta, &c.Applied); err != nil {
			return err
		}
		if c.Theta, err = decodeTheta(theta); err != nil {
			return fmt.Errorf("theta: %w", err)
		}
		// The block was played from the θ of exactly the iterations before
		// it, and nothing was applied since: the same as one worker playing
		// every iteration in order.
		c.InOrder = blk.AppliedAtClaim == blk.First-1 && c.Applied == blk.AppliedAtClaim
		ins, err := tx.PrepareContext(ctx, s.rebind(`INSERT INTO spsa_iterations (study, iter, seq, case_id, flips, wins, draws, losses, theta, in_order, worker, finished_at)
			VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`))
		if err != nil {
			return err
		}
		defer ins.Close()
		now := nowText()
		inOrder := 0
		if c.InOrder {
			inOrder = 1
		}
		for i, r := range results {
			apply(c.Theta, i)
			c.Applied++
			th, err := encodeTheta(c.Theta)
			if err != nil {
				return err
			}
			if _, err := ins.ExecContext(ctx, name, r.Iter, c.Applied, r.Case, r.Flips, r.Wins, r.Draws, r.Losses, th, inOrder, owner, now); err != nil {
				return fmt.Errorf("iteration %d: %w", r.Iter, err)
			}
		}
		th, err := encodeTheta(c.Theta)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.rebind(`UPDATE spsa_studies SET theta = ?, applied = ?, updated_at = ? WHERE name = ?`), th, c.Applied, now, name); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, s.rebind(`UPDATE spsa_blocks SET done = 1 WHERE study = ? AND first_iter = ?`), name, blk.First)
		return err
	})
	return c, err
}

// DeleteSPSA removes an SPSA study and its blocks and iterations.
func (s *Store) DeleteSPSA(ctx context.Context, name string) error {
	return s.spsaLocked(ctx, name, func(tx *sql.Tx) error {
		for _, q := range []string{`DELETE FROM spsa_iterations WHERE study = ?`, `DELETE FROM spsa_blocks WHERE study = ?`, `DELETE FROM spsa_studies WHERE name = ?`} {
			if _, err := tx.ExecContext(ctx, s.rebind(q), name); err != nil {
				return err
			}
		}
		return nil
	})
}

// SPSAStudy is a stored SPSA study.
type SPSAStudy struct {
	Name    string
	Spec    string    // JSON of package spsa's Spec
	Theta   []float64 // current θ
	Applied int       // iterations applied
	Handed  int       // iterations handed out to workers
	Created time.Time
	Updated time.Time
	// Replayed counts blocks played again after their worker died or was
	// interrupted; Pending the blocks handed out and not yet applied.
	Replayed, Pending int
	Iterations        []SPSAIteration // in the order applied
}

// SPSAIteration is one applied iteration.
type SPSAIteration struct {
	Iter, Seq           int
	Case, Flips         string
	Wins, Draws, Losses int
	Theta               []float64 // θ after it was applied
	InOrder             bool
	Worker              string
	Finished            time.Time
}

// LoadSPSA reads SPSA study name with its iterations; nil when it is not
// stored.
func (s *Store) LoadSPSA(ctx context.Context, name string) (*SPSAStudy, error) {
	r := &SPSAStudy{Name: name}
	var theta, created, updated string
	err := s.db.QueryRowContext(ctx, s.rebind(`SELECT spec, theta, applied, next_iter, created_at, updated_at FROM spsa_studies WHERE name = ?`), name).
		Scan(&r.Spec, &theta, &r.Applied, &r.Handed, &created, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	r.Handed--
	if r.Theta, err = decodeTheta(theta); err != nil {
		return nil, fmt.Errorf("SPSA study %q: theta: %w", name, err)
	}
	if r.Created, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return nil, fmt.Errorf("SPSA study %q: created: %w", name, err)
	}
	if r.Updated, err = time.Parse(time.RFC3339Nano, updated); err != nil {
		return nil, fmt.Errorf("SPSA study %q: updated: %w", name, err)
	}
	if err := s.db.QueryRowContext(ctx, s.rebind(`SELECT COALESCE(SUM(CASE WHEN attempts > 1 THEN 1 ELSE 0 END), 0), COALESCE(SUM(1 - done), 0) FROM spsa_blocks WHERE study = ?`), name).
		Scan(&r.Replayed, &r.Pending); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT iter, seq, case_id, flips, wins, draws, losses, theta, in_order, worker, finished_at
		FROM spsa_iterations WHERE study = ? ORDER BY seq`), name)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var it SPSAIteration
		var th, fin string
		var inOrder int
		if err := rows.Scan(&it.Iter, &it.Seq, &it.Case, &it.Flips, &it.Wins, &it.Draws, &it.Losses, &th, &inOrder, &it.Worker, &fin); err != nil {
			return nil, err
		}
		if it.Theta, err = decodeTheta(th); err != nil {
			return nil, fmt.Errorf("SPSA study %q iteration %d: theta: %w", name, it.Iter, err)
		}
		it.InOrder = inOrder != 0
		if it.Finished, err = time.Parse(time.RFC3339Nano, fin); err != nil {
			return nil, fmt.Errorf("SPSA study %q iteration %d: finished: %w", name, it.Iter, err)
		}
		r.Iterations = append(r.Iterations, it)
	}
	return r, rows.Err()
}

// SPSAHead is an SPSA study as the study list shows it.
type SPSAHead struct {
	Name    string
	Spec    string // JSON of package spsa's Spec
	Applied int
	Created time.Time
	Updated time.Time
}

// SPSAStudies lists the stored SPSA studies, in no order.
func (s *Store) SPSAStudies(ctx context.Context) ([]SPSAHead, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name, spec, applied, created_at, updated_at FROM spsa_studies`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []SPSAHead
	for rows.Next() {
		var h SPSAHead
		var created, updated string
		if err := rows.Scan(&h.Name, &h.Spec, &h.Applied, &created, &updated); err != nil {
			return nil, err
		}
		if h.Created, err = time.Parse(time.RFC3339Nano, created); err != nil {
			return nil, fmt.Errorf("SPSA study %q: created: %w", h.Name, err)
		}
		if h.Updated, err = time.Parse(time.RFC3339Nano, updated); err != nil {
			return nil, fmt.Errorf("SPSA study %q: updated: %w", h.Name, err)
		}
		out = append(out, h)
	}
	return out, rows.Err()
}
