package hexsearch

import (
	"math/bits"
	"slices"
)

// Weights are the named terms of the placement evaluation. A placement's
// value is a weighted sum of the points it earns and of features of the
// board it leaves; positive weights reward, and the penalties are
// subtracted.
type Weights struct {
	Points  float64 // per lock point earned (lines and line bonus included)
	Holes   float64 // penalty per empty cell with a filled NW or NE neighbour
	Dead    float64 // penalty per empty cell with both NW and NE filled (walls count)
	Height  float64 // penalty per filled-or-covered column cell (sum of column heights)
	MaxH    float64 // penalty per row of the highest column
	Bump    float64 // penalty per unit of height difference between adjacent columns
	Low     float64 // reward per row of depth of the placed cells (their mean row)
	RowFill float64 // reward for nearly full rows: sum over rows of fill², over the width
	Contact float64 // reward per side the placed cells share with filled cells or walls
	// Enclosed is the penalty per empty cell that a one-cell unit entering
	// at the top cannot reach (moving E, W, SW and SE through empty
	// cells): unlike a hole under an overhang, which a one-cell unit may
	// still fill from the side, such a cell keeps its row from clearing
	// until the rows above it clear.
	Enclosed float64
	// Well is the reward per point that the longest open well would earn
	// if one unit filled it: rows each one cell short of full, their empty
	// cells on one straight line down the board (SE or SW), the line
	// empty above its top for the problem's longest straight unit to
	// slide in and clear them together (100·k(k+1)/2 points for k lines,
	// at most as many as the unit's cells, against 100 each one by one).
	// One row one cell short counts 100 where the cell above it on
	// either side is empty.
	Well float64
}

// evaluator computes board features with word-wide bit operations and
// reusable scratch rows.
type evaluator struct {
	w       Weights
	acc     []uint64
	sh      []uint64
	lastCol []uint64 // mask of every column except the last
	// scratch of the enclosed-cell count (Weights.Enclosed)
	reach            []uint64 // reachable cells by row
	free, fwd, rev   []uint64
	revFree, revSeed []uint64
	// wellCap is the longest straight unit of the problem (Weights.Well).
	wellCap int
}

func newEvaluator(w Weights, b *board) *evaluator {
	st := b.stride
	e := &evaluator{w: w, acc: make([]uint64, st), sh: make([]uint64, st),
		lastCol: make([]uint64, st),
		reach:   make([]uint64, st*b.h), free: make([]uint64, st), fwd: make([]uint64, st),
		rev: make([]uint64, st), revFree: make([]uint64, st), revSeed: make([]uint64, st)}
	copy(e.lastCol, b.full)
	x := b.w - 1
	e.lastCol[x>>6] &^= 1 << uint(x&63)
	return e
}

// shl1 sets dst to src shifted one column east (bit x of dst is bit x-1 of
// src).
func shl1(dst, src []uint64) {
	var carry uint64
	for i, w := range src {
		dst[i] = w<<1 | carry
		carry = w >> 63
	}
}

// shr1 sets dst to src shifted one column west (bit x of dst is bit x+1 of
// src).
func shr1(dst, src []uint64) {
	n := len(src)
	for i := range n {
		w := src[i] >> 1
		if i+1 < n {
			w |= src[i+1] << 63
		}
		dst[i] = w
	}
}

// features are the integer board features that static weighs.
type features struct {
	holes, dead, sumH, maxH, bump, rowFill, enclosed, well int
}

// value weighs the features of a board of width w.
func (e *evaluator) value(f features, w int) float64 {
	ws := &e.w
	return -ws.Holes*float64(f.holes) - ws.Dead*float64(f.dead) - ws.Height*float64(f.sumH) -
		ws.MaxH*float64(f.maxH) - ws.Bump*float64(f.bump) + ws.RowFill*float64(f.rowFill)/float64(w) -
		ws.Enclosed*float64(f.enclosed) + ws.Well*float64(f.well)
}

