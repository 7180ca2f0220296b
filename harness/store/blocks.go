package store

import (
	"context"
	"time"

	"gauntlet/internal/sqldb"
)

// blocks is the lease protocol on claim_blocks: leases end by the clock
// of the worker that claims or renews them.
func (s *Store) blocks() sqldb.Lease {
	return sqldb.Lease{Dialect: s.dialect, Table: "claim_blocks", Scope: "run_id", Item: "lo"}
}

// Block is a claimed block of a run's games: the positions [Lo, Hi) of
// the run's launch order (see launchOrder), the same for every worker of
// the run.
type Block struct {
	Lo, Hi int
	// Takeover is true for a block that another worker had claimed and
	// left (it died, or its lease expired): some of its games may be
	// stored already.
	Takeover bool
}

// ClaimBlock claims a block of run runID's games for owner for the lease
// duration, in one transaction that no other claimer of the run runs at the
// same time: first a block left by another worker (its lease expired, or
// its owner is a process of this machine that is gone: see sqldb.Free),
// else the next fresh block of up to size positions of the n (less near the
// end, see below). held lists
// the blocks owner plays already (not taken again). ok is false when there
// is no block to take; others then reports how many unfinished blocks other
// workers hold (0: nothing is left to play).
func (s *Store) ClaimBlock(ctx context.Context, runID, owner string, n, size int, lease time.Duration, held func(lo int) bool) (b Block, ok bool, others int, err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Block{}, false, 0, err
	}
	defer tx.Rollback()
	// Serialise claimers of one run (SQLite's immediate transactions do this already).
	if err := sqldb.TextLock(runID).Take(ctx, tx, s.dialect); err != nil {
		return Block{}, false, 0, err
	}
	now := time.Now()
	until := now.Add(lease).UnixMilli()
	rows, err := tx.QueryContext(ctx, s.rebind(`SELECT lo, hi, owner, expires_at FROM claim_blocks WHERE run_id = ? AND done = 0 ORDER BY lo`), runID)
	if err != nil {
		return Block{}, false, 0, err
	}
	var open []struct {
		b     Block
		owner string
		exp   int64
	}
	for rows.Next() {
		var o struct {
			b     Block
			owner string
			exp   int64
		}
		if err := rows.Scan(&o.b.Lo, &o.b.Hi, &o.owner, &o.exp); err != nil {
			rows.Close()
			return Block{}, false, 0, err
		}
		open = append(open, o)
	}
	if err := rows.Close(); err != nil {
		return Block{}, false, 0, err
	}
	found := false
	owners := map[string]bool{owner: true}
	for _, o := range open {
		owners[o.owner] = true
		if o.owner == owner && held(o.b.Lo) {
			continue
		}
		if !found && (o.owner == owner || sqldb.Free(o.owner, o.exp < now.UnixMilli())) {
			b, found = o.b, true
			b.Takeover = true
			continue
		}
		others++
	}
	if found {
		if err := s.blocks().Take(ctx, tx, runID, b.Lo, owner, lease); err != nil {
			return Block{}, false, 0, err
		}
		return b, true, others, tx.Commit()
	}
	var cursor int
	if err := tx.QueryRowContext(ctx, s.rebind(`SELECT COALESCE(MAX(hi), 0) FROM claim_blocks WHERE run_id = ?`), runID).Scan(&cursor); err != nil {
		return Block{}, false, 0, err
	}
	if cursor >= n {
		return Block{}, false, others, tx.Commit()
	}
	// Guided self-scheduling: at most half of an even share of what is
	// left among the workers seen, so that the last blocks are small and
	// the workers finish together.
	size = min(size, (n-cursor+2*len(owners)-1)/(2*len(owners)))
	b = Block{Lo: cursor, Hi: min(cursor+max(size, 1), n)}
	if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO claim_blocks (run_id, lo, hi, owner, expires_at, done) VALUES (?,?,?,?,?,0)`),
		runID, b.Lo, b.Hi, owner, until); err != nil {
		return Block{}, false, 0, err
	}
	return b, true, others, tx.Commit()
}

// BlockState is a claimed block of a run as the store has it.
type BlockState struct {
	Block
	Owner string
	Done  bool
}

// BlocksFrom returns the claimed blocks of a run from launch position lo
// on, in launch order: a worker reading the games of the blocks others
// have finished asks only for those past the ones it has read.
func (s *Store) BlocksFrom(ctx context.Context, runID string, lo int) ([]BlockState, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT lo, hi, owner, done FROM claim_blocks WHERE run_id = ? AND lo >= ? ORDER BY lo`), runID, lo)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []BlockState
	for rows.Next() {
		var b BlockState
		var done int
		if err := rows.Scan(&b.Lo, &b.Hi, &b.Owner, &done); err != nil {
			return nil, err
		}
		b.Done = done != 0
		out = append(out, b)
	}
	return out, rows.Err()
}

// RenewBlocks extends the lease of owner's unfinished blocks of a run.
func (s *Store) RenewBlocks(ctx context.Context, runID, owner string, lease time.Duration) error {
	_, err := s.blocks().Renew(ctx, s.db, runID, owner, lease)
	return err
}

// ReopenBlocks marks the done blocks of a run that hold any of the given
// positions as left (not done, lease ended), so that a worker takes them
// over and plays their games that are not stored.
func (s *Store) ReopenBlocks(ctx context.Context, runID string, positions []int) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, s.rebind(`SELECT lo, hi FROM claim_blocks WHERE run_id = ? AND done = 1`), runID)
	if err != nil {
		return err
	}
	var reopen []int
	for rows.Next() {
		var lo, hi int
		if err := rows.Scan(&lo, &hi); err != nil {
			rows.Close()
			return err
		}
		for _, p := range positions {
			if p >= lo && p < hi {
				reopen = append(reopen, lo)
				break
			}
		}
	}
	if err := rows.Close(); err != nil {
		return err
	}
	for _, lo := range reopen {
		if _, err := tx.ExecContext(ctx, s.rebind(`UPDATE claim_blocks SET done = 0, expires_at = 0 WHERE run_id = ? AND lo = ?`), runID, lo); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Release hands back owner's unfinished blocks of a run (an interrupted or
// early-stopped worker): their leases end now, so that another worker takes
// them over at once and plays their games that are not stored.
func (s *Store) Release(ctx context.Context, runID, owner string) error {
	return s.blocks().Release(ctx, s.db, runID, owner)
}
