package paperio

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestViewIsWhatTheProtocolShows plays random games (bonus-rich, with
// deaths) and checks at every decision that View gives the state a
// protocol bot reconstructs from the tick message.
func TestViewIsWhatTheProtocolShows(t *testing.T) {
	var view, filled State
	checked, withHeld, withDead := 0, 0, 0
	for seed := int64(1); seed <= 12; seed++ {
		rules := DefaultRules()
		rules.BonusChance = 8
		if seed%3 == 0 {
			rules.Speed = 6
		}
		known := DefaultRules() // what the bots were built for
		if seed%2 == 0 {
			known = FinalsRules()
		}
		n := 2 + int(seed)%5
		g := newGame(t, rules, n, seed)
		rng := rand.New(rand.NewPCG(uint64(seed), 3))
		var buf []byte
		for !g.Over() {
			var cmds Commands
			for k := 0; k < n; k++ {
				p := &g.Players[k]
				if !p.Alive || !p.AtCentre() {
					continue
				}
				g.State.View(&view, p.ID, &known)
				buf = g.AppendTick(buf[:0], p.ID)
				m, err := ParseMessage(buf)
				if err != nil {
					t.Fatal(err)
				}
				tp, err := ParseTick(m.Params)
				if err != nil {
					t.Fatal(err)
				}
				if err := tp.Fill(&filled, ViewRules(&known, &g.Rules), n, p.ID); err != nil {
					t.Fatal(err)
				}
				if view.Rules.MaxTickCount != known.MaxTickCount || view.Rules.MaxExecutionTime != known.MaxExecutionTime ||
					view.Rules.Speed != rules.Speed || view.Rules.BonusChance != known.BonusChance {
					t.Fatalf("seed %d: the bot is shown %d ticks, %v a game, speed %d, bonus chance %d",
						seed, view.Rules.MaxTickCount, view.Rules.MaxExecutionTime, view.Rules.Speed, view.Rules.BonusChance)
				}
				if !reflect.DeepEqual(view, filled) {
					t.Fatalf("seed %d tick %d player %d: View differs from the tick message's state", seed, g.Tick, p.ID)
				}
				checked++
				for i := range n {
					if g.Players[i].NHeld > 0 {
						withHeld++
					}
					if !g.Players[i].Alive {
						withDead++
					}
				}
				cmds[k] = wanderer(p, rng)
			}
			g.PlayTick(&cmds)
		}
	}
	if checked < 1000 || withHeld == 0 || withDead == 0 {
		t.Fatalf("checked %d views (%d with held bonuses, %d with dead players): too little", checked, withHeld, withDead)
	}
	t.Logf("%d views agree with the tick messages", checked)
}

// wanderer keeps its direction or turns at random, never into a wall or
// its own trail when it can help it, so that players live long enough to
// pick up bonuses.
func wanderer(p *Player, rng *rand.Rand) Dir {
	safe := func(d Dir) bool {
		if d == DirNone || d == p.Dir.Reverse() && p.Dir != DirNone {
			return false
		}
		dx, dy := d.delta()
		c, ok := CellOf(p.X+dx*Width, p.Y+dy*Width)
		return ok && !p.TrailBits.Has(c)
	}
	if p.Dir != DirNone && safe(p.Dir) && rng.IntN(3) > 0 {
		return p.Dir
	}
	for range 8 {
		if d := Dir(1 + rng.IntN(4)); safe(d) {
			return d
		}
	}
	return p.Dir
}
