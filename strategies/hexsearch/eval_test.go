package hexsearch

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestAfterMatchesFullEvaluation plays random games on several problems
// and checks, for every reachable lock of every unit, that the incremental
// evaluation equals the full evaluation of the locked board (and the
// spawn check of the next unit), that it declines exactly the locks that
// clear lines, and that it leaves the board as it was; and that the
// placement terms from geom's tables equal a scan of every member's six
// neighbours.
func TestAfterMatchesFullEvaluation(t *testing.T) {
	t.Parallel()
	w := Weights{Points: 1, Holes: 3, Dead: 5, Height: 0.7, MaxH: 1.3, Bump: 2, Low: 1, RowFill: 1.7, Contact: 1, Enclosed: 2.3, Well: 0.9}
	checked, declined := 0, 0
	for _, id := range []int{0, 3, 6, 8, 12, 14, 18, 24} {
		p := official(t, id)
		g := newGeom(p)
		rc := newReach(g)
		cur := newBoard(p.Width, p.Height)
		for _, c := range p.Filled {
			cur.rows[int(c.Y)*cur.stride+int(c.X)>>6] |= 1 << (uint(c.X) & 63)
		}
		cur.fixTop()
		ev := newEvaluator(w, &cur)
		ev.wellCap = g.longestBar()
		var bs base
		nb := newBoard(p.Width, p.Height)
		rng := rand.New(rand.NewPCG(uint64(id), 7))
		for k := 0; k < 60; k++ {
			u := rng.IntN(len(p.Units))
			next := rng.IntN(len(p.Units))
			if !cur.fits(g, u, g.spawn[u]) {
				break
			}
			locks := rc.search(&cur, u, g.spawn[u])
			if len(locks) == 0 {
				break
			}
			before := slices.Clone(cur.rows)
			ev.setBase(&bs, &cur)
			for _, l := range locks {
				want := scanPlacement(w, g, &cur, u, l.State)
				if got := ev.placement(g, &cur, u, l.State); got != want {
					t.Fatalf("problem %d unit %d lock %d: placement %v, neighbour scan %v", id, u, l.State, got, want)
				}
				if got := ev.placementOn(&bs, g, u, l.State); got != want {
					t.Fatalf("problem %d unit %d lock %d: placement on the framed rows %v, neighbour scan %v", id, u, l.State, got, want)
				}
				v, fits, ok := ev.after(&bs, g, u, l.State, next)
				nb.copyFrom(&cur)
				_, ls := nb.lock(g, u, l.State)
				if !slices.Equal(cur.rows, before) {
					t.Fatalf("problem %d: after changed the board", id)
				}
				if ok != (ls == 0) {
					t.Fatalf("problem %d: after ok=%v for a lock clearing %d lines", id, ok, ls)
				}
				if !ok {
					declined++
					continue
				}
				if want := ev.static(&nb); v != want {
					t.Fatalf("problem %d unit %d lock %d: incremental value %v, full %v", id, u, l.State, v, want)
				}
				if want := nb.fits(g, next, g.spawn[next]); fits != want {
					t.Fatalf("problem %d: next unit fits %v, want %v", id, fits, want)
				}
				checked++
			}
			// Play a random lock, preferring low ones so that lines clear.
			l := locks[rng.IntN(len(locks))]
			for range 3 {
				m := locks[rng.IntN(len(locks))]
				if _, y, _ := g.unpack(m.State); func() bool { _, ly, _ := g.unpack(l.State); return y > ly }() {
					l = m
				}
			}
			cur.lock(g, u, l.State)
		}
	}
	if checked < 1000 || declined == 0 {
		t.Fatalf("checked %d locks, %d clearing lines: the test saw too little", checked, declined)
	}
	t.Logf("%d locks agree, %d clearing lines left to the full evaluation", checked, declined)
}

// scanPlacement is evaluator.placement computed cell by cell: the mean
// row of the members, and for each member each of its six neighbours that
// is filled (or off the board) and not a member.
func scanPlacement(w Weights, g *geom, b *board, u int, s int32) float64 {
	x, y, r := g.unpack(s)
	ms := g.members(u, r, y&1)
	sum, contact := 0, 0
	for _, o := range ms {
		cx, cy := x+int(o.dx), y+int(o.dy)
		sum += cy
		for d := range 6 {
			nx, ny := neighbour6(cx, cy, d)
			member := slices.ContainsFunc(ms, func(m off) bool { return x+int(m.dx) == nx && y+int(m.dy) == ny })
			if b.filled(nx, ny) && !member {
				contact++
			}
		}
	}
	return w.Low*float64(sum)/float64(len(ms)) + w.Contact*float64(contact)
}

