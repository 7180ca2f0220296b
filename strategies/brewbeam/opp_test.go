package brewbeam

import (
	"testing"

	"gauntlet/referees/brew"
)

// raceState is a round-30 position without a tome where order 0 (2 tier-1,
// 20 rupees) is the only one within reach: the opponent, holding 1 tier-0
// and 1 tier-1, brews it with its second action (CAST [-1,1,0,0], BREW),
// while we, holding 1 tier-0, need five (CAST, CAST [2,0,0,0], REST, CAST,
// BREW). The other orders cost 5 tier-3 each.
func raceState(t *testing.T) brew.State {
	t.Helper()
	s, err := brew.New(1, 3)
	if err != nil {
		t.Fatal(err)
	}
	s.Round = 30
	s.NTome = 0
	s.BonusUses = [2]int32{}
	for q := range s.Orders {
		s.Orders[q].Cost = [brew.Tiers]int8{0, 0, 0, 5}
		s.Orders[q].Price = 5
	}
	s.Orders[0].Cost = [brew.Tiers]int8{0, 2, 0, 0}
	s.Orders[0].Price = 20
	s.P[0].Inv = [brew.Tiers]int32{1, 0, 0, 0}
	s.P[1].Inv = [brew.Tiers]int32{1, 1, 0, 0}
	return s
}

// TestOppSearchPredictsBrew: with opp_model 2 the order the opponent brews
// with its second action is gone for our third action on, and our best
// line does not count on brewing it then; opp_model 1 (which only sees
// what the opponent can brew at once) still plans to brew it.
func TestOppSearchPredictsBrew(t *testing.T) {
	s := raceState(t)
	old := mustBeam(t, map[string]float64{"opp_model": 1, "learn_turns": 0}, 1)
	old.Act(&s, 0)
	if i := brewIndex(old.best.hist, 0); i < 2 {
		t.Fatalf("opp_model 1: best line brews order 0 at action %d; the test expects the unmodelled plan to count on it", i)
	}

	b := mustBeam(t, map[string]float64{"opp_model": 2, "learn_turns": 0}, 1)
	b.Act(&s, 0)
	if b.Stats().OppNodes == 0 {
		t.Fatal("opp_model 2 ran no opponent search")
	}
	if b.r.opp.goneAt[1]&1 != 0 || b.r.opp.goneAt[2]&1 == 0 {
		t.Errorf("opp.goneAt[1..2] = %b, %b; want order 0 gone from action index 2 only", b.r.opp.goneAt[1], b.r.opp.goneAt[2])
	}
	if i := brewIndex(b.best.hist, 0); i >= 2 {
		t.Errorf("opp_model 2: best line brews order 0 at action %d, after the opponent took it", i)
	}
	if b.r.opp.end != 0 {
		t.Errorf("opp.end = %d with the opponent far from the goal", b.r.opp.end)
	}
}

// TestOppSearchEndsLines: when the opponent's predicted brew is its last,
// our lines end at the same turn and its final score counts that brew
// (without opp_deny, which lets the lines that take that order first go
// on: TestOppDenyGoesOn).
func TestOppSearchEndsLines(t *testing.T) {
	s := raceState(t)
	s.P[1].Deliveries = s.BrewGoal() - 1
	s.P[1].Score = 50
	b := mustBeam(t, map[string]float64{"opp_model": 2, "learn_turns": 0, "opp_deny": 0}, 1)
	b.Act(&s, 0)
	if b.r.opp.end != 2 || b.r.horizon != 2 {
		t.Fatalf("opp.end %d, horizon %d; want 2 and 2 (the opponent's goal brew is its second action)", b.r.opp.end, b.r.horizon)
	}
	if got := b.r.opp.finalAt[2]; got != 70 {
		t.Errorf("opponent's final score after two actions = %d, want 70 (50 + 20, no ingredients left)", got)
	}
	if got := b.r.opp.finalAt[1]; got != 51 {
		t.Errorf("opponent's final score after one action = %d, want 51 (50 + its tier-1 ingredient)", got)
	}
}

