package dashboard

import (
	"context"
	"sync"
	"time"

	"gauntlet/harness/results"
	"gauntlet/harness/store"
)

// live keeps, per run, what the dashboard learns by watching it: samples
// of its game count (its rate) and the statistics of an unfinished run,
// recomputed in the background from a follower of its games, which reads
// only the games stored since the last computation.
type live struct {
	ctx       context.Context
	s         *Server
	mu        sync.Mutex
	counts    map[string][]sample
	stats     map[string]*liveStats
	followers map[string]*follower
}

// follower is a run's results.Follower and when a page last asked for its
// statistics.
type follower struct {
	f    *results.Follower
	used time.Time
}

// followerIdle is how long a follower is kept without a page asking for
// its run's statistics (a finished run's page shows the stored summary):
// it holds every game's outcome.
const followerIdle = 10 * time.Minute

// sample is a run's game count at a moment.
type sample struct {
	at time.Time
	n  int
}

// liveStats is the last computed statistics of a run.
type liveStats struct {
	count   int // the game count they were computed at
	ab      *results.ABSummary
	eval    *results.EvalSummary
	err     error
	at      time.Time     // when the computation ended
	cost    time.Duration // how long it took
	running bool
	ready   chan struct{} // closed when the running computation ends
}

func newLive(ctx context.Context, s *Server) *live {
	return &live{ctx: ctx, s: s, counts: map[string][]sample{}, stats: map[string]*liveStats{}, followers: map[string]*follower{}}
}

// rateWindow is how far back the rate of a run looks.
const rateWindow = time.Minute

// rate records a run's count now and returns its games per second over
// the samples of the last rateWindow (0 when unknown: fewer than two
// samples, or none moved).
func (l *live) rate(runID string, n int) float64 {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	ss := l.counts[runID]
	if len(ss) == 0 || now.Sub(ss[len(ss)-1].at) >= 500*time.Millisecond || ss[len(ss)-1].n != n {
		ss = append(ss, sample{now, n})
	}
	for len(ss) > 2 && now.Sub(ss[0].at) > rateWindow {
		ss = ss[1:]
	}
	l.counts[runID] = ss
	first, last := ss[0], ss[len(ss)-1]
	if dt := last.at.Sub(first.at).Seconds(); dt > 0 && last.n > first.n {
		return float64(last.n-first.n) / dt
	}
	return 0
}

// waitFresh is how long a page waits for statistics being computed before
// it shows the last ones (or none yet).
const waitFresh = 400 * time.Millisecond

// summary returns the statistics of an unfinished run with count stored
// games: the last computed, after starting a new computation when the
// count moved and the last one is older than five times its own cost (at
// least a second: a run of a million games, whose statistics take seconds,
// keeps at most a fifth of a core busy). It waits up to waitFresh for a
// computation in progress.
func (l *live) summary(rec *store.RunRecord, count int) *liveStats {
	l.mu.Lock()
	if fw := l.followers[rec.ID]; fw != nil {
		fw.used = time.Now()
	}
	st := l.stats[rec.ID]
	if st == nil || (!st.running && st.count != count && time.Since(st.at) >= max(time.Second, 5*st.cost)) {
		next := &liveStats{running: true, ready: make(chan struct{}), count: count}
		if st != nil {
			next.ab, next.eval, next.err, next.at, next.cost = st.ab, st.eval, st.err, st.at, st.cost
			next.count = st.count
		}
		l.stats[rec.ID] = next
		st = next
		go l.compute(rec.ID, rec.Kind, count, next)
	}
	ready := st.ready
	l.mu.Unlock()
	if ready != nil {
		select {
		case <-ready:
		case <-time.After(waitFresh):
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	c := *l.stats[rec.ID]
	return &c
}

// compute brings a run's follower up to date and publishes the run's
// statistics. Only one computation of a run runs at a time (summary), so
// its follower is used by one goroutine at a time.
func (l *live) compute(runID, kind string, count int, into *liveStats) {
	start := time.Now()
	l.mu.Lock()
	for id, f := range l.followers {
		if start.Sub(f.used) > followerIdle {
			delete(l.followers, id)
		}
	}
	fw := l.followers[runID]
	l.mu.Unlock()
	var ab *results.ABSummary
	var ev *results.EvalSummary
	var err error
	if fw == nil {
		var f *results.Follower
		if f, err = results.Follow(l.ctx, l.s.store, l.s.cfg.Registry, runID); err == nil {
			fw = &follower{f: f}
		}
	}
	if err == nil {
		err = fw.f.Update(l.ctx)
	}
	if err == nil {
		if kind == "ab" {
			ab, err = fw.f.ABSummary()
		} else {
			ev, err = fw.f.EvalSummary()
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err == nil {
		fw.used = time.Now()
		l.followers[runID] = fw
	} else {
		delete(l.followers, runID) // the next computation starts again
	}
	into.ab, into.eval, into.err = ab, ev, err
	into.count, into.at, into.cost, into.running = count, time.Now(), time.Since(start), false
	close(into.ready)
	into.ready = nil
}
