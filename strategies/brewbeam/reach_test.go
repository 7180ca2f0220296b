package brewbeam

import (
	"testing"

	"gauntlet/referees/brew"
)

// reachBot is the final-rules game of seed with a bot of params v.
func reachBot(t *testing.T, seed int64, v map[string]float64) (brew.State, *Beam) {
	t.Helper()
	s, err := brew.New(seed, 3)
	if err != nil {
		t.Fatal(err)
	}
	b := mustBeam(t, v, 1)
	return s, b
}

// A spell that turns tier-0 ingredients into higher tiers brings more
// within reach than one that turns them back down, and the reach of the
// starting book alone is the floor both start from.
func TestReachPrefersUpgrades(t *testing.T) {
	s, b := reachBot(t, 1, map[string]float64{"learn_pick": 1})
	b.prepare(&s, 0)
	up := brew.Recipe{Delta: [brew.Tiers]int8{-2, 0, 1, 0}, Repeatable: true}
	down := brew.Recipe{Delta: [brew.Tiers]int8{1, 1, 0, -1}}
	b.r.setSpell(tomeBase, &up)
	b.r.setSpell(tomeBase+1, &down)
	ru, rd := b.reach(0), b.reach(1)
	if !(ru > rd) || rd <= 0 {
		t.Fatalf("reach with an upgrade %v, with a downgrade %v: want the upgrade ahead and both above 0", ru, rd)
	}
	// From the empty inventory the starting book (+2 tier 0, and three
	// upgrades of one) reaches {2,0,0,0} in one turn and {1,1,0,0} in two.
	if d := b.rch.dist[invIndex[2][0][0][0]]; d != 1 {
		t.Errorf("distance to {2,0,0,0} = %d, want 1", d)
	}
	if d := b.rch.dist[invIndex[1][1][0][0]]; d != 2 {
		t.Errorf("distance to {1,1,0,0} = %d, want 2", d)
	}
}

// With learn_pick 1 the opening LEARN is the affordable slot of the best
// reach plus tier-0 balance, and a slot it cannot pay for is never chosen.
func TestReachPickAffordable(t *testing.T) {
	s, b := reachBot(t, 1, map[string]float64{"learn_pick": 1, "w_learn_tier0": 0})
	b.prepare(&s, 0)
	best, bestReach := -1, float32(0)
	for k := 0; k < int(s.NTome); k++ {
		if r := b.reach(k); best < 0 || r > bestReach {
			best, bestReach = k, r
		}
	}
	s.P[0].Inv = [brew.Tiers]int32{5, 0, 0, 0}
	if a := b.Act(&s, 0); a.Kind != brew.Learn || int(a.ID) != int(s.Tome[best].ID) {
		t.Fatalf("%v, want LEARN %d (slot %d, the best reach)", a, s.Tome[best].ID, best)
	}
	if best == 0 {
		t.Fatal("seed 1's best reach is slot 0, which every inventory pays for: the test needs a dearer one")
	}
	s.P[0].Inv = [brew.Tiers]int32{int32(best) - 1, 0, 0, 0}
	a := b.Act(&s, 0)
	if a.Kind != brew.Learn {
		t.Fatalf("%v, want a LEARN", a)
	}
	for k := 0; k < int(s.NTome); k++ {
		if int(a.ID) == int(s.Tome[k].ID) && k > best-1 {
			t.Fatalf("LEARN of slot %d with %d tier-0 ingredients", k, best-1)
		}
	}
}

// A reach-picked LEARN allocates nothing once the buffers are sized.
func TestReachPickAllocates(t *testing.T) {
	s, b := reachBot(t, 2, map[string]float64{"learn_pick": 1})
	s.P[0].Inv = [brew.Tiers]int32{5, 0, 0, 0}
	b.Act(&s, 0)
	if n := testing.AllocsPerRun(5, func() { b.Act(&s, 0) }); n != 0 {
		t.Fatalf("%v allocations a turn", n)
	}
}
