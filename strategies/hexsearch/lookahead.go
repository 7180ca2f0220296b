package hexsearch

import (
	"cmp"
	"slices"
)

// cand is a lock placement ranked one unit deep.
type cand struct {
	lock lockAt
	v    float64 // one-unit value
	i    int32   // index in the search's order (ties keep it)
}

// choose returns the best lock placement of unit u (source index k) on b.
func (s *Solver) choose(b *board, u, k int, from int32) (lockAt, bool) {
	locks := s.rcs[0].search(b, u, from)
	if len(locks) == 0 {
		return lockAt{}, false
	}
	cs := s.rank(0, b, u, k, locks)
	best := cs[0].lock
	h := b.hash()
	if s.reuse && k < len(s.prevChosen) && s.prevChosen[k].board == h {
		if _, ok := s.lockValue(s.prevChosen[k].lock.State); ok {
			best = s.prevChosen[k].lock
			s.chosen = append(s.chosen, chosenLock{h, best})
			return best, true
		}
	}
	if s.cfg.Depth > 1 && k+1 < len(s.src) {
		best = s.deepen(b, u, k, cs[:min(s.cfg.Beam, len(cs))], best)
	}
	s.chosen = append(s.chosen, chosenLock{h, best})
	return best, true
}

// lockValue returns the one-unit value of locking at state st (from the
// latest ranking of the live unit), or false if st is not a lock placement.
func (s *Solver) lockValue(st int32) (float64, bool) {
	for _, c := range s.cands[0] {
		if c.lock.State == st {
			return c.v, true
		}
	}
	return 0, false
}

// deepen searches the placements cs of unit u (source index k) on b ever
// deeper, by iterative deepening: depth 2 (the next unit) for every one,
// then depth 3, and so on up to Depth, each iteration started only if its
// estimated cost (its searches times the states of the current unit's
// search) fits in what is left of the unit's node budget. So small boards
// are searched deep and big ones at depth 2. An iteration beyond depth 2
// that runs out of budget all the same is discarded; at depth 2 the
// placements expanded before the budget ran out are compared. It returns
// the best placement of the deepest iteration (def if none ran).
func (s *Solver) deepen(b *board, u, k int, cs []cand, def lockAt) lockAt {
	best := def
	per := float64(max(s.rcs[0].last, 1))
	searches, width := 0.0, float64(len(cs))
	for d := 2; d <= s.cfg.Depth && k+d-1 < len(s.src); d++ {
		searches += width
		width *= float64(s.cfg.BeamDeep)
		if d > 2 && float64(s.nodes)+searches*per > float64(s.cfg.Nodes) {
			break
		}
		s.depth, s.cut = d, false
		lock, bestV := def, -1e300
		for i, c := range cs {
			if i > 0 && (s.nodes >= s.cfg.Nodes || s.stopped()) {
				s.cut = true
				break // budget or time spent: compare the placements expanded so far
			}
			nb := &s.boards[0]
			nb.copyFrom(b)
			pts, _ := nb.lock(s.g, u, c.lock.State)
			v := (1+s.cfg.FirstBonus)*s.cfg.Weights.Points*float64(pts) + s.ev.placement(s.g, b, u, c.lock.State)
			v += s.value(1, nb, k+1)
			if v > bestV {
				lock, bestV = c.lock, v
			}
		}
		if d > 2 && s.cut {
			break
		}
		best = lock
	}
	return best
}

// value is the best value of the placements of source unit k on b, searched
// to the depth of the current iteration (see deepen); once the unit's node
// budget is spent, only the first placement of each level is expanded
// further (and the iteration is marked cut).
func (s *Solver) value(level int, b *board, k int) float64 {
	u := s.src[k]
	spawn := s.g.spawn[u]
	if !b.fits(s.g, u, spawn) {
		return -1e9
	}
	rc := s.rcs[level]
	n0 := rc.nodes
	locks := rc.search(b, u, spawn)
	s.nodes += rc.nodes - n0
	if len(locks) == 0 {
		return s.ev.static(b)
	}
	cs := s.rank(level, b, u, k, locks)
	if level+1 >= s.depth || k+1 >= len(s.src) {
		return cs[0].v
	}
	bestV := -1e300
	for i := range min(s.cfg.BeamDeep, len(cs)) {
		if i > 0 && (s.nodes >= s.cfg.Nodes || s.stopped()) {
			s.cut = true
			break
		}
		c := cs[i]
		nb := &s.boards[level]
		nb.copyFrom(b)
		pts, _ := nb.lock(s.g, u, c.lock.State)
		v := s.cfg.Weights.Points*float64(pts) + s.ev.placement(s.g, b, u, c.lock.State)
		v += s.value(level+1, nb, k+1)
		bestV = max(bestV, v)
	}
	return bestV
}

