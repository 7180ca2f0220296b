package hexsearch

import (
	"math/bits"
	"slices"

	"gauntlet/referees/hextris"
)

// off is a member cell relative to the unit's pivot, for one pivot row
// parity: a pivot at (px, py) puts the member at (px+dx, py+dy) when the
// offsets were taken for py's parity.
type off struct{ dx, dy int16 }

// geom holds the per-problem tables of the search: member offsets for every
// unit, rotation and pivot row parity, and the state grid of the
// reachability search.
type geom struct {
	w, h     int
	pad      int   // margin of the pivot grid around the board
	gw, gh   int   // pivot grid size
	gwShift  uint  // log2 of the grid row's stride in cells (gw rounded up to a power of two)
	rowStep  int32 // state index step of one row down
	nrot     []int // distinct rotations per unit
	size     []int // lock points per unit
	spawn    []int32
	offStart []int32 // index into offs of unit u, rotation r, parity par: (u*6+r)*2+par
	offs     []off
	boxes    []box // bounding box of the offsets, by the offStart index

	// ring lists, by the offStart index, the offsets of the cells next to
	// a member that are not members, once per member they touch: the
	// unit's contact with filled cells is the count of filled cells among
	// them (evaluator.placement). sumDY is the sum of the members' dy.
	ringStart []int32
	ring      []off
	sumDY     []int32

	// under lists, by the offStart index, the offsets of the cells SE
	// and SW of a member that are not members: a unit locked where none
	// of them is filled (nor below the floor) hangs over empty cells.
	underStart []int32
	under      []off

	skies []*sky // by unit: its search from the spawn on an empty board (reach.skyOf)
}

// longestBar returns the most cells of a unit whose members, in some
// rotation, lie side by side in one row: rotated onto a diagonal, such a
// unit fills as many rows' single empty cells at once (Weights.Well).
func (g *geom) longestBar() int {
	best := 0
	for u := range g.nrot {
		for r := range g.nrot[u] {
			ms := g.members(u, r, 0)
			x0, x1 := int(ms[0].dx), int(ms[0].dx)
			row := true
			for _, o := range ms {
				row = row && o.dy == ms[0].dy
				x0, x1 = min(x0, int(o.dx)), max(x1, int(o.dx))
			}
			if row && x1-x0+1 == len(ms) {
				best = max(best, len(ms))
			}
		}
	}
	return best
}

// box bounds the member offsets of one unit, rotation and parity.
type box struct{ minX, maxX, minY, maxY int }

