package towersgreedy

import (
	"context"
	"testing"

	"gauntlet/referees/towers"
	"gauntlet/strategies/param"
)

// TestSolvesDeals plays the deals of seeds 1..n of each level and replays
// every answer with the referee.
func TestSolvesDeals(t *testing.T) {
	n := 20
	if testing.Short() {
		n = 4
	}
	g, err := New(param.Values{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	var s towers.Solver
	for _, colours := range []int{4, 6, 8} {
		gap := 0
		for seed := 1; seed <= n; seed++ {
			st, info, err := towers.Deal(context.Background(), &s, colours, uint64(seed))
			if err != nil {
				t.Fatal(err)
			}
			moves, err := g.Solve(context.Background(), st)
			if err != nil {
				t.Fatalf("%d colours seed %d: %v", colours, seed, err)
			}
			if r := towers.ReplayMoves(st.Layout(), moves); !r.Solved || r.Error != "" || len(moves) < info.Optimum {
				t.Fatalf("%d colours seed %d: %d moves (optimum %d) replay as %+v", colours, seed, len(moves), info.Optimum, r)
			}
			gap += len(moves) - info.Optimum
		}
		t.Logf("%d colours, seeds 1..%d: mean gap %.2f", colours, n, float64(gap)/float64(n))
	}
}
