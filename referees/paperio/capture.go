package paperio

import "sync"

// The official capture (Territory.capture of the Python referee), computed on
// cells. A player who comes home with a trail of at least two cells takes:
//   - every trail cell that is not its own,
//   - the fill of every "void": the polygon made of a stretch of the trail and
//     the shortest path along the territory boundary that closes it,
//   - the fill of every loop the trail makes with itself (8 cells or more).
//
// Shortest paths run on the graph of boundary cells (8-adjacency), with the
// tie-breaking of a breadth-first search that visits neighbours in the
// graph's adjacency insertion order; that order follows the order of the
// boundary list. Here the boundary list is in the order of the cells' x,
// then y. The Python referee iterates a hash set instead; no recorded game
// depends on that order (see RULES.md 5.2) and this one agrees with every
// trace.

// capScratch holds the buffers of one capture computation.
type capScratch struct {
	bnd     []Cell
	bidx    [NumCells]int16 // index in bnd, -1 if not a boundary cell
	adj     [][8]int16
	deg     []uint8
	first   [NumCells]int16 // first index in the trail, -1 if absent
	starts  [][9]Cell       // boundary start points of each trail cell
	nstarts []uint8
	slotOf  []int16   // BFS cache slot of each source node, -1 if none yet
	parents [][]int16 // BFS parent arrays, one per cached source
	nslots  int
	queue   []int16
	poly    []Cell
	path    []Cell
	toggle  [Rows]uint32
}

var capPool = sync.Pool{New: func() any { return newCapScratch() }}

func newCapScratch() *capScratch {
	sc := &capScratch{}
	for i := range sc.bidx {
		sc.bidx[i] = -1
		sc.first[i] = -1
	}
	return sc
}

// Capture computes the cells a player with territory terr and trail lines
// takes when it stands on lines[len-1]: empty unless the trail has at least
// two cells and ends on its own territory. The result never holds own cells.
func Capture(terr *Bits, lines []Cell) (out Bits) {
	if len(lines) <= 1 || !terr.Has(lines[len(lines)-1]) {
		return
	}
	sc := capPool.Get().(*capScratch)
	sc.capture(terr, lines, &out)
	capPool.Put(sc)
	return
}

func (sc *capScratch) capture(terr *Bits, lines []Cell, out *Bits) {
	*out = Bits{}
	L := len(lines)
	bb := terr.Boundary()
	sc.bnd = bb.AppendCells(sc.bnd[:0])
	n := len(sc.bnd)
	for k, c := range sc.bnd {
		sc.bidx[c] = int16(k)
	}
	sc.buildGraph(n)
	for k, c := range lines {
		if sc.first[c] < 0 {
			sc.first[c] = int16(k)
		}
	}
	// Boundary start points of each trail cell: the cell itself, then its
	// 8-neighbours, those on the boundary.
	if cap(sc.starts) < L {
		sc.starts = make([][9]Cell, L)
		sc.nstarts = make([]uint8, L)
	}
	sc.starts = sc.starts[:L]
	sc.nstarts = sc.nstarts[:L]
	var nb [8]Cell
	for k, c := range lines {
		m := 0
		if bb.Has(c) {
			sc.starts[k][m] = c
			m++
		}
		cnt := neighbours8(c, &nb)
		for _, q := range nb[:cnt] {
			if bb.Has(q) {
				sc.starts[k][m] = q
				m++
			}
		}
		sc.nstarts[k] = uint8(m)
	}

	// Voids between the trail and the territory.
	for i := 0; i < L; i++ {
		cnt := neighbours8(lines[i], &nb)
		for _, p := range nb[:cnt] {
			if !bb.Has(p) {
				continue
			}
			src := sc.bidx[p]
			prev := NoCell
			for k := 0; k <= i; k++ {
				for _, s := range sc.starts[k][:sc.nstarts[k]] {
					if prev != NoCell && (s == prev || adjacent4(prev, s)) {
						prev = s
						continue
					}
					if !sc.shortestPath(src, sc.bidx[s]) {
						continue
					}
					path := sc.path
					if len(path) > 1 && path[0] == path[len(path)-1] {
						path = path[1:]
					}
					sc.poly = append(sc.poly[:0], lines[sc.first[lines[k]]:i+1]...)
					sc.poly = append(sc.poly, path...)
					sc.fill(sc.poly, terr, out)
					prev = s
				}
			}
		}
	}
	// Loops the trail closes with itself.
	for k := 0; k < L; k++ {
		cnt := neighbours8(lines[k], &nb)
		for _, q := range nb[:cnt] {
			e := int(sc.first[q])
			if e < 0 {
				continue
			}
			if e-k+1 >= 8 {
				sc.fill(lines[k:e+1], terr, out)
			}
		}
	}
	for _, c := range lines {
		if !terr.Has(c) {
			out.Set(c)
		}
	}
	// Reset the per-cell tables for the next call.
	for _, c := range sc.bnd {
		sc.bidx[c] = -1
	}
	for _, c := range lines {
		sc.first[c] = -1
	}
}

