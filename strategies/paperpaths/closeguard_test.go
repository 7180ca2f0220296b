package paperpaths

import (
	"testing"

	"gauntlet/referees/paperio"
	"gauntlet/strategies/param"
)

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
	for _, c := range []struct {
		guard float64
		safe  bool
	}{{0, true}, {5, true}, {6, true}, {6.5, false}, {8, false}} {
		b, err := New2(params2(param.Values{"close_guard": c.guard}), 1)
		if err != nil {
			t.Fatal(err)
		}
		b.survey(s, me.ID)
		b.left = int32(s.Rules.MaxTickCount - s.Tick) // as Command sets it
		if got := b.arrive[closing[0]]; got != 12 {
			t.Fatalf("the opponent reaches the closing cell in %d ticks, want 12", got)
		}
		trailArrive := int32(unreached)
		for _, c := range me.Trail() {
			trailArrive = min(trailArrive, b.arrive[c])
		}
		var enemy paperio.Bits
		enemy.Or(&o.Terr)
		pr := heldProfile(me)
		_, _, ok := b.samplePath(s, me, me.Cell(), me.Trail(), trailArrive, 12, pr, &enemy, closing)
		if ok != c.safe {
			t.Errorf("close_guard %v: loop closing at %v in 6 ticks safe = %v, want %v", c.guard, closing[0], ok, c.safe)
		}
	}
}
