package paperio

import (
	"math/rand/v2"
	"testing"
)

// benchBot walks at random without reversing, leaving the map or crossing
// its trail (like paperbasic's random bot, which this package cannot
// import).
type benchBot struct{ rng *rand.Rand }

func (b *benchBot) Command(s *State, id int) Dir {
	p := s.Player(id)
	if p.Dir != DirNone && b.rng.IntN(4) != 0 {
		if c, ok := p.Cell().Step(p.Dir); ok && !p.TrailBits.Has(c) {
			return p.Dir
		}
	}
	var opts [4]Dir
	n := 0
	for _, d := range [4]Dir{Up, Down, Left, Right} {
		if c, ok := p.Cell().Step(d); ok && p.CanTurn(d) && !p.TrailBits.Has(c) {
			opts[n] = d
			n++
		}
	}
	if n == 0 {
		return DirNone
	}
	return opts[b.rng.IntN(n)]
}

func benchBots(n int, seed uint64) []Bot {
	bots := make([]Bot, n)
	for k := range bots {
		bots[k] = &benchBot{rng: rand.New(rand.NewPCG(seed, uint64(k)))}
	}
	return bots
}

func benchGames(b *testing.B, n int) {
	var view State
	g := new(Game)
	ticks := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		ng, err := NewGame(DefaultRules(), n, int64(i))
		if err != nil {
			b.Fatal(err)
		}
		*g = *ng
		if err := Play(g, benchBots(n, uint64(i)), &view); err != nil {
			b.Fatal(err)
		}
		ticks += g.State.Tick - 1
	}
	b.ReportMetric(float64(ticks)/float64(b.N), "ticks/game")
	b.ReportMetric(float64(ticks)/b.Elapsed().Seconds(), "ticks/s")
}

// BenchmarkGame2 and BenchmarkGame6 play whole games of random walkers
// (with the state copies the bots get); a game ends when all are dead.
func BenchmarkGame2(b *testing.B) { benchGames(b, 2) }
func BenchmarkGame6(b *testing.B) { benchGames(b, 6) }

// benchTicks measures the referee alone: ticks of a 1500-tick game whose
// commands were recorded once from random walkers.
func benchTicks(b *testing.B, n int) {
	r := DefaultRules()
	g := newGame(b, r, n, 1)
	bots := benchBots(n, 1)
	var cmdLog []Commands
	var view State
	for !g.Over() {
		var cmds Commands
		for k := 0; k < n; k++ {
			if g.Players[k].Alive && g.Players[k].AtCentre() {
				view = g.State
				cmds[k] = bots[k].Command(&view, k+1)
			}
		}
		cmdLog = append(cmdLog, cmds)
		g.PlayTick(&cmds)
	}
	start := newGame(b, r, n, 1)
	b.ReportAllocs()
	ticks := 0
	for b.Loop() {
		*g = *start
		for t := range cmdLog {
			g.PlayTick(&cmdLog[t])
		}
		ticks += len(cmdLog)
	}
	b.ReportMetric(float64(len(cmdLog)), "ticks/game")
	b.ReportMetric(float64(ticks)/b.Elapsed().Seconds(), "ticks/s")
}

func BenchmarkTicks2(b *testing.B) { benchTicks(b, 2) }
func BenchmarkTicks6(b *testing.B) { benchTicks(b, 6) }

// BenchmarkCapture is one capture of a 7-cell loop out of a 3×3 block.
func BenchmarkCapture(b *testing.B) {
	var terr Bits
	for i := 9; i <= 11; i++ {
		for j := 9; j <= 11; j++ {
			terr.Set(CellAt(i, j))
		}
	}
	lines := []Cell{CellAt(10, 12), CellAt(10, 13), CellAt(11, 13), CellAt(12, 13), CellAt(12, 12), CellAt(12, 11), CellAt(11, 11)}
	b.ReportAllocs()
	for b.Loop() {
		_ = Capture(&terr, lines)
	}
}

// BenchmarkStateCopy is the copy a search makes to simulate.
func BenchmarkStateCopy(b *testing.B) {
	s := newState(b, DefaultRules(), 6)
	var dst State
	b.ReportAllocs()
	for b.Loop() {
		dst = *s
	}
	_ = dst
}

// BenchmarkPlayMatch6 is the harness's entry point with six random walkers.
func BenchmarkPlayMatch6(b *testing.B) {
	b.ReportAllocs()
	ticks := 0
	for i := 0; b.Loop(); i++ {
		bots := benchBots(6, uint64(i))
		agents := make([]Agent, 6)
		for k := range agents {
			agents[k].Bot = bots[k]
		}
		res, err := PlayMatch(b.Context(), DefaultConfig(), int64(i), agents, MatchOptions{})
		if err != nil {
			b.Fatal(err)
		}
		ticks += res.Ticks
	}
	b.ReportMetric(float64(ticks)/float64(b.N), "ticks/game")
}

// TestAdvanceAllocates nothing: a search can call it in its inner loop.
func TestAdvanceAllocs(t *testing.T) {
	s := newState(t, DefaultRules(), 6)
	bots := benchBots(6, 9)
	var view State
	cmdsAt := func() Commands {
		var cmds Commands
		for k := 0; k < s.N; k++ {
			if s.Players[k].Alive && s.Players[k].AtCentre() {
				view = *s
				cmds[k] = bots[k].Command(&view, k+1)
			}
		}
		return cmds
	}
	for i := 0; i < 100; i++ { // warm the capture pool
		c := cmdsAt()
		s.Advance(&c)
	}
	allocs := testing.AllocsPerRun(500, func() {
		if s.Over() {
			return
		}
		c := cmdsAt()
		s.Advance(&c)
	})
	if allocs != 0 {
		t.Errorf("Advance allocates %v times per tick", allocs)
	}
}
