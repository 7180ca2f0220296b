package runner

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/harness/store"
)

// matchSource hands out the plan's unfinished matches in launch order
// (see launchOrder). With a store it claims them in blocks of positions of
// the launch order (Store.ClaimBlock), sized to about blockPlay of this
// worker's play and renewed while they are played, and, when other workers
// hold the rest, waits for their blocks to finish or to be left.
type matchSource struct {
	rn       *Runner
	p        *Plan
	worker   string
	order    []int
	index    map[string]int // plan index by match key
	stored   []bool         // by plan index: loaded from the store before the start
	jobs     int
	finished atomic.Int64 // games finished by this process

	mu      sync.Mutex
	blocks  map[int]*heldBlock // by Lo: blocks not yet marked done in the store
	blockOf []int32            // plan index -> Lo+1 of its held block (0: none)
	// Games of blocks other workers finished, read while this worker
	// plays (see gather); have marks them by plan index.
	gathered []Result
	have     []bool

	// gather's own: the launch position below which every block is read
	// or this worker's, and the blocks from there on whose games are read
	// (by Lo).
	from int
	read map[int]bool
}

// gather reads the games of the blocks that other workers of the run
// have finished since its last call (Run calls it every gatherEvery), so
// that a worker sharing a run has most of the others' games when its own
// play ends. A block is looked at from its start until it is done. Errors
// are logged and the next call tries again: the run's end reads whatever
// is missing (loadStored).
func (s *matchSource) gather(ctx context.Context) {
	st, run := s.rn.Store, s.p.Run.ID
	if s.read == nil {
		s.read = map[int]bool{}
	}
	blocks, err := st.BlocksFrom(ctx, run, s.from)
	if err != nil {
		if ctx.Err() == nil {
			s.rn.log().Warn("reading other workers' blocks", "run", run, "err", err)
		}
		return
	}
	var keys []string
	var lows []int
	next := s.from
	behind := true // every block so far is read or this worker's
	for _, b := range blocks {
		switch {
		case b.Owner == s.worker || s.read[b.Lo]:
		case b.Done:
			for _, i := range s.order[b.Lo:b.Hi] {
				if !s.stored[i] {
					keys = append(keys, s.p.Matches[i].Key)
				}
			}
			lows = append(lows, b.Lo)
		default:
			behind = false
			continue
		}
		if behind {
			next = b.Hi
		}
	}
	if len(keys) > 0 {
		err = st.Outcomes(ctx, run, keys, func(key []byte) (int, bool) {
			i, ok := s.index[string(key)]
			return i, ok && !s.stored[i] && !s.have[i]
		}, func(i int, o contract.Outcome, wall time.Duration) {
			s.mu.Lock()
			s.gathered = append(s.gathered, Result{Index: i, Outcome: o, Wall: wall, Resumed: true})
			s.have[i] = true
			s.mu.Unlock()
		})
		if err != nil {
			if ctx.Err() == nil {
				s.rn.log().Warn("reading other workers' games", "run", run, "err", err)
			}
			return
		}
	}
	for _, lo := range lows {
		s.read[lo] = true
	}
	s.from = next
	for lo := range s.read {
		if lo < s.from {
			delete(s.read, lo)
		}
	}
}

type heldBlock struct {
	b    store.Block
	left int // games launched and not yet in a batch
}

// gamesDone records that the games of chunk (plan indexes) are in a
// batch; it appends to done the blocks that this completes.
func (s *matchSource) gamesDone(chunk []int, done []store.Block) []store.Block {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, i := range chunk {
		lo := int(s.blockOf[i]) - 1
		if lo < 0 {
			continue
		}
		s.blockOf[i] = 0
		hb := s.blocks[lo]
		if hb.left--; hb.left == 0 {
			done = append(done, hb.b)
		}
	}
	return done
}

// committed forgets the blocks that a committed batch marked done.
func (s *matchSource) committed(done []store.Block) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range done {
		delete(s.blocks, b.Lo)
	}
}

func (s *matchSource) held(lo int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.blocks[lo]
	return ok
}

