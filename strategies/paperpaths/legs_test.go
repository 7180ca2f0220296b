package paperpaths

import (
	"slices"
	"testing"

	"gauntlet/referees/paperio"
	"gauntlet/strategies/param"
)

// bandState: we own the top five rows (26..30) and stand on the lowest at
// (2, 26) moving down; the opponent owns the corner box 26..30 × 0..4 and
// stands in it. Below us lies neutral land a wide loop can take.
func bandState(t *testing.T) *paperio.State {
	t.Helper()
	s := twoLands(t, box{0, 30, 26, 30}, box{26, 30, 0, 4})
	put(&s.Players[0], 2, 26, paperio.Down)
	put(&s.Players[1], 28, 2, paperio.Left)
	return s
}

// TestLegsShapes: every script tryLegs scores runs from the head cell by cell,
// in at most two straight legs of at most n cells, never first against the
// head's direction nor off the map, and each shape comes once; from the
// band's edge it holds the rectangle down 6, right 12.
func TestLegsShapes(t *testing.T) {
	s := bandState(t)
	b := mustBot(t, New2, params2(nil), 1)
	p := &s.Players[0]
	const n = 12
	var want []paperio.Cell // down 6, right 12
	for j := 25; j >= 20; j-- {
		want = append(want, paperio.CellAt(2, j))
	}
	for i := 3; i <= 14; i++ {
		want = append(want, paperio.CellAt(i, 20))
	}
	seen := map[string]bool{}
	var rect bool
	b.tryLegs(p, p.Cell(), n, func(script []paperio.Cell) {
		key := ""
		prev, dir, turns, run := p.Cell(), paperio.DirNone, 0, 0
		for i, c := range script {
			d, ok := dirTo(prev, c)
			if !ok {
				t.Fatalf("script %v: cell %d is not next to the one before", script, i)
			}
			if i == 0 && !p.CanTurn(d) {
				t.Fatalf("script %v starts %v, against the head's direction %v", script, d, p.Dir)
			}
			if d != dir {
				if dir != paperio.DirNone {
					turns++
				}
				dir, run = d, 0
			}
			run++
			if run > n {
				t.Fatalf("script %v: a leg longer than %d", script, n)
			}
			key += d.String()
			prev = c
		}
		if turns > 1 {
			t.Fatalf("script %v turns %d times", script, turns)
		}
		if seen[key] {
			t.Fatalf("script %v scored twice", script)
		}
		seen[key] = true
		rect = rect || slices.Equal(script, want)
	})
	t.Logf("%d scripts", len(seen))
	if !rect {
		t.Fatal("the rectangle down 6, right 12 was not scored")
	}
}

// TestLegsFindTheWideLoop: from the band's edge the best of the legs'
// scripts scores above the best of as many random draws, and with a single
// draw a decision of this game of two with duel_legs=12 takes a loop
// capturing more than one with legs=12 (the six-player value) alone.
func TestLegsFindTheWideLoop(t *testing.T) {
	s := bandState(t)
	p := &s.Players[0]
	b := mustBot(t, New2, params2(nil), 1)
	sample := sampler(t, s, nil)
	scripts, legsBest := 0, -1.0
	b.tryLegs(p, p.Cell(), 12, func(script []paperio.Cell) {
		scripts++
		if score, ok := sample(script); ok {
			legsBest = max(legsBest, score)
		}
	})
	drawn := bestSample(t, s, nil, scripts)
	t.Logf("%d scripts: best %.3f; as many draws: best %.3f", scripts, legsBest, drawn)
	if legsBest <= drawn {
		t.Errorf("the legs' best loop scores %.3f, no more than %d random draws' %.3f", legsBest, scripts, drawn)
	}
	captured := func(v param.Values) int {
		s := bandState(t)
		bot := mustBot(t, New2, params2(v), 1)
		bot.Command(s, s.Players[0].ID)
		if len(bot.plan) == 0 {
			t.Fatalf("%v: no loop chosen", v)
		}
		got := paperio.Capture(&s.Players[0].Terr, bot.plan)
		return got.Count()
	}
	// A game of two: duel_legs, not legs, counts.
	on, off := captured(param.Values{"paths": 1, "duel_legs": 12}), captured(param.Values{"paths": 1, "legs": 12})
	t.Logf("one draw: the loop chosen captures %d cells with duel_legs=12, %d with legs=12 only", on, off)
	if on <= off {
		t.Errorf("duel_legs=12 captures %d cells, no more than %d with legs=12 only", on, off)
	}
}

// BenchmarkDecisionLegs is BenchmarkDecision2 (six players) with legs=15:
// the legs' scripts scored beside the same path budget.
func BenchmarkDecisionLegs(b *testing.B) {
	bot := mustBot(b, New2, params2(param.Values{"legs": 15}), 1)
	benchDecision(b, bot)
}
