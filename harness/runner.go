package harness

import (
	"cmp"
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
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"gauntlet/internal/sqldb"
)

// Match is one game of a plan: a case and the entrant in each seat.
type Match struct {
	Key   string // unique within the run, e.g. "seed:17" or "seed:17/ba"
	Case  Case
	Seats []int // index into Plan.Entrants for each seat
}

// Plan is everything a run plays.
type Plan struct {
	Run      RunRecord // identity of the run (used with a store)
	Game     Game
	Entrants []*Entrant
	Matches  []Match
}

// Result is one finished match.
type Result struct {
	Index   int // position in Plan.Matches
	Outcome Outcome
	Wall    time.Duration
	Resumed bool // loaded from the store, not played by this process

	refereeErr *RefereeError // the game's referee failed: no outcome (see RefereeError)
}

// Stopper decides from results, fed in plan order, whether the run may stop
// early (a sequential test). Add is never called concurrently.
type Stopper interface {
	// Add takes the next result in plan order and reports whether the run is
	// decided after it.
	Add(r *Result) (stop bool)
}

// Results is the outcome of Runner.Run.
type Results struct {
	Plan    *Plan
	Results []*Result // by plan index; nil where not played (early stop, interruption)
	// Stopped is true when a Stopper decided the run; StopAt is then the
	// number of leading matches the decision used.
	Stopped bool
	StopAt  int
	Played  int // matches played by this process and stored (or, without a store, played), those finished after an early stop included
	Resumed int // matches loaded from the store: stored earlier or by other workers
	// Duplicates counts matches this process played whose stored result is
	// another worker's: both played it, after this worker's claim expired
	// (it was too slow to renew it).
	Duplicates int
	// RefereeErrors are the games of this process whose referee failed
	// (see RefereeError): not in Results, not stored, played again by a
	// rerun.
	RefereeErrors []RefereeFailure
	Wall          time.Duration

	gathered int // other workers' games read while this one played (see gather)
}

// Decided returns the results the summary uses: the first StopAt results
// after an early stop, otherwise every finished result, in plan order.
func (rs *Results) Decided() []*Result {
	n := len(rs.Results)
	if rs.Stopped {
		n = rs.StopAt
	}
	out := make([]*Result, 0, n)
	for _, r := range rs.Results[:n] {
		if r != nil {
			out = append(out, r)
		}
	}
	return out
}

