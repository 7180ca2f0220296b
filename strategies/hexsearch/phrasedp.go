package hexsearch

import (
	"cmp"
	"math"
	"slices"

	"gauntlet/referees/hextris"
)

// phraseDP finds, for a chosen lock target, the text that earns the most
// power points on the way there: a longest path, by dynamic programming
// over (position, row memory, automaton state). The memo holds, per
// (position, row memory), a chain of compact blocks (see dpBlock) of the
// filled cells, keyed by the state of the unit's reduced automaton; a hash
// table finds the chains. Both are reused from one unit to the next.
//
// The repeat rule needs only the current row's positions (down moves
// never come back up). The search keeps the row's moves acyclic: a row's
// sideways moves go one way (E or W), and at one column the rotations go
// one way, fewer than the unit's distinct rotations. Then no position
// repeats, and the path graph is a DAG. The row memory packs the sideways
// direction (none, E, W) and the rotations at the current column (none,
// 1..5 CW, 1..5 CCW): rowMem = dir*11 + rot. To keep the search small, a
// path strays at most slack columns from the straight line from its start
// to the target, and makes at most turns rotations at one column.
type phraseDP struct {
	g  *geom
	rc *reach // distances to the target (toTarget already run)
	ac *automaton

	tab     []dpSlot
	mask    uint64
	gen     uint32
	nblocks int       // chains made for the current unit
	blocks  []dpBlock // block 0 is unused: a link of 0 is none
	kids    []dpKids  // by the first block of a chain: the moves from its (position, row memory)
	nblk    int32     // blocks in use for the current unit

	budget int // memo cells allowed per unit
	nodes  int // memo cells filled for the current unit
	over   bool
	pot    int32 // value per character of a phrase left partly typed
	// Unused phrases longer than the fall that the search may begin, to
	// be finished by the next units, and the value per character of one
	// left partly typed at the lock.
	span    int
	spanPot int32

	// The automaton of the unit's active phrases (see activate): red maps
	// a state to its longest suffix that is a prefix of an active phrase,
	// and the edges, gains and continuation lengths are those of the
	// reduced states.
	phrases []phrase
	repeats int // used phrases kept active, best repeat rate first
	unused  int // unused phrases kept active, best repeat rate first
	rank    []int
	rates   []float64
	active  uint64
	spanM   uint64 // the active phrases begun for the next units to finish
	red     []int32
	edges   []acEdge
	edgeAt  [][2]int32 // the edges of (state, command): edges[lo:hi]
	actIdx  []int32    // index of each reduced state (its key in a block)
	nAct    int32      // reduced states
	left    []int32    // value of the partly typed phrase at a lock in a reduced state
	gain    []int32    // points on reaching a reduced state, this unit

	b      *board
	u      int
	target int32
	tx, ty int
	sx, sy int // where the unit starts
	slack  int // columns a path may stray from the line from start to target
	turns  int // rotations a path may make at one column of a row
	nrot   int
	lock   [hextris.NumCommands]bool // commands that lock the unit at the target
}

// dpSlot locates the first block of the chain of one (position, row
// memory).
type dpSlot struct {
	key uint64
	gen uint32
	blk int32
}

// dpBlock holds up to dpPerBlock memo cells of one (position, row memory),
// each packed with its reduced state's index (see dpEntry), filled from
// the first; an entry of 0 is empty. The last word links the chain's next
// block (0: none). A (position, row memory) fills 4 to 5 of the 56 to 78
// reduced states on the qualifier's larger problems: one block of a cache
// line holds them, where a cell per reduced state took 224 to 312 bytes
// a block, mostly unset, and the lookups missed the cache.
type dpBlock [dpPerBlock + 1]uint64

const dpPerBlock = 7

// dpKids are the moves of the phrase search from one (position, row
// memory), by command: they are the same for every automaton state there,
// so they are found once, when its first cell is searched, for the 4 to 5
// that are.
type dpKids struct {
	done bool
	k    [hextris.NumCommands]dpKid
}

// dpKid is one move: to state t with row memory rm, tb the first block of
// its chain; tb < 0 where the move is not allowed (off the board, off the
// corridor, forbidden by the row memory, or not leading to the target).
type dpKid struct{ t, tb, rm int32 }

