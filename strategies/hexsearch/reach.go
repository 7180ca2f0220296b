package hexsearch

import (
	"slices"

	"gauntlet/referees/hextris"
)

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
	g    *geom
	seen []uint64 // bit s: state s reached in this search (a bit set stays in the first-level cache where a stamp per state did not: problem 24 has 59,392 states)
	// The pivot columns where the searched unit fits on the searched
	// board, by pivot row and rotation (fitMask), made when the search
	// first tests a state of that row and rotation: a mask of a row is a
	// few word operations per member, where testing each state's members
	// took a seventh of problem 24's time.
	fits   []uint64 // fitWords words a mask, bit x+pad for pivot column x
	fitGen []uint32 // by (y+pad)*8+r: the search whose mask fits holds
	gen    uint32   // this search
	fitW   int
	parent []int32 // kept by searchTree only (see path): search needs no paths
	pcmd   []uint8
	tree   bool // the search keeps parent and pcmd
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
	fw := (g.gw + 63) >> 6
	return &reach{g: g, seen: make([]uint64, (n+63)>>6), parent: make([]int32, n), pcmd: make([]uint8, n),
		tstmp: make([]uint32, n), dist: make([]int32, n),
		fits: make([]uint64, g.gh*8*fw), fitGen: make([]uint32, g.gh*8), fitW: fw}
}

// sky is the breadth-first search of one unit from its spawn on an empty
// board: its states in the order searched, and for each the lock command
// found there and the states it reached first. On a board whose stack lies
// below a state's row (see search), the state is reached, locks and
// reaches its children just as on the empty board, so the search takes
// them from here instead of trying the state's moves again.
//
// On problem 24 (100×40) the stack's top is about 30 rows below the
// spawn, and the game beams' searches spent most of their time in the
// empty rows above it: a profile of the problem's solve put 41% of the
// time in the search.
type sky struct {
	depth  int     // the most rows a member lies below the pivot, in any rotation
	states []int32 // in the order searched; the spawn first
	lock   []int8  // by index in states: the lock command there, -1 for none
	// kids[i] and kids[i+1] bound the indices of the states that state i
	// reached first (its children, in the order of the commands).
	kids []int32
}

// skyOf returns unit u's sky, searching the empty board the first time.
// The skies are kept by the geometry, for every search of its problem.
func (rc *reach) skyOf(u int) *sky {
	g := rc.g
	if sk := g.skies[u]; sk != nil {
		return sk
	}
	empty := newBoard(g.w, g.h)
	from := g.spawn[u]
	// Built once a unit, the sky's search is not counted: the states
	// counted are those of the searches asked for.
	nodes := rc.nodes
	locks := rc.searchTree(&empty, u, from)
	rc.nodes = nodes
	sk := &sky{depth: -g.h, states: slices.Clone(rc.queue)}
	for r := range g.nrot[u] {
		for par := range 2 {
			sk.depth = max(sk.depth, g.boxes[(u*6+r)*2+par].maxY)
		}
	}
	// The locks were found in the order searched, so one walk places them.
	sk.lock = make([]int8, len(sk.states))
	for i, s := range sk.states {
		sk.lock[i] = -1
		if len(locks) > 0 && locks[0].State == s {
			sk.lock[i] = int8(locks[0].Cmd)
			locks = locks[1:]
		}
	}
	// Children follow their parents in the order searched, each parent's
	// together: the first child of each parent bounds its run.
	sk.kids = make([]int32, len(sk.states)+1)
	next := int32(1)
	for i := range sk.states {
		sk.kids[i] = next
		for next < int32(len(sk.states)) && rc.parent[sk.states[next]] == sk.states[i] {
			next++
		}
	}
	sk.kids[len(sk.states)] = next
	g.skies[u] = sk
	return sk
}

// search returns every lock placement of unit u reachable from state from
// on board b (the slice is reused). It finds what searchTree finds, in the
// same order, and counts the same states in nodes, without keeping the
// paths: from the spawn, the states on rows above the stack are taken from
// the unit's sky.
//
// A state whose pivot row y has y+depth above the stack's top row holds
// the unit wholly in empty rows, and so does every state on the rows above
// it; no move goes up. So on the rows above the last such row, each state
// is reached from the same state, fits and locks just as on the empty
// board, and its moves reach the same states: the sky's children.
func (rc *reach) search(b *board, u int, from int32) []lockAt {
	g := rc.g
	if from != g.spawn[u] {
		return rc.searchTree(b, u, from)
	}
	sk := rc.skyOf(u)
	y := b.top - 1 - sk.depth // the last row of states wholly above the stack
	if _, y0, _ := g.unpack(from); y <= y0 {
		return rc.searchTree(b, u, from)
	}
	lim := g.state(-g.pad, y, 0) // the first state on row y
	rc.begin()
	rc.tree = false
	// A sky state is queued as -1 minus its index in the sky.
	rc.queue = append(rc.queue, -1)
	for i := 0; i < len(rc.queue); i++ {
		e := rc.queue[i]
		if e >= 0 {
			rc.visit(b, u, e)
			continue
		}
		rc.nodes++
		j := -1 - e
		if c := sk.lock[j]; c >= 0 {
			rc.locks = append(rc.locks, lockAt{State: sk.states[j], Cmd: hextris.Command(c)})
		}
		for k := sk.kids[j]; k < sk.kids[j+1]; k++ {
			if t := sk.states[k]; t < lim {
				rc.queue = append(rc.queue, -1-k)
			} else {
				rc.mark(t)
				rc.queue = append(rc.queue, t)
			}
		}
	}
	rc.last = int64(len(rc.queue))
	return rc.locks
}

