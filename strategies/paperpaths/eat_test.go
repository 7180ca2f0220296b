package paperpaths

import (
	"testing"

	"gauntlet/referees/paperio"
	"gauntlet/strategies/param"
)

// pocket is a two-player position: we (player 1) own columns 2..20, rows
// 2..8, and stand at (9, 7) with no trail, moving up; the opponent (player
// 2) owns rows 14..20 of the same columns and is out with a trail down
// column 5 from row 13 to row 4 and right along row 4 to its head at
// (14, 4), moving right. Its shortest way home is up column 14: closing
// there, its capture takes columns 6..13 of rows 5..13, our head's pocket.
func pocket(t *testing.T) *paperio.State {
	t.Helper()
	s := twoLands(t, box{2, 20, 2, 8}, box{2, 20, 14, 20})
	me, o := &s.Players[0], &s.Players[1]
	put(me, 9, 7, paperio.Up)
	for j := 13; j >= 4; j-- {
		lay(o, paperio.CellAt(5, j))
	}
	for i := 6; i <= 14; i++ {
		lay(o, paperio.CellAt(i, 4))
	}
	put(o, 14, 4, paperio.Right)
	return s
}

// circle is a walk round a square of our land inside the pocket, from the
// head at (9, 7) moving up, twice: 16 cells, longer than the opponent's way
// home.
func circle() []paperio.Cell {
	var w []paperio.Cell
	for range 2 {
		w = append(w, paperio.CellAt(9, 8), paperio.CellAt(10, 8), paperio.CellAt(11, 8), paperio.CellAt(11, 7),
			paperio.CellAt(11, 6), paperio.CellAt(10, 6), paperio.CellAt(9, 6), paperio.CellAt(9, 7))
	}
	return w
}

// closePocket plays pocket on until the opponent, taking its way home up
// column 14, is back or one of us is dead; our move at each cell centre is
// next's.
func closePocket(s *paperio.State, next func() paperio.Dir) {
	me, o := &s.Players[0], &s.Players[1]
	for tick := 0; tick < 200 && me.Alive && o.Alive && o.NLines > 0; tick++ {
		var cmds paperio.Commands
		if me.AtCentre() {
			cmds[0] = next()
		}
		if o.AtCentre() && o.Cell() == paperio.CellAt(14, 4) {
			cmds[1] = paperio.Up
		}
		s.Advance(&cmds)
	}
}

// TestPocketIsEaten checks the guard's premise with the referee: the
// opponent closes its loop by its shortest way home while we walk round
// the pocket, and we are eaten.
func TestPocketIsEaten(t *testing.T) {
	s := pocket(t)
	walk := circle()
	me := &s.Players[0]
	closePocket(s, func() paperio.Dir {
		if len(walk) == 0 {
			return paperio.DirNone
		}
		d, _ := dirTo(me.Cell(), walk[0])
		walk = walk[1:]
		return d
	})
	if me.Alive || me.Death != paperio.CauseEaten {
		t.Fatalf("walking round the pocket: alive %v, death %q; want eaten", me.Alive, me.Death)
	}
}

// TestEatGuard: with duel_eat_guard the survey marks the pocket taken at the
// tick the opponent can be home, a walk round it is no path, and the bot
// playing against the opponent's way home survives the closing; without
// the guard the same walk is a path.
func TestEatGuard(t *testing.T) {
	s := pocket(t)
	me := &s.Players[0]
	// terr_life off in both bots: the guard alone decides.
	b := mustBot(t, New2, params2(param.Values{"duel_eat_guard": 1, "duel_terr_life": 0}), 1)
	b.Command(s, me.ID)
	head, outside := paperio.CellAt(9, 7), paperio.CellAt(9, 2)
	if b.eatAt[head] != b.homeAt[1] || b.eatBy[head] != 1<<1 || b.homeAt[1] >= unreached {
		t.Fatalf("head's cell taken at %d by %b; opponent home at %d", b.eatAt[head], b.eatBy[head], b.homeAt[1])
	}
	if b.eatAt[outside] != unreached || b.eatOut[outside] != 0 || b.eatOut[head] <= 0 {
		t.Fatalf("outside taken at %d, %d cells out; head %d cells out", b.eatAt[outside], b.eatOut[outside], b.eatOut[head])
	}
	pr := heldProfile(me)
	if _, _, ok := b.samplePath(s, me, head, nil, unreached, 0, pr, &s.Players[1].Terr, circle()); ok {
		t.Error("eat_guard=1: walking round the pocket past its closing is a path")
	}
	off := mustBot(t, New2, params2(param.Values{"duel_eat_guard": 0, "duel_terr_life": 0}), 1)
	off.Command(s, me.ID)
	if _, _, ok := off.samplePath(s, me, head, nil, unreached, 0, pr, &s.Players[1].Terr, circle()); !ok {
		t.Error("eat_guard=0: walking round the pocket is no path")
	}
	// Played out against the opponent's way home, the guarded bot lives.
	closePocket(s, func() paperio.Dir { return b.Command(s, me.ID) })
	if !me.Alive {
		t.Fatalf("eat_guard=1: died at tick %d: %q", me.DeathTick, me.Death)
	}
}

// TestPressKeepsOutOfAPocket: the opponent of pocket three cells from
// home, its trail up column 14 to row 11; our head at (9, 8) in the land
// its closing takes, no trail. The press way to its trail (24 ticks or
// more) cannot cut it before it is home (18 ticks): with the guard there is
// no press, without it the press walks on into the pocket.
func TestPressKeepsOutOfAPocket(t *testing.T) {
	s := pocket(t)
	me, o := &s.Players[0], &s.Players[1]
	put(me, 9, 8, paperio.Up)
	for j := 5; j <= 11; j++ {
		lay(o, paperio.CellAt(14, j))
	}
	put(o, 14, 11, paperio.Up)
	for _, c := range []struct {
		guard float64
		press bool
	}{{1, false}, {0, true}} {
		b := mustBot(t, New2, params2(param.Values{"duel_eat_guard": c.guard, "duel_terr_life": 0, "duel_press": 15}), 1)
		b.Command(s, me.ID) // the duel weights
		b.survey(s, me.ID)
		b.forbiddn = [dirSlots]bool{}
		if got := b.pressStep(s, me, b.press) != paperio.DirNone; got != c.press {
			t.Errorf("eat_guard=%v: press %v, want %v (opponent home at %d)", c.guard, got, c.press, b.homeAt[1])
		}
	}
}
