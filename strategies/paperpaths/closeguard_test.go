package paperpaths

import (
	"testing"

	"gauntlet/referees/paperio"
	"gauntlet/strategies/param"
)

// loopSafe surveys s for player 1 as Command does and reports whether bot b
// finds safe the loop that walks script from the head (its trail out about
// 12 ticks).
func loopSafe(b *Bot, s *paperio.State, script []paperio.Cell) bool {
	me := &s.Players[0]
	b.survey(s, me.ID)
	b.left = int32(s.Rules.MaxTickCount - s.Tick)
	trailArrive := int32(unreached)
	for _, c := range me.Trail() {
		trailArrive = min(trailArrive, b.arrive[c])
	}
	var enemy paperio.Bits
	for k := 1; k < s.N; k++ {
		enemy.Or(&s.Players[k].Terr)
	}
	_, _, ok := b.samplePath(s, me, me.Cell(), me.Trail(), trailArrive, 12, heldProfile(me), &enemy, script)
	return ok
}

// played is a copy of s after the given ticks with every player keeping
// its direction.
func played(s *paperio.State, ticks int) *paperio.State {
	sim := *s
	for range ticks {
		sim.Advance(&paperio.Commands{})
	}
	return &sim
}

// guardCase is a value of a guard parameter and whether the loop is safe
// with it.
type guardCase struct {
	value float64
	safe  bool
}

// checkGuard asks paperpaths2, with each value of the guard parameter name,
// whether the loop walking script from our head is safe, once it has
// checked that the opponent reaches cell in arrive ticks.
func checkGuard(t *testing.T, s *paperio.State, script []paperio.Cell, name string, cases []guardCase, cell paperio.Cell, arrive int32) {
	t.Helper()
	for _, c := range cases {
		b := mustBot(t, New2, params2(param.Values{name: c.value}), 1)
		ok := loopSafe(b, s, script)
		if got := b.arrive[cell]; got != arrive {
			t.Fatalf("the opponent reaches (%d, %d) in %d ticks, want %d", cell.I(), cell.J(), got, arrive)
		}
		if ok != c.safe {
			t.Errorf("%s %v: the loop closing at %v safe = %v, want %v", name, c.value, script[len(script)-1], ok, c.safe)
		}
	}
}

// TestCloseGuard: we (land columns 2..6, rows 2..6) stand at (7, 5) with
// a trail of two cells, moving left: one cell closes the loop at (6, 5).
// The opponent stands in its own land (columns 3..6, rows 7..9) at (6, 7)
// moving down, with no trail: two cells, 12 ticks, from that closing cell,
// where we close at 6. Its heads closer than a cell to ours kill us (our
// trail is the longer), so the loop is unsafe while the opponent can be
// there within close_guard ticks of the closing, and safe with the guard
// off or shorter than that.
func TestCloseGuard(t *testing.T) {
	s := twoLands(t, box{2, 6, 2, 6}, box{3, 6, 7, 9})
	me, o := &s.Players[0], &s.Players[1]
	put(me, 7, 5, paperio.Left)
	lay(me, paperio.CellAt(7, 4), paperio.CellAt(7, 5))
	put(o, 6, 7, paperio.Down)
	closing := []paperio.Cell{paperio.CellAt(6, 5)}
	checkGuard(t, s, closing, "close_guard", []guardCase{{0, true}, {5, true}, {6, true}, {6.5, false}, {8, false}}, closing[0], 12)
}

// TestCloseGuardAmongSix is the trap of the six-player line-up (seeds 5
// and 29 of a path-budget game): a few cells from closing, our loop ends on
// a cell of our land that an opponent with no trail out can stand on by
// the tick we close. The trail itself is safe by the arrival maps, so
// without a guard the loop is taken; before the closing the two heads come
// closer than a cell, our trail the longer, the minimax forbids the last
// step, and we fall back with a trail out for the opponent to cut. We
// (land columns 2..6, rows 2..6) stand at (8, 5) moving left with a trail
// of two cells; the opponent stands at (6, 7) moving down, 12 ticks from
// the closing cell (6, 5), where we close at 12. A third player far away
// makes it a game of more than two: paperpaths2's close_guard_bare there
// refuses the loop while the opponent stands in its land (columns 3..6,
// rows 7..9), and not when the opponent is out with a trail (its land rows
// 8..9). close_guard_out, on among six too, refuses that second loop as
// well (the referee kills us there): it is off here to test the bare guard
// alone; TestCloseGuardOut is that case.
func TestCloseGuardAmongSix(t *testing.T) {
	for _, c := range []struct {
		name  string
		land  box
		trail bool
		safe  bool
	}{{"at home", box{3, 6, 7, 9}, false, false}, {"out with a trail", box{3, 6, 8, 9}, true, true}} {
		s := lands(t, box{2, 6, 2, 6}, c.land, box{24, 28, 24, 28})
		me, o := &s.Players[0], &s.Players[1]
		put(me, 8, 5, paperio.Left)
		lay(me, paperio.CellAt(8, 4), paperio.CellAt(8, 5))
		put(o, 6, 7, paperio.Down)
		if c.trail {
			lay(o, paperio.CellAt(6, 7))
		}
		closing := []paperio.Cell{paperio.CellAt(7, 5), paperio.CellAt(6, 5)}
		b := mustBot(t, New2, params2(param.Values{"close_guard_out": 0}), 1)
		ok := loopSafe(b, s, closing)
		if got := b.arrive[closing[1]]; got != 12 {
			t.Fatalf("%s: the opponent reaches the closing cell in %d ticks, want 12", c.name, got)
		}
		trailArrive := int32(unreached)
		for _, x := range me.Trail() {
			trailArrive = min(trailArrive, b.arrive[x])
		}
		if float64(min(trailArrive, b.arrive[closing[0]])) < 12+b.margin {
			t.Fatalf("%s: the trail is reached in %d ticks: the loop should be safe by the arrival maps alone", c.name, trailArrive)
		}
		if ok != c.safe {
			t.Errorf("opponent %s: paperpaths2 among three players finds the loop closing at %v safe = %v, want %v (close_guard %v, bare %v)",
				c.name, closing[1], ok, c.safe, b.closeGuard, b.closeBare)
		}
	}
}

