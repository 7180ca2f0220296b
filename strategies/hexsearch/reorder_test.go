package hexsearch

import (
	"context"
	"slices"
	"testing"

	"gauntlet/referees/hextris"
)

// stretches splits a text's locks at its line clears, each stretch's
// states sorted.
func stretches(s *Solver, p *hextris.Problem, seed uint32, text string) [][]int32 {
	var out [][]int32
	var cur []int32
	for _, lp := range s.lineOf(p, seed, text) {
		cur = append(cur, lp.state)
		if lp.clears {
			slices.Sort(cur)
			out, cur = append(out, cur), nil
		}
	}
	if cur != nil {
		slices.Sort(cur)
		out = append(out, cur)
	}
	return out
}

// TestReorderPermutesStretches: reorder's text locks the same units in the
// same stretches between line clears as the text it was given, in another
// order, so that the move points and the game's end are the same; on the
// one-cell problems its phrases score more.
func TestReorderPermutesStretches(t *testing.T) {
	t.Parallel()
	ps := phraseSet(t, "power")
	for _, id := range []int{17, 21} {
		p := official(t, id)
		seed := p.SourceSeeds[0]
		text, err := mustGreedy(t, "phrase_dp=1").Solve(context.Background(), p, seed, ps)
		if err != nil {
			t.Fatal(err)
		}
		s := mustLookahead(t)
		got, err := s.reorder(context.Background(), p, seed, ps, text)
		if err != nil || got == "" {
			t.Fatalf("problem %d: reorder gave %q, %v", id, got, err)
		}
		a, b := hextris.Play(p, seed, ps, text), hextris.Play(p, seed, ps, got)
		if b.Error != "" || b.MoveScore != a.MoveScore || b.UnitsLocked != a.UnitsLocked || b.End != a.End {
			t.Fatalf("problem %d: reordered %+v, want the move points, units and end of %+v", id, b, a)
		}
		if x, y := stretches(s, p, seed, text), stretches(s, p, seed, got); !slices.EqualFunc(x, y, slices.Equal) {
			t.Fatalf("problem %d: the stretches' locks differ:\n%v\n%v", id, x, y)
		}
		if got == text {
			t.Errorf("problem %d: the text came back unchanged", id)
		}
		t.Logf("problem %d: power %d -> %d", id, a.PowerScore, b.PowerScore)
		if id == 17 && b.PowerScore <= a.PowerScore {
			t.Errorf("problem 17: power %d, not above the text's %d", b.PowerScore, a.PowerScore)
		}
	}
}

// TestReorderOnlyOneCellSources: where the source holds other units, or
// units of more cells, reorder does not apply.
func TestReorderOnlyOneCellSources(t *testing.T) {
	t.Parallel()
	ps := phraseSet(t, "power")
	for _, id := range []int{0, 10, 13} {
		p := official(t, id)
		seed := p.SourceSeeds[0]
		text, err := mustGreedy(t).Solve(context.Background(), p, seed, ps)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := mustLookahead(t).reorder(context.Background(), p, seed, ps, text); got != "" || err != nil {
			t.Errorf("problem %d: reorder gave %d bytes, %v; want nothing", id, len(got), err)
		}
	}
}

// BenchmarkReorder is reorder on problem 17 (100 one-cell units, 15×15),
// from the greedy solver's text.
func BenchmarkReorder(b *testing.B) {
	ps := phraseSet(b, "power")
	p := official(b, 17)
	seed := p.SourceSeeds[0]
	text, err := mustGreedy(b, "phrase_dp=1").Solve(context.Background(), p, seed, ps)
	if err != nil {
		b.Fatal(err)
	}
	s := mustLookahead(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.reorder(context.Background(), p, seed, ps, text); err != nil {
			b.Fatal(err)
		}
	}
}
