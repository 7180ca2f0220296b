package hexsearch

import "gauntlet/referees/hextris"

// trySpan types part of a phrase of power that one unit's fall cannot hold:
// it continues the phrase in progress, or starts an unused one, as long as
// the placement where a phrase character locks the unit is within
// SpanMargin of the best one. It reports whether it placed the unit.
func (s *Solver) trySpan(u, k int, from int32, best lockAt) bool {
	pl := s.pl
	cs := s.cands[0]
	floor := cs[0].v - s.cfg.SpanMargin
	n0 := len(s.out)
	if s.spanPh >= 0 {
		i := s.spanPh
		s.spanPh = -1
		ph := &pl.phrases[i]
		pl.hist = append(pl.hist[:0], from)
		res, j, end := pl.simulate(&s.cur, u, from, pl.hist, ph.cmds[s.spanAt:])
		switch res {
		case spanLocks:
			if v, ok := s.lockValue(end); ok && v >= floor {
				s.out = append(s.out, ph.text[s.spanAt:s.spanAt+j+1]...)
				if s.replays(s.out[n0:]) {
					s.spanPh, s.spanAt = i, s.spanAt+j+1
					s.play(n0)
					return true
				}
				s.out = s.out[:n0]
			}
		case spanFinish:
			pl.hist = append(pl.hist[:0], pl.hist2...)
			lockCmd, ok := s.reachTarget(u, end, best)
			if !ok {
				return false
			}
			s.out = append(s.out, ph.text[s.spanAt:]...)
			was := pl.used[i]
			pl.used[i] = true
			out, ok := pl.planFrom(&s.cur, u, end, lockCmd, s.out)
			if ok && s.replays(out[n0:]) {
				s.out = out
				s.play(n0)
				return true
			}
			pl.used[i] = was
			s.out = s.out[:n0]
		}
		return false
	}
	// Start an unused phrase that the planner has not fitted so far.
	bestScore, bestI, bestPre, bestJ := -1e300, -1, 0, 0
	for i := range pl.phrases {
		ph := &pl.phrases[i]
		if pl.used[i] || s.tries[i] >= maxSpanTries || (2*ph.downs < s.g.h && k < 5) {
			continue
		}
		for pre := -min(s.g.w, 12); pre <= min(s.g.w, 12); pre++ {
			cur, ok := from, true
			pl.hist = append(pl.hist[:0], from)
			c := hextris.MoveE
			if pre < 0 {
				c = hextris.MoveW
			}
			for range abs(pre) {
				t, fine := s.g.next(u, cur, c)
				if !fine || !s.cur.fits(s.g, u, t) {
					ok = false
					break
				}
				cur = t
				pl.hist = append(pl.hist, t)
			}
			if !ok {
				continue
			}
			res, j, end := pl.simulate(&s.cur, u, cur, pl.hist, ph.cmds)
			if res != spanLocks || j == 0 {
				continue
			}
			v, ok := s.lockValue(end)
			if !ok || v < floor {
				continue
			}
			if score := v + 20*float64(j); score > bestScore {
				bestScore, bestI, bestPre, bestJ = score, i, pre, j
			}
		}
	}
	if bestI < 0 {
		return false
	}
	if !s.spanCompletes(k, from, bestI, bestPre) {
		s.tries[bestI]++
		return false
	}
	c := hextris.MoveE
	if bestPre < 0 {
		c = hextris.MoveW
	}
	for range abs(bestPre) {
		s.out = append(s.out, c.Char())
	}
	ph := &pl.phrases[bestI]
	s.out = append(s.out, ph.text[:bestJ+1]...)
	if !s.replays(s.out[n0:]) {
		s.out = s.out[:n0]
		return false
	}
	s.spanPh, s.spanAt = bestI, bestJ+1
	s.tries[bestI]++
	s.play(n0)
	return true
}

// maxSpanUnits is how many units one span may take.
const maxSpanUnits = 4

// spanCompletes reports whether phrase i, typed after pre E (W if negative)
// moves from state from of source unit k, would be completed within
// maxSpanUnits units, every lock within SpanMargin of the best placement of
// its unit, on boards simulated from the current one.
func (s *Solver) spanCompletes(k int, from int32, i, pre int) bool {
	pl := s.pl
	if s.spanRc == nil {
		s.spanRc = newReach(s.g)
		s.spanBoards = [2]board{newBoard(s.g.w, s.g.h), newBoard(s.g.w, s.g.h)}
	}
	ph := &pl.phrases[i]
	b := &s.spanBoards[0]
	b.copyFrom(&s.cur)
	cs := s.cands[0]
	at := 0
	for n := range maxSpanUnits {
		u := s.src[k+n]
		cur := from
		pl.hist = append(pl.hist[:0], from)
		if n == 0 {
			c := hextris.MoveE
			if pre < 0 {
				c = hextris.MoveW
			}
			for range abs(pre) {
				cur, _ = s.g.next(u, cur, c)
				pl.hist = append(pl.hist, cur)
			}
		} else {
			locks := s.spanRc.search(b, u, from)
			if len(locks) == 0 {
				return false
			}
			s.spanCands = s.rankInto(s.spanCands[:0], &s.spanBoards[1], b, u, k+n, locks)
			cs = s.spanCands
		}
		res, j, end := pl.simulate(b, u, cur, pl.hist, ph.cmds[at:])
		switch res {
		case spanFinish:
			return true
		case spanFails:
			return false
		}
		v, ok := -1e300, false
		for _, c := range cs {
			if c.lock.State == end {
				v, ok = c.v, true
				break
			}
		}
		if !ok || v < cs[0].v-s.cfg.SpanMargin || k+n+1 >= len(s.src) {
			return false
		}
		b.lock(s.g, u, end)
		at += j + 1
		next := s.src[k+n+1]
		from = s.g.spawn[next]
		if !b.fits(s.g, next, from) {
			return false
		}
	}
	return false
}

// maxSpanTries is how many times one phrase may be started across units in
// one game.
const maxSpanTries = 3

// reachTarget finds the lock placement to head for from state cur (with the
// row history in the planner): best if it is still reachable, else the
// best ranked reachable one among the first few. It leaves the planner's
// distances set for that target.
func (s *Solver) reachTarget(u int, cur int32, best lockAt) (hextris.Command, bool) {
	pl := s.pl
	pl.rc.toTarget(&s.cur, u, best.State)
	if _, ok := pl.feasible(&s.cur, u, cur, pl.hist); ok {
		return best.Cmd, true
	}
	for _, c := range s.cands[0][:min(16, len(s.cands[0]))] {
		pl.rc.toTarget(&s.cur, u, c.lock.State)
		if _, ok := pl.feasible(&s.cur, u, cur, pl.hist); ok {
			return c.lock.Cmd, true
		}
	}
	return 0, false
}
