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
// duel_defend=12 overrides for a trail through our land (13 does not).
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
	}{{"duel_press", 12, true}, {"duel_press", 15, false}, {"duel_defend", 12, true}, {"duel_defend", 13, false}} {
		s := deepState(t)
		b := mustBot(t, New2, params2(param.Values{c.name: c.v}), 1)
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
