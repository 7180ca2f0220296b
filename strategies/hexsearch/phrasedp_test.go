package hexsearch

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gauntlet/referees/hextris"
)

// TestAutomatonCountsOccurrences compares the automaton's points on random
// texts with naive substring counting and with the referee's phrase score.
func TestAutomatonCountsOccurrences(t *testing.T) {
	for _, set := range []string{"power", "custom"} {
		ps := phraseSet(t, set)
		g := newGeom(official(t, 0))
		pl := newPlanner(g, newReach(g), ps)
		ac := newAutomaton(pl.phrases)
		// Characters of the phrases, plus a few others, with phrase
		// pieces mixed in so that occurrences are frequent.
		var alphabet []byte
		for _, ph := range pl.phrases {
			alphabet = append(alphabet, ph.text...)
		}
		alphabet = append(alphabet, "xq5Z"...)
		rng := rand.New(rand.NewPCG(7, uint64(len(set))))
		used := make([]bool, len(pl.phrases))
		seen := make([]bool, len(pl.phrases))
		for range 300 {
			var sb strings.Builder
			for sb.Len() < 200 {
				if rng.IntN(3) == 0 {
					ph := pl.phrases[rng.IntN(len(pl.phrases))].text
					sb.WriteString(ph[rng.IntN(len(ph)):])
				} else {
					sb.WriteByte(alphabet[rng.IntN(len(alphabet))])
				}
			}
			text := sb.String()
			lower := strings.ToLower(text)
			naive := 0
			for _, ph := range pl.phrases {
				for i := 0; i+len(ph.text) <= len(lower); i++ {
					if lower[i:i+len(ph.text)] == ph.text {
						naive += 2 * len(ph.text)
					}
				}
			}
			clear(used)
			first, _ := ac.score(0, []byte(text), used, seen)
			if int64(first) != ps.Score(text) {
				t.Fatalf("%s: %q: automaton %d, referee %d", set, text, first, ps.Score(text))
			}
			for i := range used {
				used[i] = true
			}
			again, _ := ac.score(0, []byte(text), used, seen)
			if again != naive {
				t.Fatalf("%s: %q: automaton %d, naive %d", set, text, again, naive)
			}
			// A text split in two scores the same when the second part
			// starts from the state the first ends in.
			cut := rng.IntN(len(text))
			p1, mid := ac.score(0, []byte(text[:cut]), used, seen)
			p2, _ := ac.score(mid, []byte(text[cut:]), used, seen)
			if p1+p2 != naive {
				t.Fatalf("%s: %q cut at %d: %d+%d, want %d", set, text, cut, p1, p2, naive)
			}
		}
	}
}

// dpCase is one unit's phrase search input, taken from a game.
type dpCase struct {
	game   hextris.Game
	b      board
	u      int
	from   int32
	target lockAt
	a0     int32
	used   []bool
	greedy []byte // the greedy planner's text, if it found one
}

// dpUnits plays n units of problem id (first seed) with hexgreedy and the
// phrase search on, and records every unit's search input.
func dpUnits(t testing.TB, id, n int, assign ...string) (*Solver, []dpCase) {
	p := official(t, id)
	ps := phraseSet(t, "power")
	s := mustGreedy(t, append([]string{"phrase_dp=1"}, assign...)...)
	seed := p.SourceSeeds[0]
	s.prepare(p, ps)
	s.game.Reset(p, seed)
	s.src = hextris.SourceUnits(p, seed, s.src[:0])
	s.out, s.acState, s.spanPh = s.out[:0], 0, -1
	s.tries = append(s.tries[:0], make([]int, len(s.pl.phrases))...)
	var us []dpCase
	for len(us) < n && !s.game.Over() {
		u, pos, _ := s.game.Live()
		s.cur.loadGame(&s.game)
		from := s.g.state(int(pos.X), int(pos.Y), int(pos.Rot))
		best, ok := s.choose(&s.cur, u, s.game.SourceIndex(), from)
		if !ok {
			t.Fatalf("problem %d: no lock", id)
		}
		du := dpCase{u: u, from: from, target: best, a0: s.acState, used: append([]bool(nil), s.pl.used...)}
		du.game.CopyFrom(&s.game)
		du.b = newBoard(p.Width, p.Height)
		du.b.copyFrom(&s.cur)
		du.b.rows = append([]uint64(nil), s.cur.rows...)
		saved := append([]bool(nil), s.pl.used...)
		if out, ok := s.pl.plan(&s.cur, u, from, best.State, best.Cmd, nil); ok {
			du.greedy = out
		}
		copy(s.pl.used, saved)
		us = append(us, du)
		if err := s.placeOne(); err != nil {
			t.Fatal(err)
		}
	}
	return s, us
}

