package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"gauntlet/harness/contract"
	"gauntlet/harness/store"
	"gauntlet/internal/sqldb"
)

// Runner plays plans: in parallel, resumably when it has a store.
type Runner struct {
	Store    *store.Store         // nil: results are not stored
	Jobs     int                  // parallel games (<= 0: number of CPUs)
	Options  contract.PlayOptions // passed to every Play
	Progress io.Writer            // progress bar destination (nil: none)
	Worker   string               // worker name stored with each game and claim (default sqldb.WorkerName())
	Lease    time.Duration        // lease of a claimed block with a store, renewed while it is played (default 30s)
	Log      *slog.Logger
	// Watch, when set, is called with every result of the run as it is
	// known: the stored ones first, then each game this process finishes
	// (not those after an early stop), one at a time. The result stays
	// valid after the call.
	Watch func(r *Result)

	gatherEvery time.Duration // see gather (0: gatherEvery)
}

// Batching of stored results. A batch of games slower than slowGame (on
// average) is committed as soon as the collector is free: while a commit
// runs, the games that end meanwhile gather into the next batch, so a
// worker killed with -9 loses little more than its games in flight. Faster
// games are committed once the commits so far took at most 1/commitShare of
// the time since the last one began (storing then costs the games little),
// and at the latest when the batch holds batchGames games or its first game
// is batchAge old. A killed process loses its games in flight and its
// uncommitted batch; a resumed run plays exactly those games again.
const (
	batchGames  = 500
	batchAge    = time.Second
	commitShare = 20
	slowGame    = 2 * time.Millisecond
)

// Hand-over of games between the runner's goroutines: a player takes
// its games in chunks of about chunkPlay of its own play (one game until
// the rate is known, at most maxChunk) and hands each finished chunk to the
// collector at once. One game at a time, the two channel hand-overs and
// the wake-ups of the goroutines on the other end cost about a fifth of a
// 40 µs brew game (a CPU profile of the 20,000-game eval: runtime.selectgo,
// futex wake-ups and the scheduler); a chunk of 2 ms makes that 1%, and
// the progress bar, the stopper and the store still hear of every game
// within milliseconds.
const (
	chunkPlay = 2 * time.Millisecond
	maxChunk  = 64
)

// Block claims: a worker claims the games it plays in blocks of about
// blockPlay of its own play (so that claiming costs nothing next to
// playing, and the last blocks of a run leave its workers idle for at most
// about that long), starting with small blocks that at most double.
const (
	blockPlay = time.Second
	maxBlock  = 1 << 16
)

// gatherEvery is how often a worker looks for blocks other workers of its
// run have finished, to read their games while it plays (see gather)
// rather than all at its end: three workers of a 300,000-game brew run
// each read 200,000 games of the others, 0.4 s at 2 µs a game
// (BenchmarkOutcomes) of a run of 7 to 10 s on a 16-core machine. A look
// that finds nothing new is one query of the run's few open blocks.
const gatherEvery = 200 * time.Millisecond

func (rn *Runner) jobs() int {
	if rn.Jobs > 0 {
		return rn.Jobs
	}
	return runtime.NumCPU()
}

func (rn *Runner) log() *slog.Logger {
	if rn.Log != nil {
		return rn.Log
	}
	return slog.Default()
}

func (rn *Runner) lease() time.Duration {
	if rn.Lease > 0 {
		return rn.Lease
	}
	return 30 * time.Second
}