const (
	// Values are in sixteenths of a point (dpUnit), so that a cell packs
	// the value and the character in 32 bits.
	dpUnit    = 16
	dpDead    = -1 << 22
	cellUnset = uint32(1 << 31) // no value packs to it: values are dpDead or at least 0
	dirNone   = 0
	dirE      = 1
	dirW      = 2
	rotSlots  = 11
)

// dpConfig are the phrase search's settings (see Config).
type dpConfig struct {
	repeats, unused, slack, turns, budget int
	potential                             float64
	span                                  int     // unused phrases longer than the fall begun
	spanPotential                         float64 // value per character of one left partly typed
}

func newPhraseDP(g *geom, rc *reach, ac *automaton, phrases []phrase, c dpConfig) *phraseDP {
	size := 1 << 12
	nn := ac.numNodes()
	d := &phraseDP{g: g, rc: rc, ac: ac, tab: make([]dpSlot, size), mask: uint64(size - 1),
		actIdx: make([]int32, nn),
		budget: c.budget, pot: int32(math.Round(c.potential * dpUnit)), slack: c.slack, turns: c.turns, phrases: phrases, repeats: c.repeats, unused: c.unused,
		red: make([]int32, nn), edgeAt: make([][2]int32, nn*int(hextris.NumCommands)),
		span: c.span, spanPot: int32(math.Round(c.spanPotential * dpUnit)),
		left: make([]int32, nn), gain: make([]int32, nn)}
	// Repeat rates: points per down move of typing a phrase again right
	// after itself (from its border on).
	for i, ph := range phrases {
		downs := 0
		for _, c := range ph.cmds[ph.border:] {
			if c == hextris.MoveSW || c == hextris.MoveSE {
				downs++
			}
		}
		d.rank = append(d.rank, i)
		d.rates = append(d.rates, 2*float64(len(ph.text))/float64(max(downs, 1)))
	}
	slices.SortStableFunc(d.rank, func(i, j int) int { return cmp.Compare(d.rates[j], d.rates[i]) })
	return d
}

// activate chooses the phrases the search tries for a unit that descends
// downs rows from automaton state a0: the unused ones that fit the fall
// (their 300 points outweigh anything else), the phrases that a0 has begun,
// and the repeats best repeat rates among the used ones that fit. It
// compiles the reduced automaton of these phrases when they changed, and
// the gains of its states.
func (d *phraseDP) activate(a0 int32, downs int, used []bool) {
	ac := d.ac
	m, spanM := uint64(0), uint64(0)
	if len(d.phrases) > 64 {
		m = ^uint64(0)
	} else {
		m = ac.longer[a0]
		k, nu, ns := 0, 0, 0
		for _, i := range d.rank {
			if d.phrases[i].downs > downs {
				if !used[i] && ns < d.span {
					spanM |= 1 << uint(i)
					ns++
				}
				continue
			}
			if !used[i] {
				if nu < d.unused {
					m |= 1 << uint(i)
					nu++
				}
			} else if k < d.repeats {
				m |= 1 << uint(i)
				k++
			}
		}
	}
	m |= spanM
	if m != d.active || spanM != d.spanM || len(d.edges) == 0 {
		d.active, d.spanM = m, spanM
		d.edges = d.edges[:0]
		for _, n := range ac.order {
			if n != 0 && ac.through[n]&m == 0 {
				d.red[n] = d.red[ac.fail[n]]
				continue
			}
			d.red[n] = n
			if ac.longer[n]&m != 0 || n == 0 {
				d.left[n] = d.pot * ac.depth[n]
				if ac.longer[n]&spanM != 0 {
					d.left[n] = max(d.left[n], d.spanPot*ac.depth[n])
				}
			} else {
				d.left[n] = d.left[d.red[ac.fail[n]]]
			}
		}
		d.nAct = 0
		for _, n := range ac.order {
			if d.red[n] != n {
				continue
			}
			d.actIdx[n] = d.nAct
			d.nAct++
			for c := range hextris.NumCommands {
				i := int(n)*int(hextris.NumCommands) + int(c)
				e0 := len(d.edges)
				for _, ch := range ac.chars[c] {
					to := d.red[ac.next[int(n)<<8|int(ch)]]
					if !slices.ContainsFunc(d.edges[e0:], func(e acEdge) bool { return e.to == to }) {
						d.edges = append(d.edges, acEdge{ch, to})
					}
				}
				d.edgeAt[i] = [2]int32{int32(e0), int32(len(d.edges))}
			}
		}
	}
	for n := range d.gain {
		v := int32(0)
		if d.red[n] == int32(n) {
			for _, i := range ac.ends(int32(n)) {
				if len(d.phrases) <= 64 && m&(1<<uint(i)) == 0 {
					continue
				}
				v += 2 * dpUnit * ac.plen[i]
				if !used[i] {
					v += 300 * dpUnit
				}
			}
		}
		d.gain[n] = v
	}
}

