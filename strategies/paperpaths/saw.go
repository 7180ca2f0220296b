package paperpaths

import (
	"slices"

	"gauntlet/referees/paperio"
)

// sawPoints is what a saw picked up at cell c moving in direction d, t
// ticks from now, is expected to score, after the referee's strike along
// the line ahead of c: the saw kill score for each opponent on that line
// now that is still there then (moving along the line, or the saw within
// a cell's time, tick, of now), the saw score for each other opponent
// whose territory the line crosses (it loses what lies beyond). The
// opponents are taken where they stand now.
func (b *Bot) sawPoints(c paperio.Cell, d paperio.Dir, t, tick int32) float64 {
	s := b.st
	pts := 0
	for k := 0; k < s.N; k++ {
		o := &s.Players[k]
		if !o.Alive || o.ID == b.me {
			continue
		}
		oc := o.Cell()
		stays := t <= tick || o.Dir == d || o.Dir == d.Reverse()
		hit, crosses := false, false
		for x, ok := c.Step(d); ok; x, ok = x.Step(d) {
			hit = hit || x == oc && stays
			crosses = crosses || o.Terr.Has(x)
		}
		switch {
		case hit:
			pts += s.Rules.SawKillScore
		case crosses:
			pts += s.Rules.SawScore
		}
	}
	return float64(pts)
}

// sawRoutes fills sawWays and sawEnds with a shortest way from the head
// to each saw on the map (reach), each way's cells after the head.
func (b *Bot) sawRoutes(s *paperio.State, p *paperio.Player) {
	b.sawWays, b.sawEnds = b.sawWays[:0], b.sawEnds[:0]
	if !slices.ContainsFunc(s.MapBonuses(), func(mb paperio.MapBonus) bool { return mb.Kind == paperio.Saw }) {
		return
	}
	b.reach(p)
	head := p.Cell()
	for _, mb := range s.MapBonuses() {
		if mb.Kind != paperio.Saw || b.dist[mb.Cell] <= 0 {
			continue
		}
		b.sawWays = b.appendWay(b.sawWays, head, mb.Cell)
		b.sawEnds = append(b.sawEnds, len(b.sawWays))
	}
}
