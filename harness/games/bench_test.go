package games

import (
	"context"
	"fmt"
	"testing"

	"gauntlet/harness"
	"gauntlet/referees/brew"
	"gauntlet/strategies/brewbasic"
	"gauntlet/strategies/param"
)

const benchGames = 64

// BenchmarkBrewBare is the floor for the harness benchmarks: the same 64
// games (greedy against random, seeds 1..64) played by a plain loop over
// the referee, with bots built as the harness builds them.
func BenchmarkBrewBare(b *testing.B) {
	gv, _ := brewbasic.GreedyParams.Validate(param.Values{})
	rv, _ := brewbasic.RandomParams.Validate(param.Values{})
	b.ReportAllocs()
	for b.Loop() {
		for s := 1; s <= benchGames; s++ {
			g, _ := brewbasic.NewGreedy(gv, harness.PlayerSeed(uint64(s), 0))
			r, _ := brewbasic.NewRandom(rv, harness.PlayerSeed(uint64(s), 1))
			if _, err := brew.PlayMatch(context.Background(), int64(s), 3, [2]brew.Agent{{Bot: g}, {Bot: r}}, brew.MatchOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N*benchGames)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkBrewHarness plays the same games through the harness runner
// (plan, entrants, errgroup, summaries; no store) with 1, 2 and 4 jobs.
// Compare jobs=1 with BenchmarkBrewBare for the harness's overhead.
func BenchmarkBrewHarness(b *testing.B) {
	g, _ := harness.Default.Game("brew")
	a, _ := harness.Default.ParseEntrant("brew", "greedy")
	o, _ := harness.Default.ParseEntrant("brew", "random")
	plan, err := harness.EvalPlan(g, fmt.Sprintf("seeds:%d", benchGames), a, []*harness.Entrant{o}, "")
	if err != nil {
		b.Fatal(err)
	}
	for _, jobs := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				rs, err := (&harness.Runner{Jobs: jobs}).Run(context.Background(), plan, nil)
				if err != nil {
					b.Fatal(err)
				}
				if harness.SummarizeEval(rs).Games != benchGames {
					b.Fatal("games missing")
				}
			}
			b.ReportMetric(float64(b.N*benchGames)/b.Elapsed().Seconds(), "games/s")
		})
	}
}
