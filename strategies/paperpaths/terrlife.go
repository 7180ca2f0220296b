package paperpaths

import (
	"math/bits"

	"gauntlet/referees/paperio"
)

// territoryLife fills terrEnd (terr_life) and the maps of the eaten guard
// (eat_guard), after the write-up: every opponent with a trail out is sent
// home by a shortest way, and the cells its capture would take are taken at
// the earliest tick it can be home. Own cells are lost then (terrEnd); a
// head that stands on any of them then is eaten (eatAt, eatBy, eatOut).
func (b *Bot) territoryLife(s *paperio.State, me int) {
	for i := range b.terrEnd {
		b.terrEnd[i] = unreached
		b.eatAt[i] = unreached
		b.eatBy[i] = 0
	}
	p := s.Player(me)
	if p == nil {
		return
	}
	if b.eatGuard { // eatOut is read by the guard alone
		defer b.eatExits()
	}
	for k := 0; k < s.N; k++ {
		o := &s.Players[k]
		if !o.Alive || o.ID == me || o.NLines == 0 || b.homeAt[k] >= unreached {
			continue
		}
		c := o.Cell()
		if c == paperio.NoCell {
			continue
		}
		b.lines = append(b.lines[:0], o.Trail()...)
		if !o.AtCentre() {
			n, ok := c.Step(o.Dir)
			if !ok {
				continue
			}
			c = n
			if !o.Terr.Has(c) {
				b.lines = append(b.lines, c)
			}
		}
		b.onPath = paperio.Bits{}
		if o.Terr.Has(c) {
			b.lines = append(b.lines, c)
			b.takes(p, o, k, b.homeAt[k])
			continue
		}
		if b.terrDetour > 0 {
			b.detours(p, o, k, c, s.Rules.Speed)
			continue
		}
		// terrEnd holds only own cells, so ours(o, ...) is o's territory.
		if b.homeDist(o, c, o.Dir, 0, 0) < 0 {
			continue
		}
		b.lines = b.appendWay(b.lines, c, b.goal)
		b.takes(p, o, k, b.homeAt[k])
	}
}

// maxDetours bounds the ways home tried per opponent (terr_detour): each
// is a capture, about 7 µs.
const maxDetours = 16

// detours sends opponent o (index k), whose head's next centre c is off
// its land, home by every way at most terr_detour cells longer than its
// shortest (up to maxDetours of them, shortest first): one way to each
// cell of its land it can enter by then, each capture taken from the tick
// it can be home by that way. An opponent that goes home by a longer way
// takes other cells, often more of ours.
func (b *Bot) detours(p, o *paperio.Player, k int, c paperio.Cell, base int) {
	for i := range b.dist {
		b.dist[i] = -1
	}
	b.dist[c] = 0
	n0 := len(b.lines)
	tick := profile{}.ticks(base)
	qt, shortest, tried := 0, int32(-1), 0
	visit := func(x, from paperio.Cell) {
		if b.dist[x] >= 0 || o.TrailBits.Has(x) {
			return
		}
		b.dist[x], b.parent[x] = b.dist[from]+1, from
		b.queue[qt] = x
		qt++
	}
	for _, d := range dirs {
		if n, ok := c.Step(d); ok && d != o.Dir.Reverse() {
			visit(n, c)
		}
	}
	for qh := 0; qh < qt && tried < maxDetours; qh++ {
		x := b.queue[qh]
		if shortest >= 0 && b.dist[x] > shortest+int32(b.terrDetour) {
			break
		}
		if !o.Terr.Has(x) {
			for _, d := range dirs {
				if n, ok := x.Step(d); ok {
					visit(n, x)
				}
			}
			continue
		}
		// A way home: its land is entered at x.
		if shortest < 0 {
			shortest = b.dist[x]
		}
		b.lines = b.appendWay(b.lines[:n0], c, x)
		b.takes(p, o, k, b.homeAt[k]+(b.dist[x]-shortest)*tick)
		tried++
	}
}

// takes marks the cells opponent o (index k) captures with the trail in
// b.lines, ending on its land, as taken at tick at.
func (b *Bot) takes(p, o *paperio.Player, k int, at int32) {
	got := paperio.Capture(&o.Terr, b.lines)
	for j, word := range got {
		for ; word != 0; word &= word - 1 {
			x := paperio.CellAt(bits.TrailingZeros32(word), j)
			b.eatAt[x] = min(b.eatAt[x], at)
			b.eatBy[x] |= 1 << k
			if p.Terr.Has(x) {
				b.terrEnd[x] = b.eatAt[x]
			}
		}
	}
}

// eatExits fills eatOut: the cells from each cell to the nearest one no
// opponent's capture takes.
func (b *Bot) eatExits() {
	var safe paperio.Bits
	for c := range b.eatAt {
		if b.eatAt[c] == unreached {
			safe.Set(paperio.Cell(c))
		}
	}
	b.distMap(&safe, &b.eatOut)
}

// eaten reports whether a head that stands on cell c from tick from (or
// leaves its centre then) until it reaches the next centre at tick to is
// inside a capture when it is made (eat_guard), unless the path has cut
// every opponent that makes it (killed) by then.
func (b *Bot) eaten(c paperio.Cell, from, to int32, killed uint8) bool {
	at := b.eatAt[c]
	return at >= from && at <= to && b.eatBy[c]&^killed != 0
}

// ours reports whether cell c is still own territory t ticks from now: in
// the territory, and (with terr_life) not lost by then.
func (b *Bot) ours(p *paperio.Player, c paperio.Cell, t int32) bool {
	return p.Terr.Has(c) && (!b.terrLife || t < b.terrEnd[c])
}
