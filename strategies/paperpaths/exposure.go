package paperpaths

import (
	"math/bits"

	"gauntlet/referees/paperio"
)

// exposureMap fills exposure: for each cell x, how many cells of the own
// land an opponent could walk a trail to from its own land and be home
// again before our head, standing at x, could reach that trail: own cells
// c with |x-c| > 2*toEnemy[c] in cells (Manhattan distance for ours, the
// shortest way from the enemy land for the opponent's, speeds and trails
// ignored). An opponent's loop through them takes them, and the land they
// close off with it, while we are too far to cut it: the exposure of our
// land when our head is at x.
//
// toEnemy must be filled first. The map is built once a decision: for
// every cell a pass over the own cells (at most 961 by 961 steps, about a
// millisecond, under 1% of a duel decision at the contest's budget).
func (b *Bot) exposureMap(p *paperio.Player) {
	n := 0
	for j, word := range p.Terr {
		for ; word != 0; word &= word - 1 {
			c := paperio.CellAt(bits.TrailingZeros32(word), j)
			if d := b.toEnemy[c]; d != unreached {
				b.guarded[n] = guardCell{i: c.I(), j: c.J(), reach: 2 * int(d)}
				n++
			}
		}
	}
	own := b.guarded[:n]
	for x := range b.exposure {
		xi, xj := paperio.Cell(x).I(), paperio.Cell(x).J()
		count := int32(0)
		for _, g := range own {
			if abs(xi-g.i)+abs(xj-g.j) > g.reach {
				count++
			}
		}
		b.exposure[x] = count
	}
}

// guardCell is an own cell and the distance beyond which our head leaves
// it exposed (exposureMap).
type guardCell struct{ i, j, reach int }

// walkExposure is the most own cells the walk leaves exposed at any of its
// cells beyond those exposed with the head where it is now.
func (b *Bot) walkExposure(head paperio.Cell) int32 {
	most := b.exposure[head]
	for _, c := range b.walk {
		most = max(most, b.exposure[c])
	}
	return most - b.exposure[head]
}
