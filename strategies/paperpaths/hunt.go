package paperpaths

import (
	"math"

	"gauntlet/referees/paperio"
)

// huntStep is the first allowed move of a shortest way (at the current
// speed) to a cell of an opponent's trail that is reached before that
// opponent can be home, with the margin, and before any opponent can reach
// the own trail or any cell of the way, inside the own territory too (a
// head-on meeting there can still kill); DirNone when there is none.
// Entering the cell cuts the trail: the opponent dies.
//
// With hunt=2 and no trail out, a cell of the own land on the way is a
// risk only where it touches an opponent's land (enemy): heads closer than
// a cell kill the longer trail, both when equal, and walking on our land we
// have none, so only a player standing in its own land can kill us there.
// hunt=1 counts every cell of the way, which keeps the bot from cutting an
// opponent that is deep in our land whenever that opponent's head is near
// its own trail, as it always is.
func (b *Bot) huntStep(p *paperio.Player, enemy *paperio.Bits, trailArrive, tick int32) paperio.Dir {
	for i := range b.dist {
		b.dist[i] = -1
	}
	home := b.hunt == 2 && p.NLines == 0
	risk := func(c paperio.Cell) int32 {
		if home && p.Terr.Has(c) && !touches(c, enemy) {
			return unreached
		}
		return b.arrive[c]
	}
	head := p.Cell()
	b.dist[head] = 0
	qt := 0
	margin := int32(math.Ceil(b.margin))
	for _, d := range dirs {
		if b.forbiddn[d] || !legalMove(p, d) {
			continue
		}
		n, _ := head.Step(d)
		b.dist[n] = 1
		b.first[n] = d
		b.wayMin[n] = min(trailArrive, risk(n))
		b.queue[qt] = n
		qt++
	}
	for qh := 0; qh < qt; qh++ {
		x := b.queue[qh]
		t := b.dist[x] * tick
		if t+margin > b.wayMin[x] {
			continue // an opponent can cut the way before it gets here
		}
		if o := b.owner[x]; o > 0 && t+margin < b.homeAt[o-1] {
			return b.first[x]
		}
		for _, d := range dirs {
			n, ok := x.Step(d)
			if !ok || b.dist[n] >= 0 || p.TrailBits.Has(n) {
				continue
			}
			b.dist[n] = b.dist[x] + 1
			b.first[n] = b.first[x]
			b.wayMin[n] = min(b.wayMin[x], risk(n))
			b.queue[qt] = n
			qt++
		}
	}
	return paperio.DirNone
}
