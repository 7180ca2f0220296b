package league

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/runner"
	"gauntlet/internal/sqldb"
)

// Target is when a league run stops by itself; zero fields do not apply,
// and with none the run plays until it is stopped. It stops at the first
// target reached.
type Target struct {
	// GamesPerVersion: every active version has played this many games.
	GamesPerVersion int
	// Separate: every two neighbours of the ladder of active versions are
	// told apart with this likelihood of superiority (e.g. 0.95), each
	// version having played FreshGames games at least.
	Separate float64
	// Total: the league holds this many games (whole units: the last unit
	// that would pass it is not scheduled).
	Total int64
}

// Config is one worker's run of a league.
type Config struct {
	League   string
	Registry *contract.Registry // nil: contract.Default
	Jobs     int                // games at once (<= 0: CPUs)
	Options  contract.PlayOptions
	Worker   string        // default sqldb.WorkerName()
	Lease    time.Duration // of a claimed block (default 30 s)
	Poll     time.Duration // how often to look for new versions (default 1 s)
	Target   Target
	Seed     uint64 // the scheduler's random choices
	Log      *slog.Logger
	// Progress, when set, is called after each block this worker stores
	// with the league's games and the games this worker played.
	Progress func(total, played int)
}

// Outcome is what one worker's run did.
type Outcome struct {
	Played     int `json:"played"`     // games this worker played and stored
	Blocks     int `json:"blocks"`     // blocks it stored
	Resumed    int `json:"resumed"`    // blocks it took over from a worker gone or too slow
	Duplicates int `json:"duplicates"` // games it played that another worker stored first
	Dropped    int `json:"dropped"`    // units not played: a referee failed, or a version's files changed
	// RefereeErrors is the games whose referee failed (their units are
	// among Dropped; each is recorded, see Store.RefereeErrors).
	RefereeErrors int    `json:"referee_errors"`
	Reason        string `json:"stop_reason"` // why it stopped
}

// Reasons a run stops.
const (
	StopGames    = "every active version played its games"
	StopSeparate = "every pair of neighbours is separated"
	StopTotal    = "the league holds its total of games"
)

// worker is one run's state; mu guards everything the feeder and the
// collector share.
type worker struct {
	cfg   Config
	st    *Store
	def   Def
	game  contract.Game
	info  contract.GameInfo
	cases []contract.Case
	reg   *contract.Registry
	log   *slog.Logger
	name  string

	mu       sync.Mutex
	versions []Version
	entrants []*entrant.Entrant // by version index; nil: cannot play here
	broken   map[int]bool       // versions already reported as unplayable here
	// refreshNow asks feed to read the versions before its next claim (a
	// version's files changed mid-block).
	refreshNow atomic.Bool
	tally      *Tally
	sched      *Scheduler
	fit        *Fit
	fitAt      int // tally games at the last fit
	seq        int64
	out        Outcome
	rate       time.Duration // mean wall time of a game of the latest block this worker stored
}

// Run plays league games until the target is reached or ctx ends. Several
// workers (processes, machines) may run one league at once on one store.
func Run(ctx context.Context, st *Store, cfg Config) (*Outcome, error) {
	w, err := newWorker(ctx, st, cfg)
	if err != nil {
		return nil, err
	}
	return w.run(ctx)
}

func newWorker(ctx context.Context, st *Store, cfg Config) (*worker, error) {
	w := &worker{cfg: cfg, st: st, reg: cfg.Registry, log: cfg.Log, name: cfg.Worker, broken: map[int]bool{}}
	if w.reg == nil {
		w.reg = contract.Default
	}
	if w.log == nil {
		w.log = slog.Default()
	}
	if w.name == "" {
		w.name = sqldb.WorkerName()
	}
	if w.cfg.Jobs <= 0 {
		w.cfg.Jobs = runtime.NumCPU()
	}
	if w.cfg.Lease <= 0 {
		w.cfg.Lease = 30 * time.Second
	}
	if w.cfg.Poll <= 0 {
		w.cfg.Poll = time.Second
	}
	if w.cfg.Options.Concurrent == 0 {
		w.cfg.Options.Concurrent = w.cfg.Jobs
	}
	var err error
	if w.def, err = st.Def(ctx, cfg.League); err != nil {
		return nil, err
	}
	if w.game, err = w.reg.Game(w.def.Game); err != nil {
		return nil, fmt.Errorf("league %q: %w", cfg.League, err)
	}
	w.info = w.game.Info()
	if err := CheckSize(w.info, w.def.Size); err != nil {
		return nil, fmt.Errorf("league %q: %w", cfg.League, err)
	}
	if w.cases, err = w.game.Cases(w.def.Cases); err != nil {
		return nil, fmt.Errorf("league %q: cases %q: %w", cfg.League, w.def.Cases, err)
	}
	if len(w.cases) == 0 {
		return nil, fmt.Errorf("league %q: case set %q is empty", cfg.League, w.def.Cases)
	}
	w.tally = NewTally(w.def.Size, w.info)
	w.sched = NewScheduler(w.def.Size, cfg.Seed)
	if err := w.refreshVersions(ctx); err != nil {
		return nil, err
	}
	if err := w.readGames(ctx); err != nil {
		return nil, err
	}
	return w, w.refit()
}

