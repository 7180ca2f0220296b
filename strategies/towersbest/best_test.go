package towersbest

import (
	"context"
	"os"
	"testing"

	"gauntlet/referees/towers"
	"gauntlet/strategies/param"
)

// deals returns the deals of seeds 1..n with their optima.
func deals(t testing.TB, colours, n int) ([]towers.State, []int) {
	t.Helper()
	var s towers.Solver
	var sts []towers.State
	var opt []int
	for seed := 1; seed <= n; seed++ {
		st, _, err := towers.Deal(context.Background(), &s, colours, uint64(seed))
		if err != nil {
			t.Fatal(err)
		}
		best, err := s.Solve(context.Background(), st, towers.SolveOptions{Optimal: true})
		if err != nil {
			t.Fatal(err)
		}
		sts = append(sts, st)
		opt = append(opt, len(best.Moves))
	}
	return sts, opt
}

// solveAll plays bot on the deals, checks every solution with the referee
// and returns the mean gap to the optimum.
func solveAll(t testing.TB, bot towers.Bot, sts []towers.State, opt []int) float64 {
	t.Helper()
	gap := 0
	for i, st := range sts {
		moves, err := bot.Solve(context.Background(), st)
		if err != nil {
			t.Fatalf("deal %d: %v", i+1, err)
		}
		r := towers.ReplayMoves(st.Layout(), moves)
		if !r.Solved || r.Error != "" {
			t.Fatalf("deal %d: the solution replays as %+v", i+1, r)
		}
		if len(moves) < opt[i] {
			t.Fatalf("deal %d: %d moves, shorter than the proved optimum %d", i+1, len(moves), opt[i])
		}
		gap += len(moves) - opt[i]
	}
	return float64(gap) / float64(len(sts))
}

func TestSolvesSmallDeals(t *testing.T) {
	sts, opt := deals(t, 4, 5)
	b, err := New(param.Values{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("african 1..5: mean gap %.2f", solveAll(t, b, sts, opt))
}

// TestStrength reports the mean gap to the optimum on hanoi:50 and
// sarov:20 (TOWERS_PARAMS="k=v,..." to try other values).
func TestStrength(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	var extra []string
	if p := os.Getenv("TOWERS_PARAMS"); p != "" {
		extra = append(extra, p)
	}
	v, err := Params.Parse(extra...)
	if err != nil {
		t.Fatal(err)
	}
	for _, lv := range []struct {
		colours, n int
		maxGap     float64
	}{{6, 50, 0.5}, {8, 20, 2}} {
		sts, opt := deals(t, lv.colours, lv.n)
		b, err := New(v, 1)
		if err != nil {
			t.Fatal(err)
		}
		gap := solveAll(t, b, sts, opt)
		t.Logf("%d colours, %d deals: mean gap %.2f", lv.colours, lv.n, gap)
		if os.Getenv("TOWERS_PARAMS") == "" && gap > lv.maxGap {
			t.Errorf("mean gap %.2f at the defaults; want at most %.2f", gap, lv.maxGap)
		}
	}
}

// BenchmarkBest solves the deals of hanoi seeds 1..5 at the defaults.
func BenchmarkBest(b *testing.B) {
	sts, _ := deals(b, 6, 5)
	bot, err := New(param.Values{}, 1)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, st := range sts {
			if _, err := bot.Solve(context.Background(), st); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N*len(sts)), "ms/deal")
}