// setPotential sets the value per character of a phrase left partly typed
// at the lock (dpConfig.potential), for the searches after it.
func (d *phraseDP) setPotential(v float64) {
	if pot := int32(math.Round(v * dpUnit)); pot != d.pot {
		d.pot = pot
		d.edges = d.edges[:0] // activate computes the states' values again
	}
}

// commandEdges returns the distinct reduced successors of reduced state n
// for characters of command c.
func (d *phraseDP) commandEdges(n int32, c hextris.Command) []acEdge {
	i := int(n)*int(hextris.NumCommands) + int(c)
	return d.edges[d.edgeAt[i][0]:d.edgeAt[i][1]]
}

// solve appends to out the best text that takes unit u from state from to
// the target of the latest toTarget and locks it there with one of the
// target's locking commands, the automaton starting at state a0 and used
// marking the phrases the game's text already holds. It returns false if
// the budget ran out or no path was found.
func (d *phraseDP) solve(b *board, u int, from, target int32, a0 int32, used []bool, out []byte) ([]byte, float64, bool) {
	g := d.g
	if d.rc.distTo(from) < 0 {
		return out, 0, false
	}
	d.gen++
	if d.gen == 0 {
		clear(d.tab)
		d.gen = 1
	}
	d.nodes, d.over, d.nblocks, d.nblk = 0, false, 0, 1
	d.b, d.u, d.target = b, u, target
	d.tx, d.ty, _ = g.unpack(target)
	d.nrot = g.nrot[u]
	for c := range hextris.NumCommands {
		t, ok := g.next(u, target, c)
		d.lock[c] = !ok || (t != target && !b.fits(g, u, t))
	}
	d.sx, d.sy, _ = g.unpack(from)
	d.activate(a0, d.ty-d.sy, used)
	a0 = d.red[a0]
	best := d.value(from, 0, d.block(from, 0), a0)
	if d.over || best <= dpDead {
		return out, 0, false
	}
	// Follow the best characters.
	s, rm, a := from, 0, a0
	for guard := 0; guard < 1<<20; guard++ {
		blk := d.findBlock(s, rm)
		if blk < 0 {
			return out, 0, false
		}
		cell, _, _ := d.lookup(blk, d.actIdx[a])
		if cell == 0 {
			return out, 0, false
		}
		ch := byte(cell)
		out = append(out, ch)
		c, _, _ := hextris.DecodeChar(rune(ch))
		a = d.red[d.ac.step(a, ch)]
		if s == target {
			return out, float64(best) / dpUnit, true
		}
		x, y, r := g.unpack(s)
		s, _, _, rm, _ = d.move(s, x, y, r, rm, c)
	}
	return out, 0, false
}

// cellOf packs a memo cell: value v and character ch, xor cellUnset so
// that no cell is 0 (0 is unset).
func cellOf(v int32, ch byte) uint32 { return (uint32(v)<<8 | uint32(ch)) ^ cellUnset }

// dpEntry packs the cell of reduced state index ai for a block: never 0.
func dpEntry(ai int32, cell uint32) uint64 { return uint64(ai+1)<<32 | uint64(cell) }

// newBlock returns a cleared block for the current unit.
func (d *phraseDP) newBlock() int32 {
	if int(d.nblk) >= len(d.blocks) {
		d.blocks = append(d.blocks, make([]dpBlock, max(64, len(d.blocks)))...)
		d.kids = append(d.kids, make([]dpKids, len(d.blocks)-len(d.kids))...)
	}
	b := d.nblk
	d.blocks[b] = dpBlock{}
	d.nblk++
	return b
}

