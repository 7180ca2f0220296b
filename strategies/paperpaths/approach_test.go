package paperpaths

import (
	"testing"

	"gauntlet/referees/paperio"
	"gauntlet/strategies/param"
)

// TestApproachFavoursLoopsEndingNearEnemyLand: two mirror-image loops out
// of our land (columns 10..14, rows 10..14) from its centre, one closing on
// its east side, four cells nearer the opponent's land (columns 24..28,
// rows 24..28) than the other, which closes on its west side. They take
// the same cells in the same time: without approach they score the same;
// with approach=1 each loop's time grows by its way to the opponent's land
// and the east one scores more.
func TestApproachFavoursLoopsEndingNearEnemyLand(t *testing.T) {
	s := twoLands(t, box{10, 14, 10, 14}, box{24, 28, 24, 28})
	put(&s.Players[0], 12, 12, paperio.Up)
	put(&s.Players[1], 26, 26, paperio.Up)
	var east, west []paperio.Cell
	for _, c := range [][2]int{{1, 12}, {2, 12}, {3, 12}, {4, 12}, {4, 11}, {4, 10}, {3, 10}, {2, 10}} {
		east = append(east, paperio.CellAt(12+c[0], c[1]))
		west = append(west, paperio.CellAt(12-c[0], c[1]))
	}
	scores := func(approach float64) (e, w float64) {
		sample := sampler(t, s, param.Values{"approach": approach})
		e, okE := sample(east)
		w, okW := sample(west)
		if !okE || !okW {
			t.Fatalf("approach=%v: a loop is refused (east %v, west %v)", approach, okE, okW)
		}
		return e, w
	}
	e0, w0 := scores(0)
	e1, w1 := scores(1)
	t.Logf("approach=0: east %g, west %g; approach=1: east %g, west %g", e0, w0, e1, w1)
	if !near(e0, w0) {
		t.Errorf("approach=0: east %g, west %g; mirror-image loops should score the same", e0, w0)
	}
	if e1 <= w1 {
		t.Errorf("approach=1: east %g, west %g; the loop ending nearer the opponent's land should score more", e1, w1)
	}
}