// Run plays every match of the plan that is not stored yet. With a store,
// finished games are saved in batches as they come (see batchGames), and
// games are claimed in blocks before they are played, so that several
// processes can share one run without playing a game twice. When stop is
// non-nil it is fed the results in plan order and may end the run early;
// games in flight are then abandoned.
func (rn *Runner) Run(ctx context.Context, p *Plan, stop Stopper) (*Results, error) {
	start := time.Now()
	rs := &Results{Plan: p, Results: make([]*Result, len(p.Matches))}
	index, err := p.KeyIndex()
	if err != nil {
		return nil, err
	}
	worker := rn.Worker
	if worker == "" {
		worker = sqldb.WorkerName()
	}

	if err := p.limitRun(rn.Options); err != nil {
		return nil, err
	}
	if rn.Store != nil {
		if err := rn.Store.OpenRun(ctx, &p.Run); err != nil {
			return nil, err
		}
		if !p.Run.Resumed {
			rn.explainNewRun(ctx, p)
		} else if err := rn.loadStored(ctx, p, rs, index); err != nil {
			return nil, err
		}
	}

	col := newCollector(rs, stop)
	col.logs.policy = rn.Options.BotLogs
	prog := newProgress(rn.Progress, p.Game.Info().Name, len(p.Matches), rs.Resumed)
	defer prog.finish()
	for _, r := range rs.Results {
		if r != nil && rn.Watch != nil {
			rn.Watch(r)
		}
	}
	if col.feedResumed() {
		rs.Wall = time.Since(start)
		return rs, nil
	}

	runCtx, cancelRun := context.WithCancel(ctx)
	defer cancelRun()
	jobs := rn.jobs()
	// Finished games go to the collector in chunks of plan indexes (see
	// chunkPlay); their results live in one slab, written by the player
	// and read by the collector after the channel hands the chunk over.
	slab := make([]Result, len(p.Matches))
	// Room for a batch's worth of chunks: a player goes on while a
	// commit (milliseconds; tens of them on a loaded PostgreSQL server)
	// keeps the collector busy.
	results := make(chan []int, max(batchGames, 4*jobs))
	src := &matchSource{rn: rn, p: p, worker: worker, order: launchOrder(p, stop), index: index, jobs: jobs}
	src.blockOf = make([]int32, len(p.Matches))
	src.blocks = map[int]*heldBlock{}
	src.stored = make([]bool, len(p.Matches))
	src.have = make([]bool, len(p.Matches))
	for i, r := range rs.Results {
		src.stored[i] = r != nil
	}
	var saveErr error
	var saveWG sync.WaitGroup
	saveWG.Add(1)
	go func() {
		defer saveWG.Done()
		saveErr = rn.collect(context.WithoutCancel(ctx), p, worker, results, slab, col, prog, src, cancelRun)
	}()

	stopRenew, stopGather := func() {}, func() {}
	if rn.Store != nil {
		// Renew this worker's blocks until its last games are stored.
		stopRenew = rn.renewBlocks(ctx, p.Run.ID, worker)
		period := rn.gatherEvery
		if period <= 0 {
			period = gatherEvery
		}
		stopGather = Every(runCtx, period, src.gather)
	}
	// Many chunks wait for each player (about 0.1 s of its play), so that
	// the feeder, which runs when a player's core lets it, and its claims
	// (store transactions, which may wait for a commit) never leave a
	// player idle: with 4 chunks each, the players of the 20,000-game brew
	// eval with SQLite at --jobs 2 waited 50-80 ms each for games; with
	// 64, 1-4 ms.
	work := make(chan []int, 64*jobs)
	opt := rn.Options
	if opt.Concurrent == 0 {
		opt.Concurrent = jobs
	}
	names := labels(p.Entrants)
	g, gctx := errgroup.WithContext(runCtx)
	for range jobs {
		g.Go(func() error {
			players := make([]contract.Player, 0, 8)
			for chunk := range work {
				done := 0
				var err error
				for _, i := range chunk {
					if gctx.Err() != nil {
						break
					}
					m := &p.Matches[i]
					if cap(players) < len(m.Seats) {
						players = make([]contract.Player, len(m.Seats))
					}
					var out contract.Outcome
					var wall time.Duration
					var re *contract.RefereeError
					if out, wall, err = playMatch(gctx, p, m, opt, players[:len(m.Seats)], names); err != nil {
						if !errors.As(err, &re) || gctx.Err() != nil {
							break
						}
						out, err = contract.Outcome{}, nil // recorded apart by the collector
					}
					slab[i] = Result{Index: i, Outcome: out, Wall: wall, refereeErr: re}
					src.finished.Add(1)
					done++
				}
				if done > 0 {
					// Even when interrupted: these games finished, and the
					// collector reads until results is closed, after the
					// players have returned.
					results <- chunk[:done]
				}
				switch {
				case gctx.Err() != nil:
					return nil // stopped or interrupted: the rest of the chunk is simply not finished
				case err != nil:
					return err
				}
			}
			return nil
		})
	}
	feedErr := src.feed(gctx, func(chunk []int) bool {
		select {
		case work <- chunk:
			return true
		case <-gctx.Done():
			return false
		}
	})
	close(work)
	playErr := g.Wait()
	close(results)
	saveWG.Wait()
	if err := rn.saveRecentLogs(ctx, p, &col.logs); err != nil && saveErr == nil {
		saveErr = err
	}
	stopRenew()
	stopGather()
	if rn.Store != nil {
		bg := context.WithoutCancel(ctx)
		if err := rn.Store.Release(bg, p.Run.ID, worker); err != nil {
			// The blocks' leases then run out by themselves.
			rn.log().Warn("handing back claimed games", "run", p.Run.ID, "err", err)
		}
		if !rs.Stopped {
			// The games other workers finished for this run: those read
			// while this worker played, then the rest.
			rs.gathered = len(src.gathered)
			for k := range src.gathered {
				if r := &src.gathered[k]; rs.Results[r.Index] == nil {
					rs.Results[r.Index] = r
					rs.Resumed++
				}
			}
		}
		if !rs.Stopped && slices.Contains(rs.Results, nil) {
			if err := rn.loadStored(bg, p, rs, index); err != nil && playErr == nil {
				playErr = err
			}
		}
	}
	rs.Wall = time.Since(start)
	switch {
	case playErr != nil:
		return rs, playErr
	case saveErr != nil:
		return rs, fmt.Errorf("storing results: %w", saveErr)
	case rs.Stopped:
		return rs, nil
	case ctx.Err() != nil:
		return rs, ctx.Err()
	case feedErr != nil && !errors.Is(feedErr, context.Canceled):
		return rs, feedErr
	}
	return rs, nil
}

