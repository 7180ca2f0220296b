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
	b := mustBot(t, New2, params2(param.Values{"hunt": 1}), 1)
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
	b, me := surveyed(t, s, param.Values{"hunt": 1})
	if d := b.huntStep(me, &s.Players[1].Terr, unreached, heldProfile(me).ticks(s.Rules.Speed)); d != paperio.DirNone {
		t.Fatalf("huntStep = %v, want none: the opponent is home in %d ticks", d, b.homeAt[1])
	}
}

// deepState: the opponent's trail runs deep into our land, its head two
// cells from our way to it, its own land far away; we stand at home with
// no trail, moving down, five cells above the trail. Each of more boxes is
// the land of one more player.
func deepState(t *testing.T, more ...box) *paperio.State {
	t.Helper()
	s := lands(t, append([]box{{5, 20, 5, 20}, {24, 28, 24, 28}}, more...)...)
	me, o := &s.Players[0], &s.Players[1]
	put(me, 14, 17, paperio.Down)
	longTrail(o, 21)
	return s
}

// longTrail lays o's trail along row 12 from column from leftwards to
// column 12, then down to its head at (12, 14), moving down.
func longTrail(o *paperio.Player, from int) {
	for i := from; i >= 12; i-- {
		lay(o, paperio.CellAt(i, 12))
	}
	lay(o, paperio.CellAt(12, 13), paperio.CellAt(12, 14))
	put(o, 12, 14, paperio.Down)
}

// surveyed is paperpaths2 with the values v, having surveyed s for player
// 0 and forbidden the moves its minimax forbids, as Command does before
// its steps; it returns the bot and player 0.
func surveyed(t *testing.T, s *paperio.State, v param.Values) (*Bot, *paperio.Player) {
	t.Helper()
	b := mustBot(t, New2, params2(v), 1)
	me := &s.Players[0]
	b.survey(s, me.ID)
	b.forbid(s, me.ID, &b.forbiddn)
	return b, me
}

// TestHuntOnOwnLand: hunt=1 leaves the opponent of deepState alone, its
// head being able to reach the cells of our way before us; hunt=2 knows
// that a meeting on our land kills the opponent, not us, and cuts the
// trail (down, five cells, long before the opponent can be home).
func TestHuntOnOwnLand(t *testing.T) {
	for _, c := range []struct {
		hunt float64
		want paperio.Dir
	}{{1, paperio.DirNone}, {2, paperio.Down}} {
		s := deepState(t)
		b, me := surveyed(t, s, param.Values{"hunt": c.hunt})
		d := b.huntStep(me, &s.Players[1].Terr, unreached, heldProfile(me).ticks(s.Rules.Speed))
		t.Logf("hunt=%v: %v; opponent home in %d ticks", c.hunt, d, b.homeAt[1])
		if d != c.want {
			t.Errorf("hunt=%v: huntStep = %v, want %v", c.hunt, d, c.want)
		}
	}
}

// TestHuntOnOwnLandKeepsAwayFromTheirLand: as in deepState, with a third
// player standing in a strip of its land beside our straight way to the
// trail, where it has no trail either (a meeting kills both): hunt=2 counts
// the cells beside that land and takes a way round, away from it.
func TestHuntOnOwnLandKeepsAwayFromTheirLand(t *testing.T) {
	s := deepState(t, box{15, 15, 13, 17})
	me, o, third := &s.Players[0], &s.Players[1], &s.Players[2]
	me.Terr.AndNot(&third.Terr)
	put(third, 15, 15, paperio.Up)
	b, _ := surveyed(t, s, param.Values{"hunt": 2})
	var enemy paperio.Bits
	enemy.Or(&o.Terr)
	enemy.Or(&third.Terr)
	d := b.huntStep(me, &enemy, unreached, heldProfile(me).ticks(s.Rules.Speed))
	t.Logf("hunt=2: %v", d)
	if d == paperio.Down || d == paperio.DirNone {
		t.Errorf("huntStep = %v, want a way round the third player's land (left)", d)
	}
}
