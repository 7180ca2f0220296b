package paperpaths

import (
	"math/bits"
	"slices"

	"gauntlet/referees/paperio"
)

// territoryLife fills terrEnd, after the write-up: every opponent with a
// trail out is sent home by a shortest way, and the own cells its capture
// would take are lost at the earliest tick it can be home.
func (b *Bot) territoryLife(s *paperio.State, me int) {
	for i := range b.terrEnd {
		b.terrEnd[i] = unreached
	}
	p := s.Player(me)
	if p == nil {
		return
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
		if !o.Terr.Has(c) {
			// terrEnd holds only own cells, so ours(o, ...) is o's territory.
			if b.homeDist(o, c, o.Dir, 0, 0) < 0 {
				continue
			}
			n0 := len(b.lines)
			for x := b.goal; x != c; x = b.parent[x] {
				b.lines = append(b.lines, x)
			}
			slices.Reverse(b.lines[n0:])
		} else {
			b.lines = append(b.lines, c)
		}
		got := paperio.Capture(&o.Terr, b.lines)
		for j := range got {
			got[j] &= p.Terr[j]
		}
		for j, word := range got {
			for ; word != 0; word &= word - 1 {
				x := paperio.CellAt(bits.TrailingZeros32(word), j)
				b.terrEnd[x] = min(b.terrEnd[x], b.homeAt[k])
			}
		}
	}
}

// ours reports whether cell c is still own territory t ticks from now: in
// the territory, and (with terr_life) not lost by then.
func (b *Bot) ours(p *paperio.Player, c paperio.Cell, t int32) bool {
	return p.Terr.Has(c) && (!b.terrLife || t < b.terrEnd[c])
}
