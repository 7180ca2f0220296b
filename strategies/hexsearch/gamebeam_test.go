package hexsearch

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"gauntlet/referees/hextris"
)

// TestGameBeamLineIsPlayed: the text typed along the game beam's best line
// replays without error, ends the game, and locks the line's units for
// exactly the move points the beam counted for it.
func TestGameBeamLineIsPlayed(t *testing.T) {
	ps := phraseSet(t, "power")
	for _, id := range []int{9, 11, 23} {
		p := official(t, id)
		seed := p.SourceSeeds[0]
		s := mustLookahead(t)
		s.beamStart(p, seed, ps)
		line, score, ok := s.beamLine(48, 1<<40, time.Time{})
		if !ok || len(line) == 0 {
			t.Fatalf("problem %d: no line", id)
		}
		s.beamStart(p, seed, ps)
		sol, err := s.beamPlay(context.Background(), p, seed, ps, 48, 1<<40, 1)
		if err != nil {
			t.Fatal(err)
		}
		r := hextris.Play(p, seed, ps, sol)
		if r.Error != "" || r.End == hextris.Playing {
			t.Fatalf("problem %d: %s at %d, end %s", id, r.Error, r.ErrorAt, r.EndState)
		}
		if r.MoveScore != int64(score) || r.UnitsLocked != len(line) {
			t.Fatalf("problem %d: replay %d move points in %d units, the beam's line %d in %d", id, r.MoveScore, r.UnitsLocked, score, len(line))
		}
		if r.PowerScore == 0 {
			t.Errorf("problem %d: no phrase typed along the line", id)
		}
	}
}

// beamOnProblem9 returns a function that runs the game beam on problem
// 9's first seed (10×8, 400 units) with the given width and budget, and
// returns its line, the line's move points and the states its searches
// expanded.
func beamOnProblem9(t *testing.T) func(width int, budget int64) ([]chosenLock, int, int64) {
	ps := phraseSet(t, "power")
	p := official(t, 9)
	s := mustLookahead(t)
	return func(width int, budget int64) ([]chosenLock, int, int64) {
		s.beamStart(p, p.SourceSeeds[0], ps)
		n0 := s.rcs[0].nodes
		line, score, ok := s.beamLine(width, budget, time.Time{})
		if !ok || len(line) == 0 {
			t.Fatalf("width %d, budget %d: no line", width, budget)
		}
		return line, score, s.rcs[0].nodes - n0
	}
}

// TestGameBeamOutlivesOneState: on a small board with a long source a beam
// of 64 states survives longer and scores more than a beam of one, which
// places each unit where the one-unit evaluation says.
func TestGameBeamOutlivesOneState(t *testing.T) {
	beam := beamOnProblem9(t)
	one, oneScore, _ := beam(1, 1<<40)
	wide, wideScore, _ := beam(64, 1<<40)
	t.Logf("width 1: %d units, %d points; width 64: %d units, %d points", len(one), oneScore, len(wide), wideScore)
	if len(wide) <= len(one) || wideScore <= oneScore {
		t.Fatalf("width 64: %d units, %d points; width 1: %d units, %d points", len(wide), wideScore, len(one), oneScore)
	}
}

// TestGameBeamBudgetNarrows: a beam whose budget is a tenth of what its
// width needs stays within it (it is narrowed unit by unit) and still
// returns a line.
func TestGameBeamBudgetNarrows(t *testing.T) {
	beam := beamOnProblem9(t)
	_, _, full := beam(64, 1<<40)
	_, _, cut := beam(64, full/10)
	t.Logf("unbounded: %d states expanded; budget %d: %d", full, full/10, cut)
	if cut > full/10 {
		t.Fatalf("budget %d: the beam's searches expanded %d states", full/10, cut)
	}
}

// TestAppendBest keeps the best beamFan candidates, best first, the
// earlier one first on ties.
func TestAppendBest(t *testing.T) {
	var cs []cand
	for i := range 20 {
		cs = append(cs, cand{lockAt{State: int32(i)}, float64((i * 7) % 10), int32(i)})
	}
	pool := appendBest([]beamCand{{parent: 9, key: 100}}, cs, 3, 1)
	if len(pool) != 1+beamFan {
		t.Fatalf("%d kept", len(pool)-1)
	}
	prev := 1e9
	for _, c := range pool[1:] {
		if c.parent != 3 || c.key > prev {
			t.Fatalf("pool %v", pool)
		}
		prev = c.key
	}
	// values: i*7%10 for i = 0..19: 9 at i=7,17; 8 at i=4,14; 7 at i=1,11; 6 at i=8,18.
	want := []int32{7, 17, 4, 14, 1, 11, 8, 18}
	for i, c := range pool[1 : 1+len(want)] {
		if c.lock.State != want[i] || c.key != 1+float64(want[i]*7%10) {
			t.Fatalf("kept %d: state %d key %v, want state %d", i, c.lock.State, c.key, want[i])
		}
	}
}

