package hexsearch

import "gauntlet/referees/hextris"

// lockAt is a placement where a unit can lock: the state of its pivot and
// rotation (see geom.state) and a command that locks it there.
type lockAt struct {
	State int32
	Cmd   hextris.Command
}

// reach searches the positions a unit can reach from its spawn. Its buffers
// are reused from one search to the next, so a search does not allocate in
// steady state.
type reach struct {
	g      *geom
	gen    uint32
	stamp  []uint32 // stamp[s] == gen: s reached in this search
	parent []int32
	pcmd   []uint8
	queue  []int32
	locks  []lockAt

	// backward distances to a target (see toTarget)
	tgen  uint32
	tstmp []uint32
	dist  []int32
	tq    []int32

	nodes int64 // states expanded so far (the search budget counts these)
	last  int64 // states expanded by the latest search
}

func newReach(g *geom) *reach {
	n := g.numStates()
	return &reach{g: g, stamp: make([]uint32, n), parent: make([]int32, n), pcmd: make([]uint8, n),
		tstmp: make([]uint32, n), dist: make([]int32, n)}
}

// search runs a breadth-first search of unit u's positions from state from on
// board b, and returns every reachable lock placement. A position of the
// same unit is never repeated along a shortest path, so every path the
// search finds obeys the repeat rule. The returned slice is reused.
func (rc *reach) search(b *board, u int, from int32) []lockAt {
	g := rc.g
	rc.gen++
	if rc.gen == 0 {
		clear(rc.stamp)
		rc.gen = 1
	}
	rc.locks = rc.locks[:0]
	rc.queue = append(rc.queue[:0], from)
	rc.stamp[from] = rc.gen
	rc.parent[from] = -1
	for i := 0; i < len(rc.queue); i++ {
		s := rc.queue[i]
		rc.nodes++
		lockCmd := -1
		// The state is unpacked once for its six moves and their fit
		// tests (next and fits unpack theirs).
		x, y, r := g.unpack(s)
		for c := range hextris.NumCommands {
			tx, ty, tr, ok := g.move(u, x, y, r, c)
			var t int32
			if ok {
				t = g.state(tx, ty, tr)
				if t == s || rc.stamp[t] == rc.gen {
					// A rotation onto itself (a repeat, never a lock), or
					// a state already reached: it fits.
					continue
				}
			}
			if !ok || !b.fitsAt(g, u, tx, ty, tr) {
				if lockCmd < 0 {
					lockCmd = int(c)
				}
				continue
			}
			rc.stamp[t] = rc.gen
			rc.parent[t] = s
			rc.pcmd[t] = uint8(c)
			rc.queue = append(rc.queue, t)
		}
		if lockCmd >= 0 {
			rc.locks = append(rc.locks, lockAt{State: s, Cmd: hextris.Command(lockCmd)})
		}
	}
	rc.last = int64(len(rc.queue))
	return rc.locks
}

// path appends to buf the commands from the search's start to state s
// (which the latest search reached), then the lock command cmd.
func (rc *reach) path(s int32, cmd hextris.Command, buf []hextris.Command) []hextris.Command {
	n0 := len(buf)
	for t := s; rc.parent[t] >= 0; t = rc.parent[t] {
		buf = append(buf, hextris.Command(rc.pcmd[t]))
	}
	for i, j := n0, len(buf)-1; i < j; i, j = i+1, j-1 {
		buf[i], buf[j] = buf[j], buf[i]
	}
	return append(buf, cmd)
}

// toTarget computes, for every valid state of unit u on b, the fewest
// commands that lead it to state target (backward breadth-first search).
// distTo reads the result.
func (rc *reach) toTarget(b *board, u int, target int32) {
	g := rc.g
	rc.tgen++
	if rc.tgen == 0 {
		clear(rc.tstmp)
		rc.tgen = 1
	}
	rc.tq = append(rc.tq[:0], target)
	rc.tstmp[target] = rc.tgen
	rc.dist[target] = 0
	for i := 0; i < len(rc.tq); i++ {
		s := rc.tq[i]
		rc.nodes++
		for c := range hextris.NumCommands {
			p, ok := g.prev(u, s, c)
			if !ok || p == s || rc.tstmp[p] == rc.tgen || !b.fits(g, u, p) {
				continue
			}
			rc.tstmp[p] = rc.tgen
			rc.dist[p] = rc.dist[s] + 1
			rc.tq = append(rc.tq, p)
		}
	}
}

// distTo returns the distance toTarget found for s, or -1 if s cannot reach
// the target.
func (rc *reach) distTo(s int32) int32 {
	if rc.tstmp[s] != rc.tgen {
		return -1
	}
	return rc.dist[s]
}
