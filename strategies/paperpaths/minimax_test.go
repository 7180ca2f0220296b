package paperpaths

import (
	"testing"

	"gauntlet/referees/paperio"
	"gauntlet/strategies/param"
)

// trap is player 1 out of its territory moving up with a two-cell trail
// and player 2 two cells right and one up, moving left towards it: going
// up puts player 1 where player 2 can cut its trail or meet it head on
// with the longer trail, whatever it does next.
func trap(t testing.TB) *paperio.State {
	t.Helper()
	s, err := paperio.NewState(paperio.DefaultRules(), 2)
	if err != nil {
		t.Fatal(err)
	}
	place := func(p *paperio.Player, c paperio.Cell, d paperio.Dir) {
		p.X, p.Y, p.Dir = c.X(), c.Y(), d
	}
	me, opp := &s.Players[0], &s.Players[1] // territories around (9,14) and (19,14)
	place(me, paperio.CellAt(9, 17), paperio.Up)
	lay(me, paperio.CellAt(9, 16), paperio.CellAt(9, 17))
	place(opp, paperio.CellAt(11, 18), paperio.Left)
	return s
}

func TestMinimaxForbidsTheTrap(t *testing.T) {
	s := trap(t)
	b := mustBot(t, New, param.Values{"depth": 2}, 1)
	var f [dirSlots]bool
	b.forbid(s, 1, &f)
	if !f[paperio.Up] {
		t.Fatal("moving up into the trap is allowed")
	}
	if f[paperio.Left] {
		t.Fatal("moving left, away from the opponent, is forbidden")
	}
	// The state shown must not change.
	if s2 := trap(t); *s2 != *s {
		t.Fatal("forbid changed the state it was shown")
	}
	// The bot does not walk into it either.
	if d := b.Command(s, 1); d == paperio.Up {
		t.Fatal("Command goes up into the trap")
	}
	// With the minimax off nothing is forbidden.
	b0 := mustBot(t, New, param.Values{"depth": 0}, 1)
	b0.forbid(s, 1, &f)
	if f != [dirSlots]bool{} {
		t.Fatalf("depth 0 forbids %v", f)
	}
}

// TestMinimaxIgnoresFarOpponents checks, on a far-away opponent, that
// nothing is forbidden (the tree is not even searched).
func TestMinimaxIgnoresFarOpponents(t *testing.T) {
	s := trap(t)
	opp := &s.Players[1]
	c := paperio.CellAt(25, 25)
	opp.X, opp.Y = c.X(), c.Y()
	b := mustBot(t, New, param.Values{"depth": 3}, 1)
	var f [dirSlots]bool
	if n := b.forbid(s, 1, &f); n != 0 {
		t.Fatalf("far opponent: %d moves forbidden (%v)", n, f)
	}
	if len(b.sim) != 0 {
		t.Fatal("searched a tree for a far opponent")
	}
}

// BenchmarkMinimaxTrap is the depth-2 tree of the trap position, three
// first moves against every reply.
func BenchmarkMinimaxTrap(b *testing.B) {
	s := trap(b)
	bot := mustBot(b, New, param.Values{"depth": 2}, 1)
	var f [dirSlots]bool
	b.ReportAllocs()
	for b.Loop() {
		bot.forbid(s, 1, &f)
	}
}