// renewBlocks renews the leases of worker's blocks of the run every third
// of a lease until stop is called.
func (rn *Runner) renewBlocks(ctx context.Context, run, worker string) (stop func()) {
	lease := rn.lease()
	return Every(context.WithoutCancel(ctx), lease/3, func(ctx context.Context) {
		if err := rn.Store.RenewBlocks(ctx, run, worker, lease); err != nil && ctx.Err() == nil {
			rn.log().Warn("renewing claimed games", "run", run, "err", err)
		}
	})
}

// Every calls fn every period, in a goroutine of its own, until stop is
// called; stop cancels the context fn is given and waits for a call in
// progress.
func Every(ctx context.Context, period time.Duration, fn func(ctx context.Context)) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				fn(ctx)
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

// explainNewRun says why a new run was made where a stored run has the same
// entrants and cases: an external bot's files or its time limits changed.
func (rn *Runner) explainNewRun(ctx context.Context, p *Plan) {
	if len(p.spec.Bots) == 0 {
		return
	}
	runs, err := rn.Store.Runs(ctx)
	if err != nil {
		rn.log().Warn("looking for earlier runs of the same entrants", "err", err)
		return
	}
	labels := make([]string, len(p.Entrants))
	for i, e := range p.Entrants {
		labels[i] = e.Label()
	}
	base, err := json.Marshal(p.spec.base())
	if err != nil { // it encoded as the run's spec: cannot happen
		rn.log().Warn("looking for earlier runs of the same entrants", "err", err)
		return
	}
	for _, r := range runs {
		var old RunSpec
		if r.ID == p.Run.ID || json.Unmarshal([]byte(r.Spec), &old) != nil {
			continue
		}
		if b, err := json.Marshal(old.base()); err != nil || string(b) != string(base) {
			continue
		}
		if why := p.spec.changes(old, labels); len(why) > 0 {
			if r.Status == "running" { // workers meant to share one run would play two
				why = append(why, fmt.Sprintf("run %s is not finished (workers still playing it play the earlier files or limits)", r.ID))
			}
			rn.log().Warn(fmt.Sprintf("new run %s, not a resume of run %s: %s", p.Run.ID, r.ID, strings.Join(why, "; ")))
		}
	}
}

// loadStored reads the stored games the results lack: by their keys when
// they are fewer than half of the run (a worker at the end of a run shared
// with others, most of whose games it has read while it played: see
// gather), else the whole run.
func (rn *Runner) loadStored(ctx context.Context, p *Plan, rs *Results, index map[string]int) error {
	var keys []string
	missing := 0
	for _, r := range rs.Results {
		if r == nil {
			missing++
		}
	}
	if missing < len(rs.Results)/2 {
		keys = make([]string, 0, missing)
		for i, r := range rs.Results {
			if r == nil {
				keys = append(keys, p.Matches[i].Key)
			}
		}
	}
	return rn.Store.Outcomes(ctx, p.Run.ID, keys, func(key []byte) (int, bool) {
		i, ok := index[string(key)]
		return i, ok && rs.Results[i] == nil
	}, func(i int, o contract.Outcome, wall time.Duration) {
		rs.Results[i] = &Result{Index: i, Outcome: o, Wall: wall, Resumed: true}
		rs.Resumed++
	})
}

// refereeFailed records a game whose referee failed: in the results, in
// the store (a failure to store it is logged: the game is not stored
// either way, and a rerun plays it), and in the log.
func (rn *Runner) refereeFailed(ctx context.Context, p *Plan, worker string, rs *Results, r *Result) {
	m := &p.Matches[r.Index]
	f := contract.RefereeFailure{Key: m.Key, CaseID: m.Case.ID, Reason: r.refereeErr.Reason, Stderr: r.refereeErr.Stderr, Worker: worker, At: time.Now()}
	rs.RefereeErrors = append(rs.RefereeErrors, f)
	rn.log().Warn(fmt.Sprintf("%s case %s: %v (the game is not stored; a rerun plays it again)", p.Game.Info().Name, m.Case.ID, r.refereeErr))
	if rn.Store != nil {
		if err := rn.Store.SaveRefereeErrors(ctx, p.Run.ID, []contract.RefereeFailure{f}); err != nil {
			rn.log().Warn("storing a referee error", "run", p.Run.ID, "err", err)
		}
	}
}