// rowHoles returns the holes and dead cells of row y > 0 of b: its empty
// cells with a filled NW or NE neighbour, and those with both (walls count
// for dead cells only).
func (e *evaluator) rowHoles(b *board, y int) (holes, dead int) {
	st := b.stride
	row := b.rows[y*st : (y+1)*st]
	prev := b.rows[(y-1)*st : y*st]
	// The neighbours are prev shifted a column, word by word (as shl1 and
	// shr1 would write them, without the scratch rows): nb with no wall,
	// nbw with the wall (a filled cell) on the side the shift leaves empty.
	wallWord, wallBit := (b.w-1)>>6, uint64(1)<<uint((b.w-1)&63)
	for i := range st {
		p := prev[i]
		var nb, nbw uint64
		if y&1 == 0 { // NW = prev[x-1], NE = prev[x]
			nb = p << 1
			if i > 0 {
				nb |= prev[i-1] >> 63
			}
			nbw = nb
			if i == 0 {
				nbw |= 1
			}
		} else { // NW = prev[x], NE = prev[x+1]
			nb = p >> 1
			if i+1 < st {
				nb |= prev[i+1] << 63
			}
			nbw = nb
			if i == wallWord {
				nbw |= wallBit
			}
		}
		free := ^row[i] & b.full[i]
		holes += bits.OnesCount64(free & (nb | p))
		dead += bits.OnesCount64(free & nbw & p)
	}
	return holes, dead
}

// static returns the weighted board features of b (no points, no
// placement terms).
func (e *evaluator) static(b *board) float64 {
	return e.value(e.features(b, nil), b.w)
}

// features computes the features of b from scratch. With bs non-nil it
// also records the per-row holes, dead cells and fill in bs (rows above
// b.top are left as they are: zero after setBase's resize).
func (e *evaluator) features(b *board, bs *base) features {
	st := b.stride
	clear(e.acc)
	var f features
	for y := b.top; y < b.h; y++ {
		row := b.rows[y*st : (y+1)*st]
		if y > 0 {
			h, d := e.rowHoles(b, y)
			f.holes += h
			f.dead += d
			if bs != nil {
				bs.holes[y], bs.dead[y] = int32(h), int32(d)
			}
		}
		n := 0
		for i := range st {
			e.acc[i] |= row[i]
			n += bits.OnesCount64(row[i])
		}
		if bs != nil {
			bs.fill[y] = int32(n)
		}
		f.rowFill += n * n
		a := popcount(e.acc)
		if a > 0 && f.maxH == 0 {
			f.maxH = b.h - y
		}
		f.sumH += a
		if a > 0 {
			shr1(e.sh, e.acc)
			for i := range st {
				f.bump += bits.OnesCount64((e.acc[i] ^ e.sh[i]) & e.lastCol[i])
			}
		}
	}
	if e.w.Enclosed != 0 {
		reach := e.reach
		if bs != nil {
			bs.reach = resize(bs.reach, len(b.rows))
			bs.enclAt = resize(bs.enclAt, b.h)
			reach = bs.reach
		}
		for y := range b.h {
			n := e.reachRow(b, reach, y)
			f.enclosed += n
			if bs != nil {
				bs.enclAt[y] = int32(n)
			}
		}
	}
	if e.w.Well != 0 {
		f.well = e.well(b, b.top)
	}
	return f
}

// wellOpen reports whether the need cells on the line up from (x, y),
// NW (d = 0) or NE (d = 1), are on the board and empty.
func wellOpen(b *board, x, y, d, need int) bool {
	for range need {
		x, y = x+y&1-1+d, y-1
		if b.filled(x, y) {
			return false
		}
	}
	return true
}

// well returns the points of the longest open well of b (see
// Weights.Well), its rows searched from row top down (the rows above top
// must be empty).
func (e *evaluator) well(b *board, top int) int {
	if e.wellCap < 2 || b.w < 2 {
		return 0
	}
	st := b.stride
	best := 0
	// The chains ending at the previous row: its empty cell's column px
	// (-1: the row is not one cell short), and per direction (SE, SW) the
	// chain's length and its top cell.
	px := -1
	var n [2]int
	var tx, ty [2]int
	for y := top; y < b.h; y++ {
		row := b.rows[y*st : (y+1)*st]
		x, free := -1, 0
		for i := range st {
			f := ^row[i] & b.full[i]
			if f != 0 {
				free += bits.OnesCount64(f)
				x = i<<6 + bits.TrailingZeros64(f)
			}
		}
		if free != 1 {
			px = -1
			continue
		}
		for d := range 2 {
			// SE of (px, y-1) is px+odd, SW is px+odd-1.
			if px >= 0 && x == px+(y-1)&1-d {
				n[d]++
			} else {
				n[d], tx[d], ty[d] = 1, x, y
			}
			// A straight unit slides in along the chain's line from
			// above (NW of the top for a chain going SE, NE for one going
			// SW), from where it lies wholly above the top: as many cells
			// of the line as the unit has must be on the board and empty.
			// One row is open to a single cell from either side.
			need := 1
			if n[d] > 1 {
				need = e.wellCap
			}
			if !wellOpen(b, tx[d], ty[d], d, need) {
				continue
			}
			k := min(n[d], e.wellCap)
			best = max(best, 100*(1+k)*k/2)
		}
		px = x
	}
	return best
}

