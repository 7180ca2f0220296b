package paperpaths

import (
	"slices"

	"gauntlet/referees/paperio"
)

// ways are the buffers of the breadth-first searches.
type ways struct {
	dist   [paperio.NumCells]int32
	parent [paperio.NumCells]paperio.Cell
	first  [paperio.NumCells]paperio.Dir // first move of the seek search
	goal   paperio.Cell                  // the own cell homeDist reached
	queue  [paperio.NumCells]paperio.Cell
	wayMin [paperio.NumCells]int32 // earliest opponent arrival on the way to a cell (hunt)
}

// dirs are the four moves, in the order every search tries them.
var dirs = [4]paperio.Dir{paperio.Up, paperio.Down, paperio.Left, paperio.Right}

// homeDist is the length of a shortest way from c to the own territory
// avoiding the trail and the path cells, without reversing first (first is
// the direction that led to c); -1 when there is none. c is reached t0
// ticks from now and each further cell takes tick ticks: with terr_life, a
// cell lost by then is no way home.
func (b *Bot) homeDist(p *paperio.Player, c paperio.Cell, first paperio.Dir, t0, tick int32) int32 {
	if b.ours(p, c, t0) {
		b.goal = c
		return 0
	}
	for i := range b.dist {
		b.dist[i] = -1
	}
	b.dist[c] = 0
	qh, qt := 0, 0
	for _, d := range dirs {
		if d == first.Reverse() {
			continue
		}
		n, ok := c.Step(d)
		if !ok || p.TrailBits.Has(n) || b.onPath.Has(n) {
			continue
		}
		if b.ours(p, n, t0+tick) {
			b.goal, b.parent[n] = n, c
			return 1
		}
		b.dist[n] = 1
		b.parent[n] = c
		b.queue[qt] = n
		qt++
	}
	for qh < qt {
		x := b.queue[qh]
		qh++
		for _, d := range dirs {
			n, ok := x.Step(d)
			if !ok || b.dist[n] >= 0 || p.TrailBits.Has(n) || b.onPath.Has(n) {
				continue
			}
			if b.ours(p, n, t0+(b.dist[x]+1)*tick) {
				b.goal, b.parent[n] = n, x
				return b.dist[x] + 1
			}
			b.dist[n] = b.dist[x] + 1
			b.parent[n] = x
			b.queue[qt] = n
			qt++
		}
	}
	return -1
}

// appendWay appends to dst the way the last search found from cell from to
// cell to, by its parent links, in walking order: from itself left out, to
// last.
func (b *Bot) appendWay(dst []paperio.Cell, from, to paperio.Cell) []paperio.Cell {
	n0 := len(dst)
	for x := to; x != from; x = b.parent[x] {
		dst = append(dst, x)
	}
	slices.Reverse(dst[n0:])
	return dst
}

// homeStep is the first direction of a shortest way home among the moves
// the minimax allows, or DirNone.
func (b *Bot) homeStep(p *paperio.Player, tick int32) paperio.Dir {
	best, bestD := paperio.DirNone, int32(unreached)
	head := p.Cell()
	b.onPath = paperio.Bits{}
	for _, d := range dirs {
		if b.forbiddn[d] || !legalMove(p, d) {
			continue
		}
		n, _ := head.Step(d)
		h := b.homeDist(p, n, d, tick, tick)
		if h >= 0 && h < bestD {
			best, bestD = d, h
		}
	}
	return best
}

// homeMap fills toHome: the distance in cells from each cell to the own
// territory, trails ignored (a lower bound on the way home).
func (b *Bot) homeMap(p *paperio.Player) { b.distMap(&p.Terr, &b.toHome) }

// distMap fills dist with the distance in cells from each cell to the
// nearest cell of set, trails ignored (unreached everywhere when set is
// empty).
func (b *Bot) distMap(set *paperio.Bits, dist *[paperio.NumCells]int32) {
	qt := 0
	for c := range dist {
		dist[c] = unreached
		if set.Has(paperio.Cell(c)) {
			dist[c] = 0
			b.queue[qt] = paperio.Cell(c)
			qt++
		}
	}
	for qh := 0; qh < qt; qh++ {
		x := b.queue[qh]
		for _, d := range dirs {
			if n, ok := x.Step(d); ok && dist[n] == unreached {
				dist[n] = dist[x] + 1
				b.queue[qt] = n
				qt++
			}
		}
	}
}

// seekStep is the first allowed move of a shortest way to the nearest
// enemy cell (to the nearest cell not ours when no enemy cell is left),
// or DirNone.
func (b *Bot) seekStep(p *paperio.Player, enemy *paperio.Bits) paperio.Dir {
	target := func(c paperio.Cell) bool { return enemy.Has(c) }
	if enemy.Count() == 0 {
		target = func(c paperio.Cell) bool { return !p.Terr.Has(c) }
	}
	for _, x := range b.reach(p) {
		if target(x) {
			return b.first[x]
		}
	}
	return paperio.DirNone
}

// reach is a breadth-first search from the head over the cells off the
// own trail (see search).
func (b *Bot) reach(p *paperio.Player) []paperio.Cell {
	return b.search(p, func(c paperio.Cell) bool { return !p.TrailBits.Has(c) }, nil)
}

// search is a breadth-first search from the head over the cells walk
// admits, its first moves those the minimax allows: it fills dist (-1
// where not reached), parent and first (the first move of the way) and
// returns the cells reached after the head, nearest first, up to the first
// cell goal reports (with goal nil, all of them).
func (b *Bot) search(p *paperio.Player, walk, goal func(paperio.Cell) bool) []paperio.Cell {
	for i := range b.dist {
		b.dist[i] = -1
	}
	head := p.Cell()
	b.dist[head] = 0
	qt := 0
	for _, d := range dirs {
		if b.forbiddn[d] || !legalMove(p, d) {
			continue
		}
		n, _ := head.Step(d)
		if !walk(n) {
			continue
		}
		b.dist[n], b.parent[n], b.first[n] = 1, head, d
		b.queue[qt] = n
		qt++
		if goal != nil && goal(n) {
			return b.queue[:qt]
		}
	}
	for qh := 0; qh < qt; qh++ {
		x := b.queue[qh]
		for _, d := range dirs {
			n, ok := x.Step(d)
			if !ok || b.dist[n] >= 0 || !walk(n) {
				continue
			}
			b.dist[n], b.parent[n], b.first[n] = b.dist[x]+1, x, b.first[x]
			b.queue[qt] = n
			qt++
			if goal != nil && goal(n) {
				return b.queue[:qt]
			}
		}
	}
	return b.queue[:qt]
}

// dirTo is the direction from c to its 4-neighbour n; ok is false when n
// is not one.
func dirTo(c, n paperio.Cell) (paperio.Dir, bool) {
	for _, d := range dirs {
		if m, ok := c.Step(d); ok && m == n {
			return d, true
		}
	}
	return paperio.DirNone, false
}

// sides are the two directions square to d.
func sides(d paperio.Dir) (paperio.Dir, paperio.Dir) {
	if d == paperio.Up || d == paperio.Down {
		return paperio.Left, paperio.Right
	}
	return paperio.Up, paperio.Down
}

// touches reports whether a side neighbour of c is in set.
func touches(c paperio.Cell, set *paperio.Bits) bool {
	for _, d := range dirs {
		if n, ok := c.Step(d); ok && set.Has(n) {
			return true
		}
	}
	return false
}