// TestPhraseDPLocksAtTarget: on every unit of a few games, the phrase
// search's text replays without error on the referee and locks the unit
// at the target, with its last character and no sooner; and its power
// points are at least the greedy planner's in total.
func TestPhraseDPLocksAtTarget(t *testing.T) {
	t.Parallel()
	var dpSum, greedySum, units, repeatUnits, worse int
	for _, id := range []int{0, 2, 6, 11, 20} {
		s, us := dpUnits(t, id, 60)
		for k, du := range us {
			s.pl.rc.toTarget(&du.b, du.u, du.target.State)
			text, _, ok := s.dp.solve(&du.b, du.u, du.from, du.target.State, du.a0, du.used, nil)
			if !ok {
				continue
			}
			units++
			var g hextris.Game
			g.CopyFrom(&du.game)
			for i, ch := range text {
				c, valid, _ := hextris.DecodeChar(rune(ch))
				if !valid {
					t.Fatalf("problem %d unit %d: invalid character %q", id, k, ch)
				}
				if i == len(text)-1 {
					_, pos, _ := g.Live()
					if got := s.g.state(int(pos.X), int(pos.Y), int(pos.Rot)); got != du.target.State {
						t.Fatalf("problem %d unit %d: %q ends at %v, not at the target", id, k, text, pos)
					}
				}
				r := g.Step(c)
				if i < len(text)-1 && r != hextris.StepMoved {
					t.Fatalf("problem %d unit %d: %q: character %d gives %d", id, k, text, i, r)
				}
				if i == len(text)-1 && r != hextris.StepLocked && r != hextris.StepEnded {
					t.Fatalf("problem %d unit %d: %q does not lock with its last character (%d)", id, k, text, r)
				}
			}
			// Compare with the greedy planner once every phrase is used:
			// with unused phrases the search may count a phrase's 300
			// points twice, and the solver keeps the better text anyway.
			if du.greedy == nil || slices.Contains(du.used, false) {
				continue
			}
			repeatUnits++
			seen := make([]bool, len(du.used))
			dv, _ := s.ac.score(du.a0, text, du.used, seen)
			gv, _ := s.ac.score(du.a0, du.greedy, du.used, seen)
			dpSum += dv
			greedySum += gv
			if gv > dv {
				worse++
			}
		}
	}
	t.Logf("%d units, %d with every phrase used: phrase search %d power points, greedy planner %d; greedy better on %d units", units, repeatUnits, dpSum, greedySum, worse)
	if units < 200 {
		t.Fatalf("the phrase search found a path on only %d units", units)
	}
	if dpSum < greedySum {
		t.Fatalf("phrase search %d < greedy planner %d power points", dpSum, greedySum)
	}
}

// TestPhraseDPRaisesPower: whole games with the phrase search score at
// least as much power as with the greedy planner alone, and the same moves
// when spans are off (the lock targets do not depend on the text).
func TestPhraseDPRaisesPower(t *testing.T) {
	t.Parallel()
	ps := phraseSet(t, "power")
	var with, without int64
	for _, id := range []int{0, 1, 6, 10, 11, 17, 19} {
		p := official(t, id)
		seed := p.SourceSeeds[0]
		a := solveValid(t, mustGreedy(t, "phrase_dp=1,span=0"), p, seed, ps)
		b := solveValid(t, mustGreedy(t, "phrase_dp=0,span=0"), p, seed, ps)
		if a.MoveScore != b.MoveScore {
			t.Fatalf("problem %d: move score %d with the phrase search, %d without", id, a.MoveScore, b.MoveScore)
		}
		with, without = with+a.PowerScore, without+b.PowerScore
	}
	t.Logf("power: %d with the phrase search, %d without", with, without)
	if with < without {
		t.Fatalf("power %d with the phrase search < %d without", with, without)
	}
}

// BenchmarkPhraseDP measures the phrase search on the recorded units of a
// game (problem 3, 30×20): units searched per second and memoised states
// per unit.
func BenchmarkPhraseDP(b *testing.B) {
	s, us := dpUnits(b, 3, 60)
	benchPhraseDP(b, s, us, nil)
}

// BenchmarkPhraseDPSlack measures the phrase search on the first units of
// problem 24 (100×40, long falls) as dp_slack widens the corridor around
// the line from the spawn to the lock: units per second, memoised states
// per unit, and the power points of its texts per unit (every phrase
// counted as used, so repeats alone count; a unit whose search runs out of
// dp_nodes counts 0: the solver keeps the greedy planner's text there).
func BenchmarkPhraseDPSlack(b *testing.B) {
	for _, slack := range []int{3, 8, 16} {
		b.Run(fmt.Sprintf("slack=%d", slack), func(b *testing.B) {
			s, us := dpUnits(b, 24, 40, fmt.Sprintf("dp_slack=%d", slack))
			benchPhraseDP(b, s, us, slices.Repeat([]bool{true}, len(s.pl.phrases)))
		})
	}
}

