package league_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/league"
)

// fillLeague stores a brew league named name of versions greedy versions
// (different parameters) and games seeded random games, in blocks as
// workers store them, the stronger version winning more often.
func fillLeague(tb testing.TB, st *league.Store, name string, versions, games int) {
	tb.Helper()
	d := league.Def{Name: name, Game: "brew", Cases: "seeds:1000", Size: 2}
	addGreedies(tb, st, d, versions)
	storeGames(tb, st, name, versions, games, rand.New(rand.NewPCG(7, 7)))
}

// fillLeagueMore is fillLeague that makes the league on first use and
// adds games to it after.
func fillLeagueMore(tb testing.TB, st *league.Store, name string, versions, games int) {
	tb.Helper()
	d := league.Def{Name: name, Game: "brew", Cases: "seeds:1000", Size: 2}
	if _, err := st.Def(context.Background(), name); err != nil {
		addGreedies(tb, st, d, versions)
	}
	def, err := st.Def(context.Background(), name)
	if err != nil {
		tb.Fatal(err)
	}
	storeGames(tb, st, name, versions, games, rand.New(rand.NewPCG(uint64(def.Games), 7)))
}

// addGreedies adds versions greedy versions v00, v01, ... to league d.
func addGreedies(tb testing.TB, st *league.Store, d league.Def, versions int) {
	tb.Helper()
	ctx := context.Background()
	for i := range versions {
		e, err := entrant.Parse(contract.Default, "brew", fmt.Sprintf("greedy:price_weight=%g", float64(i)/4))
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := league.Add(ctx, st, d, fmt.Sprintf("v%02d", i), e); err != nil {
			tb.Fatal(err)
		}
	}
}

// storeGames stores games random games of league name among its first
// versions versions, in blocks of 1,000.
func storeGames(tb testing.TB, st *league.Store, name string, versions, games int, rng *rand.Rand) {
	tb.Helper()
	ctx := context.Background()
	const unitsPerBlock = 500
	for stored := 0; stored < games; {
		n := min(unitsPerBlock, (games-stored)/2)
		b, ok, err := st.Claim(ctx, name, "bench", 0, time.Minute, func(league.Budget) ([]league.Unit, int) {
			us := make([]league.Unit, n)
			for k := range us {
				a := rng.IntN(versions)
				c := (a + 1 + rng.IntN(versions-1)) % versions
				us[k] = league.Unit{Versions: []int{a + 1, c + 1}}
			}
			return us, 2 * n
		})
		if err != nil || !ok {
			tb.Fatal(err, ok)
		}
		gs := make([]league.Game, 0, 2*n)
		for k, u := range b.Units {
			for r := range 2 {
				vs := []int{u.Versions[r], u.Versions[1-r]}
				p := 1 / (1 + math.Pow(10, float64(vs[1]-vs[0])*10/400))
				s := [2]league.SeatResult{{Score: 0, Rank: 1}, {Score: 0, Rank: 1}}
				if x := rng.Float64(); x < p*0.9 {
					s = [2]league.SeatResult{{Score: 1, Rank: 1}, {Score: 0, Rank: 2}}
				} else if x > 1-(1-p)*0.9 {
					s = [2]league.SeatResult{{Score: 0, Rank: 2}, {Score: 1, Rank: 1}}
				}
				gs = append(gs, league.Game{Index: 2*k + r, Unit: u.N, Case: "seed:1", Versions: vs, Seats: s[:], Wall: 1})
			}
		}
		if _, err := st.Finish(ctx, name, b.ID, "bench", gs, nil); err != nil {
			tb.Fatal(err)
		}
		stored += len(gs)
	}
}

// BenchmarkLoad100k is the cost of a board (league show, the dashboard's
// league page) of a league of 20 versions and 100,000 games.
func BenchmarkLoad100k(b *testing.B) {
	st, err := league.OpenStore(context.Background(), "sqlite:"+filepath.Join(b.TempDir(), "l.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	fillLeague(b, st, "big", 20, 100000)
	b.ResetTimer()
	for range b.N {
		bd, err := league.Load(context.Background(), st, "big", nil)
		if err != nil {
			b.Fatal(err)
		}
		if bd.Games != 100000 {
			b.Fatalf("%d games", bd.Games)
		}
	}
}

// BenchmarkFollow100k is the cost of a followed board of a league of 20
// versions and 100,000 games after each new block of 1,000 games (the
// block's storing not counted): what the dashboard's league page costs
// while the league runs.
func BenchmarkFollow100k(b *testing.B) {
	st, err := league.OpenStore(context.Background(), "sqlite:"+filepath.Join(b.TempDir(), "l.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	fillLeague(b, st, "big", 20, 100000)
	f := league.NewFollower(st, "big", nil)
	if _, err := f.Board(context.Background()); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 9))
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		storeGames(b, st, "big", 20, 1000, rng)
		b.StartTimer()
		if _, err := f.Board(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
