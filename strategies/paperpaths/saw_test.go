package paperpaths

import (
	"slices"
	"testing"

	"gauntlet/referees/paperio"
	"gauntlet/strategies/param"
)

// TestSawPoints: a saw taken at (10, 5) moving right cuts row 5 from
// column 11 to the border. The opponent (land columns 20..25, rows 5..8)
// stands at (22, 5) on that line: moving along it (left) it is still there
// when the saw is taken, a kill; moving up and more than a cell's time
// away it is not, and the line still crosses its land, the saw score. The
// same saw taken moving left cuts nothing of its.
func TestSawPoints(t *testing.T) {
	s := twoLands(t, box{2, 6, 2, 6}, box{20, 25, 5, 8})
	me, o := &s.Players[0], &s.Players[1]
	put(me, 4, 4, paperio.Right)
	put(o, 22, 5, paperio.DirNone) // its direction is set by each case below
	b := mustBot(t, New2, params2(param.Values{"w_saw": 1}), 1)
	saw := paperio.CellAt(10, 5)
	r := &s.Rules
	for _, c := range []struct {
		oDir  paperio.Dir
		d     paperio.Dir
		t     int32
		want  int
		about string
	}{
		{paperio.Left, paperio.Right, 60, r.SawKillScore, "on the line, moving along it"},
		{paperio.Up, paperio.Right, 60, r.SawScore, "leaving the line before the saw; the line crosses its land"},
		{paperio.Up, paperio.Right, 6, r.SawKillScore, "on the line, the saw within a cell's time"},
		{paperio.Left, paperio.Left, 60, 0, "behind the saw"},
	} {
		o.Dir = c.oDir
		b.survey(s, me.ID)
		if got := b.sawPoints(saw, c.d, c.t, 6); got != float64(c.want) {
			t.Errorf("opponent moving %v, saw taken moving %v at tick %d (%s): %v points, want %d", c.oDir, c.d, c.t, c.about, got, c.want)
		}
	}
}

// TestSawIsSought: a saw two cells out of our land (columns 2..6, rows
// 2..6) at (8, 4), straight ahead of us at (4, 4) moving right; the
// opponent stands on row 4 at (20, 4) moving left along it, far enough
// that we take the saw first. With w_saw on and a single drawn path, the
// way to the saw and back is the loop chosen: its walk holds the saw's
// cell, and the move is right. The decision allocates nothing.
func TestSawIsSought(t *testing.T) {
	s := twoLands(t, box{2, 6, 2, 6}, box{18, 25, 2, 8})
	me, o := &s.Players[0], &s.Players[1]
	put(me, 4, 4, paperio.Right)
	put(o, 20, 4, paperio.Left)
	saw := paperio.CellAt(8, 4)
	if err := s.AddBonus(paperio.MapBonus{Kind: paperio.Saw, Cell: saw}); err != nil {
		t.Fatal(err)
	}
	b := mustBot(t, New2, params2(param.Values{"paths": 1, "depth": 0}), 1)
	d := b.Command(s, me.ID)
	if d != paperio.Right || !slices.Contains(b.plan, saw) {
		t.Fatalf("w_saw=1: move %v, loop %v; want right, through the saw at %v", d, b.plan, saw)
	}
	// The ways to the saws use the bot's own buffers.
	if n := testing.AllocsPerRun(20, func() { b.Command(s, me.ID) }); n != 0 {
		t.Errorf("a decision with a saw on the map allocates %v times", n)
	}
}
