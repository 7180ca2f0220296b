package paperpaths

import (
	"testing"

	"gauntlet/referees/paperio"
	"gauntlet/strategies/param"
)

// TestHuntCutsAReachableTrail: in killState the opponent's trail runs two
// cells above our head while its own head is far from home, so hunt=1
// heads straight for it (up) without drawing a loop.
func TestHuntCutsAReachableTrail(t *testing.T) {
	s := killState(t)
	b, err := New2(params2(param.Values{"hunt": 1}), 1)
	if err != nil {
		t.Fatal(err)
	}
	d := b.Command(s, s.Players[0].ID)
	t.Logf("hunt=1 moves %v after %d paths drawn; opponent home in %d ticks", d, b.pathsRun, b.homeAt[1])
	if d != paperio.Up {
		t.Fatalf("hunt=1 moves %v, want up (the trail two cells away)", d)
	}
	if b.pathsRun != 0 {
		t.Fatalf("hunt=1 drew %d paths; the cut should be taken before any", b.pathsRun)
	}
}

// TestHuntLeavesAnOpponentThatIsHomeFirst: the opponent is one cell out of
// its land, far from us: it is home long before we reach its trail, so
// there is nothing to hunt.
func TestHuntLeavesAnOpponentThatIsHomeFirst(t *testing.T) {
	s := twoLands(t, box{8, 22, 10, 12}, box{8, 22, 25, 27})
	o := &s.Players[1]
	c := paperio.CellAt(20, 24)
	lay(o, c)
	o.X, o.Y, o.Dir = c.X(), c.Y(), paperio.Down
	b, err := New2(params2(param.Values{"hunt": 1}), 1)
	if err != nil {
		t.Fatal(err)
	}
	me := &s.Players[0]
	b.survey(s, me.ID)
	b.forbid(s, me.ID, &b.forbiddn)
	if d := b.huntStep(me, unreached, heldProfile(me).ticks(s.Rules.Speed)); d != paperio.DirNone {
		t.Fatalf("huntStep = %v, want none: the opponent is home in %d ticks", d, b.homeAt[1])
	}
}
