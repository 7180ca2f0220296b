package games

import (
	"context"
	"testing"

	"gauntlet/harness/contract"
	"gauntlet/harness/results"
	"gauntlet/harness/runner"
)

// TestBrewGreedyBeatsRandom: on the real referee, the one-ply heuristic
// beats the random player and the SPRT accepts H1 early, with the results
// the same whatever the number of jobs.
func TestBrewGreedyBeatsRandom(t *testing.T) {
	g, err := contract.Default.Game("brew")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := results.ParseSPRT("0,10")
	if err != nil {
		t.Fatal(err)
	}
	var first *results.ABSummary
	for _, jobs := range []int{1, 3} {
		plan, err := runner.ABPlan(g, "seeds:300", mustEntrant(t, "brew", "greedy"), mustEntrant(t, "brew", "random"), nil, 600, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		stop, err := results.NewSPRTStopper(plan, sp)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := (&runner.Runner{Jobs: jobs}).Run(context.Background(), plan, stop)
		if err != nil {
			t.Fatal(err)
		}
		s, err := results.SummarizeAB(rs, sp)
		if err != nil {
			t.Fatal(err)
		}
		if s.SPRT != "H1" || !s.Stopped || s.Score < 0.9 || s.Elo < 100 || s.Games >= 600 {
			t.Fatalf("greedy vs random, jobs %d: sprt %s stopped %v score %.3f elo %.1f games %d", jobs, s.SPRT, s.Stopped, s.Score, s.Elo, s.Games)
		}
		if first == nil {
			first = s
			t.Logf("greedy vs random: %d games, +%d =%d -%d, Elo %+.0f, SPRT %s", s.Games, s.Wins, s.Draws, s.Losses, s.Elo, s.SPRT)
		} else if s.Games != first.Games || s.Wins != first.Wins || s.LLR != first.LLR {
			t.Fatalf("jobs 1 and 3 differ: %d games +%d LLR %v against %d games +%d LLR %v", first.Games, first.Wins, first.LLR, s.Games, s.Wins, s.LLR)
		}
	}
}
