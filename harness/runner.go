package harness

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
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
	Played  int // matches played by this process
	Resumed int // matches loaded from the store
	Wall    time.Duration
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
	Worker   string        // worker name stored with each game (default host:pid)
	Lease    time.Duration // claim lease per game with a store, renewed while playing (default 30s)
	Log      *slog.Logger
}

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
	players := make([]Player, len(m.Seats))
	for seat, ei := range m.Seats {
		players[seat] = Player{Entrant: p.Entrants[ei], Seed: PlayerSeed(m.Case.Seed, seat)}
		// An external bot need not play the same game twice: keep its
		// moves, so that the game can be watched later.
		opt.RecordMoves = opt.RecordMoves || p.Entrants[ei].IsExternal()
	}
	start := time.Now()
	out, err := p.Game.Play(ctx, m.Case, players, opt)
	wall := time.Since(start)
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

// Run plays every match of the plan that is not stored yet. With a store,
// finished games are saved in batches as they come, and games are claimed
// before they are played so that several processes can share one run.
// When stop is non-nil it is fed the results in plan order and may end the
// run early; games in flight are then abandoned.
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
		host, _ := os.Hostname()
		worker = fmt.Sprintf("%s:%d", host, os.Getpid())
	}

	p.limitRun(rn.Options)
	if rn.Store != nil {
		if err := rn.Store.OpenRun(ctx, &p.Run); err != nil {
			return nil, err
		}
		if !p.Run.Resumed {
			rn.explainNewRun(ctx, p)
		}
		if err := rn.loadStored(ctx, p, rs, index); err != nil {
			return nil, err
		}
	}

	col := newCollector(rs, stop)
	prog := newProgress(rn.Progress, p.Game.Info().Name, len(p.Matches), rs.Resumed)
	defer prog.finish()
	if col.feedResumed() {
		rs.Wall = time.Since(start)
		return rs, nil
	}

	runCtx, cancelRun := context.WithCancel(ctx)
	defer cancelRun()
	results := make(chan *Result, rn.jobs()*2)
	var saveErr error
	var saveWG sync.WaitGroup
	saveWG.Add(1)
	go func() {
		defer saveWG.Done()
		saveErr = rn.collect(context.WithoutCancel(ctx), p, worker, results, col, prog, cancelRun)
	}()

	src := &matchSource{rn: rn, p: p, rs: rs, index: index, worker: worker, order: launchOrder(p, stop)}
	g, gctx := errgroup.WithContext(runCtx)
	g.SetLimit(rn.jobs())
	feedErr := src.feed(gctx, func(i int) {
		m := &p.Matches[i]
		g.Go(func() error {
			out, wall, err := PlayMatch(gctx, p, m, rn.Options)
			if err != nil {
				if gctx.Err() != nil {
					return nil // stopped or interrupted: the game is simply not finished
				}
				return err
			}
			select {
			case results <- &Result{Index: i, Outcome: out, Wall: wall}:
			case <-gctx.Done():
			}
			return nil
		})
	})
	playErr := g.Wait()
	close(results)
	saveWG.Wait()
	if rn.Store != nil {
		bg := context.WithoutCancel(ctx)
		rn.Store.Release(bg, p.Run.ID, worker)
		if !rs.Stopped {
			// Pick up games other workers finished for this run.
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
	base, _ := json.Marshal(p.Run.spec.base())
	for _, r := range runs {
		var old RunSpec
		if r.ID == p.Run.ID || json.Unmarshal([]byte(r.Spec), &old) != nil {
			continue
		}
		if b, _ := json.Marshal(old.base()); string(b) != string(base) {
			continue
		}
		if why := p.Run.spec.changes(old, labels); len(why) > 0 {
			rn.log().Info(fmt.Sprintf("new run %s, not a resume of run %s: %s", p.Run.ID, r.ID, strings.Join(why, "; ")))
		}
	}
}

func (rn *Runner) loadStored(ctx context.Context, p *Plan, rs *Results, index map[string]int) error {
	stored, err := rn.Store.Games(ctx, p.Run.ID)
	if err != nil {
		return err
	}
	for key, g := range stored {
		i, ok := index[key]
		if !ok || rs.Results[i] != nil {
			continue
		}
		rs.Results[i] = &Result{Index: i, Outcome: g.Outcome, Wall: g.Wall, Resumed: true}
		rs.Resumed++
	}
	return nil
}

// collect receives finished games, feeds the stopper in plan order, updates
// the progress bar and saves the games in batches.
func (rn *Runner) collect(ctx context.Context, p *Plan, worker string, in <-chan *Result, col *collector, prog *progress, cancel func()) error {
	var batch []GameRecord
	var firstErr error
	flush := func() {
		if rn.Store == nil || len(batch) == 0 {
			batch = batch[:0]
			return
		}
		if err := rn.Store.SaveGames(ctx, p.Run.ID, batch); err != nil && firstErr == nil {
			firstErr = err
			cancel()
		}
		batch = batch[:0]
	}
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case r, ok := <-in:
			if !ok {
				flush()
				return firstErr
			}
			m := &p.Matches[r.Index]
			batch = append(batch, GameRecord{Key: m.Key, Index: r.Index, CaseID: m.Case.ID, Group: m.Case.Group,
				Seed: m.Case.Seed, Seats: m.Seats, Outcome: r.Outcome, Wall: r.Wall, Worker: worker, Finished: time.Now()})
			prog.add(1)
			if col.add(r) {
				cancel()
			}
			if len(batch) >= 256 {
				flush()
			}
		case <-tick.C:
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

func (c *collector) add(r *Result) bool {
	if c.rs.Stopped {
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
// (see launchOrder). With a store it claims them in chunks (renewing the
// claims while they are being played) and, when other workers hold the
// rest, waits for their results or for their claims to expire.
type matchSource struct {
	rn     *Runner
	p      *Plan
	rs     *Results
	index  map[string]int
	worker string
	order  []int
}

func (s *matchSource) feed(ctx context.Context, launch func(i int)) error {
	if s.rn.Store == nil {
		for _, i := range s.order {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if s.rs.Results[i] == nil {
				launch(i)
			}
		}
		return nil
	}
	lease := s.rn.Lease
	if lease <= 0 {
		lease = 30 * time.Second
	}
	chunk := s.rn.jobs() * 4
	if chunk < 16 {
		chunk = 16
	}
	var mu sync.Mutex
	var held, prev []string
	// Renew this worker's claims while it plays them.
	hbCtx, hbStop := context.WithCancel(ctx)
	defer hbStop()
	go func() {
		t := time.NewTicker(lease / 3)
		defer t.Stop()
		for {
			select {
			case <-hbCtx.Done():
				return
			case <-t.C:
				mu.Lock()
				keys := append([]string(nil), held...)
				mu.Unlock()
				if len(keys) > 0 {
					s.rn.Store.Claim(hbCtx, s.p.Run.ID, s.worker, keys, len(keys), lease)
				}
			}
		}
	}()
	launched := make([]bool, len(s.p.Matches))
	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var pending []string
		for _, i := range s.order {
			if !launched[i] && s.rs.Results[i] == nil {
				pending = append(pending, s.p.Matches[i].Key)
			}
		}
		if len(pending) == 0 {
			return nil
		}
		taken, err := s.rn.Store.Claim(ctx, s.p.Run.ID, s.worker, pending, chunk, lease)
		if err != nil {
			return fmt.Errorf("claiming games: %w", err)
		}
		if len(taken) == 0 {
			// Others hold the rest: wait, then take over expired claims and
			// pick up what they stored.
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Second):
			}
			stored, err := s.rn.Store.Games(ctx, s.p.Run.ID)
			if err != nil {
				return err
			}
			for key := range stored {
				if i, ok := s.index[key]; ok && !launched[i] {
					launched[i] = true // finished elsewhere
				}
			}
			continue
		}
		// Games of the previous chunk may still be in flight (at most Jobs
		// of them): keep renewing both chunks.
		mu.Lock()
		held = append(append(held[:0:0], prev...), taken...)
		prev = taken
		mu.Unlock()
		for _, k := range taken {
			i := s.index[k]
			launched[i] = true
			launch(i)
		}
	}
}