// TestPhraseDPSpanFirstUses: on problem 23 (10×9, falls of a few rows, one
// 3-cell unit) the game beam's line typed with dp_span (unused phrases
// longer than a fall begun, for the next units to finish) uses more
// distinct phrases than without, locks the same units for the same move
// points, and replays without error.
func TestPhraseDPSpanFirstUses(t *testing.T) {
	ps := phraseSet(t, "power")
	p := official(t, 23)
	seed := p.SourceSeeds[0]
	var rs [2]hextris.Result
	var distinct [2]int
	for i, v := range []string{"dp_span=0", "dp_span=6,dp_span_potential=5"} {
		s := mustLookahead(t, v)
		s.beamStart(p, seed, ps)
		sol, err := s.beamPlay(context.Background(), p, seed, ps, 48, 1<<40, 1)
		if err != nil {
			t.Fatal(err)
		}
		rs[i] = hextris.Play(p, seed, ps, sol)
		if rs[i].Error != "" {
			t.Fatalf("%s: %s at %d", v, rs[i].Error, rs[i].ErrorAt)
		}
		for _, ph := range ps.Phrases() {
			if strings.Contains(sol, ph) {
				distinct[i]++
			}
		}
	}
	t.Logf("dp_span=0: %d phrases, power %d; dp_span=6: %d phrases, power %d", distinct[0], rs[0].PowerScore, distinct[1], rs[1].PowerScore)
	if rs[0].MoveScore != rs[1].MoveScore || rs[0].UnitsLocked != rs[1].UnitsLocked {
		t.Fatalf("move points %d and %d, units %d and %d", rs[0].MoveScore, rs[1].MoveScore, rs[0].UnitsLocked, rs[1].UnitsLocked)
	}
	if distinct[1] <= distinct[0] {
		t.Fatalf("dp_span=6 types %d distinct phrases, dp_span=0 %d", distinct[1], distinct[0])
	}
}

// BenchmarkPhraseDPSpan measures the phrase search with dp_span on the
// recorded units of problem 23 (10×9): units per second and memoised
// states per unit.
func BenchmarkPhraseDPSpan(b *testing.B) {
	s, us := dpUnits(b, 23, 60, "dp_span=6", "dp_span_potential=5")
	benchPhraseDP(b, s, us, nil)
}

// benchPhraseDP searches the recorded units us again and again, after one
// pass that grows the memo table to its size: units per second and
// memoised states per unit. With all (every phrase marked used) in place
// of each unit's own used phrases, it also reports the power points of
// the texts per unit (repeats alone count; a unit whose search runs out
// of dp_nodes counts 0).
func benchPhraseDP(b *testing.B, s *Solver, us []dpCase, all []bool) {
	nodes, units, pts := 0, 0, 0
	seen := make([]bool, len(s.pl.phrases))
	var buf []byte
	pass := func() {
		for i := range us {
			du := &us[i]
			used := du.used
			if all != nil {
				used = all
			}
			s.pl.rc.toTarget(&du.b, du.u, du.target.State)
			var ok bool
			buf, _, ok = s.dp.solve(&du.b, du.u, du.from, du.target.State, du.a0, used, buf[:0])
			if ok && all != nil {
				v, _ := s.ac.score(du.a0, buf, all, seen)
				pts += v
			}
			nodes += s.dp.nodes
			units++
		}
	}
	pass()
	nodes, units, pts = 0, 0, 0
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		pass()
	}
	b.ReportMetric(float64(units)/b.Elapsed().Seconds(), "units/s")
	b.ReportMetric(float64(nodes)/float64(units), "states/unit")
	if all != nil {
		b.ReportMetric(float64(pts)/float64(units), "points/unit")
	}
}

// TestDPMemoChains fills the phrase search's memo chains in a random order,
// some past one block (dpPerBlock cells) and some with none, and reads
// every cell back: the cells stored, and 0 for the reduced states never
// stored.
func TestDPMemoChains(t *testing.T) {
	d := &phraseDP{nblk: 1}
	rng := rand.New(rand.NewPCG(3, 9))
	const chains, states = 40, 30
	heads := make([]int32, chains)
	for i := range heads {
		heads[i] = d.newBlock()
	}
	want := map[[2]int32]uint32{}
	for range 600 {
		c, ai := rng.Int32N(chains), rng.Int32N(states)
		if c%5 == 0 {
			continue // chains left empty
		}
		cell, at, i := d.lookup(heads[c], ai)
		if cell != want[[2]int32{c, ai}] {
			t.Fatalf("chain %d state %d: cell %x, want %x", c, ai, cell, want[[2]int32{c, ai}])
		}
		if cell == 0 {
			v := cellOf(rng.Int32N(1<<20), byte(rng.IntN(256)))
			d.store(at, i, ai, v)
			want[[2]int32{c, ai}] = v
		}
	}
	long := 0
	for c := range int32(chains) {
		n := 0
		for ai := range int32(states) {
			cell, _, _ := d.lookup(heads[c], ai)
			if w := want[[2]int32{c, ai}]; cell != w {
				t.Fatalf("chain %d state %d: cell %x, want %x", c, ai, cell, w)
			}
			if cell != 0 {
				n++
			}
		}
		if n > 2*dpPerBlock {
			long++
		}
	}
	if long == 0 {
		t.Fatalf("no chain holds more than %d cells: the test does not reach the links", 2*dpPerBlock)
	}
}