// TestFillRunsMatchesNaive: on random rows of several widths, fillRuns
// extends its seeds to exactly the free runs that hold them, as a
// cell-by-cell walk east and west finds.
func TestFillRunsMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for _, w := range []int{1, 10, 63, 64, 65, 100, 128} {
		b := newBoard(w, 2)
		e := newEvaluator(Weights{}, &b)
		for range 300 {
			r := make([]uint64, b.stride)
			for x := range w {
				if rng.IntN(4) != 0 {
					e.free[x>>6] |= 1 << uint(x&63)
				} else {
					e.free[x>>6] &^= 1 << uint(x&63)
				}
			}
			has := func(s []uint64, x int) bool { return x >= 0 && x < w && s[x>>6]>>uint(x&63)&1 != 0 }
			for x := range w {
				if has(e.free, x) && rng.IntN(8) == 0 {
					r[x>>6] |= 1 << uint(x&63)
				}
			}
			want := make([]uint64, b.stride)
			for x := range w {
				if !has(r, x) {
					continue
				}
				for d := -1; d <= 1; d += 2 {
					for c := x; has(e.free, c); c += d {
						want[c>>6] |= 1 << uint(c&63)
					}
				}
			}
			seeds := slices.Clone(r)
			e.fillRuns(r)
			if !slices.Equal(r, want) {
				t.Fatalf("width %d: free %x seeds %x: filled %x, want %x", w, e.free, seeds, r, want)
			}
		}
	}
}

// TestWellIsWhatABarClears builds, on problem 8's board (10×8, a 4-cell
// bar among single cells), wells of 1 to 5 rows going SE and SW at every
// column: rows one cell short of full, their empty cells on a diagonal,
// the rows above empty, and the same with the cell above the top filled.
// The bar's own search (a single cell's for one row) is the judge: where
// it finds no lock clearing min(k, 4) lines, the well must be worth less
// than those lines cleared at once (a well the beam holds for points it
// cannot earn would cost it the lines); where it finds one, the well is
// worth them, but for a few wells at the walls that the bar enters by
// turning on its way down rather than sliding along the line.
func TestWellIsWhatABarClears(t *testing.T) {
	p := official(t, 8)
	g := newGeom(p)
	if g.longestBar() != 4 {
		t.Fatalf("problem 8: longest bar %d, want 4", g.longestBar())
	}
	rc := newReach(g)
	b, nb := newBoard(p.Width, p.Height), newBoard(p.Width, p.Height)
	ev := newEvaluator(Weights{Well: 1}, &b)
	ev.wellCap = g.longestBar()
	set := func(x, y int) {
		if x >= 0 && x < p.Width && y >= 0 {
			b.rows[y*b.stride+x>>6] |= 1 << (uint(x) & 63)
		}
	}
	open, shut, missed := 0, 0, 0
	for k := 1; k <= 5; k++ {
		for d := range 2 { // 0: SE, 1: SW
			for x0 := range p.Width {
				ty := p.Height - k
				xs := []int{x0}
				for y := ty; y < p.Height-1; y++ {
					xs = append(xs, xs[len(xs)-1]+y&1-d)
				}
				if slices.ContainsFunc(xs, func(x int) bool { return x < 0 || x >= p.Width }) {
					continue
				}
				for _, block := range []bool{false, true} {
					clear(b.rows)
					for i, y := 0, ty; y < p.Height; i, y = i+1, y+1 {
						for x := range p.Width {
							if x != xs[i] {
								set(x, y)
							}
						}
					}
					if block {
						set(x0+ty&1-1+d, ty-1)
					}
					b.top = 0
					b.fixTop()
					lines := min(k, 4)
					u := 0 // the bar; one row is a single cell's
					if k == 1 {
						u = 1
					}
					most := 0
					for _, l := range rc.search(&b, u, g.spawn[u]) {
						nb.copyFrom(&b)
						_, ls := nb.lock(g, u, l.State)
						most = max(most, ls)
					}
					want := 100 * (1 + lines) * lines / 2
					got := ev.well(&b, b.top)
					switch {
					case most >= lines && got != want:
						missed++
					case most < lines && got >= want:
						t.Fatalf("k=%d d=%d x0=%d: the unit clears at most %d lines, the well is worth %d\n%s", k, d, x0, most, got, b.String())
					case most >= lines:
						open++
					default:
						shut++
					}
				}
			}
		}
	}
	if open < 40 || shut < 40 {
		t.Fatalf("%d wells cleared, %d not: the test saw too little", open, shut)
	}
	if missed*5 > open {
		t.Fatalf("%d wells cleared and valued so, %d cleared and valued less", open, missed)
	}
	t.Logf("%d wells cleared and valued so, %d cleared and valued less, %d not cleared and valued less", open, missed, shut)
}

