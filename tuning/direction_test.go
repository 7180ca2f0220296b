package tuning

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"gauntlet/harness/contract"
)

// meanValue is the mean value of trials [from, to) with a value.
func meanValue(s *Summary, from, to int) float64 {
	sum, n := 0.0, 0
	for _, tr := range s.Trials[from:min(to, len(s.Trials))] {
		if tr.Value != nil {
			sum += *tr.Value
			n++
		}
	}
	return sum / float64(n)
}

// A lower-is-better game makes a minimising study: every sampler finds
// configurations with lower costs than the default, the best trial is the
// lowest, and the improvement is default − best, positive.
func TestMinimizingStudyFindsTheMinimum(t *testing.T) {
	for _, sampler := range []string{"tpe", "random", "cmaes"} {
		t.Run(sampler, func(t *testing.T) {
			reg := toyRegistry(0)
			c := Config{Game: "cost", Strategy: "dial", Cases: "seeds:4", Sampler: sampler, Seed: 7, Space: []string{"x", "k"}}
			s := runStudy(t, reg, sqliteURL(t), "min", c, 40)
			if s.Direction == contract.Higher || s.BestValue == nil || s.DefaultValue == nil || s.Improvement == nil {
				t.Fatalf("minimize %v best %v default %v improvement %v", s.Direction == contract.Lower, s.BestValue, s.DefaultValue, s.Improvement)
			}
			for _, tr := range s.Trials {
				if tr.State == StateComplete && *tr.Value < *s.BestValue {
					t.Fatalf("trial %d has value %v below the best %v", tr.Number, *tr.Value, *s.BestValue)
				}
			}
			if got, want := *s.Improvement, *s.DefaultValue-*s.BestValue; math.Abs(got-want) > 1e-9 || got <= 0 {
				t.Fatalf("improvement %v, want default − best = %v > 0", got, want)
			}
			// The cost is 200 − quality: 100 at x=7, k=5 (plus noise 0..4
			// and the default's mode and lr).
			x, k := s.BestParams["x"].(float64), s.BestParams["k"]
			if math.Abs(x-7) > 1.5 {
				t.Errorf("best x = %v, want about 7 (k %v)", x, k)
			}
			first, last := meanValue(s, 1, 11), meanValue(s, 25, 40)
			t.Logf("%s: best %.2f at x=%.2f k=%v, default %.2f; mean cost of trials 1-10 %.2f, 25-39 %.2f",
				sampler, *s.BestValue, x, k, *s.DefaultValue, first, last)
			if sampler != "random" && last >= first {
				t.Errorf("%s: later trials cost %.2f on average, earlier ones %.2f: the search went the wrong way", sampler, last, first)
			}
		})
	}
}

// CMA-ES of Goptuna v0.9.0 always minimises: in a maximising study its
// later trials must still be better than its first ones.
func TestCMAESFollowsTheStudyDirection(t *testing.T) {
	for _, game := range []string{"knob", "cost"} {
		reg := toyRegistry(0)
		c := Config{Game: game, Strategy: "dial", Cases: "seeds:4", Sampler: "cmaes", Seed: 3, Space: []string{"x", "k"}}
		s := runStudy(t, reg, sqliteURL(t), "cma", c, 40)
		first, last := meanValue(s, 1, 11), meanValue(s, 25, 40)
		better := last > first
		if game == "cost" {
			better = last < first
		}
		t.Logf("%s: mean value of trials 1-10 %.2f, 25-39 %.2f; best %.2f", game, first, last, *s.BestValue)
		if !better {
			t.Errorf("%s: CMA-ES went the wrong way: trials 1-10 %.2f on average, 25-39 %.2f", game, first, last)
		}
	}
}

// Against opponents a lower-is-better game is still a maximised score
// fraction: the lower cost wins the game.
func TestPoolObjectiveLowerIsBetter(t *testing.T) {
	reg := toyRegistry(0)
	tu, err := New(reg, Config{Game: "costduel", Strategy: "dial", Cases: "seeds:6", Opponents: "fixed:q=50"})
	if err != nil {
		t.Fatal(err)
	}
	if tu.Spec().Direction == contract.Lower {
		t.Fatal("a score fraction against opponents must be maximised")
	}
	good, err := tu.Play(context.Background(), map[string]float64{"x": 7, "k": 5, "mode": 2, "lr": 0.1}, 0, 6, 2, hplay)
	if err != nil {
		t.Fatal(err)
	}
	bad, err := tu.Play(context.Background(), map[string]float64{"x": 0, "k": 0, "mode": 0, "lr": 0.001}, 0, 6, 2, hplay)
	if err != nil {
		t.Fatal(err)
	}
	for i := range good {
		if good[i] != 1 || bad[i] != 0 {
			t.Fatalf("unit %d: the best configuration scores %v, the worst %v; want 1 and 0", i, good[i], bad[i])
		}
	}
}

// TestFillersSeatEveryGame: with fillers, every game of a study seats the
// candidate, one opponent of the pool and the fillers (not the opponent
// again), seats swapped between the two games of a case; the stored
// definition names them and rebuilds the same games; a game of at most two
// seats or a single-player game takes none.
func TestFillersSeatEveryGame(t *testing.T) {
	reg := toyRegistry(0)
	c := Config{Game: "party", Strategy: "dial", Cases: "seeds:3", Opponents: "fixed:q=60", Fillers: "fixed:q=90*2"}
	tu, err := New(reg, c)
	if err != nil {
		t.Fatal(err)
	}
	if got := tu.Spec().Fillers; len(got) != 2 || got[0] != got[1] || !strings.Contains(got[0], "q=90") {
		t.Fatalf("spec fillers %v, want fixed at q=90 twice", got)
	}
	again, err := FromSpec(reg, tu.Spec())
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []*Tuner{tu, again} {
		if len(x.units) != 3 {
			t.Fatalf("%d units for 3 cases against one opponent", len(x.units))
		}
		for _, u := range x.units {
			for j, m := range u.matches {
				// Entrants: 0 the candidate, 1 the opponent, 2 and 3 the fillers.
				if len(m.Seats) != 4 || m.Seats[u.candSeat[j]] != 0 || m.Seats[u.oppSeat[j]] != 1 ||
					!slices.Contains(m.Seats, 2) || !slices.Contains(m.Seats, 3) {
					t.Fatalf("%s: seats %v (candidate at %d, opponent at %d)", m.Key, m.Seats, u.candSeat[j], u.oppSeat[j])
				}
			}
			if u.candSeat[0] == u.candSeat[1] {
				t.Fatalf("%s: the candidate keeps seat %d in both games", u.Key, u.candSeat[0])
			}
		}
	}
	// The candidate at its defaults is far below the opponent: every unit
	// is lost, whatever the fillers score.
	scores, err := tu.Play(context.Background(), tu.Space().Base, 0, 3, 2, contract.PlayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range scores {
		if x != 0 {
			t.Errorf("unit %d: score %v, want 0 (the opponent scores more in every game)", i, x)
		}
	}
	for _, bad := range []Config{
		{Game: "duel", Strategy: "dial", Cases: "seeds:3", Opponents: "fixed", Fillers: "fixed"},
		{Game: "knob", Strategy: "dial", Cases: "seeds:3", Fillers: "fixed"},
		{Game: "party", Strategy: "dial", Cases: "seeds:3", Opponents: "fixed", Fillers: "fixed*3"},
	} {
		if _, err := New(reg, bad); err == nil {
			t.Errorf("%s with fillers %q: no error", bad.Game, bad.Fillers)
		}
	}
}