// readGames adds the games stored since the last read to the tally.
func (w *worker) readGames(ctx context.Context) error {
	w.mu.Lock()
	seq := w.seq
	w.mu.Unlock()
	var units [][]Game
	last, err := w.st.GamesSince(ctx, w.def.Name, seq, func(_ Block, games []Game) error {
		units = appendUnits(units, games)
		return nil
	})
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.seq != seq {
		return nil // read meanwhile by another call
	}
	w.seq = last
	for _, u := range units {
		if err := w.tally.AddUnit(toIndexes(u)); err != nil {
			return err
		}
	}
	return nil
}

// appendUnits splits a block's games (in index order) into its units.
func appendUnits(units [][]Game, games []Game) [][]Game {
	for len(games) > 0 {
		n := 1
		for n < len(games) && games[n].Unit == games[0].Unit {
			n++
		}
		units = append(units, games[:n])
		games = games[n:]
	}
	return units
}

// toIndexes turns version IDs into indexes (ID − 1) in a copy.
func toIndexes(games []Game) []Game {
	out := make([]Game, len(games))
	for k, g := range games {
		g.Versions = slices.Clone(g.Versions)
		for s := range g.Versions {
			g.Versions[s]--
		}
		out[k] = g
	}
	return out
}

// refit fits the ratings again when enough games came since the last fit
// (a tenth more, at least 50), or when there is none; with mu unlocked.
func (w *worker) refit() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.refitLocked(false)
}

func (w *worker) refitLocked(force bool) error {
	g := w.tally.Games
	if !force && w.fit != nil && g-w.fitAt < max(50, w.fitAt/10) {
		return nil
	}
	var start []float64
	if w.fit != nil {
		start = w.fit.Rating
	}
	f, err := w.tally.Fit(start)
	if err != nil {
		return err
	}
	w.fit, w.fitAt = f, g
	w.sched.SetFit(f)
	return nil
}

// active is which versions this worker schedules: active and playable.
func (w *worker) active() []bool {
	a := make([]bool, len(w.versions))
	for i, v := range w.versions {
		a[i] = v.Active && w.entrants[i] != nil
	}
	return a
}

// reached reports whether a target other than Total is reached.
func (w *worker) reached() (string, error) {
	t := w.cfg.Target
	act := w.active()
	if t.GamesPerVersion > 0 {
		all := true
		for i, a := range act {
			if a && float64(w.tally.V[i].Games)+w.sched.Pending(i) < float64(t.GamesPerVersion) {
				all = false
			}
		}
		if all {
			return StopGames, nil
		}
	}
	if t.Separate > 0 {
		if err := w.refitLocked(true); err != nil {
			return "", err
		}
		var idx []int
		for i, a := range act {
			if a {
				if w.tally.V[i].Games < FreshGames || math.IsNaN(w.fit.Rating[i]) {
					return "", nil
				}
				idx = append(idx, i)
			}
		}
		slices.SortFunc(idx, func(a, b int) int { return cmpDesc(w.fit.Rating[a], w.fit.Rating[b]) })
		for k := 1; k < len(idx); k++ {
			if w.fit.LOS(idx[k-1], idx[k]) < t.Separate {
				return "", nil
			}
		}
		if len(idx) >= 2 {
			return StopSeparate, nil
		}
	}
	return "", nil
}

func cmpDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// job is one game of a claimed block.
type job struct {
	blk  *claimed
	k    int // game index within the block
	unit int // unit index within the block
	m    runner.Match
}

// claimed is a block in play on this worker.
type claimed struct {
	Block
	plan    *runner.Plan
	games   []Game
	left    int
	wall    time.Duration // the wall time of its games played so far
	dropped []atomic.Bool // units not to store (a referee failed): read by the players while the collector marks them
	pending []bool        // units counted in the scheduler's pending games
	unitGPU int
}

// gamesPerUnit is the number of games of a unit of this league.
func (w *worker) gamesPerUnit() int { return w.def.Size }

