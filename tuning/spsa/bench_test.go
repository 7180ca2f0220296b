package spsa

import (
	"context"
	"testing"

	"gauntlet/harness/contract"
)

// BenchmarkPlayPair measures SPSA's own cost per iteration around the
// games: the draws, the perturbed values, two entrants, two PlayMatch calls
// on the toy game (whose play costs about a microsecond) and the update.
func BenchmarkPlayPair(b *testing.B) {
	d := &duel{}
	reg := duelRegistry(d)
	s, err := reg.Strategy("duel", "dial")
	if err != nil {
		b.Fatal(err)
	}
	st, err := New(reg, Config{Game: "duel", Target: StrategyTarget{s}, Games: 2000, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	theta := st.space.Theta0()
	b.ReportAllocs()
	k := 0
	for b.Loop() {
		k = k%1000 + 1
		r, err := st.playPair(context.Background(), k, theta, false, contract.PlayOptions{})
		if err != nil {
			b.Fatal(err)
		}
		st.apply(theta, r.update)
	}
}

// BenchmarkCommitBlock measures applying a block of 100 iterations to an
// SQLite study in one transaction (claim and commit), per iteration.
func BenchmarkCommitBlock(b *testing.B) {
	d := &duel{}
	reg := duelRegistry(d)
	s, err := reg.Strategy("duel", "dial")
	if err != nil {
		b.Fatal(err)
	}
	const block = 100
	st, err := New(reg, Config{Game: "duel", Target: StrategyTarget{s}, Games: 2 * block * (b.N + 1), Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	store, err := OpenStorage(context.Background(), "sqlite:"+b.TempDir()+"/b.db")
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	ctx := context.Background()
	if err := store.ensureStudy(ctx, "b", st.spec, st.space.Theta0()); err != nil {
		b.Fatal(err)
	}
	var results []pairResult
	theta := st.space.Theta0()
	for k := 1; k <= block; k++ {
		r, err := st.playPair(ctx, k, theta, false, contract.PlayOptions{})
		if err != nil {
			b.Fatal(err)
		}
		results = append(results, r)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		c, err := store.claim(ctx, "b", "me", st.spec.Iterations(), block, 30e9)
		if err != nil || c.blk == nil {
			b.Fatal(err, c)
		}
		for i := range results {
			results[i].iter = c.blk.first + i
		}
		if _, err := store.commit(ctx, "b", "me", c.blk, results, st.apply); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*block), "ns/iteration")
}