// TestOppDenyGoesOn: the opponent's game-ending brew (order 0, its second
// action) ends every line at that turn, unless, with opp_deny, the line
// brews order 0 first: such a line goes on, judged against a second
// forecast in which the opponent, without order 0, brews nothing.
func TestOppDenyGoesOn(t *testing.T) {
	s := raceState(t)
	s.P[1].Deliveries = s.BrewGoal() - 1
	s.P[1].Score = 50
	s.P[0].Inv = [brew.Tiers]int32{1, 2, 0, 0}
	for _, deny := range []float64{0, 1} {
		b := mustBeam(t, map[string]float64{"opp_model": 2, "learn_turns": 0, "opp_deny": deny}, 1)
		act := b.Act(&s, 0)
		if b.r.opp.end != 2 {
			t.Fatalf("opp_deny=%v: opp.end %d, want 2", deny, b.r.opp.end)
		}
		if deny == 0 {
			if b.r.horizon != 2 || b.Stats().Depth != 2 {
				t.Errorf("opp_deny=0: horizon %d, searched %d deep; want 2 and 2", b.r.horizon, b.Stats().Depth)
			}
			continue
		}
		if b.r.denyOrder != 0 || b.r.denyBefore != 1 {
			t.Errorf("denied order %d before action %d, want order 0 before action 1", b.r.denyOrder, b.r.denyBefore)
		}
		if b.r.deny.end != 0 || b.r.deny.goneAt[5]&1 != 0 || b.r.deny.finalAt[5] != 51 {
			t.Errorf("second forecast: end %d, gone %b, final %d; want no end, order 0 not brewed, 51 (50 and a tier-1 ingredient)",
				b.r.deny.end, b.r.deny.goneAt[5], b.r.deny.finalAt[5])
		}
		if b.r.horizon <= 2 || b.Stats().Depth <= 2 {
			t.Errorf("horizon %d, searched %d deep; want lines past the opponent's turn", b.r.horizon, b.Stats().Depth)
		}
		if act.Kind != brew.Brew || act.ID != int32(s.Orders[0].ID) {
			t.Errorf("action %v, want the BREW of order 0 (id %d)", act, s.Orders[0].ID)
		}
		if i := brewIndex(b.best.hist, 0); i != 0 {
			t.Errorf("best line brews order 0 at action %d, want 0", i)
		}
		if n := testing.AllocsPerRun(5, func() { b.Act(&s, 0) }); n != 0 {
			t.Errorf("a turn with the second forecast allocates %v times", n)
		}
	}
}

// TestLearnFirst: in rounds below learn_first the action is a LEARN.
func TestLearnFirst(t *testing.T) {
	s, err := brew.New(3, 3)
	if err != nil {
		t.Fatal(err)
	}
	b := mustBeam(t, map[string]float64{"learn_first": 8}, 1)
	for round := int32(0); round < 8; round += 3 {
		s.Round = round
		if a := b.Act(&s, 0); a.Kind != brew.Learn {
			t.Errorf("round %d: %v, want a LEARN", round, a)
		}
	}
	s.Round = 8
	s.P[0].Inv = [brew.Tiers]int32{0, 0, 0, 0}
	s.Orders[0].Cost = [brew.Tiers]int8{}
	if a := b.Act(&s, 0); a.Kind == brew.Learn {
		t.Errorf("round 8 with a free order: %v, want no forced LEARN", a)
	}
}

// TestOppSearchWithinOurs: the opponent's search is held within our own
// (half our states, our width and depth), so a small budget makes the
// whole turn small; at the defaults the opp_ values apply as they are.
func TestOppSearchWithinOurs(t *testing.T) {
	for _, c := range []struct {
		params              map[string]float64
		nodes, width, depth int
	}{
		{nil, 30000, 200, 14},
		{map[string]float64{"width": 30, "depth": 6, "nodes": 3000}, 1500, 30, 6},
		{map[string]float64{"nodes": 400000, "opp_nodes": 100000, "opp_width": 300, "opp_depth": 20}, 100000, 300, 14},
	} {
		bot := mustBeam(t, c.params, 1)
		o := bot.opp.cfg
		if o.nodes != c.nodes || o.width != c.width || o.depth != c.depth {
			t.Errorf("%v: the opponent's search has %d states, width %d, depth %d; want %d, %d, %d",
				c.params, o.nodes, o.width, o.depth, c.nodes, c.width, c.depth)
		}
		s := raceState(t)
		bot.Act(&s, 0)
		if n := bot.Stats().OppNodes; n == 0 || n > c.nodes+c.width*48 {
			t.Errorf("%v: the opponent's search generated %d states (budget %d)", c.params, n, c.nodes)
		}
	}
}