// reachRow sets row y of reach to the cells of row y of b that a one-cell
// unit entering at the top reaches (row 0: every empty cell; below: the
// empty cells below a reached cell of row y-1 of reach, and those joined
// to them by empty cells of the row), and returns the empty cells of the
// row it does not reach.
func (e *evaluator) reachRow(b *board, reach []uint64, y int) int {
	st := b.stride
	row := b.rows[y*st : (y+1)*st]
	r := reach[y*st : (y+1)*st]
	for i := range st {
		e.free[i] = ^row[i] & b.full[i]
	}
	if y == 0 {
		copy(r, e.free)
		return 0
	}
	prev := reach[(y-1)*st : y*st]
	if y&1 == 0 { // from NW = prev[x-1] and NE = prev[x]
		shl1(e.sh, prev)
	} else { // from NW = prev[x] and NE = prev[x+1]
		shr1(e.sh, prev)
	}
	for i := range st {
		r[i] = (prev[i] | e.sh[i]) & e.free[i]
	}
	e.fillRuns(r)
	n := 0
	for i := range st {
		n += bits.OnesCount64(e.free[i] &^ r[i])
	}
	return n
}

// fillRuns extends the cells of r (a subset of e.free) to the whole runs
// of e.free that hold them: eastwards by adding r to the free cells as one
// multi-word integer (a carry runs through a free run above its lowest
// seed), westwards the same on the bit-reversed words.
func (e *evaluator) fillRuns(r []uint64) {
	fillUp(e.fwd, e.free, r)
	n := len(r)
	for i := range n {
		e.revFree[i] = bits.Reverse64(e.free[n-1-i])
		e.revSeed[i] = bits.Reverse64(r[n-1-i])
	}
	fillUp(e.rev, e.revFree, e.revSeed)
	for i := range n {
		r[i] = e.fwd[i] | bits.Reverse64(e.rev[n-1-i])
	}
}

// fillUp sets dst to the cells of free from each cell of seed (a subset of
// free) up to the end of its run, towards higher bits.
func fillUp(dst, free, seed []uint64) {
	var carry uint64
	for i := range free {
		sum, c := bits.Add64(free[i], seed[i], carry)
		dst[i] = (sum^free[i])&free[i] | seed[i]
		carry = c
	}
}

// base holds a board's features by row and by column, so that the
// features after a lock that clears no line are found by revisiting only
// the rows and columns the unit touches (see after).
type base struct {
	b     *board
	f     features
	holes []int32 // per row: holes of the row (see rowHoles)
	dead  []int32
	fill  []int32 // per row: filled cells
	colH  []int32 // per column: height (rows from its highest filled cell to the bottom)
	// scratch of after: changed columns and their old heights
	cols []int32
	old  []int32
	// with Weights.Enclosed: the reachable cells by row (see reachRow)
	// and the enclosed cells per row
	reach  []uint64
	enclAt []int32
	// next is 1 + the unit whose spawn nextFits tests on the base board
	// (0: none yet), nextBottom the lowest row of its cells there.
	next       int
	nextFits   bool
	nextBottom int
	// framed is the board's rows framed by filled cells, a row above and
	// below and a column each side, framedSt words a row: bit x+1 of row
	// y+1 is cell (x, y) (see placementOn).
	framed   []uint64
	framedSt int
}

// setBase computes the base of b; b must not change while it is used.
func (e *evaluator) setBase(bs *base, b *board) {
	bs.b = b
	bs.next = 0
	bs.holes = resize(bs.holes, b.h)
	bs.dead = resize(bs.dead, b.h)
	bs.fill = resize(bs.fill, b.h)
	bs.colH = resize(bs.colH, b.w)
	bs.f = e.features(b, bs)
	setFramed(bs, b)
	st := b.stride
	for x := range b.w {
		for y := b.top; y < b.h; y++ {
			if b.rows[y*st+x>>6]>>(uint(x)&63)&1 != 0 {
				bs.colH[x] = int32(b.h - y)
				break
			}
		}
	}
}

