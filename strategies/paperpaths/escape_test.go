package paperpaths

import (
	"testing"

	"gauntlet/referees/paperio"
	"gauntlet/strategies/param"
)

// TestEscapeTurnsAwayFromTheOpponent: we (player 1, land rows 10..12 of
// columns 8..22) are out at (16, 14) moving up with a two-cell trail; the
// opponent stands at (14, 14) on its own land, moving right, two cells
// from our head, so no loop can close before it reaches the trail. Both
// sideways moves are two cells from home; the one away from the opponent
// leaves it longer to reach the new cells, and escape=1 takes it.
func TestEscapeTurnsAwayFromTheOpponent(t *testing.T) {
	s := twoLands(t, box{8, 22, 10, 12}, box{12, 14, 14, 16})
	me, o := &s.Players[0], &s.Players[1]
	lay(me, paperio.CellAt(16, 13), paperio.CellAt(16, 14))
	put(me, 16, 14, paperio.Up)
	put(o, 14, 14, paperio.Right)
	move := func(escape int) paperio.Dir {
		b := mustBot(t, New2, params2(param.Values{"escape": float64(escape), "depth": 0}), 1)
		d := b.Command(s, me.ID)
		if !b.fellBack {
			t.Fatalf("escape=%d: a safe loop was found; the position should have none", escape)
		}
		return d
	}
	on, off := move(1), move(0)
	t.Logf("escape=1 moves %v, escape=0 (shortest way home) %v", on, off)
	if on != paperio.Right {
		t.Fatalf("escape=1 moves %v, want right (away from the opponent)", on)
	}
}
