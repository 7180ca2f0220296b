package paperpaths

import (
	"slices"
	"testing"

	"gauntlet/referees/paperio"
	"gauntlet/strategies/param"
)

// TestEndPow: in the game's last end_ticks ticks, loops compared by their
// value alone (end_pow=0) make the decision take a longer loop than the
// value per tick does; before them it is the same loop.
func TestEndPow(t *testing.T) {
	last := paperio.DefaultRules().MaxTickCount
	loop := func(v param.Values, tick int) []paperio.Cell {
		s := twoLands(t, box{4, 14, 4, 14}, box{16, 26, 16, 26})
		s.Tick = tick
		put(&s.Players[1], 26, 26, paperio.Left)
		v["paths"] = 2000
		b := mustBot(t, New2, params2(v), 1)
		b.Command(s, 1)
		return b.plan
	}
	end := param.Values{"duel_end_ticks": 400, "duel_end_pow": 0}
	before, beforeEnd := loop(param.Values{}, 1), loop(end, 1)
	if !slices.Equal(before, beforeEnd) {
		t.Errorf("tick 1, before the last 400 ticks: end_ticks changed the loop from %d cells to %d", len(before), len(beforeEnd))
	}
	within, withinEnd := loop(param.Values{}, last-300), loop(end, last-300)
	t.Logf("loop walked: %d cells by the value per tick, %d by the value alone", len(within), len(withinEnd))
	if len(withinEnd) <= len(within) {
		t.Errorf("tick %d, within the last 400 ticks: the value alone took a loop of %d cells, want more than the %d of the value per tick", last-300, len(withinEnd), len(within))
	}
}