// lookup returns the cell of reduced state index ai in the chain that
// begins at block blk, or 0 and where it would go: the block and the
// entry (dpPerBlock: a block to link after blk).
func (d *phraseDP) lookup(blk, ai int32) (cell uint32, at int32, i int) {
	want := uint64(ai + 1)
	for {
		bk := &d.blocks[blk]
		for i, e := range bk[:dpPerBlock] {
			if e == 0 {
				return 0, blk, i
			}
			if e>>32 == want {
				return uint32(e), blk, i
			}
		}
		next := int32(bk[dpPerBlock])
		if next == 0 {
			return 0, blk, dpPerBlock
		}
		blk = next
	}
}

// store sets the cell of reduced state index ai, not in the chain of blk
// yet, at the chain's first empty entry from block at, entry i (where
// lookup found none).
func (d *phraseDP) store(at int32, i int, ai int32, cell uint32) {
	for {
		for ; i < dpPerBlock; i++ {
			if e := &d.blocks[at][i]; *e == 0 {
				*e = dpEntry(ai, cell)
				return
			}
		}
		next := int32(d.blocks[at][dpPerBlock])
		if next == 0 {
			next = d.newBlock()
			d.blocks[at][dpPerBlock] = uint64(next)
		}
		at, i = next, 0
	}
}

func dpKey(s int32, rm int) uint64 { return uint64(s)<<6 | uint64(rm) }

func dpHash(key uint64) uint64 { return (key * 0x9E3779B97F4A7C15) >> 24 }

// findBlock returns the first block of the chain of (s, rm), or -1.
func (d *phraseDP) findBlock(s int32, rm int) int32 {
	key := dpKey(s, rm)
	for i := dpHash(key) & d.mask; ; i = (i + 1) & d.mask {
		e := &d.tab[i]
		if e.gen != d.gen {
			return -1
		}
		if e.key == key {
			return e.blk
		}
	}
}

// block returns the first block of the chain of (s, rm), making the
// chain if needed.
func (d *phraseDP) block(s int32, rm int) int32 {
	key := dpKey(s, rm)
	for i := dpHash(key) & d.mask; ; i = (i + 1) & d.mask {
		e := &d.tab[i]
		if e.gen == d.gen {
			if e.key == key {
				return e.blk
			}
			continue
		}
		e.gen, e.key, e.blk = d.gen, key, d.newBlock()
		d.kids[e.blk].done = false
		d.nblocks++
		if 2*d.nblocks > len(d.tab) {
			blk := e.blk
			d.grow()
			return blk
		}
		return e.blk
	}
}

// grow doubles the block table, keeping the current unit's blocks. The
// table is small while units need few states (it stays in cache), and
// keeps its size from one unit to the next.
func (d *phraseDP) grow() {
	old := d.tab
	d.tab = make([]dpSlot, 2*len(old))
	d.mask = uint64(len(d.tab) - 1)
	for _, e := range old {
		if e.gen != d.gen {
			continue
		}
		for i := dpHash(e.key) & d.mask; ; i = (i + 1) & d.mask {
			if d.tab[i].gen != d.gen {
				d.tab[i] = e
				break
			}
		}
	}
}

// move applies command c (a move that keeps the unit on the board) to
// state s with row memory rm; false if the row memory forbids it.
func (d *phraseDP) move(s int32, x, y, r, rm int, c hextris.Command) (t int32, nx, ny, rm2 int, ok bool) {
	dir, rot := rm/rotSlots, rm%rotSlots
	fail := func() (int32, int, int, int, bool) { return 0, 0, 0, 0, false }
	switch c {
	case hextris.MoveSW, hextris.MoveSE:
		rm = 0
	case hextris.MoveE:
		if dir == dirW {
			return fail()
		}
		rm = dirE * rotSlots
	case hextris.MoveW:
		if dir == dirE {
			return fail()
		}
		rm = dirW * rotSlots
	case hextris.RotCW:
		if rot > 5 || rot+1 >= d.nrot || rot+1 > d.turns {
			return fail()
		}
		rm = dir*rotSlots + rot + 1
	case hextris.RotCCW:
		k := 0
		if rot > 5 {
			k = rot - 5
		} else if rot > 0 {
			return fail()
		}
		if k+1 >= d.nrot || k+1 > d.turns {
			return fail()
		}
		rm = dir*rotSlots + 5 + k + 1
	}
	// The state index arithmetic of geom.state, with its bounds.
	g := d.g
	row := g.rowStep
	nx, ny, t = x, y, s
	switch c {
	case hextris.MoveW:
		nx, t = x-1, s-8
	case hextris.MoveE:
		nx, t = x+1, s+8
	case hextris.MoveSW:
		ny, t = y+1, s+row
		if y&1 == 0 {
			nx, t = x-1, t-8
		}
	case hextris.MoveSE:
		ny, t = y+1, s+row
		if y&1 != 0 {
			nx, t = x+1, t+8
		}
	case hextris.RotCW:
		if r+1 == d.nrot {
			t -= int32(r)
		} else {
			t++
		}
	case hextris.RotCCW:
		if r == 0 {
			t += int32(d.nrot - 1)
		} else {
			t--
		}
	}
	if t == s || nx < -g.pad+1 || nx >= g.w+g.pad-1 || ny >= g.h+g.pad-1 {
		return 0, 0, 0, 0, false
	}
	return t, nx, ny, rm, true
}

