package paperpaths

import (
	"testing"

	"gauntlet/referees/paperio"
	"gauntlet/strategies/param"
)

// countingBot counts the decisions taken with a trail out that found no
// safe loop.
type countingBot struct {
	*Bot
	decisions, fellBack int
}

func (c *countingBot) Command(s *paperio.State, id int) paperio.Dir {
	d := c.Bot.Command(s, id)
	if p := s.Player(id); p != nil && p.NLines > 0 {
		c.decisions++
		if c.Bot.fellBack {
			c.fellBack++
		}
	}
	return d
}

// TestKeepPlanFallsBackLess: on a small path budget, a bot that checks its
// last loop again finds no safe loop, with a trail out, less often than
// one that only draws new loops (games against simple on the same seeds).
func TestKeepPlanFallsBackLess(t *testing.T) {
	seeds := int64(3)
	if testing.Short() {
		seeds = 1
	}
	rate := func(keep int) (int, int) {
		fell, all := 0, 0
		for seed := int64(1); seed <= seeds; seed++ {
			b := mustBot(t, New2, params2(param.Values{"paths": 4, "keep_plan": float64(keep)}), uint64(seed))
			c := &countingBot{Bot: b}
			play(t, seed, []paperio.Bot{c, simple(t, uint64(seed)+100)})
			fell += c.fellBack
			all += c.decisions
		}
		return fell, all
	}
	fk, ak := rate(1)
	fn, an := rate(0)
	t.Logf("no safe loop with a trail out: keep_plan=1 %d of %d decisions, keep_plan=0 %d of %d", fk, ak, fn, an)
	if float64(fk)/float64(max(ak, 1)) >= float64(fn)/float64(max(an, 1)) {
		t.Fatalf("keep_plan=1 fell back in %d of %d decisions, keep_plan=0 in %d of %d", fk, ak, fn, an)
	}
}
