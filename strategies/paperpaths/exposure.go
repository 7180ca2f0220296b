package paperpaths

import (
	"math/bits"

	"gauntlet/referees/paperio"
)

// The exposure maps hold one map per span of 1<<exposureShift ticks,
// exposureSteps of them: 0 to 480 ticks and on, longer than a duel's loops
// are out. Untimed, every cell is exposed from the first span on and only
// exposure[0] is read.
const (
	exposureShift = 5
	exposureSteps = 16
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
// With exposed_timed the count is gated by where the opponents are: c is
// exposed at tick t only once an opponent can be at the edge of its land
// nearest c by t,
//
//	t >= arrive[c] - toEnemy[c]*base
//
// (its earliest arrival on c from its head now, less the leg from its land
// to c at its normal speed, base ticks a cell). A raid needs its owner
// home and beside the cells it takes; with the opponent far inside its
// land or out on a trail the own land is exposed later, and a loop then
// may go farther. exposure[k][x] counts the cells exposed at tick
// k<<exposureShift, the first of its span; a gate is rounded up to the
// span it has opened by, a walk's tick down to its span: a cell counts up
// to 62 ticks late, never early.
//
// toEnemy (and, timed, arrive) must be filled first. The map is built once
// a decision: for every cell a pass over the own cells (at most 961 by 961
// steps, about a millisecond, under 1% of a duel decision at the contest's
// budget), each exposed cell counted in the span its gate opens in, then a
// running sum over the spans.
func (b *Bot) exposureMap(p *paperio.Player, base int32) {
	n := 0
	for j, word := range p.Terr {
		for ; word != 0; word &= word - 1 {
			c := paperio.CellAt(bits.TrailingZeros32(word), j)
			d := b.toEnemy[c]
			if d == unreached {
				continue
			}
			span := 0
			if b.exposedTimed {
				a := b.arrive[c]
				if a == unreached {
					continue
				}
				span = (max(int(a-d*base), 0) + 1<<exposureShift - 1) >> exposureShift
				if span >= exposureSteps {
					continue
				}
			}
			b.guarded[n] = guardCell{i: c.I(), j: c.J(), reach: 2 * int(d), span: span}
			n++
		}
	}
	own := b.guarded[:n]
	for x := range paperio.NumCells {
		xi, xj := paperio.Cell(x).I(), paperio.Cell(x).J()
		var opened [exposureSteps]int32 // exposed cells whose gate opens in each span
		for _, g := range own {
			if abs(xi-g.i)+abs(xj-g.j) > g.reach {
				opened[g.span]++
			}
		}
		count := int32(0)
		for k := range opened {
			count += opened[k]
			b.exposure[k][x] = count
		}
	}
}

// guardCell is an own cell, the distance beyond which our head leaves it
// exposed, and the first span it is exposed in (exposureMap).
type guardCell struct{ i, j, reach, span int }

// walkExposure is the most own cells the walk leaves exposed at any of its
// cells beyond those exposed with the head where it is now (with
// exposed_timed, beyond those the head would leave exposed standing where
// it is now until the tick the walk gets to that cell).
func (b *Bot) walkExposure(head paperio.Cell) int32 {
	most := int32(0)
	at := &b.exposure[0]
	for k, c := range b.walk {
		if b.exposedTimed {
			at = &b.exposure[min(b.walkAt[k]>>exposureShift, exposureSteps-1)]
		}
		most = max(most, at[c]-at[head])
	}
	return most
}
