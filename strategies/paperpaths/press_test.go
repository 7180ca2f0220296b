package paperpaths

import (
	"testing"

	"gauntlet/referees/paperio"
	"gauntlet/strategies/param"
)

// TestPressHeadsForALongTrail: in deepState the opponent's trail of 12
// cells runs through our land five cells below our head: press=12 heads
// down for it before drawing any loop; press=13 finds no trail that long,
// nor does paperpaths2's duel_press (15) in this game of two, which
// duel_defend=12 overrides for a trail through our land (13 does not), and
// duel_threat=18 for a trail whose way home takes 18 of our cells (19 does
// not); duel_raid is off, so no path is drawn before the press.
func TestPressHeadsForALongTrail(t *testing.T) {
	for _, c := range []struct {
		press float64
		want  paperio.Dir
	}{{12, paperio.Down}, {13, paperio.DirNone}} {
		s := deepState(t)
		b, me := surveyed(t, s, param.Values{"press": c.press})
		if d := b.pressStep(s, me, b.press); d != c.want {
			t.Errorf("press=%v: pressStep = %v, want %v", c.press, d, c.want)
		}
	}
	for _, c := range []struct {
		name string
		v    float64
		down bool
	}{{"duel_press", 12, true}, {"duel_press", 15, false}, {"duel_defend", 12, true}, {"duel_defend", 13, false},
		{"duel_threat", 18, true}, {"duel_threat", 19, false}} {
		s := deepState(t)
		b := mustBot(t, New2, params2(param.Values{c.name: c.v, "duel_raid": 0}), 1)
		d := b.Command(s, s.Players[0].ID)
		if pressed := d == paperio.Down && b.pathsRun == 0; pressed != c.down {
			t.Errorf("%s=%v: Command moves %v after %d paths; pressing %v, want %v", c.name, c.v, d, b.pathsRun, pressed, c.down)
		}
	}
}

// TestPressStaysInOwnLand: the opponent's trail lies outside our land,
// where walking would start a trail of our own: there is nothing to press.
func TestPressStaysInOwnLand(t *testing.T) {
	s := twoLands(t, box{8, 22, 10, 12}, box{8, 22, 25, 27})
	o := &s.Players[1]
	for y := 24; y >= 20; y-- {
		lay(o, paperio.CellAt(15, y))
	}
	o.X, o.Y, o.Dir = paperio.CellAt(15, 20).X(), paperio.CellAt(15, 20).Y(), paperio.Down
	b, me := surveyed(t, s, param.Values{"press": 1})
	if d := b.pressStep(s, me, b.press); d != paperio.DirNone {
		t.Fatalf("pressStep = %v, want none: the trail is off our land", d)
	}
}

// TestDefendComesHome: in deepState the opponent's trail of 12 cells runs
// through our land while our own trail is out below it, four cells from
// (10, 21) down to (10, 24). duel_defend=12 takes the loop that closes
// soonest, five cells (a turn and four up); duel_defend=13 (no trail that
// long) draws a bigger loop as before.
func TestDefendComesHome(t *testing.T) {
	for _, c := range []struct {
		defend float64
		home   bool
	}{{12, true}, {13, false}} {
		s := deepState(t)
		me := &s.Players[0]
		for y := 21; y <= 24; y++ {
			lay(me, paperio.CellAt(10, y))
		}
		put(me, 10, 24, paperio.Down)
		b := mustBot(t, New2, params2(param.Values{"duel_defend": c.defend}), 1)
		d := b.Command(s, me.ID)
		if rushed := len(b.plan) == 5 && d != paperio.Down; rushed != c.home {
			t.Errorf("duel_defend=%v: Command moves %v on a loop of %d cells; home soonest %v, want %v", c.defend, d, len(b.plan), rushed, c.home)
		}
	}
}

// TestThreatComesHome: in deepState with our trail out as in
// TestDefendComesHome, the opponent's way home closes a loop round n of
// our cells; duel_threat=n (the defence by the trail's length off) takes
// the loop that closes soonest, n+1 draws the bigger loop.
func TestThreatComesHome(t *testing.T) {
	state := func() *paperio.State {
		s := deepState(t)
		me := &s.Players[0]
		for y := 21; y <= 24; y++ {
			lay(me, paperio.CellAt(10, y))
		}
		put(me, 10, 24, paperio.Down)
		return s
	}
	b, _ := surveyed(t, state(), param.Values{"threat": 1})
	n := b.threatened()
	if n == 0 {
		t.Fatal("deepState: the opponent's way home takes none of our cells; the test tells nothing")
	}
	t.Logf("own cells the opponent's way home takes: %d", n)
	for _, c := range []struct {
		threat int
		home   bool
	}{{n, true}, {n + 1, false}} {
		s := state()
		b := mustBot(t, New2, params2(param.Values{"duel_threat": float64(c.threat)}), 1)
		d := b.Command(s, s.Players[0].ID)
		if rushed := len(b.plan) == 5 && d != paperio.Down; rushed != c.home {
			t.Errorf("duel_threat=%d: Command moves %v on a loop of %d cells; home soonest %v, want %v", c.threat, d, len(b.plan), rushed, c.home)
		}
	}
}

// raidState: the opponent's land lies beside ours, to the right; its trail
// of 11 cells runs from its land along row 12 of ours and down to its head
// at (12, 14), nine cells from its land. We stand at home at (19, 17),
// moving right, a cell from its land and five below its trail.
func raidState(t *testing.T) *paperio.State {
	t.Helper()
	s := twoLands(t, box{5, 20, 5, 20}, box{21, 28, 5, 20})
	me, o := &s.Players[0], &s.Players[1]
	put(me, 19, 17, paperio.Right)
	longTrail(o, 20)
	return s
}

// TestRaidTakesTheirLandInsteadOfPressing: in raidState the press (11
// cells) heads for the trail; with duel_raid a loop into the opponent's
// land, away from its head, is taken instead when it captures at least
// duel_raid of its cells, and the press stays when none does.
func TestRaidTakesTheirLandInsteadOfPressing(t *testing.T) {
	s := raidState(t)
	b, me := surveyed(t, s, param.Values{"press": 11})
	pressed := b.pressStep(s, me, b.press)
	if pressed == paperio.DirNone {
		t.Fatal("raidState: no press way; the test tells nothing")
	}
	for _, c := range []struct {
		raid  float64
		press bool
	}{{0, true}, {1, false}, {400, true}} {
		s := raidState(t)
		me := &s.Players[0]
		b := mustBot(t, New2, params2(param.Values{"duel_press": 11, "duel_raid": c.raid}), 1)
		d := b.Command(s, me.ID)
		if gotPress := d == pressed && len(b.plan) == 0; gotPress != c.press {
			t.Fatalf("duel_raid=%v: Command moves %v on a loop of %d cells; pressing %v, want %v", c.raid, d, len(b.plan), gotPress, c.press)
		}
		if c.press {
			continue
		}
		// The loop taken captures enemy cells.
		var lines []paperio.Cell
		for _, x := range b.plan {
			if me.Terr.Has(x) && len(lines) == 0 {
				continue
			}
			lines = append(lines, x)
			if me.Terr.Has(x) {
				break
			}
		}
		got := paperio.Capture(&me.Terr, lines)
		for j := range got {
			got[j] &= s.Players[1].Terr[j]
		}
		if got.Count() < int(c.raid) {
			t.Errorf("duel_raid=%v: the loop %v captures %d enemy cells", c.raid, b.plan, got.Count())
		}
	}
}
