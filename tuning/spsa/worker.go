package spsa

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"slices"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"gauntlet/harness/contract"
	"gauntlet/internal/sqldb"
)

// RunOptions are a worker's settings; they do not define the study.
type RunOptions struct {
	// Study is the study name ("": Spec.DefaultName()).
	Study string
	// Jobs is the number of games played at once (<= 0: CPUs). The two
	// games of a pair are played in parallel when Jobs >= 2, and the worker
	// runs max(1, Jobs/2) lanes, each claiming and playing its own blocks.
	// More than one lane moves θ asynchronously (not reproducible).
	Jobs int
	// Lease is how long a block's claim lasts without renewal (0: 30s); it
	// is renewed every third of it while the block plays. A block whose
	// lease expired is played again by another worker.
	Lease time.Duration
	// Worker names this process in the store ("": host:TOKEN, see
	// sqldb.WorkerName).
	Worker string
	// Play is passed to every game.
	Play contract.PlayOptions
	// Log receives progress (nil: slog.Default()).
	Log *slog.Logger
	// Progress is the interval between progress lines (0: 10s).
	Progress time.Duration
	// BlockTime is the playing time a block aims at (0: 250ms): blocks of
	// fast games hold many iterations, so that the store is written once
	// per block, not once per pair.
	BlockTime time.Duration
}

// errLost cancels a block that another worker took over.
var errLost = errors.New("block taken over by another worker")

// Run works on the study until every iteration is applied (waiting for the
// other workers' blocks, and playing again those whose worker died) or ctx
// ends, and returns the study's summary. Interrupted, it gives its
// unfinished blocks back and returns ctx's error; the iterations applied so
// far stay stored.
func (s *Study) Run(ctx context.Context, st *Storage, opt RunOptions) (*Summary, error) {
	if opt.Study == "" {
		opt.Study = s.spec.DefaultName()
	}
	if opt.Worker == "" {
		opt.Worker = sqldb.WorkerName()
	}
	if opt.Jobs <= 0 {
		opt.Jobs = runtime.NumCPU()
	}
	if opt.Lease <= 0 {
		opt.Lease = 30 * time.Second
	}
	if opt.Progress <= 0 {
		opt.Progress = 10 * time.Second
	}
	if opt.BlockTime <= 0 {
		opt.BlockTime = 250 * time.Millisecond
	}
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	if err := st.ensureStudy(ctx, opt.Study, s.spec, s.space.Theta0()); err != nil {
		return nil, err
	}
	lanes := max(1, opt.Jobs/2)
	prog := &progress{log: opt.Log, every: opt.Progress, study: opt.Study, n: s.spec.Iterations(), params: s.space.Params, start: time.Now(), from: -1}
	g, gctx := errgroup.WithContext(ctx)
	for l := range lanes {
		owner := opt.Worker
		if lanes > 1 {
			owner = fmt.Sprintf("%s/%d", opt.Worker, l)
		}
		g.Go(func() error { return s.lane(gctx, st, opt, owner, lanes, opt.Jobs >= 2, prog) })
	}
	if err := g.Wait(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	rec, err := st.Load(ctx, opt.Study)
	if err != nil {
		return nil, err
	}
	return BuildSummary(rec)
}

// lane claims, plays and applies blocks until the study is finished.
func (s *Study) lane(ctx context.Context, st *Storage, opt RunOptions, owner string, lanes int, parallel bool, prog *progress) error {
	n := s.spec.Iterations()
	// Blocks stay small against the budget, so that several lanes or
	// workers do not play long stretches from an old θ.
	maxBlock := max(1, min(1024, n/(100*lanes)))
	want := 1
	poll := min(max(opt.Lease/10, 50*time.Millisecond), time.Second)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		c, err := st.claim(ctx, opt.Study, owner, n, want, opt.Lease)
		if err != nil {
			return fmt.Errorf("SPSA study %s: claiming iterations: %w", opt.Study, err)
		}
		if c.done {
			return nil
		}
		if c.wait {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(poll):
			}
			continue
		}
		blk := c.blk
		if blk.attempt > 1 {
			opt.Log.Info("spsa: playing again iterations of a worker that stopped", "study", opt.Study,
				"first", blk.first, "last", blk.first+blk.n-1, "attempt", blk.attempt)
		}
		start := time.Now()
		results, err := s.playBlock(ctx, st, opt, owner, blk, parallel)
		bg, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		if err != nil {
			lost := errors.Is(err, errLost)
			if !lost {
				// Hand the block back at once rather than letting others
				// wait for its lease.
				if rerr := st.release(bg, opt.Study, blk.first, owner); rerr != nil {
					opt.Log.Warn("spsa: could not give the unfinished block back; it is re-played once its lease expires", "err", rerr)
				}
			}
			cancel()
			if lost && ctx.Err() == nil {
				opt.Log.Warn("spsa: this worker's block was taken over by another worker; dropping it", "first", blk.first)
				continue
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
		if per := time.Since(start) / time.Duration(blk.n); per > 0 {
			want = int(min(int64(maxBlock), max(1, int64(opt.BlockTime/per))))
		} else {
			want = maxBlock
		}
		cm, err := st.commit(bg, opt.Study, owner, blk, results, s.apply)
		cancel()
		if err != nil {
			return fmt.Errorf("SPSA study %s: applying iterations %d..%d: %w", opt.Study, blk.first, blk.first+blk.n-1, err)
		}
		if cm.lost {
			opt.Log.Warn("spsa: this worker's block was taken over by another worker; its results are dropped", "first", blk.first)
			continue
		}
		prog.add(results, cm.theta, cm.applied)
	}
}

// playBlock plays a block's pairs from its θ, moving a copy of θ after each
// pair, while a heartbeat renews the block's lease.
func (s *Study) playBlock(ctx context.Context, st *Storage, opt RunOptions, owner string, blk *block, parallel bool) ([]pairResult, error) {
	bctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(opt.Lease / 3)
		defer t.Stop()
		for {
			select {
			case <-bctx.Done():
				return
			case <-t.C:
				ok, err := st.renew(bctx, opt.Study, blk.first, owner, opt.Lease)
				switch {
				case err != nil:
					if bctx.Err() == nil {
						opt.Log.Warn("spsa: renewing the block's lease failed", "first", blk.first, "err", err)
					}
				case !ok:
					cancel(errLost)
					return
				}
			}
		}
	})
	defer wg.Wait()
	defer cancel(nil) // stops the heartbeat before wg.Wait
	theta := slices.Clone(blk.theta)
	results := make([]pairResult, 0, blk.n)
	for k := blk.first; k < blk.first+blk.n; k++ {
		r, err := s.playPair(bctx, k, theta, parallel, opt.Play)
		if err != nil {
			if cause := context.Cause(bctx); errors.Is(cause, errLost) {
				return nil, errLost
			}
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("iteration %d: %w", k, err)
		}
		s.apply(theta, r.update)
		results = append(results, r)
	}
	if errors.Is(context.Cause(bctx), errLost) {
		return nil, errLost
	}
	return results, nil
}