// setFramed sets bs.framed to the rows of b framed by filled cells.
func setFramed(bs *base, b *board) {
	fs := (b.w + 2 + 63) >> 6
	bs.framedSt = fs
	bs.framed = resize(bs.framed, (b.h+2)*fs)
	wall := func(row []uint64) {
		row[0] |= 1
		row[(b.w+1)>>6] |= 1 << (uint(b.w+1) & 63)
	}
	for _, y := range []int{0, b.h + 1} {
		row := bs.framed[y*fs : (y+1)*fs]
		for x := range b.w {
			row[(x+1)>>6] |= 1 << (uint(x+1) & 63)
		}
		wall(row)
	}
	st := b.stride
	for y := range b.h {
		src, dst := b.rows[y*st:(y+1)*st], bs.framed[(y+1)*fs:(y+2)*fs]
		var carry uint64
		for i := range fs {
			var w uint64
			if i < st {
				w = src[i]
			}
			dst[i] = w<<1 | carry
			carry = w >> 63
		}
		wall(dst)
	}
}

// resize returns s with length n, zeroed.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// after returns the static value of the base board once unit u locks at
// state s, and whether the unit of source index next (or none, if next < 0)
// still fits at its spawn then. It returns ok == false, and does nothing
// else, when the lock clears a line: the caller evaluates that board in
// full. The base board is changed while it runs and restored.
func (e *evaluator) after(bs *base, g *geom, u int, s int32, next int) (v float64, nextFits, ok bool) {
	b := bs.b
	st := b.stride
	if next >= 0 && bs.next != next+1 {
		bs.next, bs.nextFits = next+1, b.fits(g, next, g.spawn[next])
		_, sy, sr := g.unpack(g.spawn[next])
		bs.nextBottom = sy + g.boxes[(next*6+sr)*2+sy&1].maxY
	}
	x, y, r := g.unpack(s)
	ms := g.members(u, r, y&1)
	y0, y1 := b.h, -1
	for _, o := range ms {
		cx, cy := x+int(o.dx), y+int(o.dy)
		b.rows[cy*st+cx>>6] |= 1 << (uint(cx) & 63)
		y0, y1 = min(y0, cy), max(y1, cy)
	}
	restore := func() {
		for _, o := range ms {
			cx, cy := x+int(o.dx), y+int(o.dy)
			b.rows[cy*st+cx>>6] &^= 1 << (uint(cx) & 63)
		}
	}
	for yy := y0; yy <= y1; yy++ {
		if b.rowFull(yy) {
			restore()
			return 0, false, false
		}
	}
	f := bs.f
	for yy := max(y0, 1); yy <= min(y1+1, b.h-1); yy++ {
		h, d := e.rowHoles(b, yy)
		f.holes += h - int(bs.holes[yy])
		f.dead += d - int(bs.dead[yy])
	}
	for yy := y0; yy <= y1; yy++ {
		n := popcount(b.rows[yy*st : (yy+1)*st])
		o := int(bs.fill[yy])
		f.rowFill += n*n - o*o
	}
	// Column heights: raise the columns the unit covers higher than before.
	bs.cols, bs.old = bs.cols[:0], bs.old[:0]
	for _, o := range ms {
		cx, nh := x+int(o.dx), int32(b.h-(y+int(o.dy)))
		if nh <= bs.colH[cx] {
			continue
		}
		if !slices.Contains(bs.cols, int32(cx)) {
			bs.cols = append(bs.cols, int32(cx))
			bs.old = append(bs.old, bs.colH[cx])
		}
		bs.colH[cx] = nh
	}
	for i, cx := range bs.cols {
		h := int(bs.colH[cx])
		f.sumH += h - int(bs.old[i])
		f.maxH = max(f.maxH, h)
		// The pairs (cx-1, cx) and (cx, cx+1); a pair of two changed
		// columns is counted once, by its left column.
		if cx > 0 && !slices.Contains(bs.cols, cx-1) {
			l := int(bs.colH[cx-1])
			f.bump += absDiff(l, h) - absDiff(l, int(bs.old[i]))
		}
		if int(cx) < b.w-1 {
			rh, ro := int(bs.colH[cx+1]), int(bs.colH[cx+1])
			if j := slices.Index(bs.cols, cx+1); j >= 0 {
				ro = int(bs.old[j])
			}
			f.bump += absDiff(h, rh) - absDiff(int(bs.old[i]), ro)
		}
	}
	if e.w.Enclosed != 0 {
		// Reach changes from the unit's top row down only; below its
		// bottom row, once a row's reach is the base board's again, so is
		// every row's under it.
		if y0 > 0 {
			copy(e.reach[(y0-1)*st:y0*st], bs.reach[(y0-1)*st:y0*st])
		}
		for yy := y0; yy < b.h; yy++ {
			n := e.reachRow(b, e.reach, yy)
			f.enclosed += n - int(bs.enclAt[yy])
			if yy > y1 && slices.Equal(e.reach[yy*st:(yy+1)*st], bs.reach[yy*st:(yy+1)*st]) {
				break
			}
		}
	}
	if e.w.Well != 0 {
		f.well = e.well(b, min(b.top, y0))
	}
	v = e.value(f, b.w)
	nextFits = true
	if next >= 0 && y0 <= bs.nextBottom {
		top := b.top
		b.top = min(b.top, y0)
		nextFits = b.fits(g, next, g.spawn[next])
		b.top = top
	} else if next >= 0 {
		// The unit lies below the next unit's spawn: it fits there as
		// on the base board.
		nextFits = bs.nextFits
	}
	for i, cx := range bs.cols {
		bs.colH[cx] = bs.old[i]
	}
	restore()
	return v, nextFits, true
}