// buildGraph builds the boundary graph's adjacency lists in the insertion
// order of networkx's Graph.add_edge calls: for each boundary index b in
// order, an edge to each boundary 8-neighbour in neighbour order.
func (sc *capScratch) buildGraph(n int) {
	if cap(sc.adj) < n {
		sc.adj = make([][8]int16, n)
		sc.deg = make([]uint8, n)
		sc.slotOf = make([]int16, n)
	}
	sc.adj = sc.adj[:n]
	sc.deg = sc.deg[:n]
	sc.slotOf = sc.slotOf[:n]
	for u := 0; u < n; u++ {
		sc.deg[u] = 0
		sc.slotOf[u] = -1
	}
	sc.nslots = 0
	var nb [8]Cell
	for u := 0; u < n; u++ {
		cnt := neighbours8(sc.bnd[u], &nb)
		for _, c := range nb[:cnt] {
			v := sc.bidx[c]
			if v < 0 {
				continue
			}
			sc.addArc(int16(u), v)
			sc.addArc(v, int16(u))
		}
	}
}

func (sc *capScratch) addArc(u, v int16) {
	d := sc.deg[u]
	for _, w := range sc.adj[u][:d] {
		if w == v {
			return
		}
	}
	sc.adj[u][d] = v
	sc.deg[u] = d + 1
}

// shortestPath sets sc.path to the path from boundary node src to dst and
// reports whether there is one (networkx: src == dst gives [src]; a source
// without edges or an unreachable target gives none).
func (sc *capScratch) shortestPath(src, dst int16) bool {
	if src == dst {
		sc.path = append(sc.path[:0], sc.bnd[src])
		return true
	}
	if sc.deg[src] == 0 {
		return false
	}
	par := sc.bfs(src)
	if par[dst] == -2 {
		return false
	}
	sc.path = sc.path[:0]
	for v := dst; v != -1; v = par[v] {
		sc.path = append(sc.path, sc.bnd[v])
	}
	p := sc.path
	for a, b := 0, len(p)-1; a < b; a, b = a+1, b-1 {
		p[a], p[b] = p[b], p[a]
	}
	return true
}

// bfs returns the BFS parent array from src (-1 at src, -2 unreached),
// computing it once per source per capture.
func (sc *capScratch) bfs(src int16) []int16 {
	if s := sc.slotOf[src]; s >= 0 {
		return sc.parents[s]
	}
	n := len(sc.bnd)
	if sc.nslots == len(sc.parents) {
		sc.parents = append(sc.parents, make([]int16, 0, n))
	}
	slot := sc.nslots
	sc.nslots++
	sc.slotOf[src] = int16(slot)
	par := sc.parents[slot]
	if cap(par) < n {
		par = make([]int16, n)
	}
	par = par[:n]
	sc.parents[slot] = par
	for i := range par {
		par[i] = -2
	}
	par[src] = -1
	q := append(sc.queue[:0], src)
	for h := 0; h < len(q); h++ {
		v := q[h]
		for _, w := range sc.adj[v][:sc.deg[v]] {
			if par[w] == -2 {
				par[w] = v
				q = append(q, w)
			}
		}
	}
	sc.queue = q
	return par
}

// fill adds to out the cells the referee's even-odd polygon test takes for
// the polygon poly: cell centres strictly right of and above the vertices'
// minimum and at most their maximum, not in terr, inside by the crossing
// rule of helpers.in_polygon (evaluated exactly in integers).
func (sc *capScratch) fill(poly []Cell, terr *Bits, out *Bits) {
	minI, maxI := Cols, -1
	minJ, maxJ := Rows, -1
	for _, c := range poly {
		i, j := c.I(), c.J()
		minI, maxI = min(minI, i), max(maxI, i)
		minJ, maxJ = min(minJ, j), max(maxJ, j)
	}
	if maxI <= minI || maxJ <= minJ {
		return
	}
	tog := &sc.toggle
	for j := minJ + 1; j <= maxJ; j++ {
		tog[j] = 0
	}
	n := len(poly)
	prev := poly[n-1]
	for _, cur := range poly {
		xa, ya := prev.I(), prev.J() // vertex i-1
		xb, yb := cur.I(), cur.J()   // vertex i
		prev = cur
		if ya == yb {
			continue
		}
		lo, hi := min(ya, yb), max(ya, yb)
		den := ya - yb
		for j := max(lo, minJ+1); j < hi; j++ {
			t := xb + floorDiv((xa-xb)*(j-yb), den) + 1
			switch {
			case t <= 0:
				tog[j] ^= rowMask
			case t < Cols:
				tog[j] ^= rowMask &^ (1<<uint(t) - 1)
			}
		}
	}
	cols := uint32(1)<<uint(maxI+1) - 1
	cols &^= uint32(1)<<uint(minI+1) - 1
	for j := minJ + 1; j <= maxJ; j++ {
		out[j] |= tog[j] & cols &^ terr[j]
	}
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}
