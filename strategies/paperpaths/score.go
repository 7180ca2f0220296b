package paperpaths

import (
	"math/bits"

	"gauntlet/referees/paperio"
)

// Ranks of the write-up's order (estimators 1 and 2): kills, then captured
// enemy cells, then effective time, then points. Each rank's largest
// possible total stays below the next one's unit.
const (
	killRank  = 1e12
	enemyRank = 1e8
	timeRank  = 1e4
)

// ordered scores a loop in the write-up's order: opponents killed first,
// then enemy cells captured, then the shortest effective time (the loop's
// ticks less nitro_ticks per nitro, plus slow_ticks per slowdown picked up),
// then the points. A loop that takes no enemy cell is scored by its points
// (estimator 1, with a penalty past empty_ticks out) or reported not ok
// for the value-per-tick score (estimator 2).
func (b *Bot) ordered(s *paperio.State, w *walker, got, enemyGot *paperio.Bits, out int32, hasTrail bool) (float64, bool) {
	kills := float64(bits.OnesCount8(w.killed))
	ne := enemyGot.Count()
	r := &s.Rules
	points := float64((got.Count()-ne)*r.NeutralTerritoryScore+ne*r.EnemyTerritoryScore) + kills*float64(r.LineKillScore)
	if ne > 0 {
		t := max(float64(w.t)-b.nitroTicks*float64(w.nitro)+b.slowTicks*float64(w.slow), 0)
		return kills*killRank + float64(ne)*enemyRank - t*timeRank + points, true
	}
	if b.estimator == 2 {
		return 0, false
	}
	score := kills*killRank + points + b.nitroTicks/10*float64(w.nitro) - b.slowTicks/10*float64(w.slow)
	if b.emptyTicks > 0 && hasTrail && out+w.t > b.emptyTicks {
		score -= float64(out+w.t-b.emptyTicks) * 10
	}
	return score, true
}

// lifeValue values the cells a loop closing at tick t captures by their
// expected lifetime as ours: a cell that no opponent can reach within life
// ticks of the capture counts in full, one that an opponent reaches sooner
// counts between lifeFloor and 1, in proportion to the time it stays out
// of reach (the arrival map is the estimate).
func (b *Bot) lifeValue(got, enemyGot *paperio.Bits, t int32) float64 {
	var v float64
	for j, word := range got {
		for ; word != 0; word &= word - 1 {
			i := bits.TrailingZeros32(word)
			c := paperio.CellAt(i, j)
			w := b.wNeutral
			if enemyGot[j]>>uint(i)&1 != 0 {
				w = b.wEnemy
			}
			if left := b.arrive[c] - t; left < b.life {
				f := float64(max(left, 0)) / float64(b.life)
				w *= b.lifeFloor + (1-b.lifeFloor)*f
			}
			v += w
		}
	}
	return v
}