// TestGameBeamRowsPicksLongerFalls: valuing the rows the units fall
// (beam_rows) picks, among the lines the beam keeps, one whose units fall
// at least as many rows in all as the line picked by move points alone,
// with no more move points than that line.
func TestGameBeamRowsPicksLongerFalls(t *testing.T) {
	t.Parallel()
	ps := phraseSet(t, "power")
	p := official(t, 18)
	seed := p.SourceSeeds[0]
	rowsOf := func(s *Solver, line []chosenLock) int {
		n := 0
		for k, l := range line {
			n += s.fall(s.src[k], l.lock.State)
		}
		return n
	}
	var rows, score [2]int
	for i, v := range []string{"beam_rows=0", "beam_rows=20"} {
		s := mustLookahead(t, v)
		s.beamStart(p, seed, ps)
		line, sc, ok := s.beamLine(16, 1<<40, time.Time{})
		if !ok || len(line) == 0 {
			t.Fatalf("%s: no line", v)
		}
		rows[i], score[i] = rowsOf(s, line), sc
	}
	t.Logf("move points alone: %d rows, %d points; beam_rows=20: %d rows, %d points", rows[0], score[0], rows[1], score[1])
	if rows[1] < rows[0] || score[1] > score[0] {
		t.Fatalf("beam_rows=20: %d rows, %d points; move points alone: %d rows, %d points", rows[1], score[1], rows[0], score[0])
	}
}

// TestSurvivalBeamOutlives: on problem 18, where the default weights' game
// dies early (a 30-wide board with an obstacle across its middle, holed 9-
// and 17-cell units), a solver that also plays the first survival
// variant's game beam (survive_beams=1) locks more units and scores more,
// with a valid text. The beam's survival is chaotic in its width (32 wide
// the variant dies sooner than the defaults), so the test plays the
// defaults' width; it takes about a minute.
func TestSurvivalBeamOutlives(t *testing.T) {
	if testing.Short() {
		t.Skip("plays problem 18 twice at the defaults")
	}
	rs := solveVariants(t, 18, "survive_beams=0", "survive_beams=1")
	t.Logf("survive_beams=0: %d units, score %d; survive_beams=1: %d units, score %d",
		rs[0].UnitsLocked, rs[0].Score, rs[1].UnitsLocked, rs[1].Score)
	if rs[1].UnitsLocked <= rs[0].UnitsLocked || rs[1].Score <= rs[0].Score {
		t.Fatalf("survive_beams=1: %d units, score %d; survive_beams=0: %d units, score %d",
			rs[1].UnitsLocked, rs[1].Score, rs[0].UnitsLocked, rs[0].Score)
	}
}

// TestBeamSpanRaisesProblem23: on problem 23, whose best text types 3 of
// the 18 phrases, typing the game beam's line again with dp_span
// (beam_span) scores more, with a valid text. The game beam's own line is
// played (game_line=1), 512 wide: 4,096 wide (the default) it scores
// 10,720 with or without the second typing.
func TestBeamSpanRaisesProblem23(t *testing.T) {
	if testing.Short() {
		t.Skip("solves problem 23 twice")
	}
	rs := solveVariants(t, 23, "game_line=1,game_beam=512,beam_span=0", "game_line=1,game_beam=512,beam_span=6")
	t.Logf("beam_span=0: %d; beam_span=6: %d", rs[0].Score, rs[1].Score)
	if rs[1].Score <= rs[0].Score {
		t.Fatalf("beam_span=6 scores %d, beam_span=0 %d", rs[1].Score, rs[0].Score)
	}
}