// TestOppLines: with opp_lines 3 (the default) the other forecasts come
// from the opponent's lines whose first brew or game-ending turn differs
// from its best line's and from each other's; with opp_spread 0 they weigh
// nothing and the move is the one search's own; a turn allocates nothing.
func TestOppLines(t *testing.T) {
	states := midgameStates(t, 3)
	one := mustBeam(t, map[string]float64{"opp_lines": 1}, 1)
	zero := mustBeam(t, map[string]float64{"opp_lines": 3, "opp_spread": 0}, 1)
	spread := mustBeam(t, nil, 1)
	alts, differ, endOnly := 0, 0, 0
	for i := range states {
		s := &states[i]
		want := one.Act(s, 0)
		if got := zero.Act(s, 0); got != want {
			t.Errorf("state %d: opp_spread 0 plays %v, the single forecast %v", i, got, want)
		}
		if spread.Act(s, 0) != want {
			differ++
		}
		r := &spread.r
		alts += r.nAlt
		keys := []uint32{forecastKey(&r.opp, r.nOrders)}
		for k := range r.nAlt {
			key := forecastKey(&r.alt[k], r.nOrders)
			for _, used := range keys {
				if key == used {
					t.Errorf("state %d: forecast %d has the key %x of an earlier one", i, k+1, key)
				}
				if key&(1<<lineEndShift-1) == used&(1<<lineEndShift-1) {
					endOnly++
				}
			}
			keys = append(keys, key)
		}
		if r.nAlt > 0 && one.Stats().Nodes > 0 && spread.Stats().Nodes <= one.Stats().Nodes {
			t.Errorf("state %d: %d states with %d more forecasts, %d with one", i, spread.Stats().Nodes, r.nAlt, one.Stats().Nodes)
		}
	}
	if alts < len(states) {
		t.Errorf("%d other forecasts over %d states, want most turns to have two", alts, len(states))
	}
	if endOnly == 0 {
		t.Errorf("no forecast differs from an earlier one in its game-ending turn alone")
	}
	t.Logf("%d states, %d other forecasts (%d differing in the game's end alone), %d moves changed", len(states), alts, endOnly, differ)
	s := &states[len(states)/2]
	if n := testing.AllocsPerRun(5, func() { spread.Act(s, 0) }); n != 0 {
		t.Errorf("a turn with opp_lines 3 allocates %v times", n)
	}
}

// forecastKey is the key of forecast f as lineKey encodes it: its first
// brew, and its last where that ends the game.
func forecastKey(f *forecast, nOrders int) uint32 {
	key := uint32(f.end) << lineEndShift
	for d := 1; d < len(f.goneAt); d++ {
		if g := f.goneAt[d]; g != 0 {
			for q := range nOrders {
				if g&(1<<uint(q)) != 0 {
					return key | uint32(q+1) | uint32(d)<<8
				}
			}
		}
	}
	return key
}

// TestDiscAhead: in a turn where we have brewed more potions than the
// opponent the search discounts by disc_ahead; level or behind, and in the
// opponent's search always, by the discount. disc_ahead 0 (the default)
// keeps the discount in every turn.
func TestDiscAhead(t *testing.T) {
	ahead := map[string]float64{"disc_ahead": 0.97}
	for _, c := range []struct {
		params    map[string]float64
		me, op    int32
		want, opp float32
	}{
		{ahead, 2, 1, 0.97, 0.95},
		{ahead, 2, 2, 0.95, 0.95},
		{ahead, 1, 2, 0.95, 0.95},
		{nil, 2, 1, 0.95, 0.95},
		{map[string]float64{"discount": 0.9, "disc_ahead": 0.99}, 3, 0, 0.99, 0.9},
	} {
		bot := mustBeam(t, c.params, 1)
		s := raceState(t)
		s.P[0].Deliveries, s.P[1].Deliveries = c.me, c.op
		bot.Act(&s, 0)
		if bot.disc != c.want || bot.opp.disc != c.opp {
			t.Errorf("%v, %d potions to %d: discount %v, the opponent's search %v; want %v, %v",
				c.params, c.me, c.op, bot.disc, bot.opp.disc, c.want, c.opp)
		}
		if p := bot.discPow[3]; p != c.want*c.want*c.want {
			t.Errorf("%v, %d potions to %d: discount^3 %v, want %v", c.params, c.me, c.op, p, c.want*c.want*c.want)
		}
	}
}