func (w *worker) run(ctx context.Context) (*Outcome, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	work := make(chan job, 4*w.cfg.Jobs)
	done := make(chan job, 4*w.cfg.Jobs)
	stopRenew := runner.Every(context.WithoutCancel(ctx), w.cfg.Lease/3, func(c context.Context) {
		if err := w.st.RenewLeases(c, w.def.Name, w.name, w.cfg.Lease); err != nil && c.Err() == nil {
			w.log.Warn("renewing league blocks", "league", w.def.Name, "err", err)
		}
	})
	defer stopRenew()

	g, gctx := errgroup.WithContext(ctx)
	var players sync.WaitGroup
	for range w.cfg.Jobs {
		players.Add(1)
		g.Go(func() error {
			defer players.Done()
			return w.play(gctx, work, done)
		})
	}
	g.Go(func() error {
		players.Wait()
		close(done)
		return nil
	})
	inflight := make(chan struct{}, 2) // blocks claimed and not yet stored
	g.Go(func() error { return w.collect(gctx, done, inflight, cancel) })
	feedErr := w.feed(gctx, work, inflight)
	close(work)
	err := g.Wait()
	bg := context.WithoutCancel(ctx)
	if rerr := w.st.Release(bg, w.def.Name, w.name); rerr != nil {
		w.log.Warn("handing back league blocks", "league", w.def.Name, "err", rerr)
	}
	if err == nil && feedErr != nil && !errors.Is(feedErr, context.Canceled) {
		err = feedErr
	}
	if err == nil && ctx.Err() == nil {
		err = w.readGames(bg)
		if err == nil {
			err = w.refit()
		}
	}
	w.mu.Lock()
	out := w.out
	w.mu.Unlock()
	if err == nil && ctx.Err() != nil && out.Reason == "" {
		err = ctx.Err()
	}
	return &out, err
}