// TestGameLineIsOptional: the game beam's own line is played with
// game_line=1 and left out with game_line=0 (the default), where the fall
// beam still plays at the game beam's width.
func TestGameLineIsOptional(t *testing.T) {
	ps := phraseSet(t, "power")
	p := official(t, 21)
	for _, assign := range []string{"game_line=0", "game_line=1"} {
		s := mustLookahead(t, assign)
		solveValid(t, s, p, p.SourceSeeds[0], ps)
		if played, want := len(s.line) > 0, assign == "game_line=1"; played != want {
			t.Errorf("%s: the game beam's line played: %v", assign, played)
		}
		if s.fallS == nil {
			t.Errorf("%s: the fall beam was not played", assign)
		}
	}
}

// TestLookSeedsLeavesLookaheadOut: on a problem of more source seeds than
// look_seeds the lookahead's own game is not played where the game beam
// plays (its beams leave a text), and it is played where no game beam
// plays; on one of at most look_seeds it is played.
func TestLookSeedsLeavesLookaheadOut(t *testing.T) {
	ps := phraseSet(t, "power")
	p := official(t, 21) // one source seed
	for _, tc := range []struct {
		assign string
		played bool
	}{
		{"look_seeds=1", true},
		{"look_seeds=0", false},
		{"look_seeds=0,game_nodes=1000,seed_nodes=0,big_nodes=0", true},
	} {
		s := mustLookahead(t, tc.assign)
		solveValid(t, s, p, p.SourceSeeds[0], ps)
		if played := len(s.chosen) > 0; played != tc.played {
			t.Errorf("%s: the lookahead's game played: %v, want %v", tc.assign, played, tc.played)
		}
	}
}

// solveVariants solves the first source seed of official problem id with
// the power phrases, once per hexlookahead assignment, each text valid.
func solveVariants(t *testing.T, id int, assign ...string) []hextris.Result {
	ps := phraseSet(t, "power")
	p := official(t, id)
	rs := make([]hextris.Result, len(assign))
	for i, v := range assign {
		rs[i] = solveValid(t, mustLookahead(t, v), p, p.SourceSeeds[0], ps)
	}
	return rs
}

// TestFallBeamWhereGameBeamIsLeftOut: where game_nodes leaves the game
// beam out (problem 9 with a budget of 1,000), the fall beam is played
// with big_nodes, and its line beats the lookahead's text by far (on this
// 10×8 board with 400 units the beam is what survives); with big_nodes=0
// the solver keeps the lookahead's text.
func TestFallBeamWhereGameBeamIsLeftOut(t *testing.T) {
	rs := solveVariants(t, 9, "game_nodes=1000,seed_nodes=0,big_nodes=0", "game_nodes=1000,seed_nodes=0,big_nodes=20000000")
	t.Logf("big_nodes=0: %d in %d units; big_nodes=2e7: %d in %d units", rs[0].Score, rs[0].UnitsLocked, rs[1].Score, rs[1].UnitsLocked)
	if rs[1].Score < 2*rs[0].Score || rs[1].UnitsLocked <= rs[0].UnitsLocked {
		t.Fatalf("big_nodes=2e7: %d in %d units; big_nodes=0: %d in %d units", rs[1].Score, rs[1].UnitsLocked, rs[0].Score, rs[0].UnitsLocked)
	}
	s := mustLookahead(t, "game_nodes=1000,seed_nodes=0")
	s.beamStart(official(t, 9), official(t, 9).SourceSeeds[0], phraseSet(t, "power"))
	if w, _ := s.beamWidth(s.cfg.GameNodes); w != 0 {
		t.Fatalf("game_nodes=1000: the game beam is %d wide, want it left out", w)
	}
}

