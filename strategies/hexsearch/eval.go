package hexsearch

import "math/bits"

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
}

// evaluator computes board features with word-wide bit operations and
// reusable scratch rows.
type evaluator struct {
	w       Weights
	acc     []uint64
	sh      []uint64
	sh2     []uint64
	lastCol []uint64 // mask of every column except the last
}

func newEvaluator(w Weights, b *board) *evaluator {
	e := &evaluator{w: w, acc: make([]uint64, b.stride), sh: make([]uint64, b.stride),
		sh2: make([]uint64, b.stride), lastCol: make([]uint64, b.stride)}
	copy(e.lastCol, b.full)
	x := b.w - 1
	e.lastCol[x>>6] &^= 1 << uint(x&63)
	return e
}

// shl1 sets dst to src shifted one column east (bit x of dst is bit x-1 of
// src); wall sets bit 0.
func shl1(dst, src []uint64, wall bool) {
	var carry uint64
	if wall {
		carry = 1
	}
	for i, w := range src {
		dst[i] = w<<1 | carry
		carry = w >> 63
	}
}

// shr1 sets dst to src shifted one column west (bit x of dst is bit x+1 of
// src); wall sets bit width-1.
func shr1(dst, src []uint64, width int, wall bool) {
	n := len(src)
	for i := range n {
		w := src[i] >> 1
		if i+1 < n {
			w |= src[i+1] << 63
		}
		dst[i] = w
	}
	if wall {
		x := width - 1
		dst[x>>6] |= 1 << uint(x&63)
	}
}

// static returns the weighted board features of b (no points, no
// placement terms).
func (e *evaluator) static(b *board) float64 {
	st := b.stride
	clear(e.acc)
	var holes, dead, sumH, bump, rowFill int
	maxH := 0
	for y := b.top; y < b.h; y++ {
		row := b.rows[y*st : (y+1)*st]
		if y > 0 {
			prev := b.rows[(y-1)*st : y*st]
			// nw, ne masks of row y's cells (real cells only for holes).
			if y&1 == 0 { // NW = prev[x-1], NE = prev[x]
				shl1(e.sh, prev, false)
				shl1(e.sh2, prev, true)
				for i := range st {
					free := ^row[i] & b.full[i]
					holes += bits.OnesCount64(free & (e.sh[i] | prev[i]))
					dead += bits.OnesCount64(free & e.sh2[i] & prev[i])
				}
			} else { // NW = prev[x], NE = prev[x+1]
				shr1(e.sh, prev, b.w, false)
				shr1(e.sh2, prev, b.w, true)
				for i := range st {
					free := ^row[i] & b.full[i]
					holes += bits.OnesCount64(free & (e.sh[i] | prev[i]))
					dead += bits.OnesCount64(free & e.sh2[i] & prev[i])
				}
			}
		}
		n := 0
		for i := range st {
			e.acc[i] |= row[i]
			n += bits.OnesCount64(row[i])
		}
		rowFill += n * n
		a := popcount(e.acc)
		if a > 0 && maxH == 0 {
			maxH = b.h - y
		}
		sumH += a
		if a > 0 {
			shr1(e.sh, e.acc, b.w, false)
			for i := range st {
				bump += bits.OnesCount64((e.acc[i] ^ e.sh[i]) & e.lastCol[i])
			}
		}
	}
	w := &e.w
	return -w.Holes*float64(holes) - w.Dead*float64(dead) - w.Height*float64(sumH) -
		w.MaxH*float64(maxH) - w.Bump*float64(bump) + w.RowFill*float64(rowFill)/float64(b.w)
}

// placement returns the placement terms of unit u locking at state s on
// board b (before the lock): its depth and its contact with filled cells.
func (e *evaluator) placement(g *geom, b *board, u int, s int32) float64 {
	x, y, r := g.unpack(s)
	ms := g.members(u, r, y&1)
	sum, contact := 0, 0
	for _, o := range ms {
		cx, cy := x+int(o.dx), y+int(o.dy)
		sum += cy
		if e.w.Contact == 0 {
			continue
		}
		for d := range 6 {
			nx, ny := neighbour6(cx, cy, d)
			if b.filled(nx, ny) && !isMember(g, ms, x, y, nx, ny) {
				contact++
			}
		}
	}
	return e.w.Low*float64(sum)/float64(len(ms)) + e.w.Contact*float64(contact)
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

func isMember(g *geom, ms []off, x, y, cx, cy int) bool {
	for _, o := range ms {
		if x+int(o.dx) == cx && y+int(o.dy) == cy {
			return true
		}
	}
	return false
}