// searchTree runs a breadth-first search of unit u's positions from state
// from on board b, and returns every reachable lock placement; path gives
// the commands to each. A position of the same unit is never repeated
// along a shortest path, so every path the search finds obeys the repeat
// rule. The returned slice is reused.
func (rc *reach) searchTree(b *board, u int, from int32) []lockAt {
	rc.begin()
	rc.tree = true
	rc.queue = append(rc.queue, from)
	rc.mark(from)
	rc.parent[from] = -1
	for i := 0; i < len(rc.queue); i++ {
		rc.visit(b, u, rc.queue[i])
	}
	rc.last = int64(len(rc.queue))
	return rc.locks
}

// begin starts a search: no state reached, no lock found.
func (rc *reach) begin() {
	clear(rc.seen)
	rc.gen++
	if rc.gen == 0 {
		clear(rc.fitGen)
		rc.gen = 1
	}
	rc.locks = rc.locks[:0]
	rc.queue = rc.queue[:0]
}

// mark records state t as reached in this search.
func (rc *reach) mark(t int32) { rc.seen[t>>6] |= 1 << (uint32(t) & 63) }

// marked reports whether state t was reached in this search.
func (rc *reach) marked(t int32) bool { return rc.seen[t>>6]>>(uint32(t)&63)&1 != 0 }

// visit expands state s of the search: its moves to states not reached yet
// are queued, and the first move that does not fit makes s a lock
// placement.
func (rc *reach) visit(b *board, u int, s int32) {
	g := rc.g
	rc.nodes++
	lockCmd := -1
	// The state is unpacked once for its six moves and their fit tests,
	// and each move's state is found by the index arithmetic of
	// geom.state, in the order and with the bounds of geom.move (the
	// moves inlined: called, geom.move and geom.state were a quarter of
	// the search's time on problem 24).
	x, y, r := g.unpack(s)
	nrot := g.nrot[u]
	lo, xhi, yhi := -g.pad+1, g.w+g.pad-1, g.h+g.pad-1
	for c := range hextris.NumCommands {
		tx, ty, tr, t := x, y, r, s
		switch c {
		case hextris.MoveW:
			tx, t = x-1, s-8
		case hextris.MoveE:
			tx, t = x+1, s+8
		case hextris.MoveSW:
			ty, t = y+1, s+g.rowStep
			if y&1 == 0 {
				tx, t = x-1, t-8
			}
		case hextris.MoveSE:
			ty, t = y+1, s+g.rowStep
			if y&1 != 0 {
				tx, t = x+1, t+8
			}
		case hextris.RotCW:
			if tr++; tr == nrot {
				tr = 0
			}
			t += int32(tr - r)
		case hextris.RotCCW:
			if tr == 0 {
				tr = nrot
			}
			tr--
			t += int32(tr - r)
		}
		if tx < lo || tx >= xhi || ty < lo || ty >= yhi {
			if lockCmd < 0 {
				lockCmd = int(c)
			}
			continue
		}
		if t == s || rc.marked(t) {
			// A rotation onto itself (a repeat, never a lock), or a
			// state already reached: it fits.
			continue
		}
		if !rc.fitsAt(b, u, tx, ty, tr) {
			if lockCmd < 0 {
				lockCmd = int(c)
			}
			continue
		}
		rc.mark(t)
		if rc.tree {
			rc.parent[t] = s
			rc.pcmd[t] = uint8(c)
		}
		rc.queue = append(rc.queue, t)
	}
	if lockCmd >= 0 {
		rc.locks = append(rc.locks, lockAt{State: s, Cmd: hextris.Command(lockCmd)})
	}
}

// fitsAt is b.fitsAt(g, u, x, y, r) for the board and unit of this search,
// read from the mask of row y and rotation r.
func (rc *reach) fitsAt(b *board, u, x, y, r int) bool {
	pad := rc.g.pad
	k := (y+pad)<<3 | r
	m := rc.fits[k*rc.fitW : (k+1)*rc.fitW]
	if rc.fitGen[k] != rc.gen {
		rc.fitGen[k] = rc.gen
		rc.fitMask(m, b, u, y, r)
	}
	x += pad
	return m[x>>6]>>(uint(x)&63)&1 != 0
}

// fitMask sets bit x+pad of m for each pivot column x where unit u in
// rotation r with its pivot on row y lies on empty cells of b: the AND,
// over the members, of the row's empty cells shifted by the member's
// column offset.
func (rc *reach) fitMask(m []uint64, b *board, u, y, r int) {
	g := rc.g
	i := (u*6+r)*2 + y&1
	for j := range m {
		m[j] = ^uint64(0)
	}
	st := b.stride
	for _, o := range g.offs[g.offStart[i]:g.offStart[i+1]] {
		cy := y + int(o.dy)
		if cy < 0 || cy >= b.h {
			clear(m)
			return
		}
		row := b.rows[cy*st : (cy+1)*st]
		// Bit x+pad of m is column x+dx of the row: the row shifted
		// by sh = pad-dx bits towards the high ones, by words ws and
		// bits bs.
		sh := g.pad - int(o.dx)
		ws, bs := sh>>6, uint(sh&63)
		for j := range m {
			var v uint64
			if k := j - ws; k >= 0 && k < st {
				v = (^row[k] & b.full[k]) << bs
			}
			if k := j - ws - 1; bs != 0 && k >= 0 && k < st {
				v |= (^row[k] & b.full[k]) >> (64 - bs)
			}
			m[j] &= v
		}
	}
}

// path appends to buf the commands from the search's start to state s
// (which the latest searchTree reached), then the lock command cmd.
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