// rank evaluates every lock one unit deep and sorts them best first, in the
// level's candidate buffer.
func (s *Solver) rank(level int, b *board, u, k int, locks []lockAt) []cand {
	cs := s.rankInto(s.cands[level][:0], &s.boards[level], b, u, k, locks)
	s.cands[level] = cs
	return cs
}

// rankInto appends to cs the one-unit values of locks on b, best first,
// using nb as scratch. A lock that clears no line is evaluated by updating
// the features of b where the unit touches it; one that does is played on
// nb and evaluated in full.
func (s *Solver) rankInto(cs []cand, nb, b *board, u, k int, locks []lockAt) []cand {
	cs = s.valueInto(cs, nb, b, u, k, locks)
	slices.SortFunc(cs, func(a, b cand) int {
		switch {
		case a.v > b.v:
			return -1
		case a.v < b.v:
			return 1
		}
		return cmp.Compare(a.i, b.i)
	})
	return cs
}

// valueInto appends to cs the one-unit values of locks on b, in the order
// of locks (see rankInto). With Config.RestingOnly it leaves out the locks
// where the unit hangs over empty cells (none of the cells SE or SW of
// its members filled, nor below the floor) and fills no row, unless every
// lock is such: on problem 24 three in five of the locks the fall beam's
// searches find, and its valuing took two fifths of the problem's time.
func (s *Solver) valueInto(cs []cand, nb, b *board, u, k int, locks []lockAt) []cand {
	next := -1
	if k+1 < len(s.src) {
		next = s.src[k+1]
	}
	s.ev.setBase(&s.base, b)
	n0 := len(cs)
	for _, restingOnly := range [...]bool{s.cfg.RestingOnly, false} {
		for i, l := range locks {
			if restingOnly && !b.rests(s.g, u, l.State) && !s.fillsRow(u, l.State) {
				continue
			}
			cs = append(cs, cand{l, s.unitValue(nb, b, u, l.State, next), int32(i)})
		}
		if len(cs) > n0 || !restingOnly {
			break
		}
	}
	return cs
}

// fillsRow reports whether unit u locking at state st fills a row of the
// base board of s.base: a row's filled cells plus the members in it make
// its width. The rows far from full are passed over before the members
// are counted.
func (s *Solver) fillsRow(u int, st int32) bool {
	w := s.base.b.w
	_, y, r := s.g.unpack(st)
	ms := s.g.members(u, r, y&1)
	for _, o := range ms {
		f := int(s.base.fill[y+int(o.dy)])
		if f+len(ms) < w {
			continue
		}
		for _, m := range ms {
			if m.dy == o.dy {
				f++
			}
		}
		if f == w {
			return true
		}
	}
	return false
}

// unitValue is the one-unit value of unit u locking at state st on b
// (the base board of s.base), next the unit that spawns after it (-1:
// none); nb is scratch.
func (s *Solver) unitValue(nb, b *board, u int, st int32, next int) float64 {
	pl := s.ev.placementOn(&s.base, s.g, u, st)
	var v float64
	sv, fits, ok := s.ev.after(&s.base, s.g, u, st, next)
	if ok {
		v = s.cfg.Weights.Points*float64(lockPoints(s.g.size[u], 0, b.lastLines)) + pl + sv
	} else {
		nb.copyFrom(b)
		pts, _ := nb.lock(s.g, u, st)
		v = s.cfg.Weights.Points*float64(pts) + pl + s.ev.static(nb)
		fits = next < 0 || nb.fits(s.g, next, s.g.spawn[next])
	}
	if !fits {
		v -= 1e9
	}
	return v
}
