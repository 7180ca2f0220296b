package runner

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/harness/store"
)

// collect receives finished games, feeds the stopper in plan order, updates
// the progress bar and saves the games in batches (see batchGames), each
// with the claimed blocks it completes.
func (rn *Runner) collect(ctx context.Context, p *Plan, worker string, in <-chan []int, slab []Result, col *collector, prog *progress, src *matchSource, cancel func()) error {
	var batch []store.GameRecord
	var done []store.Block
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
				kept := col.logs.take(m.Key, &r.Outcome)
				batch = append(batch, store.GameRecord{Key: m.Key, Index: i, CaseID: m.Case.ID, Group: m.Case.Group,
					Seed: m.Case.Seed, Seats: m.Seats, Outcome: r.Outcome, Wall: r.Wall, Worker: worker, Finished: now, BotLogs: kept})
			}
			done = src.gamesDone(chunk, done)
		} else {
			for _, i := range chunk {
				slab[i].Outcome.Logs = nil // kept nowhere without a store
			}
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
	logs logKeeper
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
	c, ok := p.Game.(contract.Coster)
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