// TestBigFallBeamsTypeTheBestPick: on a board too big for the game beam
// (problem 6, seed 13120, with game_nodes=1000) big_beams fall beams are
// played, each with its own weights, and only the line that their pick
// ranks first is typed: its move points are those of the solver's text,
// and the pick is those points plus fall_rows per row of the line's
// falls. With big_beams=1, or under a deadline, the first beam alone
// plays, and it picks as it does beside the second.
func TestBigFallBeamsTypeTheBestPick(t *testing.T) {
	ps := phraseSet(t, "power")
	p := official(t, 6)
	const seed = 13120
	if !slices.Contains(p.SourceSeeds, seed) {
		t.Fatalf("problem 6 has no source seed %d", seed)
	}
	var picks []float64
	for _, n := range []int{1, 2} {
		s := mustLookahead(t, "game_nodes=1000,seed_nodes=0,big_nodes=20000000", fmt.Sprintf("big_beams=%d", n))
		r := solveValid(t, s, p, seed, ps)
		if len(s.bigS) != n {
			t.Fatalf("big_beams=%d: %d fall beams played", n, len(s.bigS))
		}
		typed := -1
		for i, f := range s.bigS {
			if i < len(picks) && f.gb.pick != picks[i] {
				t.Errorf("big_beams=%d: beam %d picked %.0f, alone %.0f", n, i, f.gb.pick, picks[i])
			}
			if i == len(picks) {
				picks = append(picks, f.gb.pick)
			}
			if len(f.line) > 0 {
				if typed >= 0 {
					t.Fatalf("big_beams=%d: beams %d and %d typed", n, typed, i)
				}
				typed = i
			}
		}
		if typed < 0 || picks[typed] != slices.Max(picks) {
			t.Fatalf("big_beams=%d: beam %d typed, picks %v", n, typed, picks)
		}
		f := s.bigS[typed]
		rows := 0
		for k, l := range f.line {
			rows += f.fall(f.src[k], l.lock.State)
		}
		if want := float64(r.MoveScore) + f.cfg.BeamRows*float64(rows); f.gb.pick != want {
			t.Fatalf("big_beams=%d: pick %.1f, the text's move points %d plus %g a row of %d rows: %.1f", n, f.gb.pick, r.MoveScore, f.cfg.BeamRows, rows, want)
		}
		t.Logf("big_beams=%d: picks %v, beam %d typed: %d (move %d)", n, picks, typed, r.Score, r.MoveScore)
	}
	if picks[1] == picks[0] {
		t.Errorf("the two beams picked alike (%v): the variant changes nothing", picks)
	}
	// Under a deadline the first beam alone plays.
	s := mustLookahead(t, "game_nodes=1000,seed_nodes=0,big_nodes=20000000,big_beams=2")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sol, err := s.Solve(ctx, p, seed, ps)
	if err != nil {
		t.Fatal(err)
	}
	if r := hextris.Play(p, seed, ps, sol); r.Error != "" {
		t.Fatalf("under a deadline: %s", r.Error)
	}
	if len(s.bigS) != 1 {
		t.Fatalf("under a deadline: %d fall beams played, want 1", len(s.bigS))
	}
}

// TestBeamFallRanksFalls: a game beam that values the rows its units fall
// (beam_fall) keeps, after each of the first units, states whose units
// fell more rows in all than the beam without it keeps (4 wide, on
// problem 18, 30×30).
func TestBeamFallRanksFalls(t *testing.T) {
	ps := phraseSet(t, "power")
	p := official(t, 18)
	var rows [2]int
	for i, v := range []string{"beam_fall=0", "beam_fall=50"} {
		s := mustLookahead(t, v)
		s.beamStart(p, p.SourceSeeds[0], ps)
		if _, _, ok := s.beamLine(4, 1<<40, time.Time{}); !ok {
			t.Fatalf("%s: no line", v)
		}
		for k := range 3 {
			for _, n := range s.gb.levels[k] {
				rows[i] += n.rows
			}
		}
	}
	t.Logf("the first 3 units' kept states fell %d rows in all; with beam_fall=50 %d", rows[0], rows[1])
	if rows[1] <= rows[0] {
		t.Fatalf("beam_fall=50: the first 3 units' kept states fell %d rows in all, beam_fall=0 %d", rows[1], rows[0])
	}
}

// TestBigBoardLeavesPortfolioOut: with a portfolio (8 variants; the
// defaults have none), on a board too big for the game beam (problem 21
// with game_nodes=1000) the fall beam plays and the portfolio does not,
// unless big_portfolio=1; without the fall beam there (big_nodes=0), the
// portfolio plays.
func TestBigBoardLeavesPortfolioOut(t *testing.T) {
	ps := phraseSet(t, "power")
	p := official(t, 21)
	for _, tc := range []struct {
		assign    string
		portfolio bool
	}{
		{"portfolio=8,game_nodes=1000,seed_nodes=0,big_nodes=20000000", false},
		{"portfolio=8,game_nodes=1000,seed_nodes=0,big_nodes=20000000,big_portfolio=1", true},
		{"portfolio=8,game_nodes=1000,seed_nodes=0,big_nodes=0", true},
	} {
		s := mustLookahead(t, tc.assign)
		solveValid(t, s, p, p.SourceSeeds[0], ps)
		if played := len(s.subs) > 0; played != tc.portfolio {
			t.Errorf("%q: portfolio played %v, want %v", tc.assign, played, tc.portfolio)
		}
	}
}

