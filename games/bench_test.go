package games

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/results"
	"gauntlet/harness/runner"
	"gauntlet/harness/store"
	"gauntlet/referees/brew"
	"gauntlet/strategies/brewbasic"
	"gauntlet/strategies/param"
)

const benchGames = 64

// BenchmarkBrewBare is the floor for the harness benchmarks: the same 64
// games (greedy against random, seeds 1..64) played by a plain loop over
// the referee, with bots built as the harness builds them.
func BenchmarkBrewBare(b *testing.B) {
	gv, err := brewbasic.GreedyParams.Validate(param.Values{})
	if err != nil {
		b.Fatal(err)
	}
	rv, err := brewbasic.RandomParams.Validate(param.Values{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		for s := 1; s <= benchGames; s++ {
			g, err := brewbasic.NewGreedy(gv, runner.PlayerSeed(uint64(s), 0))
			if err != nil {
				b.Fatal(err)
			}
			r, err := brewbasic.NewRandom(rv, runner.PlayerSeed(uint64(s), 1))
			if err != nil {
				b.Fatal(err)
			}
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
	g, a, o := mustGame(b, "brew"), mustEntrant(b, "brew", "greedy"), mustEntrant(b, "brew", "random")
	plan, err := runner.EvalPlan(g, fmt.Sprintf("seeds:%d", benchGames), a, []*entrant.Entrant{o}, "")
	if err != nil {
		b.Fatal(err)
	}
	for _, jobs := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				rs, err := (&runner.Runner{Jobs: jobs}).Run(context.Background(), plan, nil)
				if err != nil {
					b.Fatal(err)
				}
				if results.SummarizeEval(rs).Games != benchGames {
					b.Fatal("games missing")
				}
			}
			b.ReportMetric(float64(b.N*benchGames)/b.Elapsed().Seconds(), "games/s")
		})
	}
}

// BenchmarkBrewStore plays the 2,000 games greedy against random through the
// runner with each store at 1 and 2 jobs, as `gauntlet eval` does: every
// result is stored (one SQLite file, a new run per round). Compare games/s with
// BenchmarkBrewBare for the harness's overhead with a store.
func BenchmarkBrewStore(b *testing.B) {
	const n = 2000
	g, a, o := mustGame(b, "brew"), mustEntrant(b, "brew", "greedy"), mustEntrant(b, "brew", "random")
	for _, store := range []string{"none", "sqlite"} {
		for _, jobs := range []int{1, 2} {
			b.Run(fmt.Sprintf("store=%s/jobs=%d", store, jobs), func(b *testing.B) {
				rn := &runner.Runner{Jobs: jobs, Store: benchStore(b, store)}
				b.ReportAllocs()
				round := 0
				for b.Loop() {
					round++
					plan, err := runner.EvalPlan(g, fmt.Sprintf("seeds:%d", n), a, []*entrant.Entrant{o}, fmt.Sprintf("bench-%d", round))
					if err != nil {
						b.Fatal(err)
					}
					rs, err := rn.Run(context.Background(), plan, nil)
					if err != nil {
						b.Fatal(err)
					}
					if rs.Played != n {
						b.Fatalf("played %d, want %d", rs.Played, n)
					}
				}
				b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "games/s")
			})
		}
	}
}

// BenchmarkGameOverhead plays a Paper.io 2-player and the hextris smoke
// set three ways: "bare" calls the game's Play for each match in a plain
// loop (what the harness cannot do without), "none" and "sqlite" run the
// same plan through the runner with one job, without a store and with a
// fresh SQLite store. The games/s of the three give the harness's overhead
// on slower games than brew's.
func BenchmarkGameOverhead(b *testing.B) {
	for _, c := range []struct{ game, strategy, opponents, cases string }{
		{"paperio", "simple", "simple", "seeds:16"},
		{"hextris", "hexgreedy", "", "smoke"},
	} {
		g, err := contract.Default.Game(c.game)
		if err != nil {
			b.Fatal(err)
		}
		a, err := entrant.Parse(contract.Default, c.game, c.strategy)
		if err != nil {
			b.Fatal(err)
		}
		var opps []*entrant.Entrant
		if c.opponents != "" {
			o, err := entrant.Parse(contract.Default, c.game, c.opponents)
			if err != nil {
				b.Fatal(err)
			}
			opps = append(opps, o)
		}
		newPlan := func(b *testing.B, run string) *runner.Plan {
			p, err := runner.EvalPlan(g, c.cases, a, opps, run)
			if err != nil {
				b.Fatal(err)
			}
			return p
		}
		n := len(newPlan(b, "").Matches)
		b.Run(c.game+"/bare", func(b *testing.B) {
			p := newPlan(b, "")
			for b.Loop() {
				for i := range p.Matches {
					if _, _, err := runner.PlayMatch(context.Background(), p, &p.Matches[i], contract.PlayOptions{}); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "games/s")
		})
		for _, store := range []string{"none", "sqlite"} {
			b.Run(c.game+"/"+store, func(b *testing.B) {
				rn := &runner.Runner{Jobs: 1, Store: benchStore(b, store)}
				round := 0
				for b.Loop() {
					round++
					if rs, err := rn.Run(context.Background(), newPlan(b, fmt.Sprintf("bench-%d", round)), nil); err != nil || rs.Played != n {
						b.Fatalf("%v (played %d of %d)", err, rs.Played, n)
					}
				}
				b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "games/s")
			})
		}
	}
}

// benchStore opens a fresh store of the kind named ("none": nil) for a
// benchmark; each round stores a run of its own.
func benchStore(b *testing.B, kind string) *store.Store {
	if kind == "none" {
		return nil
	}
	st, err := store.Open(context.Background(), "sqlite:"+filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return st
}
