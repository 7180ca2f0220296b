package dashboard

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/results"
	"gauntlet/harness/runner"
	"gauntlet/harness/store"
)

// millionGames is the size of the benchmark store's ab run.
const millionGames = 1_000_000

// millionStore makes a store holding one unfinished ab run (brew, greedy
// against random, SPRT 0,10 without early stop) of millionGames stored
// games with seeded random results, in the plan's keys, as its workers
// would have stored them; $GAUNTLET_BENCH_STORE names a file to keep it
// in between runs (it is made when missing). It returns the store's URL
// and the run's ID.
func millionStore(b *testing.B) (string, string) {
	b.Helper()
	ctx := context.Background()
	path := os.Getenv("GAUNTLET_BENCH_STORE")
	if path == "" {
		path = filepath.Join(b.TempDir(), "million.db")
	}
	url := "sqlite:" + path
	g, err := contract.Default.Game("brew")
	if err != nil {
		b.Fatal(err)
	}
	a, err := entrant.Parse(contract.Default, "brew", "greedy")
	if err != nil {
		b.Fatal(err)
	}
	bb, err := entrant.Parse(contract.Default, "brew", "random")
	if err != nil {
		b.Fatal(err)
	}
	sp, err := results.ParseSPRT("0,10")
	if err != nil {
		b.Fatal(err)
	}
	sp.Early = false
	plan, err := runner.ABPlan(g, "seeds:"+strconv.Itoa(millionGames/2), a, bb, nil, millionGames, "million", map[string]any{"sprt": sp})
	if err != nil {
		b.Fatal(err)
	}
	st, err := store.Open(ctx, url)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	if err := st.OpenRun(ctx, &plan.Run); err != nil {
		b.Fatal(err)
	}
	rec, err := st.Run(ctx, plan.Run.ID)
	if err != nil {
		b.Fatal(err)
	}
	if rec.GameCount == len(plan.Matches) {
		return url, plan.Run.ID
	}
	start := time.Now()
	rng := rand.New(rand.NewPCG(1, 2))
	now := time.Now().UTC()
	const batch = 20000
	games := make([]store.GameRecord, 0, batch)
	for i := range plan.Matches {
		m := &plan.Matches[i]
		// A wins about 60% of its games, draws 10%.
		x := rng.Float64()
		sa, sb := 10.0, 5.0
		switch {
		case x < 0.3:
			sa, sb = 5, 10
		case x < 0.4:
			sb = 10
			sa = 10
		}
		seats := []contract.SeatResult{{Score: sa}, {Score: sb}}
		if m.Seats[0] == 1 {
			seats[0], seats[1] = seats[1], seats[0]
		}
		games = append(games, store.GameRecord{Key: m.Key, Index: i, CaseID: m.Case.ID, Seed: m.Case.Seed, Seats: m.Seats,
			Outcome: contract.Outcome{Seats: seats, Turns: 100}, Wall: time.Millisecond, Worker: "bench:" + strconv.Itoa(i%4), Finished: now})
		if len(games) == batch || i == len(plan.Matches)-1 {
			if err := st.SaveGames(ctx, plan.Run.ID, games); err != nil {
				b.Fatal(err)
			}
			games = games[:0]
		}
	}
	b.Logf("made a store of %d games in %s", len(plan.Matches), time.Since(start).Round(time.Millisecond))
	return url, plan.Run.ID
}

// BenchmarkPagesMillionGames times each page and parts endpoint over a
// store of a million games (one unfinished ab run): the index, the run
// page (its statistics computed once in the background, then cached until
// the count moves) and pages of games at its start, middle and end. The
// live statistics' own cost is the "livestats" case (reading every game)
// and the "livestats-follow" case (a follower's later computations).
func BenchmarkPagesMillionGames(b *testing.B) {
	url, id := millionStore(b)
	s, ts := open(b, url)
	b.Run("livestats", func(b *testing.B) {
		for b.Loop() {
			if _, err := results.LoadABSummary(context.Background(), s.store, contract.Default, id); err != nil {
				b.Fatal(err)
			}
		}
	})
	// A dashboard following the run reads it whole once, then at each
	// computation its keys and the games not yet read: here none, the
	// steady cost of a run whose games arrive slowly, the summary included.
	b.Run("livestats-follow", func(b *testing.B) {
		ctx := context.Background()
		f, err := results.Follow(ctx, s.store, contract.Default, id)
		if err != nil {
			b.Fatal(err)
		}
		if err := f.Update(ctx); err != nil {
			b.Fatal(err)
		}
		for b.Loop() { // b.Loop resets the timer at its first call: the Update above is not timed
			if err := f.Update(ctx); err != nil {
				b.Fatal(err)
			}
			if _, err := f.ABSummary(); err != nil {
				b.Fatal(err)
			}
		}
	})
	// A game's replay reads that game alone: the stored results here are
	// made up, so playing it again disagrees with them (an error after
	// the reads this times).
	b.Run("replay-read", func(b *testing.B) {
		for b.Loop() {
			_, _, err := results.WatchStored(context.Background(), s.store, contract.Default, id, "seed:250000/ab")
			if err == nil || !strings.Contains(err.Error(), "played again") {
				b.Fatalf("watching a made-up game: %v, want its replay to disagree with it", err)
			}
		}
	})
	// The run page's statistics are computed once before the pages are
	// timed, as a dashboard left open has them.
	for deadline := time.Now().Add(5 * time.Minute); ; {
		if p := parts(b, ts, "/parts/run/"+id); wdlRE.MatchString(p["result"]) {
			break
		}
		if time.Now().After(deadline) {
			b.Fatal("the run's statistics were not computed in 5 minutes")
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, c := range []struct{ name, path string }{
		{"index", "/"},
		{"index-parts", "/parts/index"},
		{"run", "/run/" + id},
		{"run-parts", "/parts/run/" + id},
		{"run-games-middle", "/run/" + id + "?offset=500000"},
		{"run-games-end", "/run/" + id + "?offset=999950"},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				get(b, ts, c.path, 200)
			}
		})
	}
}
