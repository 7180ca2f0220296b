package hexsearch

import (
	"cmp"
	"context"
	"fmt"
	"log"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"gauntlet/referees/hextris"
	"gauntlet/strategies/param"
)

// The package's longest tests without a clock (TestDeterministic and the
// other searches that take a second or more) call t.Parallel: in make
// test's strategies phase this package alone kept one core busy for about
// 34 s while the other idled. The tests that measure time stay sequential,
// and Go starts the parallel tests only after them.

func official(t testing.TB, id int) *hextris.Problem {
	t.Helper()
	p, err := hextris.Official(id)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func phraseSet(t testing.TB, name string) hextris.PhraseSet {
	t.Helper()
	ps, err := hextris.OfficialPhrases(name)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

func mustGreedy(t testing.TB, assign ...string) *Solver {
	t.Helper()
	v, err := GreedyParams.Parse(assign...)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewGreedy(v, 1)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustLookahead(t testing.TB, assign ...string) *Solver {
	t.Helper()
	v, err := LookaheadParams.Parse(assign...)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewLookahead(v, 1)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// solve is s's text for one game.
func solve(tb testing.TB, s *Solver, p *hextris.Problem, seed uint32, ps hextris.PhraseSet) string {
	tb.Helper()
	sol, err := s.Solve(context.Background(), p, seed, ps)
	if err != nil {
		tb.Fatalf("problem %d seed %d: %v", p.ID, seed, err)
	}
	return sol
}

// solveValid solves one game and fails unless the text replays without
// error to the end of the game.
func solveValid(t *testing.T, s *Solver, p *hextris.Problem, seed uint32, ps hextris.PhraseSet) hextris.Result {
	t.Helper()
	sol, err := s.Solve(context.Background(), p, seed, ps)
	if err != nil {
		t.Fatalf("problem %d seed %d: %v", p.ID, seed, err)
	}
	r := hextris.Play(p, seed, ps, sol)
	if r.Error != "" {
		t.Fatalf("problem %d seed %d phrases %s: %s at byte %d of %d", p.ID, seed, ps.Name(), r.Error, r.ErrorAt, len(sol))
	}
	if r.End == hextris.Playing {
		t.Fatalf("problem %d seed %d: the game did not end (%d units locked)", p.ID, seed, r.UnitsLocked)
	}
	return r
}

// TestSolutionsAlwaysValid plays many problem/seed pairs with every phrase
// set, with and without phrases, greedy and lookahead: every text must
// replay without error and end the game.
func TestSolutionsAlwaysValid(t *testing.T) {
	t.Parallel()
	ids := []int{0, 1, 10, 3, 6, 9, 11, 13, 15, 17, 20, 21, 22, 23, 27, 29, 30}
	seeds := 3
	if testing.Short() {
		ids, seeds = ids[:3], 1
	}
	for _, set := range hextris.PhraseSetNames {
		ps := phraseSet(t, set)
		for _, id := range ids {
			p := official(t, id)
			for k, seed := range p.SourceSeeds[:min(seeds, len(p.SourceSeeds))] {
				solveValid(t, mustGreedy(t), p, seed, ps)
				if k == 0 {
					solveValid(t, mustGreedy(t, "phrases=0"), p, seed, ps)
					solveValid(t, mustGreedy(t, "phrase_dp=1"), p, seed, ps)
					solveValid(t, mustLookahead(t, "depth=2,beam=3,portfolio=0,game_beam=24,fall_beam=0"), p, seed, ps)
				}
			}
		}
	}
}

// TestGreedyScoresOnEveryQualifierProblem: hexgreedy earns points on the
// first seed of every qualifier problem.
func TestGreedyScoresOnEveryQualifierProblem(t *testing.T) {
	if testing.Short() {
		t.Skip("plays the 25 qualifier problems")
	}
	ps := phraseSet(t, "power")
	s := mustGreedy(t)
	for id := range hextris.QualifierProblems {
		p := official(t, id)
		r := solveValid(t, s, p, p.SourceSeeds[0], ps)
		if r.Score <= 0 || r.MoveScore <= 0 || r.PowerScore <= 0 {
			t.Errorf("problem %d: score %d (move %d, power %d)", id, r.Score, r.MoveScore, r.PowerScore)
		}
	}
}

// TestLookaheadAtLeastGreedy compares the two strategies' totals on a few
// small problems (the game beam capped at 64 states, to keep the test
// quick under the race detector).
func TestLookaheadAtLeastGreedy(t *testing.T) {
	t.Parallel()
	ps := phraseSet(t, "power")
	var g, l int64
	ids := []int{0, 6, 10, 11, 15, 20, 23}
	if testing.Short() {
		ids = []int{0, 10, 23}
	}
	for _, id := range ids {
		p := official(t, id)
		rg := solveValid(t, mustGreedy(t), p, p.SourceSeeds[0], ps)
		rl := solveValid(t, mustLookahead(t, "game_beam=64"), p, p.SourceSeeds[0], ps)
		g, l = g+rg.Score, l+rl.Score
		t.Logf("problem %d: greedy %d, lookahead %d", id, rg.Score, rl.Score)
	}
	if l < g {
		t.Fatalf("lookahead total %d < greedy total %d", l, g)
	}
}

// TestPhrasesUsed: on a roomy board every phrase of power is typed at least
// once, and phrases raise the score above plain paths.
func TestPhrasesUsed(t *testing.T) {
	ps := phraseSet(t, "power")
	p := official(t, 2)
	seed := p.SourceSeeds[0]
	with := solveValid(t, mustGreedy(t), p, seed, ps)
	without := solveValid(t, mustGreedy(t, "phrases=0"), p, seed, ps)
	if with.PowerScore <= without.PowerScore || with.Score <= without.Score {
		t.Fatalf("phrases on: %d (power %d); off: %d (power %d)", with.Score, with.PowerScore, without.Score, without.PowerScore)
	}
	sol := solve(t, mustGreedy(t), p, seed, ps)
	for _, ph := range ps.Phrases() {
		if hextris.NewPhraseSet("one", []string{ph}).Score(sol) == 0 {
			t.Logf("phrase %q not used", ph)
		}
	}
	if with.PowerScore < 300*int64(ps.Len()-3) {
		t.Fatalf("power score %d: fewer than %d phrases used", with.PowerScore, ps.Len()-3)
	}
}

// TestPortfolioValid: the lookahead with a portfolio of 8 weight variants
// (the defaults have none) and its game beam capped at 64 states gives valid texts, at
// least as good as the text it starts from: its own search without the
// phrase search. (The phrase search is
// applied to the winner afterwards, reusing its locks, so the portfolio
// can end a few points below the plain search with the phrase search on.)
func TestPortfolioValid(t *testing.T) {
	t.Parallel()
	ps := phraseSet(t, "power")
	ids := []int{3, 9, 11, 23}
	if testing.Short() {
		ids = []int{11, 23}
	}
	for _, id := range ids {
		p := official(t, id)
		seed := p.SourceSeeds[0]
		full := solveValid(t, mustLookahead(t, "portfolio=8,game_beam=64"), p, seed, ps)
		one := solveValid(t, mustLookahead(t, "portfolio=0", "phrase_dp=0", "game_beam=0"), p, seed, ps)
		if full.Score < one.Score {
			t.Fatalf("problem %d: portfolio %d < its own search %d", id, full.Score, one.Score)
		}
	}
}

// TestDeterministic: the same solver settings give the same text, also when
// a solver is reused across games. The long form plays the defaults
// (every beam; about 40 s), which games plays narrower under the
// race detector.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	ps := phraseSet(t, "power")
	p, q := official(t, 11), official(t, 6)
	var as []string
	if testing.Short() {
		as = append(as, "game_beam=16")
	}
	s := mustLookahead(t, as...)
	a := solve(t, s, p, p.SourceSeeds[1], ps)
	solve(t, s, q, q.SourceSeeds[0], ps)
	b := solve(t, s, p, p.SourceSeeds[1], ps)
	c := solve(t, mustLookahead(t, as...), p, p.SourceSeeds[1], ps)
	if a != b || a != c {
		t.Fatal("the solution depends on the solver's history")
	}
}

// TestCancelledContextGivesValidPrefix: a solver stopped by its context
// returns a shorter text that still replays without error.
func TestCancelledContextGivesValidPrefix(t *testing.T) {
	ps := phraseSet(t, "power")
	p := official(t, 14)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	sol, err := mustLookahead(t).Solve(ctx, p, p.SourceSeeds[0], ps)
	if err != nil {
		t.Fatal(err)
	}
	r := hextris.Play(p, p.SourceSeeds[0], ps, sol)
	if r.Error != "" {
		t.Fatalf("%s at %d", r.Error, r.ErrorAt)
	}
	if r.End != hextris.Playing {
		t.Fatalf("expected an unfinished game within 50ms, got %s after %d units", r.EndState, r.UnitsLocked)
	}
}

// TestReachMatchesReferee checks every lock placement and its path against
// the referee: the path replays without error and locks the unit exactly
// at the placement's cells.
func TestReachMatchesReferee(t *testing.T) {
	for _, id := range []int{0, 3, 11, 12, 13, 18, 24} {
		p := official(t, id)
		g := newGeom(p)
		rc := newReach(g)
		b := newBoard(p.Width, p.Height)
		var game, cp hextris.Game
		game.Reset(p, p.SourceSeeds[0])
		b.loadGame(&game)
		u, pos, _ := game.Live()
		from := g.state(int(pos.X), int(pos.Y), int(pos.Rot))
		locks := rc.searchTree(&b, u, from)
		if len(locks) == 0 {
			t.Fatalf("problem %d: no lock placement", id)
		}
		var cmds []hextris.Command
		var cells []hextris.Cell
		for _, l := range locks {
			cmds = rc.path(l.State, l.Cmd, cmds[:0])
			cp.CopyFrom(&game)
			for i, c := range cmds {
				r := cp.Step(c)
				want := hextris.StepMoved
				if i == len(cmds)-1 {
					want = hextris.StepLocked
				}
				if r != want && !(i == len(cmds)-1 && r == hextris.StepEnded) {
					t.Fatalf("problem %d lock %v: step %d gave %d", id, l, i, r)
				}
			}
			x, y, r := g.unpack(l.State)
			cells = p.Cells(u, hextris.Position{X: int32(x), Y: int32(y), Rot: uint8(r)}, cells[:0])
			nb := b
			nb.rows = append([]uint64(nil), b.rows...)
			nb.lock(g, u, l.State)
			if cp.LastLines() == 0 {
				for _, c := range cells {
					if !cp.Filled(c.X, c.Y) || !nb.filled(c.X, c.Y) {
						t.Fatalf("problem %d lock %v: cell %v not filled", id, l, c)
					}
				}
			}
			for yy := range p.Height {
				for xx := range p.Width {
					if nb.filled(xx, yy) != cp.Filled(xx, yy) {
						t.Fatalf("problem %d lock %v: board differs at (%d,%d)", id, l, xx, yy)
					}
				}
			}
		}
	}
}

// TestSearchMatchesSearchTree checks the search that takes the rows above
// the stack from the unit's sky against the plain breadth-first search:
// the same lock placements in the same order and the same states counted,
// unit after unit of games that lock units at random placements (stacks
// with overhangs and holes, up to the top of the board), on every
// official problem.
func TestSearchMatchesSearchTree(t *testing.T) {
	t.Parallel()
	byState := func(a, b lockAt) int { return cmp.Compare(a.State, b.State) }
	var without []int
	for id := range 33 {
		p := official(t, id)
		g := newGeom(p)
		fast, plain := newReach(g), newReach(g)
		rng := rand.New(rand.NewPCG(uint64(id), 1))
		b := newBoard(p.Width, p.Height)
		var game hextris.Game
		game.Reset(p, p.SourceSeeds[0])
		b.loadGame(&game)
		skies := 0
		for k, u := range hextris.SourceUnits(p, p.SourceSeeds[0], nil) {
			if k == 300 || !b.fits(g, u, g.spawn[u]) {
				break
			}
			n0, m0 := fast.nodes, plain.nodes
			got := slices.Clone(fast.search(&b, u, g.spawn[u]))
			want := plain.searchTree(&b, u, g.spawn[u])
			if fast.nodes-n0 != plain.nodes-m0 || fast.last != plain.last {
				t.Fatalf("problem %d unit %d: %d states (last %d), want %d (%d)", id, k, fast.nodes-n0, fast.last, plain.nodes-m0, plain.last)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("problem %d unit %d: locks %v, want %v", id, k, got, want)
			}
			if _, y0, _ := g.unpack(g.spawn[u]); b.top-1-g.skies[u].depth > y0 {
				skies++
			}
			// Mostly the lowest placements, so that lines are cleared,
			// now and then any.
			l := slices.MaxFunc(want, byState)
			if rng.IntN(4) == 0 {
				l = want[rng.IntN(len(want))]
			}
			b.lock(g, u, l.State)
		}
		if skies == 0 {
			without = append(without, id)
		}
	}
	// Boards with cells filled near the top at the start (problems 9,
	// 10, 22 and 26) leave no row of sky to take.
	if len(without) > 4 || slices.Contains(without, 24) {
		t.Errorf("problems %v: no search took rows from the sky", without)
	}
}

func TestParamsDeclared(t *testing.T) {
	for _, s := range []param.Specs{GreedyParams, LookaheadParams} {
		if err := s.Check(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := NewLookahead(param.Values{"depth": 9}, 1); err == nil {
		t.Fatal("depth 9 accepted")
	}
}

func ExampleNewGreedy() {
	p, err := hextris.Official(1)
	if err != nil {
		log.Fatal(err)
	}
	ps, err := hextris.OfficialPhrases("power")
	if err != nil {
		log.Fatal(err)
	}
	s, err := NewGreedy(GreedyParams.Defaults(), 1)
	if err != nil {
		log.Fatal(err)
	}
	sol, err := s.Solve(context.Background(), p, p.SourceSeeds[0], ps)
	if err != nil {
		log.Fatal(err)
	}
	r := hextris.Play(p, p.SourceSeeds[0], ps, sol)
	fmt.Println(r.Error == "", r.EndState, r.UnitsLocked)
	// Output: true source-exhausted 100
}

// BenchmarkLocksEvaluated measures the one-unit evaluation: reachable lock
// placements found and scored per second, on the big board of problem 24,
// without and with the enclosed-cell count (w_enclosed).
func BenchmarkLocksEvaluated(b *testing.B) {
	p := official(b, 24)
	for _, assign := range []string{"w_enclosed=0", "w_enclosed=8"} {
		b.Run(assign, func(b *testing.B) {
			s := mustGreedy(b, assign)
			s.prepare(p, hextris.PhraseSet{})
			s.game.Reset(p, p.SourceSeeds[0])
			s.src = hextris.SourceUnits(p, p.SourceSeeds[0], s.src[:0])
			s.cur.loadGame(&s.game)
			u, pos, _ := s.game.Live()
			from := s.g.state(int(pos.X), int(pos.Y), int(pos.Rot))
			locks := 0
			b.ReportAllocs()
			for b.Loop() {
				ls := s.rcs[0].search(&s.cur, u, from)
				s.rank(0, &s.cur, u, 0, ls)
				locks += len(ls)
			}
			b.ReportMetric(float64(locks)/b.Elapsed().Seconds(), "locks/s")
		})
	}
}

// BenchmarkSolveBig solves problem 24 (1620 units on a 100×40 board) with
// hexgreedy and with hexlookahead's own search (its portfolio of greedy
// variants left out: each adds about one hexgreedy solve). With -short
// (make test-long's benchmark smoke run) only hexgreedy's.
func BenchmarkSolveBig(b *testing.B) {
	p := official(b, 24)
	ps := phraseSet(b, "power")
	for _, name := range []string{"hexgreedy", "hexlookahead"} {
		b.Run(name, func(b *testing.B) {
			if name == "hexlookahead" && testing.Short() {
				b.Skip("one solve takes about 400 s")
			}
			s := mustGreedy(b)
			if name == "hexlookahead" {
				s = mustLookahead(b, "portfolio=0")
			}
			b.ReportAllocs()
			for b.Loop() {
				solve(b, s, p, p.SourceSeeds[0], ps)
			}
		})
	}
}

// TestShortOfTimeFinishesTheGame: under a deadline too short for the
// phrase search of every unit (problem 4, one unit deep, with a search of
// 2,000,000 states a unit: about 0.7 s a game, 0.06 s without the phrase
// search), the game is still played to its end, the last units without
// the phrase search, rather than cut off. The deadline is half of what
// the whole game takes on this machine just before, and at least four
// times the game without the phrase search, so that a loaded machine is
// asked what an idle one is (a fixed 0.5 s cut the game off under make
// test's load).
func TestShortOfTimeFinishesTheGame(t *testing.T) {
	p := official(t, 4)
	ps := phraseSet(t, "power")
	const assign = "depth=1,portfolio=0,game_beam=0,dp_nodes=2000000,dp_slack=64,dp_repeats=12"
	timed := func(s *Solver) time.Duration {
		start := time.Now()
		if _, err := s.solveOne(context.Background(), p, p.SourceSeeds[0], ps); err != nil {
			t.Fatal(err)
		}
		return time.Since(start)
	}
	full := timed(mustLookahead(t, assign))
	bare := timed(mustLookahead(t, assign, "phrase_dp=0"))
	limit := max(full/2, 4*bare)
	s := mustLookahead(t, assign)
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	start := time.Now()
	sol, err := s.solveOne(ctx, p, p.SourceSeeds[0], ps)
	if err != nil {
		t.Fatal(err)
	}
	r := hextris.Play(p, p.SourceSeeds[0], ps, sol)
	t.Logf("%d units locked, %s, score %d, in %v under %v (the whole game %v, without the phrase search %v)",
		r.UnitsLocked, r.EndState, r.Score, time.Since(start).Round(time.Millisecond), limit.Round(time.Millisecond),
		full.Round(time.Millisecond), bare.Round(time.Millisecond))
	if r.Error != "" || r.End == hextris.Playing {
		t.Fatalf("the game ends %s (error %q) after %d units: cut off, not finished", r.EndState, r.Error, r.UnitsLocked)
	}
}

// TestQuickGameIsQuick: under a deadline the quick complete game is one
// unit deep and plays none of the beams, which would take their shares of
// the time from the full search (they did, on problem 25's long sources),
// and the solution is whole.
func TestQuickGameIsQuick(t *testing.T) {
	p := official(t, 21)
	ps := phraseSet(t, "power")
	s := mustLookahead(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	sol, err := s.Solve(ctx, p, p.SourceSeeds[0], ps)
	if err != nil {
		t.Fatal(err)
	}
	if r := hextris.Play(p, p.SourceSeeds[0], ps, sol); r.Error != "" || r.End == hextris.Playing {
		t.Fatalf("the game ends %s (error %q)", r.EndState, r.Error)
	}
	if s.quick == nil {
		t.Fatal("no quick game was played under the deadline")
	}
	if c := s.quick.cfg; c.Depth != 1 || c.PhraseDP || c.Portfolio != 0 || c.GameBeam != 0 || c.FallBeam || c.SurvBeams != 0 {
		t.Fatalf("the quick game's settings: depth %d, phrase search %v, portfolio %d, game beam %d, fall beam %v, survival beams %d",
			c.Depth, c.PhraseDP, c.Portfolio, c.GameBeam, c.FallBeam, c.SurvBeams)
	}
}

// String draws the board, odd rows shifted half a cell right as on the
// contest's board, filled cells #.
func (b *board) String() string {
	var sb strings.Builder
	for y := range b.h {
		if y&1 == 1 {
			sb.WriteByte(' ')
		}
		for x := range b.w {
			if b.filled(x, y) {
				sb.WriteString("# ")
			} else {
				sb.WriteString(". ")
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// TestFitMaskMatchesFits compares the reachability search's fit masks with
// the member-by-member test, for every unit, rotation and pivot on the grid
// of all 33 official problems, on their starting boards and after units
// locked at random placements.
func TestFitMaskMatchesFits(t *testing.T) {
	t.Parallel()
	for id := range 33 {
		p := official(t, id)
		g := newGeom(p)
		rc := newReach(g)
		rng := rand.New(rand.NewPCG(uint64(id), 2))
		b := newBoard(p.Width, p.Height)
		var game hextris.Game
		game.Reset(p, p.SourceSeeds[0])
		b.loadGame(&game)
		for k, u := range hextris.SourceUnits(p, p.SourceSeeds[0], nil) {
			if k%10 == 0 {
				for v := range g.nrot {
					rc.begin() // the masks are of one unit
					for r := range g.nrot[v] {
						for y := -g.pad + 1; y < g.h+g.pad-1; y++ {
							for x := -g.pad + 1; x < g.w+g.pad-1; x++ {
								if got, want := rc.fitsAt(&b, v, x, y, r), b.fitsAt(g, v, x, y, r); got != want {
									t.Fatalf("problem %d after %d units: unit %d at (%d, %d) rotation %d: mask %v, members %v", id, k, v, x, y, r, got, want)
								}
							}
						}
					}
				}
			}
			if k == 40 || !b.fits(g, u, g.spawn[u]) {
				break
			}
			locks := rc.searchTree(&b, u, g.spawn[u])
			b.lock(g, u, locks[rng.IntN(len(locks))].State)
		}
	}
}