// newGeom compiles the tables of p.
func newGeom(p *hextris.Problem) *geom {
	g := &geom{w: p.Width, h: p.Height}
	n := len(p.Units)
	g.nrot = make([]int, n)
	g.size = make([]int, n)
	g.offStart = make([]int32, n*12+1)
	pad := 1
	var cells []hextris.Cell
	for u := range n {
		g.nrot[u] = p.Rotations(u)
		g.size[u] = p.Size(u)
		for r := range 6 {
			for par := range 2 {
				g.offStart[(u*6+r)*2+par] = int32(len(g.offs))
				if r >= g.nrot[u] {
					continue
				}
				cells = p.Cells(u, hextris.Position{X: 0, Y: int32(par), Rot: uint8(r)}, cells[:0])
				for _, c := range cells {
					o := off{int16(c.X), int16(c.Y - par)}
					g.offs = append(g.offs, o)
					pad = max(pad, abs(int(o.dx))+1, abs(int(o.dy))+1)
				}
			}
		}
	}
	g.offStart[n*12] = int32(len(g.offs))
	g.boxes = make([]box, n*12)
	for i := range g.boxes {
		bx := box{1 << 30, -1 << 30, 1 << 30, -1 << 30}
		for _, o := range g.offs[g.offStart[i]:g.offStart[i+1]] {
			bx.minX, bx.maxX = min(bx.minX, int(o.dx)), max(bx.maxX, int(o.dx))
			bx.minY, bx.maxY = min(bx.minY, int(o.dy)), max(bx.maxY, int(o.dy))
		}
		g.boxes[i] = bx
	}
	g.ringStart = make([]int32, n*12+1)
	g.sumDY = make([]int32, n*12)
	for i := range n * 12 {
		g.ringStart[i] = int32(len(g.ring))
		ms := g.offs[g.offStart[i]:g.offStart[i+1]]
		par := i & 1
		for _, o := range ms {
			g.sumDY[i] += int32(o.dy)
			for d := range 6 {
				// The pivot is on a row of parity par, the member on one
				// of parity par+dy.
				nx, ny := neighbour6(int(o.dx), par+int(o.dy), d)
				if nb := (off{int16(nx), int16(ny - par)}); !slices.Contains(ms, nb) {
					g.ring = append(g.ring, nb)
				}
			}
		}
	}
	g.ringStart[n*12] = int32(len(g.ring))
	g.underStart = make([]int32, n*12+1)
	for i := range n * 12 {
		g.underStart[i] = int32(len(g.under))
		ms := g.offs[g.offStart[i]:g.offStart[i+1]]
		par := i & 1
		for _, o := range ms {
			for d := 2; d < 4; d++ { // SE, SW
				nx, ny := neighbour6(int(o.dx), par+int(o.dy), d)
				nb := off{int16(nx), int16(ny - par)}
				if !slices.Contains(ms, nb) && !slices.Contains(g.under[g.underStart[i]:], nb) {
					g.under = append(g.under, nb)
				}
			}
		}
	}
	g.underStart[n*12] = int32(len(g.under))
	g.pad = pad
	g.gw, g.gh = g.w+2*pad, g.h+2*pad
	for 1<<g.gwShift < g.gw {
		g.gwShift++
	}
	g.rowStep = 8 << g.gwShift
	g.spawn = make([]int32, n)
	g.skies = make([]*sky, n)
	for u := range n {
		s := p.Spawn(u)
		g.spawn[u] = g.state(int(s.X), int(s.Y), int(s.Rot))
	}
	return g
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// members returns the offsets of unit u at rotation r for a pivot on a row
// of parity par.
func (g *geom) members(u, r, par int) []off {
	i := (u*6+r)*2 + par
	return g.offs[g.offStart[i]:g.offStart[i+1]]
}

// state packs a pivot and rotation into a grid index; the pivot must be
// within pad of the board. The fields are bit fields (rotation in 3 bits,
// then the column in gwShift bits, then the row), so that unpacking takes
// shifts and masks; the order of states is that of (y, x, r).
func (g *geom) state(x, y, r int) int32 {
	return int32(((y+g.pad)<<g.gwShift|(x+g.pad))<<3 | r)
}

// unpack is the inverse of state.
func (g *geom) unpack(s int32) (x, y, r int) {
	c := int(s >> 3)
	return c&(1<<g.gwShift-1) - g.pad, c>>g.gwShift - g.pad, int(s & 7)
}

// numStates is the size of the state grid.
func (g *geom) numStates() int { return g.gh << g.gwShift << 3 }

// next returns the state command c gives from s for unit u, and false when
// the pivot would leave the grid (then the unit cannot be on the board).
func (g *geom) next(u int, s int32, c hextris.Command) (int32, bool) {
	x, y, r := g.unpack(s)
	x, y, r, ok := g.move(u, x, y, r, c)
	if !ok {
		return 0, false
	}
	return g.state(x, y, r), true
}

// move is next on an unpacked state: the pivot and rotation command c
// gives from (x, y, r), and false when the pivot would leave the grid.
func (g *geom) move(u, x, y, r int, c hextris.Command) (int, int, int, bool) {
	switch c {
	case hextris.MoveW:
		x--
	case hextris.MoveE:
		x++
	case hextris.MoveSW:
		x += y&1 - 1
		y++
	case hextris.MoveSE:
		x += y & 1
		y++
	case hextris.RotCW:
		r++
		if r == g.nrot[u] {
			r = 0
		}
	case hextris.RotCCW:
		if r == 0 {
			r = g.nrot[u]
		}
		r--
	}
	if x < -g.pad+1 || x >= g.w+g.pad-1 || y < -g.pad+1 || y >= g.h+g.pad-1 {
		return 0, 0, 0, false
	}
	return x, y, r, true
}

// prev returns the state from which command c leads to s (c undone), and
// false when it leaves the grid.
func (g *geom) prev(u int, s int32, c hextris.Command) (int32, bool) {
	x, y, r := g.unpack(s)
	switch c {
	case hextris.MoveW:
		x++
	case hextris.MoveE:
		x--
	case hextris.MoveSW: // undo SW: step NE
		y--
		x -= y&1 - 1
	case hextris.MoveSE: // undo SE: step NW
		y--
		x -= y & 1
	case hextris.RotCW:
		if r == 0 {
			r = g.nrot[u]
		}
		r--
	case hextris.RotCCW:
		r++
		if r == g.nrot[u] {
			r = 0
		}
	}
	if x < -g.pad+1 || x >= g.w+g.pad-1 || y < -g.pad+1 || y >= g.h+g.pad-1 {
		return 0, false
	}
	return g.state(x, y, r), true
}

// board is a bit-row board: bit x of row y (in word x/64) is cell (x, y).
type board struct {
	w, h, stride int
	rows         []uint64
	full         []uint64 // the words of a full row
	lastLines    int      // lines cleared by the previous lock
	top          int      // rows above top are empty
}

func newBoard(w, h int) board {
	st := (w + 63) >> 6
	b := board{w: w, h: h, stride: st, rows: make([]uint64, st*h), full: make([]uint64, st)}
	for x := range w {
		b.full[x>>6] |= 1 << uint(x&63)
	}
	return b
}

// copyFrom makes b a copy of src, reusing b's buffers.
func (b *board) copyFrom(src *board) {
	b.w, b.h, b.stride, b.lastLines, b.top = src.w, src.h, src.stride, src.lastLines, src.top
	b.rows = append(b.rows[:0], src.rows...)
	b.full = src.full
}

// loadGame copies the board of a game.
func (b *board) loadGame(g *hextris.Game) {
	for y := range b.h {
		copy(b.rows[y*b.stride:(y+1)*b.stride], g.Row(y))
	}
	b.lastLines = g.LastLines()
	b.top = 0
	b.fixTop()
}

// fixTop moves top down past empty rows.
func (b *board) fixTop() {
	for b.top < b.h && b.rowEmpty(b.top) {
		b.top++
	}
}

func (b *board) rowEmpty(y int) bool {
	for _, w := range b.rows[y*b.stride : (y+1)*b.stride] {
		if w != 0 {
			return false
		}
	}
	return true
}

func (b *board) filled(x, y int) bool {
	if x < 0 || x >= b.w || y < 0 || y >= b.h {
		return true
	}
	return b.rows[y*b.stride+x>>6]>>(uint(x)&63)&1 != 0
}

// fits reports whether unit u of g at state s lies on empty board cells.
func (b *board) fits(g *geom, u int, s int32) bool {
	x, y, r := g.unpack(s)
	return b.fitsAt(g, u, x, y, r)
}

// fitsAt is fits on an unpacked state.
func (b *board) fitsAt(g *geom, u, x, y, r int) bool {
	i := (u*6+r)*2 + y&1
	bx := &g.boxes[i]
	if x+bx.minX < 0 || x+bx.maxX >= b.w || y+bx.minY < 0 || y+bx.maxY >= b.h {
		return false
	}
	if y+bx.maxY < b.top {
		return true
	}
	st := b.stride
	for _, o := range g.offs[g.offStart[i]:g.offStart[i+1]] {
		cx, cy := x+int(o.dx), y+int(o.dy)
		if b.rows[cy*st+cx>>6]>>(uint(cx)&63)&1 != 0 {
			return false
		}
	}
	return true
}

// lock fills the cells of unit u at state s, clears full rows and returns
// the points earned (line bonus included) and the lines cleared.
func (b *board) lock(g *geom, u int, s int32) (points, ls int) {
	x, y, r := g.unpack(s)
	y0, y1 := b.h, -1
	for _, o := range g.members(u, r, y&1) {
		cx, cy := x+int(o.dx), y+int(o.dy)
		b.rows[cy*b.stride+cx>>6] |= 1 << (uint(cx) & 63)
		y0, y1 = min(y0, cy), max(y1, cy)
	}
	st := b.stride
	for yy := y0; yy <= y1; yy++ {
		if b.rowFull(yy) {
			ls++
		}
	}
	if ls > 0 {
		dst := y1
		for yy := y1; yy >= 0; yy-- {
			if yy >= y0 && yy <= y1 && b.rowFull(yy) {
				continue
			}
			if dst != yy {
				copy(b.rows[dst*st:(dst+1)*st], b.rows[yy*st:(yy+1)*st])
			}
			dst--
		}
		clear(b.rows[:(dst+1)*st])
	}
	b.top = min(b.top, y0)
	b.fixTop()
	points = lockPoints(g.size[u], ls, b.lastLines)
	b.lastLines = ls
	return points, ls
}

// lockPoints is the referee's score of a lock: the unit's size, the lines
// it clears and the bonus for the lines of the lock before.
func lockPoints(size, ls, lastLines int) int {
	points := size + 100*(1+ls)*ls/2
	if lastLines > 1 {
		points += (lastLines - 1) * points / 10
	}
	return points
}

func (b *board) rowFull(y int) bool {
	row := b.rows[y*b.stride : (y+1)*b.stride]
	for i, w := range b.full {
		if row[i] != w {
			return false
		}
	}
	return true
}

// hash returns an FNV-1a hash of the board's cells and line history.
func (b *board) hash() uint64 {
	h := uint64(14695981039346656037) ^ uint64(b.lastLines)
	for _, w := range b.rows {
		h = (h ^ w) * 1099511628211
	}
	return h
}

func popcount(ws []uint64) int {
	n := 0
	for _, w := range ws {
		n += bits.OnesCount64(w)
	}
	return n
}

// rests reports whether unit u at state s on b has a filled cell, or the
// floor, SE or SW of one of its members (the side walls do not count).
func (b *board) rests(g *geom, u int, s int32) bool {
	x, y, r := g.unpack(s)
	i := (u*6+r)*2 + y&1
	st := b.stride
	for _, o := range g.under[g.underStart[i]:g.underStart[i+1]] {
		cx, cy := x+int(o.dx), y+int(o.dy)
		if cy >= b.h {
			return true
		}
		if cx >= 0 && cx < b.w && b.rows[cy*st+cx>>6]>>(uint(cx)&63)&1 != 0 {
			return true
		}
	}
	return false
}
