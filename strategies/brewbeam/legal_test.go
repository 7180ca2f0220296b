package brewbeam

import (
	"bytes"
	"context"
	"testing"

	"gauntlet/referees/brew"
	"gauntlet/strategies/brewbasic"
	"gauntlet/strategies/param"
)

// checked wraps a bot and fails the test on any action that would not take
// effect (WAIT excepted, which is always allowed) or on a fallback.
type checked struct {
	t    *testing.T
	b    *Beam
	acts int
}

func (c *checked) Act(s *brew.State, me int) brew.Action {
	before := *s
	a := c.b.Act(s, me)
	if *s != before {
		c.t.Fatalf("round %d: Act modified the state", s.Round)
	}
	if ok, why := s.Valid(me, a); !ok && a.Kind != brew.Wait {
		c.t.Fatalf("round %d seat %d: %v is not legal: %s", s.Round, me, a, why)
	}
	if !a.Expressible(s.League) {
		c.t.Fatalf("round %d: %v is not expressible", s.Round, a)
	}
	if c.b.Stats().Fallback {
		c.t.Fatalf("round %d: search fell back to the first legal action", s.Round)
	}
	c.acts++
	return a
}

func TestAlwaysLegal(t *testing.T) {
	configs := []param.Values{
		nil,
		{"width": 1, "depth": 1},
		{"width": 3, "depth": 40, "nodes": 100},
		{"opp_model": 0, "learn_turns": 100, "width": 50},
		{"time_ms": 5, "width": 200},
	}
	for ci, v := range configs {
		for seed := int64(1); seed <= 6; seed++ {
			b := mustBeam(t, v, uint64(seed))
			c := &checked{t: t, b: b}
			var opp brew.Bot
			switch seed % 3 {
			case 0:
				r, err := brewbasic.NewRandom(nil, uint64(seed))
				if err != nil {
					t.Fatal(err)
				}
				opp = r
			case 1:
				opp = mustGreedy(t, uint64(seed))
			default:
				opp = mustBeam(t, nil, 9)
			}
			bots := [brew.Players]brew.Bot{c, opp}
			if seed%2 == 0 {
				bots = [brew.Players]brew.Bot{opp, c}
			}
			s, err := brew.New(seed, 3)
			if err != nil {
				t.Fatal(err)
			}
			var view brew.State
			if err := brew.Play(&s, bots, &view); err != nil {
				t.Fatal(err)
			}
			if !s.P[0].Active || !s.P[1].Active {
				t.Fatalf("config %d seed %d: a player was deactivated", ci, seed)
			}
			if c.acts == 0 {
				t.Fatalf("config %d seed %d: no action checked", ci, seed)
			}
		}
	}
}

func TestLowerLeagues(t *testing.T) {
	for league := 1; league <= 2; league++ {
		c := &checked{t: t, b: mustBeam(t, nil, 1)}
		g := mustGreedy(t, 1)
		s, err := brew.New(3, league)
		if err != nil {
			t.Fatal(err)
		}
		var view brew.State
		if err := brew.Play(&s, [brew.Players]brew.Bot{c, g}, &view); err != nil {
			t.Fatal(err)
		}
		if !s.P[0].Active {
			t.Fatalf("league %d: brewbeam deactivated", league)
		}
	}
}

func TestDeterministic(t *testing.T) {
	record := func(seed int64) string {
		var buf bytes.Buffer
		b0, b1 := mustBeam(t, nil, 5), mustGreedy(t, 5)
		_, err := brew.PlayMatch(context.Background(), seed, 3,
			[brew.Players]brew.Agent{{Bot: b0}, {Bot: b1}}, brew.MatchOptions{NoTimeLimit: true, Record: &buf})
		if err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	for seed := int64(1); seed <= 3; seed++ {
		if a, b := record(seed), record(seed); a != b {
			t.Fatalf("seed %d: two runs differ:\n%s\n%s", seed, a, b)
		}
	}
}

func TestParamsRejected(t *testing.T) {
	if err := Params.Check(); err != nil {
		t.Fatal(err)
	}
	for _, v := range []param.Values{{"width": 0}, {"discount": 2}, {"nope": 1}} {
		if _, err := New(v, 1); err == nil {
			t.Errorf("New(%v) accepted a bad value", v)
		}
	}
}

func TestSelectTop(t *testing.T) {
	evals := []float32{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4}
	for k := 1; k <= len(evals); k++ {
		ns := make([]node, len(evals))
		for i, e := range evals {
			ns[i].eval = e
		}
		selectTop(ns, k)
		minTop := ns[0].eval
		for _, n := range ns[:k] {
			minTop = min(minTop, n.eval)
		}
		for _, n := range ns[k:] {
			if n.eval > minTop {
				t.Fatalf("k=%d: %v outside the top beats %v inside", k, n.eval, minTop)
			}
		}
	}
}
