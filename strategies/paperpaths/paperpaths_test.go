package paperpaths

import (
	"testing"

	"gauntlet/referees/paperio"
	"gauntlet/strategies/paperbasic"
	"gauntlet/strategies/param"
)

// checked wraps a bot and fails the test on a reverse or off-map command
// whenever a legal alternative existed.
type checked struct {
	t   *testing.T
	bot *Bot
}

func (c checked) Command(s *paperio.State, id int) paperio.Dir {
	d := c.bot.Command(s, id)
	p := s.Player(id)
	if d == paperio.DirNone || p == nil {
		return d
	}
	if !p.CanTurn(d) {
		c.t.Fatalf("tick %d: player %d reverses (%v after %v)", s.Tick, id, d, p.Dir)
	}
	if _, ok := p.Cell().Step(d); !ok {
		c.t.Fatalf("tick %d: player %d leaves the map", s.Tick, id)
	}
	return d
}

func play(t *testing.T, seed int64, bots []paperio.Bot) *paperio.Game {
	t.Helper()
	g, err := paperio.NewGame(paperio.DefaultRules(), len(bots), seed)
	if err != nil {
		t.Fatal(err)
	}
	var view paperio.State
	if err := paperio.Play(g, bots, &view); err != nil {
		t.Fatal(err)
	}
	return g
}

func TestLegalDeterministicAndBeatsSimple(t *testing.T) {
	playsLegallyAndBeatsSimple(t, "paperpaths", New, Params.Defaults(), 6)
}

// playsLegallyAndBeatsSimple plays the bot that newBot builds from v
// against simple on seeds 1..seeds: legal moves, the same game
// twice from the same seeds, and at most one loss.
func playsLegallyAndBeatsSimple(t *testing.T, name string, newBot func(param.Values, uint64) (*Bot, error), v param.Values, seeds int64) {
	t.Helper()
	wins, games := 0, 0
	for seed := int64(1); seed <= seeds; seed++ {
		var scores [2][2]int
		for run := 0; run < 2; run++ {
			a, err := newBot(v, uint64(seed))
			if err != nil {
				t.Fatal(err)
			}
			g := play(t, seed, []paperio.Bot{checked{t, a}, simple(t, uint64(seed)+100)})
			scores[run] = [2]int{g.Players[0].Score, g.Players[1].Score}
		}
		if scores[0] != scores[1] {
			t.Fatalf("seed %d: same seeds, different games: %v", seed, scores)
		}
		games++
		if scores[0][0] > scores[0][1] {
			wins++
		}
	}
	if wins < games-1 {
		t.Fatalf("%s won %d of %d games against simple", name, wins, games)
	}
}

func TestParamsRejectBadValues(t *testing.T) {
	if _, err := New(param.Values{"paths": 0}, 1); err == nil {
		t.Fatal("paths=0 accepted")
	}
	if err := Params.Check(); err != nil {
		t.Fatal(err)
	}
}

// midGame is a six-player game between simple bots after 300 ticks.
func midGame(tb testing.TB) *paperio.State {
	tb.Helper()
	g, err := paperio.NewGame(paperio.DefaultRules(), 6, 3)
	if err != nil {
		tb.Fatal(err)
	}
	bots := make([]paperio.Bot, 6)
	for i := range bots {
		bots[i] = simple(tb, uint64(i))
	}
	var cmds paperio.Commands
	for g.Tick < 300 && !g.Over() {
		for k := 0; k < g.N; k++ {
			p := &g.Players[k]
			if p.Alive && p.AtCentre() {
				cmds[p.ID-1] = bots[k].Command(&g.State, p.ID)
			}
		}
		g.PlayTick(&cmds)
	}
	s := g.State
	return &s
}

// simple is paperbasic's simple bot at its defaults.
func simple(tb testing.TB, seed uint64) *paperbasic.Simple {
	tb.Helper()
	b, err := paperbasic.NewSimple(paperbasic.SimpleParams.Defaults(), seed)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// mustBot is newBot's bot (New or New2) with values v.
func mustBot(tb testing.TB, newBot func(param.Values, uint64) (*Bot, error), v param.Values, seed uint64) *Bot {
	tb.Helper()
	b, err := newBot(v, seed)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// box is the cells of columns x0..x1 and rows y0..y1.
type box struct{ x0, x1, y0, y1 int }

// twoLands returns a two-player state in which we (player 1) own box mine
// and the opponent (player 2) box theirs, and nothing else.
func twoLands(t *testing.T, mine, theirs box) *paperio.State {
	t.Helper()
	return lands(t, mine, theirs)
}

// lands returns a state of one player per box, player k+1 owning box k and
// nothing else.
func lands(t *testing.T, boxes ...box) *paperio.State {
	t.Helper()
	s, err := paperio.NewState(paperio.DefaultRules(), len(boxes))
	if err != nil {
		t.Fatal(err)
	}
	for k, b := range boxes {
		p := &s.Players[k]
		p.Terr = paperio.Bits{}
		for i := b.x0; i <= b.x1; i++ {
			for j := b.y0; j <= b.y1; j++ {
				p.Terr.Set(paperio.CellAt(i, j))
			}
		}
	}
	return s
}

// lastAlive is the ID of the last player of s still alive (0: none).
func lastAlive(s *paperio.State) int {
	id := 0
	for k := range s.N {
		if s.Players[k].Alive {
			id = s.Players[k].ID
		}
	}
	return id
}

// lay adds cells to the trail of player p, in order.
func lay(p *paperio.Player, cells ...paperio.Cell) {
	for _, c := range cells {
		p.Lines[p.NLines] = c
		p.NLines++
		p.TrailBits.Set(c)
	}
}

// put stands player p at the centre of cell (i, j), moving in direction d.
func put(p *paperio.Player, i, j int, d paperio.Dir) {
	c := paperio.CellAt(i, j)
	p.X, p.Y, p.Dir = c.X(), c.Y(), d
}

// benchDecision times bot's decision in the middle of a six-player game
// (midGame), as the last alive player.
func benchDecision(b *testing.B, bot *Bot) {
	s := midGame(b)
	id := lastAlive(s)
	bot.Command(s, id) // buffers grow once
	b.ReportAllocs()
	for b.Loop() {
		bot.Command(s, id)
	}
	b.ReportMetric(float64(b.N*bot.pathsRun)/b.Elapsed().Seconds(), "paths/s")
}

// BenchmarkDecision is one decision in the middle of a six-player game:
// the arrival maps of five opponents, the minimax and the paths. paths/s
// is the path budget divided by the whole time; allocs/path counts the
// allocations of the whole decision.
func BenchmarkDecision(b *testing.B) {
	bot := mustBot(b, New, Params.Defaults(), 1)
	benchDecision(b, bot)
}

// BenchmarkPaths is the path sampling alone, after the maps are made.
func BenchmarkPaths(b *testing.B) {
	s := midGame(b)
	bot := mustBot(b, New, Params.Defaults(), 1)
	p := &s.Players[s.N-1]
	bot.survey(s, p.ID)
	var enemy paperio.Bits
	pr := heldProfile(p)
	b.ReportAllocs()
	for b.Loop() {
		bot.samplePath(s, p, p.Cell(), p.Trail(), unreached, 0, pr, &enemy, nil)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "paths/s")
}
