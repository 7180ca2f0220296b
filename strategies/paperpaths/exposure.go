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
// it exposed (exposureMap), and the first span of the timed maps it is
// exposed in (timedExposureMap).
type guardCell struct{ i, j, reach, span int }

// The timed exposure maps (exposed_timed) hold one map per span of
// 1<<exposureShift ticks, exposureSteps of them: 0 to 480 ticks and on,
// longer than a duel's loops are out.
const (
	exposureShift = 5
	exposureSteps = 16
)

// timedExposureMap fills exposureAt, exposureMap's count gated by where
// the opponents are: an own cell c is exposed with our head at x at tick t
// when |x-c| > 2*toEnemy[c], as there, and an opponent can be at the edge
// of its land nearest c by t:
//
//	t >= arrive[c] - toEnemy[c]*base
//
// (its earliest arrival on c from its head now, less the leg from its land
// to c at its normal speed). A raid needs its owner home and beside the
// cells it takes; with the opponent far inside its land or out on a trail
// the own land is exposed later, and a loop then may go farther.
// exposureAt[k][x] counts the cells exposed at tick k<<exposureShift, the
// first of its span; a gate is rounded up to the span it has opened by, a
// walk's tick down to its span: a cell counts up to 62 ticks late, never
// early.
//
// arrive and toEnemy must be filled first. As exposureMap, a pass over the
// own cells for every cell, each exposed cell counted in the span its gate
// opens in, then a running sum over the spans.
func (b *Bot) timedExposureMap(p *paperio.Player, base int32) {
	n := 0
	for j, word := range p.Terr {
		for ; word != 0; word &= word - 1 {
			c := paperio.CellAt(bits.TrailingZeros32(word), j)
			d, a := b.toEnemy[c], b.arrive[c]
			if d == unreached || a == unreached {
				continue
			}
			span := (max(int(a-d*base), 0) + 1<<exposureShift - 1) >> exposureShift
			if span < exposureSteps {
				b.guarded[n] = guardCell{i: c.I(), j: c.J(), reach: 2 * int(d), span: span}
				n++
			}
		}
	}
	own := b.guarded[:n]
	for x := range b.exposure {
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
			b.exposureAt[k][x] = count
		}
	}
}

// walkExposure is the most own cells the walk leaves exposed at any of its
// cells beyond those exposed with the head where it is now (with
// exposed_timed, beyond those the head would leave exposed standing where
// it is now until the tick the walk gets to that cell).
func (b *Bot) walkExposure(head paperio.Cell) int32 {
	if b.exposedTimed {
		most := int32(0)
		for k, c := range b.walk {
			at := &b.exposureAt[min(b.walkAt[k]>>exposureShift, exposureSteps-1)]
			most = max(most, at[c]-at[head])
		}
		return most
	}
	most := b.exposure[head]
	for _, c := range b.walk {
		most = max(most, b.exposure[c])
	}
	return most - b.exposure[head]
}