// feed hands the matches to launch in chunks (see chunkPlay); launch
// reports false when the run is over.
func (s *matchSource) feed(ctx context.Context, launch func(chunk []int) bool) error {
	start := time.Now()
	if s.rn.Store == nil {
		todo := s.order
		if slices.Contains(s.stored, true) {
			todo = nil
			for _, i := range s.order {
				if !s.stored[i] {
					todo = append(todo, i)
				}
			}
		}
		if !s.launchChunks(todo, start, launch) {
			return ctx.Err()
		}
		return nil
	}
	st, run := s.rn.Store, s.p.Run.ID
	lease := s.rn.lease()
	size := max(4*s.jobs, 16)
	// Waiting for others' blocks (to finish, or to be left by a dead
	// worker) polls the claims: cheap, and a worker whose share is done
	// learns soon that the run is. The polls start 5 ms apart, when the
	// others' last blocks are about to end, and slow down to 100 ms.
	const firstWait = 5 * time.Millisecond
	maxWait := min(lease/3, 100*time.Millisecond)
	wait := firstWait
	known := slices.Clone(s.stored) // by plan index: stored, or launched here
	repaired := false
	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		b, ok, others, err := st.ClaimBlock(ctx, run, s.worker, len(s.order), size, lease, s.held)
		if err != nil {
			return fmt.Errorf("claiming games: %w", err)
		}
		if !ok {
			if others == 0 {
				if repaired {
					return nil
				}
				// Every block is done: check that its games are stored
				// (they are, unless rows were removed by hand or a block
				// was marked done by another program), and play any that
				// are not.
				repaired = true
				lost, err := s.unstored(ctx, known)
				if err != nil {
					return fmt.Errorf("claiming games: %w", err)
				}
				if len(lost) == 0 {
					return nil
				}
				s.warnLost(ctx, lost)
				if err := st.ReopenBlocks(ctx, run, lost); err != nil {
					return fmt.Errorf("claiming games: %w", err)
				}
				continue
			}
			// Others hold the rest: wait for them to finish it, or to
			// leave a block (a dead worker) to take over.
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(wait):
			}
			wait = min(2*wait, maxWait)
			continue
		}
		wait = firstWait
		var stored map[string]bool
		if b.Takeover {
			if stored, err = st.StoredKeys(ctx, run); err != nil {
				return fmt.Errorf("claiming games: %w", err)
			}
		}
		var todo []int
		for _, i := range s.order[b.Lo:b.Hi] {
			if !s.stored[i] && !stored[s.p.Matches[i].Key] {
				todo = append(todo, i)
			}
			known[i] = true
		}
		if len(todo) == 0 {
			if _, err := st.SaveBatch(ctx, run, nil, []store.Block{b}); err != nil {
				return fmt.Errorf("claiming games: %w", err)
			}
			continue
		}
		s.mu.Lock()
		s.blocks[b.Lo] = &heldBlock{b: b, left: len(todo)}
		for _, i := range todo {
			s.blockOf[i] = int32(b.Lo + 1)
		}
		s.mu.Unlock()
		if !s.launchChunks(todo, start, launch) {
			return ctx.Err()
		}
		// The next block: about blockPlay of this worker's play at its
		// rate so far, at most twice this one.
		if el := time.Since(start); el > 0 {
			rate := float64(s.finished.Load()) / el.Seconds()
			size = min(max(int(rate*blockPlay.Seconds()), s.jobs), 2*(b.Hi-b.Lo), maxBlock)
		}
	}
}

// launchChunks hands todo (plan indexes) to launch in chunks of about
// chunkPlay of one player's play at this process's rate since start, so
// that every player gets a share of the last chunks; it reports false when
// launch did.
func (s *matchSource) launchChunks(todo []int, start time.Time, launch func(chunk []int) bool) bool {
	for len(todo) > 0 {
		n := 1
		if el := time.Since(start); el > 0 {
			perPlayer := float64(s.finished.Load()) / el.Seconds() / float64(s.jobs)
			n = min(max(int(perPlayer*chunkPlay.Seconds()), 1), maxChunk, max(len(todo)/(2*s.jobs), 1))
		}
		if !launch(todo[:n:n]) {
			return false
		}
		todo = todo[n:]
	}
	return true
}

// warnLost says why the games at launch positions lost, of finished
// blocks, are played again: mostly games whose referee failed (see
// RefereeError), which a rerun retries; any others were removed from the
// store, or their blocks marked done by another program.
func (s *matchSource) warnLost(ctx context.Context, lost []int) {
	run := s.p.Run.ID
	failed, err := s.rn.Store.RefereeErrors(ctx, run)
	if err != nil {
		// Only the message's words depend on it: the games are played.
		s.rn.log().Warn("reading referee errors", "run", run, "err", err)
	}
	keys := make(map[string]bool, len(failed))
	for _, f := range failed {
		keys[f.Key] = true
	}
	retried := 0
	for _, pos := range lost {
		if keys[s.p.Matches[s.order[pos]].Key] {
			retried++
		}
	}
	if retried > 0 {
		f := failed[0]
		why := strings.TrimPrefix((&contract.RefereeError{Reason: f.Reason, Stderr: f.Stderr}).Error(), "referee error: ")
		s.rn.log().Warn(fmt.Sprintf("run %s: retrying %d games whose referee failed; first in %s: %s", run, retried, f.CaseID, why))
	}
	if other := len(lost) - retried; other > 0 {
		s.rn.log().Warn(fmt.Sprintf("run %s: %d games of finished blocks are not stored; playing them", run, other))
	}
}

// unstored returns the launch positions of the games that are neither
// known here (stored before the start, or launched by this worker) nor
// stored now.
func (s *matchSource) unstored(ctx context.Context, known []bool) ([]int, error) {
	var unknown []int
	s.mu.Lock()
	for pos, i := range s.order {
		if !known[i] && !s.have[i] {
			unknown = append(unknown, pos)
		}
	}
	s.mu.Unlock()
	if len(unknown) == 0 {
		return nil, nil
	}
	stored, err := s.rn.Store.StoredKeys(ctx, s.p.Run.ID)
	if err != nil {
		return nil, err
	}
	var out []int
	for _, pos := range unknown {
		if !stored[s.p.Matches[s.order[pos]].Key] {
			out = append(out, pos)
		}
	}
	return out, nil
}