// feed claims blocks and hands their games to the players until a target
// is reached or ctx ends.
func (w *worker) feed(ctx context.Context, work chan<- job, inflight chan struct{}) error {
	units := max(1, w.cfg.Jobs/2)
	lastPoll := time.Now()
	nVersions := 0
	for ctx.Err() == nil {
		if w.refreshNow.Swap(false) || time.Since(lastPoll) >= w.cfg.Poll {
			lastPoll = time.Now()
			if err := w.refreshVersions(ctx); err != nil {
				return err
			}
			// A version added (or a new generation) may play far slower
			// than those the blocks were sized for, and a block's games are
			// stored only once it is whole: the sizing starts again small
			// (and at most doubles, whatever the pace of the latest block).
			w.mu.Lock()
			if n := len(w.versions); n != nVersions {
				if nVersions > 0 {
					units = max(1, w.cfg.Jobs/2)
				}
				nVersions = n
			}
			w.mu.Unlock()
			if err := w.readGames(ctx); err != nil {
				return err
			}
			if err := w.refit(); err != nil {
				return err
			}
		}
		select {
		case inflight <- struct{}{}:
		case <-ctx.Done():
			return ctx.Err()
		}
		blk, ok, reason, err := w.claim(ctx, units)
		if err != nil {
			<-inflight
			return err
		}
		if !ok {
			<-inflight
			if reason != "" {
				// Wait for this worker's blocks in flight, then stop.
				for range cap(inflight) {
					select {
					case inflight <- struct{}{}:
					case <-ctx.Done():
						return ctx.Err()
					}
				}
				w.mu.Lock()
				w.out.Reason = reason
				w.mu.Unlock()
				return nil
			}
			// Nothing to play now (fewer than two versions): look again.
			select {
			case <-time.After(w.cfg.Poll):
				lastPoll = time.Time{}
			case <-ctx.Done():
				return ctx.Err()
			}
			continue
		}
		for k := range blk.games {
			select {
			case work <- job{blk: blk, k: k, unit: k / w.gamesPerUnit(), m: w.match(blk, k)}:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		// Blocks of about a second of this worker's play, at most doubling.
		w.mu.Lock()
		rate := w.rate
		w.mu.Unlock()
		want := units * 2
		if rate > 0 {
			want = min(want, int(time.Second*time.Duration(w.cfg.Jobs)/rate)/w.gamesPerUnit()+1)
		}
		units = max(1, min(want, 4096))
	}
	return ctx.Err()
}

// claim takes a block: a left one, or a new one of up to units units.
// Without a block, reason says why the run is over ("" when it is not).
func (w *worker) claim(ctx context.Context, units int) (blk *claimed, ok bool, reason string, err error) {
	w.mu.Lock()
	reason, err = w.reached()
	w.mu.Unlock()
	if err != nil {
		return nil, false, "", err
	}
	gpu := w.gamesPerUnit()
	budgetOut := false
	b, ok, err := w.st.Claim(ctx, w.def.Name, w.name, w.cfg.Target.Total, w.cfg.Lease, func(b Budget) ([]Unit, int) {
		if reason != "" {
			return nil, 0
		}
		n := units
		if b.Games >= 0 {
			n = min(n, b.Games/gpu)
			// Blocks still in play may drop units (a referee failure):
			// the total is reached once they are stored.
			budgetOut = n == 0 && b.Pending == 0
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		act := w.active()
		if t := w.cfg.Target.GamesPerVersion; t > 0 {
			// No more units than the versions still short of games need.
			short := 0.0
			for i, a := range act {
				if a {
					short += max(0, float64(t)-float64(w.tally.V[i].Games)-w.sched.Pending(i))
				}
			}
			n = min(n, max(1, int(math.Ceil(short/float64(w.def.Size*GamesPerUnit(w.def.Size, w.tally.Single))))))
		}
		var out []Unit
		for range n {
			group, ok := w.sched.Next(w.tally, act)
			if !ok {
				break
			}
			w.sched.Scheduled(group, GamesPerUnit(w.def.Size, w.tally.Single), 1)
			ids := make([]int, len(group))
			for k, v := range group {
				ids[k] = v + 1
			}
			out = append(out, Unit{Versions: ids})
		}
		return out, len(out) * gpu
	})
	if err != nil || !ok {
		if err == nil && budgetOut {
			reason = StopTotal
		}
		if err == nil && reason == "" && w.cfg.Target != (Target{}) {
			// Not one unit could be scheduled: a target cannot end a
			// league of fewer than two versions.
			w.mu.Lock()
			n := 0
			for _, a := range w.active() {
				if a {
					n++
				}
			}
			w.mu.Unlock()
			if n < 2 {
				reason = "fewer than two versions to play"
			}
		}
		return nil, false, reason, err
	}
	c := &claimed{Block: b, games: make([]Game, len(b.Units)*gpu), left: len(b.Units) * gpu, dropped: make([]atomic.Bool, len(b.Units)),
		pending: make([]bool, len(b.Units)), unitGPU: gpu}
	w.mu.Lock()
	defer w.mu.Unlock()
	if b.Resumed {
		w.out.Resumed++
	}
	c.plan = &runner.Plan{Game: w.game, Entrants: slices.Clone(w.entrants)}
	for u, unit := range b.Units {
		group := make([]int, len(unit.Versions))
		for k, id := range unit.Versions {
			group[k] = id - 1
			if group[k] < 0 || group[k] >= len(c.plan.Entrants) || c.plan.Entrants[group[k]] == nil {
				c.dropped[u].Store(true)
			}
		}
		if b.Resumed && !c.dropped[u].Load() {
			w.sched.Scheduled(group, GamesPerUnit(w.def.Size, w.tally.Single), 1)
		}
		c.pending[u] = !b.Resumed || !c.dropped[u].Load() // a new block's units were counted as made
		if c.dropped[u].Load() {
			w.log.Warn(fmt.Sprintf("league %s: unit %d of block %d names a version this worker cannot play as it was: dropped", w.def.Name, unit.N, b.ID))
		}
	}
	return c, true, "", nil
}

// match is game k of a claimed block: its unit's case, and the unit's
// versions in rotation k mod size (a single-player unit: member k alone).
func (w *worker) match(c *claimed, k int) runner.Match {
	unit := c.Units[k/c.unitGPU]
	r := k % c.unitGPU
	cs := w.cases[int(unit.N%int64(len(w.cases)))]
	m := runner.Match{Key: fmt.Sprintf("%d/%d", c.ID, k), Case: cs}
	size := len(unit.Versions)
	if w.tally.Single {
		m.Seats = []int{unit.Versions[r] - 1}
		return m
	}
	m.Seats = make([]int, size)
	for s := range size {
		m.Seats[s] = unit.Versions[(s+r)%size] - 1
	}
	return m
}

// play plays the games handed to it.
func (w *worker) play(ctx context.Context, work <-chan job, done chan<- job) error {
	for j := range work {
		if ctx.Err() != nil {
			return nil
		}
		g := &j.blk.games[j.k]
		g.Block, g.Index, g.Unit, g.Case = j.blk.ID, j.k, j.blk.Units[j.unit].N, j.m.Case.ID
		g.Versions = make([]int, len(j.m.Seats))
		for s, v := range j.m.Seats {
			g.Versions[s] = v + 1
		}
		if !j.blk.dropped[j.unit].Load() {
			out, wall, err := runner.PlayMatch(ctx, j.blk.plan, &j.m, w.cfg.Options)
			var re *contract.RefereeError
			switch {
			case err != nil && errors.As(err, &re) && ctx.Err() == nil:
				w.log.Warn(fmt.Sprintf("league %s: a referee failed (unit %d dropped): %v", w.def.Name, g.Unit, err))
				g.Seats = nil
				g.referee = &RefereeFailure{Index: j.k, Unit: g.Unit, Case: g.Case, Versions: g.Versions, Reason: re.Reason, Stderr: re.Stderr}
			case err != nil:
				if ctx.Err() != nil {
					return nil
				}
				return err
			default:
				g.Wall = float64(wall.Microseconds()) / 1000
				g.Seats = make([]SeatResult, len(out.Seats))
				for s, r := range out.Seats {
					g.Seats[s] = SeatResult{Score: r.Score, Rank: r.Rank, Forfeit: r.Forfeit,
						Out: contract.EliminatedOf(j.blk.plan.Game, &out, s)}
				}
				g.PlayerData = playerData(out.Detail, len(out.Seats))
			}
		}
		// Even when interrupted: the game finished, and collect reads done
		// until it is closed, after the players have returned.
		done <- j
	}
	return nil
}

// playerData is a referee game's player_data (one object per seat).
func playerData(detail map[string]any, seats int) []map[string]any {
	raw, ok := detail["player_data"]
	if !ok {
		return nil
	}
	var out []map[string]any
	switch pd := raw.(type) {
	case []map[string]any:
		out = pd
	case []any:
		for _, x := range pd {
			m, _ := x.(map[string]any)
			out = append(out, m)
		}
	}
	if len(out) != seats {
		return nil
	}
	return out
}

// collect stores each block once all its games are played, then reads the
// league's new games into the tally. It reads done to the end, so that no
// player waits on it; when storing fails, it stops the run (cancel) and
// stores nothing more.
func (w *worker) collect(ctx context.Context, done <-chan job, inflight <-chan struct{}, cancel func()) error {
	var firstErr error
	for j := range done {
		if firstErr != nil {
			continue
		}
		c := j.blk
		g := &c.games[j.k]
		if g.Seats == nil && !c.dropped[j.unit].Load() {
			c.dropped[j.unit].Store(true) // a referee failure
		}
		c.wall += time.Duration(g.Wall * float64(time.Millisecond))
		c.left--
		if c.left > 0 {
			continue
		}
		if err := w.store(ctx, c); err != nil {
			firstErr = err
			cancel()
			continue
		}
		// The rate of the latest block, so that blocks follow a change
		// in the games' pace.
		w.mu.Lock()
		if len(c.games) > 0 {
			w.rate = c.wall / time.Duration(len(c.games))
		}
		w.mu.Unlock()
		<-inflight
	}
	return firstErr
}

// store stores a finished block and brings the tally up to date.
func (w *worker) store(ctx context.Context, c *claimed) error {
	w.dropChanged(c)
	keep := make([]Game, 0, len(c.games))
	var failed []RefereeFailure
	dropped := 0
	for k, g := range c.games {
		if g.referee != nil {
			failed = append(failed, *g.referee)
		}
		if c.dropped[k/c.unitGPU].Load() {
			if k%c.unitGPU == 0 {
				dropped++
			}
			continue
		}
		keep = append(keep, g)
	}
	stored, err := w.st.Finish(context.WithoutCancel(ctx), w.def.Name, c.ID, w.name, keep, failed)
	if err != nil {
		return err
	}
	w.mu.Lock()
	for u, unit := range c.Units {
		if c.pending[u] {
			group := make([]int, len(unit.Versions))
			for k, id := range unit.Versions {
				group[k] = id - 1
			}
			w.sched.Scheduled(group, GamesPerUnit(w.def.Size, w.tally.Single), -1)
		}
	}
	w.out.Dropped += dropped
	if stored {
		w.out.RefereeErrors += len(failed)
		w.out.Played += len(keep)
		w.out.Blocks++
	} else {
		w.out.Duplicates += len(keep)
	}
	w.mu.Unlock()
	if err := w.readGames(ctx); err != nil {
		return err
	}
	if err := w.refit(); err != nil {
		return err
	}
	if w.cfg.Progress != nil {
		w.mu.Lock()
		total, played := w.tally.Games, w.out.Played
		w.mu.Unlock()
		w.cfg.Progress(total, played)
	}
	return nil
}