// value is the most points the rest of a path from (s, rm, a) can earn,
// or dpDead; blk is the first block of (s, rm).
func (d *phraseDP) value(s int32, rm int, blk, a int32) int32 {
	c, at, ei := d.lookup(blk, d.actIdx[a])
	if c != 0 {
		return int32(c^cellUnset) >> 8
	}
	return d.search(s, rm, blk, a, at, ei)
}

// search is value where the memo lacks the cell of (s, rm, a): it finds
// the cell and stores it at block at, entry ei (see lookup).
func (d *phraseDP) search(s int32, rm int, blk, a, at int32, ei int) int32 {
	if d.nodes >= d.budget {
		d.over = true
		return dpDead
	}
	d.nodes++
	best, bestCh := int32(dpDead), byte(0)
	if s == d.target {
		for c := range hextris.NumCommands {
			if !d.lock[c] {
				continue
			}
			for _, e := range d.commandEdges(a, c) {
				if v := d.gain[e.to] + d.left[e.to]; v > best {
					best, bestCh = v, e.ch
				}
			}
		}
	} else {
		if !d.kids[blk].done {
			d.findKids(s, rm, blk)
		}
		for c := range hextris.NumCommands {
			k := d.kids[blk].k[c]
			if k.tb < 0 {
				continue
			}
			for _, e := range d.commandEdges(a, c) {
				// The memo's cell, looked up here: most are found.
				cell, kat, kei := d.lookup(k.tb, d.actIdx[e.to])
				v := int32(cell^cellUnset) >> 8
				if cell == 0 {
					if v = d.search(k.t, int(k.rm), k.tb, e.to, kat, kei); d.over {
						return dpDead
					}
				}
				if v <= dpDead {
					continue
				}
				if v += d.gain[e.to]; v > best {
					best, bestCh = v, e.ch
				}
			}
		}
	}
	d.store(at, ei, d.actIdx[a], cellOf(best, bestCh))
	return best
}

// findKids finds the moves from (s, rm), whose chain begins at block blk,
// making their chains.
func (d *phraseDP) findKids(s int32, rm int, blk int32) {
	x, y, r := d.g.unpack(s)
	var ks [hextris.NumCommands]dpKid
	for c := range hextris.NumCommands {
		ks[c].tb = -1
		t, nx, ny, rm2, ok := d.move(s, x, y, r, rm, c)
		if !ok || d.rc.distTo(t) < 0 || !d.rowOK(nx, ny, rm2) {
			continue
		}
		ks[c] = dpKid{t: t, tb: d.block(t, rm2), rm: int32(rm2)}
	}
	// d.kids may have grown with the chains made.
	d.kids[blk] = dpKids{done: true, k: ks}
}

// rowOK rejects states further than slack columns from the line from the
// start to the target, and states on the target's row from which the row
// memory forbids the sideways moves to the target's column.
func (d *phraseDP) rowOK(x, y, rm int) bool {
	if dy := d.ty - d.sy; dy > 0 {
		if off := (x-d.sx)*dy - (d.tx-d.sx)*(y-d.sy); off > d.slack*dy || off < -d.slack*dy {
			return false
		}
	} else if x < min(d.sx, d.tx)-d.slack || x > max(d.sx, d.tx)+d.slack {
		return false
	}
	if y != d.ty {
		return true
	}
	switch rm / rotSlots {
	case dirE:
		return x <= d.tx
	case dirW:
		return x >= d.tx
	}
	return true
}
