package league

import (
	"math"
	"math/rand/v2"
	"testing"

	"gauntlet/harness/contract"
)

// twoPlayer is the tally of a two-version league of a two-seat game.
func twoPlayer() *Tally {
	return NewTally(2, contract.GameInfo{MinSeats: 2, MaxSeats: 2, Direction: contract.Higher})
}

// play adds n games between i and j, i scoring s each.
func play(t *Tally, i, j, n int, s float64) {
	for range n {
		r := []SeatResult{{Rank: 1}, {Rank: 2}}
		switch s {
		case 0:
			r[0].Rank, r[1].Rank = 2, 1
		case 0.5:
			r[1].Rank = 1
		}
		if err := t.AddUnit([]Game{{Versions: []int{i, j}, Seats: r}}); err != nil {
			panic(err)
		}
	}
}

// TestSchedulerUnderPlayedFirst: a version with fewer than FreshGames
// games is scheduled first, against the version it met least.
func TestSchedulerUnderPlayedFirst(t *testing.T) {
	tl := twoPlayer()
	tl.Grow(4)
	play(tl, 0, 1, 40, 0.5)
	play(tl, 0, 2, 40, 1)
	play(tl, 1, 2, 40, 0)
	play(tl, 3, 0, 5, 1) // version 3: 5 games, all against 0
	s := NewScheduler(2, 1)
	f, err := tl.Fit(nil)
	if err != nil {
		t.Fatal(err)
	}
	s.SetFit(f)
	g, ok := s.Next(tl, []bool{true, true, true, true})
	if !ok || !contains(g, 3) || contains(g, 0) {
		t.Fatalf("group %v: want the under-played version 3 against one it has not met", g)
	}
	// Once it has its games, it is no longer first.
	play(tl, 3, 1, FreshGames, 0.5)
	if f, err = tl.Fit(nil); err != nil {
		t.Fatal(err)
	}
	s.SetFit(f)
	if g, _ = s.Next(tl, []bool{true, true, true, true}); contains(g, 3) && tl.V[3].Games < FreshGames {
		t.Fatalf("group %v after version 3 played", g)
	}
}

// TestSchedulerUncertainPairFirst: among played versions, the pair with
// close ratings and few games between them goes before a lopsided or a
// well-measured pair.
func TestSchedulerUncertainPairFirst(t *testing.T) {
	tl := twoPlayer()
	tl.Grow(3)
	// 0 and 1 are close and met 40 times; 1 and 2 are close and met
	// 400 times; 0 and 2 met 400 times, with 0 far ahead.
	play(tl, 0, 1, 20, 1)
	play(tl, 0, 1, 20, 0)
	play(tl, 1, 2, 210, 1)
	play(tl, 1, 2, 190, 0)
	play(tl, 0, 2, 380, 1)
	play(tl, 0, 2, 20, 0)
	f, err := tl.Fit(nil)
	if err != nil {
		t.Fatal(err)
	}
	s := NewScheduler(2, 7)
	s.SetFit(f)
	u01, u12, u02 := s.uncertainty(0, 1), s.uncertainty(1, 2), s.uncertainty(0, 2)
	if !(u01 > u12 && u01 > u02) {
		t.Fatalf("uncertainty 0-1 %v, 1-2 %v, 0-2 %v: want 0-1 largest", u01, u12, u02)
	}
	g, ok := s.Next(tl, []bool{true, true, true})
	if !ok || !contains(g, 0) || !contains(g, 1) {
		t.Fatalf("group %v, want versions 0 and 1", g)
	}
	// Scheduling it many times spends its uncertainty: another pair
	// comes next before any new fit.
	for range 200 {
		s.Scheduled([]int{0, 1}, 2, 1)
	}
	if g, _ = s.Next(tl, []bool{true, true, true}); contains(g, 0) && contains(g, 1) {
		t.Fatalf("group %v after 400 scheduled games of 0-1: want another pair", g)
	}
	// A removed version is never scheduled.
	for range 20 {
		if g, _ = s.Next(tl, []bool{true, false, true}); contains(g, 1) {
			t.Fatalf("group %v holds an inactive version", g)
		}
	}
}

// TestSchedulerRepeatsWhenFewVersions: a 6-seat league of 3 versions
// seats each twice.
func TestSchedulerRepeatsWhenFewVersions(t *testing.T) {
	tl := NewTally(6, contract.GameInfo{MinSeats: 1, MaxSeats: 6, Direction: contract.Higher})
	tl.Grow(3)
	s := NewScheduler(6, 1)
	g, ok := s.Next(tl, []bool{true, true, true})
	if !ok || len(g) != 6 {
		t.Fatalf("group %v", g)
	}
	count := map[int]int{}
	for _, v := range g {
		count[v]++
	}
	if count[0] != 2 || count[1] != 2 || count[2] != 2 {
		t.Fatalf("group %v: want each version in two seats", g)
	}
}

// BenchmarkSchedulerAndFit is the league's own cost per game, outside the
// games: 20 versions and 100,000 two-player games, each unit (a seed both
// ways round) chosen by the scheduler, counted into the tally, and the
// ratings fitted again as a worker does (a tenth more games, at least 50,
// since the last fit). Compare ns/game with a game's own time
// (harness/games BenchmarkBrewBare: a greedy–random brew game).
func BenchmarkSchedulerAndFit(b *testing.B) {
	const versions, games = 20, 100000
	strength := make([]float64, versions)
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range strength {
		strength[i] = rng.NormFloat64() * 200
	}
	active := make([]bool, versions)
	for i := range active {
		active[i] = true
	}
	b.ResetTimer()
	for range b.N {
		tl := twoPlayer()
		tl.Grow(versions)
		s := NewScheduler(2, 1)
		fitAt := 0
		var fit *Fit
		for tl.Games < games {
			g, ok := s.Next(tl, active)
			if !ok {
				b.Fatal("no group")
			}
			s.Scheduled(g, 2, 1)
			s.Scheduled(g, 2, -1)
			p := 1 / (1 + math.Pow(10, (strength[g[1]]-strength[g[0]])/400))
			for r := range 2 {
				x := 0.5
				if u := rng.Float64(); u < p*0.9 {
					x = 1
				} else if u > 1-(1-p)*0.9 {
					x = 0
				}
				if r == 1 {
					play(tl, g[1], g[0], 1, 1-x)
				} else {
					play(tl, g[0], g[1], 1, x)
				}
			}
			if fit == nil || tl.Games-fitAt >= max(50, fitAt/10) {
				var start []float64
				if fit != nil {
					start = fit.Rating
				}
				f, err := tl.Fit(start)
				if err != nil {
					b.Fatal(err)
				}
				fit, fitAt = f, tl.Games
				s.SetFit(f)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*games), "ns/game")
}