// BenchmarkGameBeam runs the game beam's search for its line (not typed)
// over the whole source of problem 0, 256 states wide: the reachability
// searches, the placements' values and the boards kept, which are most of
// a game's time on the small one-seed boards.
func BenchmarkGameBeam(b *testing.B) {
	p := official(b, 0)
	ps := phraseSet(b, "power")
	s := mustLookahead(b)
	b.ReportAllocs()
	for b.Loop() {
		s.beamStart(p, p.SourceSeeds[0], ps)
		if _, _, ok := s.beamLine(256, 1<<62, time.Time{}); !ok {
			b.Fatal("the beam stopped")
		}
	}
}

// BenchmarkWellBeam is BenchmarkGameBeam's beam on problem 8 with the
// well beam's weights against the defaults': the well term is valued for
// every placement the beam ranks.
func BenchmarkWellBeam(b *testing.B) {
	p := official(b, 8)
	ps := phraseSet(b, "power")
	for _, bc := range []struct{ name, assign string }{{"plain", ""}, {"well", "w_well=0.95,w_rowfill=5"}} {
		b.Run(bc.name, func(b *testing.B) {
			var as []string
			if bc.assign != "" {
				as = append(as, bc.assign)
			}
			s := mustLookahead(b, as...)
			b.ReportAllocs()
			for b.Loop() {
				s.beamStart(p, p.SourceSeeds[0], ps)
				if _, _, ok := s.beamLine(64, 1<<62, time.Time{}); !ok {
					b.Fatal("the beam stopped")
				}
			}
		})
	}
}

// TestBeamEndsByItsTime: under a deadline the game beam narrows itself to
// end in time. On problem 0 a beam 4,096 wide takes about 14 s; given a
// second, it returns the whole source's line within a few (the bound
// leaves room for a loaded machine).
func TestBeamEndsByItsTime(t *testing.T) {
	p := official(t, 0)
	s := mustLookahead(t)
	s.beamStart(p, p.SourceSeeds[0], phraseSet(t, "power"))
	start := time.Now()
	line, _, ok := s.beamLine(4096, 1<<62, start.Add(time.Second))
	took := time.Since(start)
	t.Logf("a line of %d units in %v", len(line), took.Round(time.Millisecond))
	if !ok || len(line) != len(s.src) {
		t.Fatalf("ok %v, a line of %d units, want %d", ok, len(line), len(s.src))
	}
	if took > 5*time.Second {
		t.Fatalf("the beam took %v for a second", took)
	}
}

// TestFallBeamInTimeOnABigBoard: on a board too big for the game beam
// (problem 9 with game_nodes=1000) with a fall beam budget that would take
// hours (big_nodes=2e10), a solve under a deadline still ends in time with
// the fall beam's line, which scores twice the lookahead's text
// (big_nodes=0) or more, as in TestFallBeamWhereGameBeamIsLeftOut; the
// lookahead's own game is left out, so that the fall beam has the time.
//
// The deadline is five times what the solve with a fall beam budget of
// 2e7 nodes (which scores twice the lookahead's) takes on this machine
// just before, so that the test asks the same of a loaded machine as of an
// idle one: under a fixed 4 s, a make test that ran other packages beside
// it left the beam a quarter of the cores and a third of its line. The
// beam's search takes half the time left (bigShare) and narrows itself to
// it by the time its first levels took, so the five leave room for a load
// that changes while it runs (at three, a make test fell 15 points short).
func TestFallBeamInTimeOnABigBoard(t *testing.T) {
	ps := phraseSet(t, "power")
	p := official(t, 9)
	seed := p.SourceSeeds[0]
	look := solveValid(t, mustLookahead(t, "game_nodes=1000,seed_nodes=0,big_nodes=0"), p, seed, ps)
	start := time.Now()
	budgeted := solveValid(t, mustLookahead(t, "game_nodes=1000,seed_nodes=0,big_nodes=20000000"), p, seed, ps)
	limit := 5 * time.Since(start)
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	s := mustLookahead(t, "game_nodes=1000,seed_nodes=0,big_nodes=20000000000")
	start = time.Now()
	sol, err := s.Solve(ctx, p, seed, ps)
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	r := hextris.Play(p, seed, ps, sol)
	t.Logf("under %v: %d in %d units (%s), in %v; big_nodes=2e7: %d; the lookahead alone: %d",
		limit.Round(time.Millisecond), r.Score, r.UnitsLocked, r.EndState, took.Round(time.Millisecond), budgeted.Score, look.Score)
	if r.Error != "" || r.Score < 2*look.Score {
		t.Fatalf("under %v: %d (error %q), want at least twice the lookahead's %d", limit, r.Score, r.Error, look.Score)
	}
	// The fall beam had the time: the lookahead's own game was left out.
	if len(s.chosen) != 0 {
		t.Fatalf("the lookahead played %d units of its own game under the deadline", len(s.chosen))
	}
	// In time: the deadline, and a margin for typing the line on a loaded machine.
	if took > limit+limit/2 {
		t.Fatalf("the solve took %v under a deadline of %v", took, limit)
	}
}

