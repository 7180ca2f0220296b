package brewbeam

import (
	"math/rand/v2"
	"testing"

	"gauntlet/referees/brew"
)

// midgameStates collects the states of a few greedy-vs-greedy games, one
// every few rounds, as seat 0 sees them.
func midgameStates(t testing.TB, seeds int) []brew.State {
	t.Helper()
	var out []brew.State
	for seed := int64(1); seed <= int64(seeds); seed++ {
		g0, g1 := mustGreedy(t, 0), mustGreedy(t, 1)
		s, err := brew.New(seed, 3)
		if err != nil {
			t.Fatal(err)
		}
		var view brew.State
		for !s.Over {
			if s.Round%5 == 0 {
				s.Observe(&view)
				out = append(out, view)
			}
			s.Observe(&view)
			a0 := g0.Act(&view, 0)
			s.Observe(&view)
			a1 := g1.Act(&view, 1)
			s.Step([2]brew.Action{a0, a1})
		}
	}
	return out
}

// TestCompactMatchesReferee follows random lines of the compact search
// state and the same actions played on the referee's state (the opponent
// waiting), and checks that inventory, castable spells, points and the
// urgency bonus agree after every step.
func TestCompactMatchesReferee(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	b := mustBeam(t, map[string]float64{"opp_model": 0, "learn_turns": 100}, 1)
	steps := 0
	for _, root := range midgameStates(t, 20) {
		const me = 0
		b.prepare(&root, me)
		a, bb := b.rootKey(&root, me)
		st := root
		nOwn := b.r.nOwn
		if int(root.P[me].NSpells) > maxOwn {
			continue
		}
		for step := 0; step < 12 && !st.Over; step++ {
			b.next = b.next[:0]
			b.set.reset(cap(b.next))
			cur := node{a: a, b: bb}
			b.nodes = 0
			if !b.expand(&cur, 0) {
				t.Fatal("budget ran out on one expansion")
			}
			if len(b.next) == 0 {
				t.Fatal("no child")
			}
			ch := b.next[rng.IntN(len(b.next))]
			kind, idx, times := decodeAct(ch.first)
			var act brew.Action
			switch kind {
			case actRest:
				act = brew.RestAction()
			case actBrew:
				act = brew.BrewAction(int(root.Orders[idx].ID))
			case actLearn:
				act = brew.LearnAction(int(root.Tome[idx].ID))
			case actCast:
				if idx < nOwn {
					act = brew.CastAction(int(st.P[me].Spells[idx].ID), times)
				} else {
					recipe := root.Tome[idx-tomeBase].ID
					for i := nOwn; i < int(st.P[me].NSpells); i++ {
						if st.P[me].Spells[i].Recipe == recipe {
							act = brew.CastAction(int(st.P[me].Spells[i].ID), times)
						}
					}
				}
			}
			if ok, why := st.Valid(me, act); !ok && kind != 0 {
				t.Fatalf("round %d: compact child %v is not valid: %s", st.Round, act, why)
			}
			st.StepOne(me, act)
			a, bb = ch.a, ch.b
			steps++
			pl := &st.P[me]
			if got := invOf(a); got != pl.Inv && !st.Over {
				t.Fatalf("after %v: inventory %v, referee %v", act, got, pl.Inv)
			}
			if st.Over {
				break
			}
			gained := pl.Score - root.P[me].Score
			if int32(bb&scoreMask) != gained {
				t.Fatalf("after %v: points %d, referee %d", act, bb&scoreMask, gained)
			}
			u0, u1 := usesOf(bb)
			if u0 != st.BonusUses[0] || u1 != st.BonusUses[1] {
				t.Fatalf("after %v: bonus uses %d %d, referee %v", act, u0, u1, st.BonusUses)
			}
			cm := castableOf(a)
			for i := 0; i < nOwn; i++ {
				if (cm>>uint(i))&1 == 1 != st.IsCastable(me, i) {
					t.Fatalf("after %v: spell %d castable mismatch", act, i)
				}
			}
			for k := 0; k < b.r.nTome; k++ {
				if learntOf(a)&(1<<uint(k)) == 0 {
					continue
				}
				for i := nOwn; i < int(pl.NSpells); i++ {
					if pl.Spells[i].Recipe == root.Tome[k].ID && (cm>>uint(tomeBase+k))&1 == 1 != st.IsCastable(me, i) {
						t.Fatalf("after %v: learnt spell %d castable mismatch", act, k)
					}
				}
			}
		}
	}
	if steps < 500 {
		t.Fatalf("only %d steps checked", steps)
	}
	t.Logf("%d steps agree with the referee", steps)
}
