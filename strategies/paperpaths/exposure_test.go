package paperpaths

import (
	"fmt"
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
	b.exposureMap(p, profile{}.ticks(s.Rules.Speed))
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
		if got := b.exposure[0][paperio.CellAt(c.i, c.j)]; got != c.want {
			t.Errorf("exposure at (%d,%d) = %d, want %d", c.i, c.j, got, c.want)
		}
	}
	b.walk = append(b.walk[:0], paperio.CellAt(2, 15), paperio.CellAt(3, 15), paperio.CellAt(2, 15))
	if got := b.walkExposure(paperio.CellAt(1, 15)); got != 4 {
		t.Errorf("walkExposure = %d, want 4 (30 at (3,15) less 26 at the head)", got)
	}
}

// TestTimedExposureMap: on the one-column land of TestExposureMap, with
// the opponent's head at the bottom of its column, the own cells are
// exposed one by one as the opponent could walk up beside them: at tick 0
// only those it is a cell from, by the last span all those exposureMap
// counts.
func TestTimedExposureMap(t *testing.T) {
	s := twoLands(t, box{1, 1, 0, 30}, box{0, 0, 0, 30})
	put(&s.Players[1], 0, 0, paperio.Up)
	b := mustBot(t, New2, params2(nil), 1)
	b.survey(s, 1)
	b.distMap(&s.Players[1].Terr, &b.toEnemy)
	b.exposureMap(&s.Players[0], profile{}.ticks(s.Rules.Speed))
	untimed := b.exposure[0]
	b.exposedTimed = true
	b.exposureMap(&s.Players[0], profile{}.ticks(s.Rules.Speed))
	far := paperio.CellAt(30, 15)
	if got := b.exposure[0][far]; got < 1 || got > 2 {
		t.Errorf("exposed at tick 0 from (30,15): %d, want 1 or 2 (the cells the opponent is a cell from)", got)
	}
	for x := range untimed {
		for k := 1; k < exposureSteps; k++ {
			if b.exposure[k][x] < b.exposure[k-1][x] {
				t.Fatalf("exposure at %v falls from %d to %d in span %d", paperio.Cell(x), b.exposure[k-1][x], b.exposure[k][x], k)
			}
		}
		if got, want := b.exposure[exposureSteps-1][x], untimed[x]; got != want {
			t.Fatalf("exposure at %v in the last span %d, want exposureMap's %d", paperio.Cell(x), got, want)
		}
	}
	// Up its column at 6 ticks a cell, the opponent is beside row j by
	// about 6j ticks: in span 3 (96 ticks) rows up to about 16.
	if got := b.exposure[3][far]; got < 14 || got > 18 {
		t.Errorf("exposed at tick 96 from (30,15): %d, want about 16", got)
	}
	// The walk from the head to (3,15) and back adds exposure only as
	// the ticks it takes open the gates.
	head := paperio.CellAt(1, 15)
	b.walk = append(b.walk[:0], paperio.CellAt(2, 15), paperio.CellAt(3, 15), paperio.CellAt(2, 15))
	b.walkAt = append(b.walkAt[:0], 6, 12, 18)
	early := b.walkExposure(head)
	b.walkAt = append(b.walkAt[:0], 600, 606, 612)
	late := b.walkExposure(head)
	if early != 0 || late != 4 {
		t.Errorf("walkExposure = %d early, %d late, want 0 and 4 (exposureMap's count once the gates are open)", early, late)
	}
}

// TestExposedKeepsLoopsNear: valued, the exposure of the own land makes
// the chosen loop stray less far from it than the same decision without,
// counted either way; timed, with the opponent's head at the corner of its
// land nearest ours, where its gates open at once.
func TestExposedKeepsLoopsNear(t *testing.T) {
	for _, timed := range []bool{false, true} {
		t.Run(fmt.Sprint("timed=", timed), func(t *testing.T) {
			_, off := exposedLoop(t, timed, 0, 16, 16)
			_, on := exposedLoop(t, timed, 2, 16, 16)
			t.Logf("exposure added by the chosen loop: %d without the weight, %d with", off, on)
			if on >= off {
				t.Errorf("with duel_exposed=2 the loop exposes %d own cells more, want fewer than the %d without", on, off)
			}
		})
	}
}