// TestWellBeamClearsLinesTogether: on problem 8 (10×8, a 4-cell bar one
// unit in eight, the rest single cells), where the game beam clears every
// line on its own, the well beam's line earns at least twice its move
// points from the same cells, which only lines cleared together give;
// both texts replay without error to the end of the source.
func TestWellBeamClearsLinesTogether(t *testing.T) {
	t.Parallel()
	ps := phraseSet(t, "power")
	p := official(t, 8)
	seed := p.SourceSeeds[0]
	s := mustLookahead(t, "game_beam=64")
	ctx := context.Background()
	s.beamStart(p, seed, ps)
	plain, err := s.beamPlay(ctx, p, seed, ps, 64, 1<<40, 1)
	if err != nil {
		t.Fatal(err)
	}
	well, err := s.wellBeam(ctx, p, seed, ps, 1<<40)
	if err != nil {
		t.Fatal(err)
	}
	rp, rw := hextris.Play(p, seed, ps, plain), hextris.Play(p, seed, ps, well)
	for _, r := range []hextris.Result{rp, rw} {
		if r.Error != "" || r.End != hextris.SourceExhausted {
			t.Fatalf("%s at %d, end %s", r.Error, r.ErrorAt, r.EndState)
		}
	}
	if rw.MoveScore < 2*rp.MoveScore {
		t.Fatalf("well beam %d move points, game beam %d: want at least twice", rw.MoveScore, rp.MoveScore)
	}
	t.Logf("move points: game beam %d, well beam %d (power %d, %d)", rp.MoveScore, rw.MoveScore, rp.PowerScore, rw.PowerScore)
}

// BenchmarkFallBeamBig runs a fall beam's search for its line (as the
// fall beam ranks it: fall_gain per row fallen, the lock points ten times)
// over the first 150 units of problem 24 (100×40), 16 states wide: the
// reachability searches on a board of 59,392 states and the values of
// their locks, which are most of the problem's time. "resting" values the
// locks the fall beam weighs (fall_hang=0), "hanging" every lock.
func BenchmarkFallBeamBig(b *testing.B) {
	p := official(b, 24)
	ps := phraseSet(b, "power")
	for _, restingOnly := range []bool{true, false} {
		name := "resting"
		if !restingOnly {
			name = "hanging"
		}
		b.Run(name, func(b *testing.B) {
			s := mustLookahead(b, "beam_fall=2,w_points=10")
			s.cfg.RestingOnly = restingOnly
			b.ReportAllocs()
			for b.Loop() {
				s.beamStart(p, p.SourceSeeds[0], ps)
				s.src = s.src[:150]
				if _, _, ok := s.beamLine(16, 1<<62, time.Time{}); !ok {
					b.Fatal("the beam stopped")
				}
			}
		})
	}
}

// TestSeedNodesFloor: a problem of many seeds gets seed_nodes of game beam
// work for each; one of few seeds keeps game_nodes; no game beam stays
// none.
func TestSeedNodesFloor(t *testing.T) {
	p4, p1 := official(t, 4), official(t, 1) // 50 source seeds, 1
	for _, tc := range []struct {
		assign string
		p      *hextris.Problem
		want   int64
	}{
		{"game_nodes=240000000,seed_nodes=7200000", p4, 360_000_000},
		{"game_nodes=240000000,seed_nodes=7200000", p1, 240_000_000},
		{"game_nodes=240000000,seed_nodes=0", p4, 240_000_000},
		{"game_nodes=0,seed_nodes=7200000", p4, 0},
	} {
		if got := mustLookahead(t, tc.assign).gameNodes(tc.p); got != tc.want {
			t.Errorf("%s, problem %d: %d, want %d", tc.assign, tc.p.ID, got, tc.want)
		}
	}
}
