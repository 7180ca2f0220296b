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
	n, levels := 20, []int{4, 6, 8}
	if testing.Short() {
		n, levels = 4, levels[:2]
	}
	g, err := New(param.Values{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	var s towers.Solver
	for _, colours := range levels {
		gap := 0
		for seed := 1; seed <= n; seed++ {
			st, _, err := towers.Deal(context.Background(), &s, colours, uint64(seed))
			if err != nil {
				t.Fatal(err)
			}
			best, err := s.Solve(context.Background(), st, towers.SolveOptions{Optimal: true})
			if err != nil {
				t.Fatal(err)
			}
			opt := len(best.Moves)
			moves, err := g.Solve(context.Background(), st)
			if err != nil {
				t.Fatalf("%d colours seed %d: %v", colours, seed, err)
			}
			if r := towers.ReplayMoves(st.Layout(), moves); !r.Solved || r.Error != "" || len(moves) < opt {
				t.Fatalf("%d colours seed %d: %d moves (optimum %d) replay as %+v", colours, seed, len(moves), opt, r)
			}
			gap += len(moves) - opt
		}
		t.Logf("%d colours, seeds 1..%d: mean gap %.2f", colours, n, float64(gap)/float64(n))
	}
}

// BenchmarkGreedy solves the deals of hanoi seeds 1..5.
func BenchmarkGreedy(b *testing.B) {
	var s towers.Solver
	var sts []towers.State
	for seed := uint64(1); seed <= 5; seed++ {
		st, _, err := towers.Deal(context.Background(), &s, 6, seed)
		if err != nil {
			b.Fatal(err)
		}
		sts = append(sts, st)
	}
	g, err := New(param.Values{}, 1)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, st := range sts {
			if _, err := g.Solve(context.Background(), st); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N*len(sts)), "ms/deal")
}
