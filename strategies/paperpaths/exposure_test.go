package paperpaths

import (
	"testing"

	"gauntlet/referees/paperio"
	"gauntlet/strategies/param"
)

// TestExposureMap counts exposed own cells on a land one column wide
// beside the opponent's: every own cell is one cell from the enemy land,
// so it is exposed wherever our head is more than two cells from it.
func TestExposureMap(t *testing.T) {
	s := twoLands(t, box{1, 1, 0, 30}, box{0, 0, 0, 30})
	b := mustBot(t, New2, params2(nil), 1)
	p := &s.Players[0]
	b.distMap(&s.Players[1].Terr, &b.toEnemy)
	b.exposureMap(p)
	for _, c := range []struct {
		i, j int
		want int32
	}{
		{1, 15, 31 - 5}, // rows 13..17 within two cells
		{3, 15, 31 - 1}, // two columns off: only the own cell in line
		{1, 0, 31 - 3},  // rows 0..2
		{0, 15, 31 - 3}, // in the enemy land beside us: rows 14..16
		{30, 0, 31},     // far away: all of it
	} {
		if got := b.exposure[paperio.CellAt(c.i, c.j)]; got != c.want {
			t.Errorf("exposure at (%d,%d) = %d, want %d", c.i, c.j, got, c.want)
		}
	}
	b.walk = append(b.walk[:0], paperio.CellAt(2, 15), paperio.CellAt(3, 15), paperio.CellAt(2, 15))
	if got := b.walkExposure(paperio.CellAt(1, 15)); got != 4 {
		t.Errorf("walkExposure = %d, want 4 (30 at (3,15) less 26 at the head)", got)
	}
}

// TestExposedKeepsLoopsNear: valued, the exposure of the own land makes
// the chosen loop stray less far from it than the same decision without.
func TestExposedKeepsLoopsNear(t *testing.T) {
	plan := func(w float64) int32 {
		s := twoLands(t, box{4, 14, 4, 14}, box{16, 26, 16, 26})
		b := mustBot(t, New2, params2(param.Values{"duel_exposed": w, "paths": 2000}), 1)
		b.Command(s, 1)
		// Without the weight the decision builds no map: build it here to
		// measure the loop chosen.
		b.distMap(&s.Players[1].Terr, &b.toEnemy)
		b.exposureMap(&s.Players[0])
		b.walk = append(b.walk[:0], b.plan...)
		return b.walkExposure(s.Players[0].Cell())
	}
	off, on := plan(0), plan(2)
	t.Logf("exposure added by the chosen loop: %d without the weight, %d with", off, on)
	if on >= off {
		t.Errorf("with duel_exposed=2 the loop exposes %d own cells more, want fewer than the %d without", on, off)
	}
}

// BenchmarkDecisionExposed is BenchmarkDecision2's six-player decision
// with the exposure of the own land valued (the map built once, a lookup
// per cell walked).
func BenchmarkDecisionExposed(b *testing.B) {
	bot := mustBot(b, New2, params2(param.Values{"exposed": 0.2}), 1)
	benchDecision(b, bot)
}