// TestCloseGuardOut is the trap of seeds 900 and 933 among six: the
// opponent coming to the closing cell is out with a trail, shorter than
// ours. The lands and heads are those of TestCloseGuardAmongSix, the
// opponent out of its land (rows 8..9) at (6, 7) with a trail of n cells.
// The referee decides first: in the last cell before our closing both heads
// are within a cell of (6, 5), and the longer trail dies, both when equal
// (ours is 3 cells then, the opponent's n+1). close_guard_out must refuse the loop exactly
// when the referee kills us.
func TestCloseGuardOut(t *testing.T) {
	for _, c := range []struct {
		name  string
		trail []paperio.Cell // the opponent's, ending at its head (6, 7)
	}{
		{"one cell", []paperio.Cell{paperio.CellAt(6, 7)}},
		{"two cells", []paperio.Cell{paperio.CellAt(5, 7), paperio.CellAt(6, 7)}},
		{"three cells", []paperio.Cell{paperio.CellAt(4, 7), paperio.CellAt(5, 7), paperio.CellAt(6, 7)}},
	} {
		s := lands(t, box{2, 6, 2, 6}, box{3, 6, 8, 9}, box{24, 28, 24, 28})
		me, o := &s.Players[0], &s.Players[1]
		put(me, 8, 5, paperio.Left)
		lay(me, paperio.CellAt(8, 4), paperio.CellAt(8, 5))
		put(o, 6, 7, paperio.Down)
		lay(o, c.trail...)
		closing := []paperio.Cell{paperio.CellAt(7, 5), paperio.CellAt(6, 5)}

		sim := played(s, 12)
		dies := !sim.Players[0].Alive
		if !dies && sim.Players[1].Alive {
			t.Fatalf("%s: after 12 ticks both are alive: want the heads met", c.name)
		}
		for _, guard := range []float64{0, 5} {
			b := mustBot(t, New2, params2(param.Values{"close_guard_out": guard}), 1)
			ok := loopSafe(b, s, closing)
			if want := guard == 0 || !dies; ok != want {
				t.Errorf("opponent's trail %s, close_guard_out %v: loop closing at %v safe = %v, want %v (the referee kills us: %v)",
					c.name, guard, closing[1], ok, want, dies)
			}
		}
	}
}

// TestCloseGuardOutLastCell is the meeting of seed 953 among six: the
// opponent comes not to the closing cell but, from the side, to the last
// cell of our trail, and reaches it a little after we close. Our heads and
// lands are those of TestCloseGuardOut: the last step runs from (7, 5) at
// tick 6 to the closing cell (6, 5) at 12. The opponent (land columns
// 5..9, rows 9..11) is out at (7, 8) with a trail of that one cell, 10
// pixels on its way down to (7, 7): it reaches (7, 5) at 16, after our
// closing but within a cell's time of it, and the margin of the trail
// check (2.66 ticks) passes it. The referee decides: at tick 11 both heads
// are 25 pixels from (7, 5), one across, one along, our trail 3 cells and
// its 3; both die. close_guard_out 5 must refuse the loop.
func TestCloseGuardOutLastCell(t *testing.T) {
	s := lands(t, box{2, 6, 2, 6}, box{5, 9, 9, 11}, box{24, 28, 24, 28})
	me, o := &s.Players[0], &s.Players[1]
	put(me, 8, 5, paperio.Left)
	lay(me, paperio.CellAt(8, 4), paperio.CellAt(8, 5))
	put(o, 7, 8, paperio.Down)
	lay(o, paperio.CellAt(7, 8))
	o.Y -= 10
	closing := []paperio.Cell{paperio.CellAt(7, 5), paperio.CellAt(6, 5)}

	sim := played(s, 12)
	if sim.Players[0].Alive {
		t.Fatalf("after 12 ticks we are alive (the opponent %v, %s): want the heads met", sim.Players[1].Alive, sim.Players[1].Death)
	}
	checkGuard(t, s, closing, "close_guard_out", []guardCase{{0, true}, {5, false}}, closing[0], 16)
}
