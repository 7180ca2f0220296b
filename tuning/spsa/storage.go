package spsa

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"gauntlet/harness/store"
)

// Storage keeps SPSA studies in the results store (SQLite or PostgreSQL),
// in three tables of their own that package store keeps (see the package
// comment).
type Storage struct {
	store *store.Store
	url   string
}

// OpenStorage opens the store at url ("sqlite:FILE" or "postgres://...",
// as store.Open reads it) and creates the SPSA tables it lacks.
func OpenStorage(ctx context.Context, url string) (*Storage, error) {
	return store.OpenLayer(ctx, url, false, StorageOn)
}

// OpenStorageReadOnly opens the store at url for reading its studies
// only (store.OpenReadOnly): nothing is written to it, and a store
// without the SPSA tables holds no study.
func OpenStorageReadOnly(ctx context.Context, url string) (*Storage, error) {
	return store.OpenLayer(ctx, url, true, StorageOn)
}

// StorageOn is the SPSA storage on the open store hs, whose connections it
// shares (closing either closes both): the SPSA tables are made unless hs
// is read-only (an SQLite file opened by store.OpenReadOnly, where the
// missing ones read as empty). On error hs is left open.
func StorageOn(ctx context.Context, hs *store.Store) (*Storage, error) {
	if !hs.ReadOnly() {
		if err := hs.CreateSPSATables(ctx); err != nil {
			return nil, fmt.Errorf("storage %q: creating the SPSA tables: %w", store.RedactURL(hs.URL()), err)
		}
	}
	return &Storage{store: hs, url: hs.URL()}, nil
}

// Close closes the database.
func (s *Storage) Close() error { return s.store.Close() }

// ErrStudyMismatch is returned when a study name is reused for another
// definition.
var ErrStudyMismatch = errors.New("study exists with a different definition")

// ErrNoStudy is returned when a study is not stored.
var ErrNoStudy = errors.New("no such SPSA study")

// ensureStudy creates the study at θ0, or checks that the stored one has
// the same definition.
func (s *Storage) ensureStudy(ctx context.Context, name string, spec Spec, theta0 []float64) error {
	js, err := json.Marshal(spec)
	if err != nil {
		return err
	}
	stored, err := s.store.DefineSPSA(ctx, name, string(js), theta0)
	if err != nil {
		return err
	}
	if stored != string(js) {
		return fmt.Errorf("SPSA study %q: %w (stored %s; now %s); pick another --study name", name, ErrStudyMismatch, stored, js)
	}
	return nil
}

// block is a run of consecutive iterations handed to one worker.
type block struct {
	first, n       int
	theta          []float64 // θ the block starts from
	appliedAtClaim int       // iterations applied when it was first claimed
	attempt        int       // 1 for a first play, more for a re-play
}

// stored is the block as the store has it.
func (b *block) stored() store.SPSABlock {
	return store.SPSABlock{First: b.first, N: b.n, Theta: b.theta, AppliedAtClaim: b.appliedAtClaim, Attempt: b.attempt}
}

// claimed is the outcome of claim: a block, or nothing to do yet (wait:
// other workers hold the last blocks), or the study is finished.
type claimed struct {
	blk  *block
	wait bool
	done bool
}

// claim hands this worker a block (store.ClaimSPSA): first one whose
// worker left it (its lease expired, or its process is gone on this
// machine), to be played again from its θ; otherwise up to want new
// iterations from the current θ.
func (s *Storage) claim(ctx context.Context, name, owner string, iterations, want int, lease time.Duration) (claimed, error) {
	c, err := s.store.ClaimSPSA(ctx, name, owner, iterations, want, lease)
	if err != nil || c.Block == nil {
		return claimed{wait: c.Wait, done: c.Done}, err
	}
	b := c.Block
	return claimed{blk: &block{first: b.First, n: b.N, theta: b.Theta, appliedAtClaim: b.AppliedAtClaim, attempt: b.Attempt}}, nil
}

// renew extends this worker's lease on a block; false when the block is no
// longer this worker's (another took it over after the lease expired).
func (s *Storage) renew(ctx context.Context, name string, first int, owner string, lease time.Duration) (bool, error) {
	return s.store.RenewSPSA(ctx, name, first, owner, lease)
}

// release gives an unfinished block back at once (an interrupted worker),
// so that the next worker re-plays it without waiting for the lease.
func (s *Storage) release(ctx context.Context, name string, first int, owner string) error {
	return s.store.ReleaseSPSA(ctx, name, first, owner)
}

// committed is the outcome of commit.
type committed struct {
	lost    bool // the block was no longer this worker's: nothing stored
	theta   []float64
	applied int
	inOrder bool
}

// commit applies a played block in one transaction (store.CommitSPSA):
// each iteration's update is added in order to the stored θ with apply
// (the operation the worker applied to its own copy), each iteration is
// stored with θ after it, and the block is marked done. A block this
// worker no longer holds is left alone.
func (s *Storage) commit(ctx context.Context, name, owner string, blk *block, results []pairResult, apply func(theta, update []float64)) (committed, error) {
	rs := make([]store.SPSAResult, len(results))
	for i, r := range results {
		rs[i] = store.SPSAResult{Iter: r.iter, Case: r.caseID, Flips: flipString(r.flips), Wins: r.wins, Draws: r.draws, Losses: r.loss}
	}
	c, err := s.store.CommitSPSA(ctx, name, owner, blk.stored(), rs, func(theta []float64, i int) { apply(theta, results[i].update) })
	return committed{lost: c.Lost, theta: c.Theta, applied: c.Applied, inOrder: c.InOrder}, err
}

// DeleteStudy removes a study and its blocks and iterations.
func (s *Storage) DeleteStudy(ctx context.Context, name string) error {
	return s.store.DeleteSPSA(ctx, name)
}
