package paperbasic

import (
	"testing"

	"gauntlet/referees/paperio"
)

func benchPlay(b *testing.B, n int, simple bool) {
	var view paperio.State
	g := new(paperio.Game)
	bots := make([]paperio.Bot, n)
	ticks := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		ng, err := paperio.NewGame(paperio.DefaultRules(), n, int64(i))
		if err != nil {
			b.Fatal(err)
		}
		*g = *ng
		for k := range bots {
			bots[k] = newBots(b, simple, uint64(i*8+k))
		}
		if err := paperio.Play(g, bots, &view); err != nil {
			b.Fatal(err)
		}
		ticks += g.State.Tick - 1
	}
	b.ReportMetric(float64(ticks)/float64(b.N), "ticks/game")
	b.ReportMetric(float64(ticks)/b.Elapsed().Seconds(), "ticks/s")
}

// Whole games: random bots (2 and 6 players) and simple bots (which
// survive to the tick limit more often).
func BenchmarkRandom2(b *testing.B) { benchPlay(b, 2, false) }
func BenchmarkRandom6(b *testing.B) { benchPlay(b, 6, false) }
func BenchmarkSimple2(b *testing.B) { benchPlay(b, 2, true) }
func BenchmarkSimple6(b *testing.B) { benchPlay(b, 6, true) }