// TestRowHolesMatchesCells: rowHoles, word by word, counts what the cell
// by cell definition counts (an empty cell with a filled NW or NE
// neighbour is a hole; with both, the walls counting as filled, a dead
// cell), on random boards from one word wide to three, both row parities.
func TestRowHolesMatchesCells(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for _, w := range []int{1, 2, 10, 63, 64, 65, 100, 127, 128, 129, 150} {
		b := newBoard(w, 6)
		e := newEvaluator(Weights{}, &b)
		for range 50 {
			for y := range b.h {
				for x := range w {
					if rng.IntN(3) == 0 {
						b.rows[y*b.stride+x>>6] |= 1 << (uint(x) & 63)
					} else {
						b.rows[y*b.stride+x>>6] &^= 1 << (uint(x) & 63)
					}
				}
			}
			for y := 1; y < b.h; y++ {
				var holes, dead int
				for x := range w {
					if b.filled(x, y) {
						continue
					}
					nw, ne := x-1+y&1, x+y&1
					in := func(x int) bool { return x >= 0 && x < w && b.filled(x, y-1) }
					if in(nw) || in(ne) {
						holes++
					}
					if b.filled(nw, y-1) && b.filled(ne, y-1) {
						dead++
					}
				}
				if h, d := e.rowHoles(&b, y); h != holes || d != dead {
					t.Fatalf("width %d row %d: rowHoles %d holes %d dead, cell by cell %d and %d", w, y, h, d, holes, dead)
				}
			}
		}
	}
}

// TestHangingLocksLeftOut plays random games on several problems and
// checks, for every reachable lock, that board.rests is a scan of the
// cells SE and SW of the members (filled, or below the floor; not the
// side walls) and Solver.fillsRow whether the lock clears a line, the
// board left as it was; that valueInto with Config.RestingOnly keeps
// exactly the locks that rest or fill a row, at the values it gives them
// without; and that, given only hanging locks, it keeps them all.
func TestHangingLocksLeftOut(t *testing.T) {
	t.Parallel()
	kept, left := 0, 0
	for _, id := range []int{0, 3, 8, 18, 24} {
		p := official(t, id)
		ps := phraseSet(t, "power")
		all, some := mustLookahead(t), mustLookahead(t)
		some.cfg.RestingOnly = true
		for _, s := range []*Solver{all, some} {
			s.beamStart(p, p.SourceSeeds[0], ps)
		}
		g, cur := all.g, &all.cur
		nb := newBoard(p.Width, p.Height)
		for k := 0; k < 80 && k < len(all.src); k++ {
			u := all.src[k]
			if !cur.fits(g, u, g.spawn[u]) {
				break
			}
			locks := slices.Clone(all.rcs[0].search(cur, u, g.spawn[u]))
			before := slices.Clone(cur.rows)
			all.ev.setBase(&all.base, cur)
			var hanging []lockAt
			for _, l := range locks {
				nb.copyFrom(cur)
				_, ls := nb.lock(g, u, l.State)
				if got := all.fillsRow(u, l.State); got != (ls > 0) {
					t.Fatalf("problem %d unit %d lock %d: fillsRow %v, the lock clears %d lines", id, u, l.State, got, ls)
				}
				if got, want := cur.rests(g, u, l.State), scanRests(g, cur, u, l.State); got != want {
					t.Fatalf("problem %d unit %d lock %d: rests %v, cell scan %v", id, u, l.State, got, want)
				}
				if !cur.rests(g, u, l.State) && ls == 0 {
					hanging = append(hanging, l)
				}
			}
			if !slices.Equal(cur.rows, before) {
				t.Fatalf("problem %d: rests or fillsRow changed the board", id)
			}
			some.cur.copyFrom(cur)
			ca := all.valueInto(nil, &nb, cur, u, k, locks)
			cs := some.valueInto(nil, &nb, &some.cur, u, k, locks)
			if len(cs)+len(hanging) != len(ca) {
				t.Fatalf("problem %d unit %d: %d of %d locks kept, %d hang", id, u, len(cs), len(ca), len(hanging))
			}
			for _, c := range cs {
				if c.v != ca[c.i].v || slices.Contains(hanging, c.lock) {
					t.Fatalf("problem %d unit %d lock %d: kept at %v (all: %v)", id, u, c.lock.State, c.v, ca[c.i].v)
				}
			}
			if len(hanging) > 0 {
				if cs := some.valueInto(nil, &nb, &some.cur, u, k, hanging); len(cs) != len(hanging) {
					t.Fatalf("problem %d unit %d: of %d locks, all hanging, %d kept", id, u, len(hanging), len(cs))
				}
			}
			kept, left = kept+len(cs), left+len(hanging)
			// Play the best lock, as the lookahead would.
			best := slices.MaxFunc(cs, func(a, b cand) int { return cmp.Compare(a.v, b.v) })
			cur.lock(g, u, best.lock.State)
		}
	}
	if kept < 1000 || left < 1000 {
		t.Fatalf("%d locks kept, %d left out: the test saw too little", kept, left)
	}
	t.Logf("%d locks kept, %d hanging ones left out", kept, left)
}

// scanRests is board.rests computed cell by cell from neighbour6.
func scanRests(g *geom, b *board, u int, s int32) bool {
	x, y, r := g.unpack(s)
	ms := g.members(u, r, y&1)
	for _, o := range ms {
		cx, cy := x+int(o.dx), y+int(o.dy)
		for d := 2; d < 4; d++ {
			nx, ny := neighbour6(cx, cy, d)
			member := slices.ContainsFunc(ms, func(m off) bool { return x+int(m.dx) == nx && y+int(m.dy) == ny })
			if !member && (ny >= b.h || nx >= 0 && nx < b.w && b.filled(nx, ny)) {
				return true
			}
		}
	}
	return false
}
