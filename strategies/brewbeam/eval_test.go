package brewbeam

import (
	"os"
	"testing"

	"gauntlet/referees/brew"
	"gauntlet/strategies/param"
)

// TestWinDiscounted: with w_win_disc 1 a line that ends the game ahead is
// worth more the sooner it ends; with 0 its depth does not matter.
func TestWinDiscounted(t *testing.T) {
	for _, tc := range []struct {
		disc   float64
		sooner bool
	}{{0, false}, {1, true}} {
		b := mustBeam(t, map[string]float64{"w_win_disc": tc.disc}, 1)
		b.r.myScore = 10 // ahead of the opponent's 0
		a := withInv(0, &[4]int32{0, 1, 0, 0})
		at2 := b.evaluate(a, terminalBit, 0, 2, &b.r.opp)
		at5 := b.evaluate(a, terminalBit, 0, 5, &b.r.opp)
		if got := at2 > at5; got != tc.sooner {
			t.Errorf("w_win_disc=%v: a win after 2 actions %v, after 5 %v; sooner better = %v, want %v", tc.disc, at2, at5, got, tc.sooner)
		}
	}
}

// TestBrewBonus: a brew adds w_brew to its line's points, beside its price.
func TestBrewBonus(t *testing.T) {
	s := raceState(t)
	s.P[0].Inv = [brew.Tiers]int32{0, 2, 0, 0} // order 0 (20 rupees) at once
	var got [2]float32
	for i, w := range []float64{0, 20} {
		b := mustBeam(t, map[string]float64{"w_brew": w, "opp_model": 0}, 1)
		b.prepare(&s, 0)
		a0, b0 := b.rootKey(&s, 0)
		b.next = b.next[:0]
		b.set.reset(cap(b.next))
		b.expand(&node{a: a0, b: b0}, 0)
		for _, n := range b.next {
			if kind, _, _ := decodeAct(n.first); kind == actBrew {
				got[i] = n.disc
			}
		}
	}
	if got[0] != 20 || got[1] != 40 {
		t.Errorf("brew line points with w_brew 0 and 20: %v, want [20 40]", got)
	}
}

// TestContestParams: the contest configuration in contest.json is valid,
// spends a wall-clock budget under the contest's 50 ms and keeps a node
// cap.
func TestContestParams(t *testing.T) {
	data, err := os.ReadFile("contest.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := param.DecodeFile(data)
	if err != nil {
		t.Fatalf("contest.json: %v", err)
	}
	v, err := Params.FromMap(m)
	if err != nil {
		t.Fatalf("contest.json: %v", err)
	}
	cfg, err := configFrom(v)
	if err != nil {
		t.Fatalf("contest.json: %v", err)
	}
	if ms := cfg.timeLimit.Milliseconds(); ms <= 0 || ms >= 50 {
		t.Errorf("contest time_ms %d, want within (0, 50)", ms)
	}
}

// TestEvalSum: with eval_sum the points of a brew count at every depth
// after it, so of two lines to the same state (brew then cast, cast then
// brew) the one that brewed first is worth more even undiscounted; the
// default evaluation values them alike.
func TestEvalSum(t *testing.T) {
	s := raceState(t)
	s.P[0].Inv = [brew.Tiers]int32{0, 2, 0, 0} // order 0 (20 rupees) at once
	for _, sum := range []float64{0, 1} {
		b := mustBeam(t, map[string]float64{"eval_sum": sum, "discount": 1, "opp_model": 0, "w_brew": 0}, 1)
		b.prepare(&s, 0)
		a0, b0 := b.rootKey(&s, 0)
		// layer expands n at depth d and returns its children.
		layer := func(n node, d int) []node {
			b.next = b.next[:0]
			b.set.reset(cap(b.next))
			b.expand(&n, d)
			return append([]node(nil), b.next...)
		}
		var firsts []node
		for _, c := range layer(node{a: a0, b: b0}, 0) {
			if kind, idx, _ := decodeAct(c.first); kind == actBrew || kind == actCast && idx == 0 {
				firsts = append(firsts, c)
			}
		}
		if len(firsts) != 2 {
			t.Fatalf("eval_sum=%v: %d first actions of the two lines, want a brew and a cast", sum, len(firsts))
		}
		evals := map[int]float32{}
		var end uint64
		for _, f := range firsts {
			kind, _, _ := decodeAct(f.first)
			for _, c := range layer(f, 1) {
				if brewedOf(c.a) != 0 && castableOf(c.a)&1 == 0 {
					evals[kind], end = c.eval, c.a
				}
			}
		}
		brewFirst, castFirst := evals[actBrew], evals[actCast]
		if len(evals) != 2 || end == 0 {
			t.Fatalf("eval_sum=%v: the two lines' common state not found: %v", sum, evals)
		}
		if sum == 0 && brewFirst != castFirst {
			t.Errorf("eval_sum=0, no discount: brew first %v, cast first %v, want equal", brewFirst, castFirst)
		}
		if sum == 1 && !(brewFirst > castFirst) {
			t.Errorf("eval_sum=1: brew first %v, cast first %v, want brew first worth more", brewFirst, castFirst)
		}
	}
}