// sawCapture is the opening that killed paperpaths against a public bot:
// player 2, one cell short of its territory with a loop around a saw, closes
// it on the next centre heading right, and the saw strikes along its row;
// player 1, far away with a trail out, stands one cell below that row,
// moving up.
func sawCapture(t testing.TB, saw bool) *paperio.State {
	t.Helper()
	s, err := paperio.NewState(paperio.DefaultRules(), 2)
	if err != nil {
		t.Fatal(err)
	}
	me, opp := &s.Players[0], &s.Players[1] // territories around (9,14) and (19,14)
	put(opp, 17, 14, paperio.Right)
	lay(opp, paperio.CellAt(17, 15), paperio.CellAt(17, 16), paperio.CellAt(16, 16), paperio.CellAt(15, 16),
		paperio.CellAt(15, 15), paperio.CellAt(15, 14), paperio.CellAt(16, 14), paperio.CellAt(17, 14))
	put(me, 26, 13, paperio.Up)
	lay(me, paperio.CellAt(26, 11), paperio.CellAt(26, 12), paperio.CellAt(26, 13))
	if saw {
		if err := s.AddBonus(paperio.MapBonus{Kind: paperio.Saw, Cell: paperio.CellAt(16, 15)}); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func TestMinimaxSeesASawTakenByAFarCapture(t *testing.T) {
	b := mustBot(t, New, param.Values{"depth": 2}, 1)
	var f [dirSlots]bool
	b.forbid(sawCapture(t, true), 1, &f)
	if !f[paperio.Up] {
		t.Fatal("moving up onto the row the saw strikes is allowed")
	}
	if f[paperio.Left] || f[paperio.Right] {
		t.Fatalf("moves along the row below are forbidden: %v", f)
	}
	// The referee agrees: going up, player 1 dies by the saw.
	s := sawCapture(t, true)
	for tick := 0; s.Players[0].Alive && tick < 2*paperio.Width; tick++ {
		cmds := paperio.Commands{paperio.Up, paperio.Right}
		s.Advance(&cmds)
	}
	if p := &s.Players[0]; p.Alive || p.Death&paperio.CauseSaw == 0 {
		t.Fatalf("going up: alive %v, death %v; want killed by the saw", p.Alive, p.Death)
	}
	if d := b.Command(sawCapture(t, true), 1); d == paperio.Up {
		t.Fatal("Command goes up onto the row the saw strikes")
	}
	// Without the saw the opponent is too far to matter.
	b.forbid(sawCapture(t, false), 1, &f)
	if f != [dirSlots]bool{} {
		t.Fatalf("no saw: %v forbidden", f)
	}
}

// sawWipe is a saw strike that takes all our land: the opponent (player 2),
// two cells short of its territory with a loop round a saw, closes it at
// its second centre heading right along row 14, and the saw strikes along
// that row, which is the lowest row of our land (columns 24..28, rows
// 14..18). We stand in our land at (26, 15), moving down, no trail out: a
// head below row 14 when the saw strikes loses every cell of ours on and
// above the row, all of them.
func sawWipe(t *testing.T) *paperio.State {
	t.Helper()
	s := twoLands(t, box{24, 28, 14, 18}, box{19, 21, 13, 15})
	me, opp := &s.Players[0], &s.Players[1]
	put(me, 26, 15, paperio.Down)
	lay(opp, paperio.CellAt(18, 16), paperio.CellAt(17, 16), paperio.CellAt(16, 16), paperio.CellAt(15, 16),
		paperio.CellAt(15, 15), paperio.CellAt(15, 14), paperio.CellAt(16, 14), paperio.CellAt(17, 14))
	put(opp, 17, 14, paperio.Right)
	if err := s.AddBonus(paperio.MapBonus{Kind: paperio.Saw, Cell: paperio.CellAt(16, 15)}); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestMinimaxSeesASawWipeOurLand: a head whose last land the saw takes is
// lost, though the referee counts that loss a tick after the strike, past
// the tree's last centre.
func TestMinimaxSeesASawWipeOurLand(t *testing.T) {
	// The referee: down and down again, the strike at the second centre
	// takes all our land, and we lose for it.
	s := sawWipe(t)
	me := &s.Players[0]
	for tick := 0; me.Alive && tick < 3*paperio.Width; tick++ {
		cmds := paperio.Commands{paperio.DirNone, paperio.DirNone}
		if me.AtCentre() {
			cmds[0] = paperio.Down
		}
		s.Advance(&cmds)
	}
	if me.Alive || me.Death&paperio.CauseNoTerritory == 0 {
		t.Fatalf("down twice: alive %v, death %q; want no territory", me.Alive, me.Death)
	}

	b := mustBot(t, New2, nil, 1)
	var f [dirSlots]bool
	b.forbid(sawWipe(t), 1, &f)
	if !f[paperio.Down] {
		t.Fatal("moving down, out of the land the saw takes, is allowed")
	}
	if f[paperio.Left] || f[paperio.Right] {
		t.Fatalf("moves along our land's row 15, which the saw leaves us, are forbidden: %v", f)
	}
	if d := b.Command(sawWipe(t), 1); d == paperio.Down {
		t.Fatal("Command goes down, out of the land the saw takes")
	}
}
