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
		b, err := New(map[string]float64{"w_win_disc": tc.disc}, 1)
		if err != nil {
			t.Fatal(err)
		}
		b.r.myScore = 10 // ahead of the opponent's 0
		a := withInv(0, &[4]int32{0, 1, 0, 0})
		at2 := b.evaluate(a, terminalBit, 0, 2)
		at5 := b.evaluate(a, terminalBit, 0, 5)
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
		b, err := New(map[string]float64{"w_brew": w, "opp_model": 0}, 1)
		if err != nil {
			t.Fatal(err)
		}
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