// Runner plays plans: in parallel, resumably when it has a store.
type Runner struct {
	Store    *Store        // nil: results are not stored
	Jobs     int           // parallel games (<= 0: number of CPUs)
	Options  PlayOptions   // passed to every Play
	Progress io.Writer     // progress bar destination (nil: none)
	Worker   string        // worker name stored with each game and claim (default sqldb.WorkerName())
	Lease    time.Duration // lease of a claimed block with a store, renewed while it is played (default 30s)
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

// PlayerSeed derives a seat's bot seed from the case seed (splitmix64), so
// that reruns are bit-identical whatever the scheduling.
func PlayerSeed(caseSeed uint64, seat int) uint64 {
	z := caseSeed + 0x9E3779B97F4A7C15*uint64(seat+1)
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// PlayMatch plays one match of a plan.
func PlayMatch(ctx context.Context, p *Plan, m *Match, opt PlayOptions) (Outcome, time.Duration, error) {
	return playMatch(ctx, p, m, opt, make([]Player, len(m.Seats)))
}

// playMatch is PlayMatch with the caller's players buffer (len(m.Seats)).
// A game with external bots is played under its wall-clock cap and the
// bounds on their processes (see botContext).
func playMatch(ctx context.Context, p *Plan, m *Match, opt PlayOptions, players []Player) (Outcome, time.Duration, error) {
	external := 0
	for seat, ei := range m.Seats {
		players[seat] = Player{Entrant: p.Entrants[ei], Seed: PlayerSeed(m.Case.Seed, seat)}
		if p.Entrants[ei].IsExternal() {
			external++
		}
	}
	// An external bot need not play the same game twice: keep its moves,
	// so that the game can be watched later.
	opt.RecordMoves = opt.RecordMoves || external > 0
	gameCtx := ctx
	if external > 0 {
		var cancel context.CancelFunc
		gameCtx, cancel = botContext(ctx, p.Game.Info().Limits, opt, external, len(m.Seats))
		defer cancel()
	}
	start := time.Now()
	out, err := p.Game.Play(gameCtx, m.Case, players, opt)
	wall := time.Since(start)
	if err != nil && ctx.Err() == nil && gameCtx.Err() != nil {
		err = context.Cause(gameCtx)
	}
	if err != nil {
		return Outcome{}, wall, fmt.Errorf("%s case %s: %w", p.Game.Info().Name, m.Case.ID, err)
	}
	if len(out.Seats) != len(m.Seats) {
		return Outcome{}, wall, fmt.Errorf("%s case %s: outcome has %d seats, want %d", p.Game.Info().Name, m.Case.ID, len(out.Seats), len(m.Seats))
	}
	return out, wall, nil
}

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
	index := make(map[string]int, len(p.Matches))
	for i, m := range p.Matches {
		if _, dup := index[m.Key]; dup {
			return nil, fmt.Errorf("plan has two matches with key %q", m.Key)
		}
		index[m.Key] = i
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
		stopGather = every(runCtx, period, src.gather)
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
	g, gctx := errgroup.WithContext(runCtx)
	for range jobs {
		g.Go(func() error {
			players := make([]Player, 0, 8)
			for chunk := range work {
				done := 0
				var err error
				for _, i := range chunk {
					if gctx.Err() != nil {
						break
					}
					m := &p.Matches[i]
					if cap(players) < len(m.Seats) {
						players = make([]Player, len(m.Seats))
					}
					var out Outcome
					var wall time.Duration
					var re *RefereeError
					if out, wall, err = playMatch(gctx, p, m, opt, players[:len(m.Seats)]); err != nil {
						if !errors.As(err, &re) || gctx.Err() != nil {
							break
						}
						out, err = Outcome{}, nil // recorded apart by the collector
					}
					slab[i] = Result{Index: i, Outcome: out, Wall: wall, refereeErr: re}
					src.finished.Add(1)
					done++
				}
				if done > 0 {
					select {
					case results <- chunk[:done]:
					case <-gctx.Done():
						return nil
					}
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
	return every(context.WithoutCancel(ctx), lease/3, func(ctx context.Context) {
		if err := rn.Store.RenewBlocks(ctx, run, worker, lease); err != nil && ctx.Err() == nil {
			rn.log().Warn("renewing claimed games", "run", run, "err", err)
		}
	})
}

// every calls fn every period, in a goroutine of its own, until stop is
// called; stop cancels the context fn is given and waits for a call in
// progress.
func every(ctx context.Context, period time.Duration, fn func(ctx context.Context)) (stop func()) {
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
	if len(p.Run.spec.Bots) == 0 {
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
	base, err := json.Marshal(p.Run.spec.base())
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
		if why := p.Run.spec.changes(old, labels); len(why) > 0 {
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
	}, func(i int, o Outcome, wall time.Duration) {
		rs.Results[i] = &Result{Index: i, Outcome: o, Wall: wall, Resumed: true}
		rs.Resumed++
	})
}

// collect receives finished games, feeds the stopper in plan order, updates
// the progress bar and saves the games in batches (see batchGames), each
// with the claimed blocks it completes.
func (rn *Runner) collect(ctx context.Context, p *Plan, worker string, in <-chan []int, slab []Result, col *collector, prog *progress, src *matchSource, cancel func()) error {
	var batch []GameRecord
	var done []Block
	var firstErr error
	var lastStart, first time.Time // the last commit's start; the batch's first game's arrival
	var lastCost time.Duration     // the last commit's duration
	flush := func() {
		if rn.Store == nil || (len(batch) == 0 && len(done) == 0) || firstErr != nil {
			batch, done = batch[:0], done[:0]
			return
		}
		lastStart = time.Now()
		n, err := rn.Store.SaveBatch(ctx, p.Run.ID, batch, done)
		lastCost = time.Since(lastStart)
		if err != nil {
			firstErr = err
			cancel()
		} else {
			src.committed(done)
			if dup := len(batch) - n; dup > 0 {
				// A worker whose lease had run out played these too and
				// stored them first: its results stand.
				col.duplicate(dup)
				rn.log().Warn(fmt.Sprintf("%d games this worker played were stored first by another worker (this worker's claim had expired); theirs are kept", dup))
			}
		}
		clear(batch) // drop the outcomes for the collector
		batch, done = batch[:0], done[:0]
	}
	var batchWall time.Duration // the batch's summed game time
	// due is when the batch is to be committed.
	due := func() time.Time {
		if len(batch) >= batchGames || batchWall >= time.Duration(len(batch))*slowGame {
			return time.Time{}
		}
		at := lastStart.Add(commitShare * lastCost)
		if age := first.Add(batchAge); age.Before(at) {
			return age
		}
		return at
	}
	take := func(chunk []int) {
		if rn.Store != nil {
			now := time.Now()
			if len(batch) == 0 {
				first, batchWall = now, 0
			}
			for _, i := range chunk {
				r, m := &slab[i], &p.Matches[i]
				if r.refereeErr != nil {
					continue
				}
				batchWall += r.Wall
				batch = append(batch, GameRecord{Key: m.Key, Index: i, CaseID: m.Case.ID, Group: m.Case.Group,
					Seed: m.Case.Seed, Seats: m.Seats, Outcome: r.Outcome, Wall: r.Wall, Worker: worker, Finished: now})
			}
			done = src.gamesDone(chunk, done)
		}
		prog.add(len(chunk))
		for k, i := range chunk {
			if slab[i].refereeErr != nil {
				rn.refereeFailed(ctx, p, worker, col.rs, &slab[i])
				continue
			}
			if col.add(&slab[i]) {
				col.afterStop(len(chunk) - k - 1)
				cancel()
				return
			}
			if rn.Watch != nil {
				rn.Watch(&slab[i])
			}
		}
	}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	armed := false
	for {
		select {
		case chunk, ok := <-in:
			if !ok {
				flush()
				return firstErr
			}
			take(chunk)
			// Group commit: the games that ended while the last commit
			// ran go into this batch together.
			closed := false
		drain:
			for len(batch) < batchGames {
				select {
				case chunk, ok := <-in:
					if !ok {
						closed = true
						break drain
					}
					take(chunk)
				default:
					break drain
				}
			}
			if closed {
				flush()
				return firstErr
			}
			if rn.Store == nil {
				continue
			}
			if at := due(); !time.Now().Before(at) {
				flush()
			} else if !armed {
				timer.Reset(time.Until(at))
				armed = true
			}
		case <-timer.C:
			armed = false
			flush()
		}
	}
}

// collector puts results in plan order and feeds the stopper.
type collector struct {
	rs   *Results
	stop Stopper
	next int // first index not yet fed to the stopper
}

func newCollector(rs *Results, stop Stopper) *collector { return &collector{rs: rs, stop: stop} }

// feedResumed feeds the stored prefix; it reports whether the run is
// already decided (or complete).
func (c *collector) feedResumed() bool {
	if c.advance() {
		return true
	}
	for _, r := range c.rs.Results {
		if r == nil {
			return false
		}
	}
	return true
}

// duplicate takes back n games counted as played by this process whose
// stored results are another worker's.
func (c *collector) duplicate(n int) {
	c.rs.Played -= n
	c.rs.Duplicates += n
}

// afterStop counts n games this process finished after the run was
// decided: played (and stored, with a store), not results of the run.
func (c *collector) afterStop(n int) { c.rs.Played += n }

func (c *collector) add(r *Result) bool {
	if c.rs.Stopped {
		c.afterStop(1)
		return true
	}
	c.rs.Results[r.Index] = r
	c.rs.Played++
	return c.advance()
}

func (c *collector) advance() bool {
	for c.next < len(c.rs.Results) && c.rs.Results[c.next] != nil {
		r := c.rs.Results[c.next]
		c.next++
		if c.stop != nil && c.stop.Add(r) {
			c.rs.Stopped = true
			c.rs.StopAt = c.next
			return true
		}
	}
	return false
}

// launchOrder returns the order in which the plan's matches are started:
// plan order, or, for a game that estimates its cases' costs and a run
// without an early stop, costliest first (ties in plan order). An early
// stop is decided on results in plan order, so such a run keeps it.
func launchOrder(p *Plan, stop Stopper) []int {
	order := make([]int, len(p.Matches))
	for i := range order {
		order[i] = i
	}
	c, ok := p.Game.(Coster)
	if !ok || stop != nil {
		return order
	}
	cost := make([]float64, len(p.Matches))
	for i := range p.Matches {
		cost[i] = c.Cost(p.Matches[i].Case)
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(cost[b], cost[a]) })
	return order
}

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
		}, func(i int, o Outcome, wall time.Duration) {
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
	b    Block
	left int // games launched and not yet in a batch
}

// gamesDone records that the games of chunk (plan indexes) are in a
// batch; it appends to done the blocks that this completes.
func (s *matchSource) gamesDone(chunk []int, done []Block) []Block {
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
func (s *matchSource) committed(done []Block) {
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
			if _, err := st.SaveBatch(ctx, run, nil, []Block{b}); err != nil {
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
		why := strings.TrimPrefix((&RefereeError{Reason: f.Reason, Stderr: f.Stderr}).Error(), "referee error: ")
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

// refereeFailed records a game whose referee failed: in the results, in
// the store (a failure to store it is logged: the game is not stored
// either way, and a rerun plays it), and in the log.
func (rn *Runner) refereeFailed(ctx context.Context, p *Plan, worker string, rs *Results, r *Result) {
	m := &p.Matches[r.Index]
	f := RefereeFailure{Key: m.Key, CaseID: m.Case.ID, Reason: r.refereeErr.Reason, Stderr: r.refereeErr.Stderr, Worker: worker, At: time.Now()}
	rs.RefereeErrors = append(rs.RefereeErrors, f)
	rn.log().Warn(fmt.Sprintf("%s case %s: %v (the game is not stored; a rerun plays it again)", p.Game.Info().Name, m.Case.ID, r.refereeErr))
	if rn.Store != nil {
		if err := rn.Store.SaveRefereeErrors(ctx, p.Run.ID, []RefereeFailure{f}); err != nil {
			rn.log().Warn("storing a referee error", "run", p.Run.ID, "err", err)
		}
	}
}