// TestTimedExposureLetsLoopsGoFar: with the opponent's head in the far
// corner of its land, the timed count lets the weighed decision take a
// loop that exposes own cells by the untimed count, which keeps it home.
func TestTimedExposureLetsLoopsGoFar(t *testing.T) {
	untimed, _ := exposedLoop(t, false, 2, 26, 26)
	timed, _ := exposedLoop(t, true, 2, 26, 26)
	t.Logf("own cells the chosen loop exposes by the untimed count: %d weighed untimed, %d weighed timed", untimed, timed)
	if timed <= untimed {
		t.Errorf("weighed timed, the loop exposes %d own cells by the untimed count, want more than the %d of the untimed weight", timed, untimed)
	}
}

// TestExposedEnd: with exposed_end the exposure counts only in the game's
// last ticks: before them the decision is the one without the weight,
// within them the one with it.
func TestExposedEnd(t *testing.T) {
	end := 400
	last := paperio.DefaultRules().MaxTickCount
	for _, tick := range []int{1, last - end - 1, last - end, last - 100} {
		_, off := exposedLoopAt(t, param.Values{"duel_exposed": 0}, tick, 16, 16)
		_, on := exposedLoopAt(t, param.Values{"duel_exposed": 2}, tick, 16, 16)
		_, got := exposedLoopAt(t, param.Values{"duel_exposed": 2, "duel_exposed_end": float64(end)}, tick, 16, 16)
		want, when := off, "before"
		if last-tick <= end {
			want, when = on, "within"
		}
		t.Logf("tick %d: exposure %d without the weight, %d with, %d with exposed_end=%d", tick, off, on, got, end)
		if off == on {
			t.Fatalf("tick %d: the weight changes nothing (%d cells either way); the case cannot tell", tick, off)
		}
		if got != want {
			t.Errorf("tick %d, %s the last %d ticks: the loop exposes %d own cells, want %d", tick, when, end, got, want)
		}
	}
}

// exposedLoop is the own cells exposed by the loop a duel decision
// chooses with exposure weight w (timed or not), the opponent's head at
// (i, j): by the untimed count, and by that of the decision.
func exposedLoop(t *testing.T, timed bool, w float64, i, j int) (untimed, decided int32) {
	v := param.Values{"duel_exposed": w}
	if timed {
		v["duel_exposed_timed"] = 1
	}
	return exposedLoopAt(t, v, 1, i, j)
}

// exposedLoopAt is exposedLoop with the duel's exposure parameters v, at
// game tick tick.
func exposedLoopAt(t *testing.T, v param.Values, tick, i, j int) (untimed, decided int32) {
	s := twoLands(t, box{4, 14, 4, 14}, box{16, 26, 16, 26})
	s.Tick = tick
	put(&s.Players[1], i, j, paperio.Left)
	v["paths"] = 2000
	timed := v["duel_exposed_timed"] == 1
	b := mustBot(t, New2, params2(v), 1)
	b.Command(s, 1)
	// Without the weight the decision builds no map: build it here to
	// measure the loop chosen, at 6 ticks a cell.
	b.distMap(&s.Players[1].Terr, &b.toEnemy)
	b.walk = append(b.walk[:0], b.plan...)
	b.walkAt = b.walkAt[:0]
	for k := range b.walk {
		b.walkAt = append(b.walkAt, int32(k+1)*profile{}.ticks(s.Rules.Speed))
	}
	head := s.Players[0].Cell()
	b.exposedTimed = false
	b.exposureMap(&s.Players[0], profile{}.ticks(s.Rules.Speed))
	untimed = b.walkExposure(head)
	if !timed {
		return untimed, untimed
	}
	b.exposedTimed = true
	b.exposureMap(&s.Players[0], profile{}.ticks(s.Rules.Speed))
	return untimed, b.walkExposure(head)
}

// BenchmarkDecisionExposed is BenchmarkDecision2's six-player decision
// with the exposure of the own land valued (the map built once, a lookup
// per cell walked).
func BenchmarkDecisionExposed(b *testing.B) {
	bot := mustBot(b, New2, params2(param.Values{"exposed": 0.2}), 1)
	benchDecision(b, bot)
}

// BenchmarkDecisionExposedTimed is the same with the timed maps, one per
// span of 32 ticks (exposed_timed).
func BenchmarkDecisionExposedTimed(b *testing.B) {
	bot := mustBot(b, New2, params2(param.Values{"exposed": 0.2, "exposed_timed": 1}), 1)
	benchDecision(b, bot)
}