func absDiff(a, b int) int {
	if a > b {
		return a - b
	}
	return b - a
}

// placeOf locates unit u at state s for the placement terms: the state's
// cell (x, y), the index i of its rotation and row parity in the offset
// tables (g.sumDY[i], g.ring) and its number of members n.
func (g *geom) placeOf(u int, s int32) (x, y, i, n int) {
	x, y, r := g.unpack(s)
	i = (u*6+r)*2 + y&1
	return x, y, i, int(g.offStart[i+1] - g.offStart[i])
}

// placement returns the placement terms of unit u locking at state s on
// board b (before the lock): its depth and its contact with filled cells
// (walls and floor included). The cells around the members come from a
// table (geom.ring): looked up one by one, each with a test against the
// members, they were a fifth of a game's time on problem 0 (pprof).
func (e *evaluator) placement(g *geom, b *board, u int, s int32) float64 {
	x, y, i, n := g.placeOf(u, s)
	sum := n*y + int(g.sumDY[i])
	if e.w.Contact == 0 {
		return e.w.Low * float64(sum) / float64(n)
	}
	contact := 0
	ring := g.ring[g.ringStart[i]:g.ringStart[i+1]]
	if bx := &g.boxes[i]; x+bx.minX > 0 && x+bx.maxX < b.w-1 && y+bx.minY > 0 && y+bx.maxY < b.h-1 {
		// The cells around the members are on the board (no wall
		// counts): read without the bounds tests of filled.
		st := b.stride
		for _, o := range ring {
			cx, cy := x+int(o.dx), y+int(o.dy)
			contact += int(b.rows[cy*st+cx>>6] >> (uint(cx) & 63) & 1)
		}
	} else {
		for _, o := range ring {
			if b.filled(x+int(o.dx), y+int(o.dy)) {
				contact++
			}
		}
	}
	return e.w.Low*float64(sum)/float64(n) + e.w.Contact*float64(contact)
}

// placementOn is placement on the base board of bs, its contact read
// from the framed rows: one bit a cell around the members, with no test
// of the board's bounds (a lock's members lie on the board, so the cells
// around them lie within the frame).
func (e *evaluator) placementOn(bs *base, g *geom, u int, s int32) float64 {
	x, y, i, n := g.placeOf(u, s)
	sum := n*y + int(g.sumDY[i])
	if e.w.Contact == 0 {
		return e.w.Low * float64(sum) / float64(n)
	}
	contact := 0
	fs := bs.framedSt
	for _, o := range g.ring[g.ringStart[i]:g.ringStart[i+1]] {
		cx, cy := x+int(o.dx)+1, y+int(o.dy)+1
		contact += int(bs.framed[cy*fs+cx>>6] >> (uint(cx) & 63) & 1)
	}
	return e.w.Low*float64(sum)/float64(n) + e.w.Contact*float64(contact)
}

// neighbour6 returns the d-th neighbour of (x, y): E, W, SE, SW, NE, NW.
func neighbour6(x, y, d int) (int, int) {
	odd := y & 1
	switch d {
	case 0:
		return x + 1, y
	case 1:
		return x - 1, y
	case 2:
		return x + odd, y + 1
	case 3:
		return x + odd - 1, y + 1
	case 4:
		return x + odd, y - 1
	}
	return x + odd - 1, y - 1
}