// progress logs the study's state every so often: iterations applied of
// the budget, the score of θ+ against θ− in this process's pairs, the time
// left at the pace since this process's first block and θ.
type progress struct {
	log    *slog.Logger
	every  time.Duration
	study  string
	n      int
	params []Param
	start  time.Time
	from   int // iterations applied before this process's first block (-1: none yet)

	mu         sync.Mutex
	last       time.Time
	pairs      int
	wins, loss int
	draws      int
}

func (p *progress) add(rs []pairResult, theta []float64, applied int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, r := range rs {
		p.pairs++
		p.wins += r.wins
		p.draws += r.draws
		p.loss += r.loss
	}
	if p.last.IsZero() {
		p.last = time.Now()
	}
	if p.from < 0 {
		p.from = max(applied-len(rs), 0)
	}
	if time.Since(p.last) < p.every && applied < p.n {
		return
	}
	p.last = time.Now()
	games := p.wins + p.draws + p.loss
	p.log.Info("spsa: progress", "study", p.study, "iterations", fmt.Sprintf("%d/%d", applied, p.n), "games", 2*applied,
		"plus_score", fmt.Sprintf("%.3f", (float64(p.wins)+float64(p.draws)/2)/float64(max(games, 1))),
		"eta", p.eta(applied), "theta", describe(p.params, theta))
}

// eta is the time the rest of the budget takes at the pace of the
// iterations applied since this process's first block.
func (p *progress) eta(applied int) string {
	left, done := p.n-applied, applied-p.from
	switch {
	case left <= 0:
		return "0s"
	case done <= 0:
		return "?"
	}
	return (time.Since(p.start) / time.Duration(done) * time.Duration(left)).Round(time.Second).String()
}