// TestOppFinal: the opponent's line is a CAST [-1,1,0,0] and the BREW of
// order 0 (2 tier-1, 20 rupees). Without opp_final its final score after
// d actions is its points and ingredients now (50 + 1) plus the brew's
// price net of its ingredients, which misses the tier-1 ingredient the
// cast made; with opp_final it is the line's own: 52 after the cast, 70
// after the brew.
func TestOppFinal(t *testing.T) {
	for _, c := range []struct {
		final      float64
		at1, at2   int32
		wantTrails bool
	}{
		{0, 51, 69, false},
		{1, 52, 70, true},
	} {
		b := mustBeam(t, map[string]float64{"learn_turns": 0, "opp_lines": 1, "opp_final": c.final}, 1)
		s := raceState(t)
		s.P[1].Score = 50
		b.Act(&s, 0)
		if b.r.opp.goneAt[2]&1 == 0 {
			t.Fatalf("opp_final=%v: the forecast does not brew order 0 with its second action", c.final)
		}
		if got1, got2 := b.r.opp.finalAt[1], b.r.opp.finalAt[2]; got1 != c.at1 || got2 != c.at2 {
			t.Errorf("opp_final=%v: the opponent's final score after one and two actions %d, %d; want %d, %d",
				c.final, got1, got2, c.at1, c.at2)
		}
		if (b.opp.trail != nil) != c.wantTrails || b.trail != nil {
			t.Errorf("opp_final=%v: the opponent's search keeps trails %v, ours %v; want %v, false",
				c.final, b.opp.trail != nil, b.trail != nil, c.wantTrails)
		}
		if n := testing.AllocsPerRun(5, func() { b.Act(&s, 0) }); n != 0 {
			t.Errorf("opp_final=%v: a turn allocates %v times", c.final, n)
		}
	}
}

// TestOppJudge: the opponent, one brew from the goal, can end the game
// with its second action at 28 points (8 + 20). We hold 25 points and 5
// tier-3 ingredients (30 were the game to end now). Judged against our
// points and ingredients (opp_judge 0) that end is lost and its search
// does not take it (it may end the game later, with more); against our
// points alone (1) it is won and taken; with 2 every end of its own is
// won, even against 60 points.
func TestOppJudge(t *testing.T) {
	for _, c := range []struct {
		judge float64
		ours  int32
		takes bool
	}{
		{0, 25, false}, {1, 25, true}, {2, 25, true},
		{0, 60, false}, {1, 60, false}, {2, 60, true},
	} {
		s := raceState(t)
		s.P[1].Deliveries = s.BrewGoal() - 1
		s.P[1].Score = 8
		s.P[0].Score = c.ours
		s.P[0].Inv = [brew.Tiers]int32{1, 0, 0, 5}
		b := mustBeam(t, map[string]float64{"opp_model": 2, "learn_turns": 0, "opp_deny": 0, "opp_judge": c.judge}, 1)
		b.Act(&s, 0)
		end := b.r.opp.end
		if takes := end == 2; takes != c.takes {
			t.Errorf("opp_judge=%v, our score %d: the forecast ends the game after %d actions; want the end at 28 points after 2 taken: %v",
				c.judge, c.ours, end, c.takes)
			continue
		}
		if c.takes && b.r.opp.finalAt[2] != 28 {
			t.Errorf("opp_judge=%v, our score %d: the opponent's final score %d, want 28", c.judge, c.ours, b.r.opp.finalAt[2])
		}
	}
}
