package paperpaths

import (
	"testing"

	"gauntlet/referees/paperio"
)

// TestArrivalMapIsALowerBound plays games without bonuses (so speeds are
// fixed) and checks, from snapshots every few ticks, that no player ever
// stands on a cell centre sooner than its arrival map says.
func TestArrivalMapIsALowerBound(t *testing.T) {
	rules := paperio.DefaultRules()
	rules.Available = [3]bool{}
	checked := 0
	for seed := int64(1); seed <= 3; seed++ {
		g, err := paperio.NewGame(rules, 4, seed)
		if err != nil {
			t.Fatal(err)
		}
		bots := make([]paperio.Bot, 4)
		for i := range bots {
			bots[i] = simple(t, uint64(seed)*10+uint64(i))
		}
		type snap struct {
			tick int
			maps [4][paperio.NumCells]int32
		}
		var snaps []*snap
		var a arrivals
		var none [paperio.NumCells]bonusCell
		var cmds paperio.Commands
		for !g.Over() {
			if g.Tick%23 == 5 {
				sn := &snap{tick: g.Tick}
				for k := range 4 {
					for c := range sn.maps[k] {
						sn.maps[k][c] = unreached
					}
					if o := &g.Players[k]; o.Alive {
						a.run(o, rules.Speed, &none, horizon)
						a.minInto(&sn.maps[k])
					}
				}
				snaps = append(snaps, sn)
			}
			for k := 0; k < g.N; k++ {
				p := &g.Players[k]
				if p.Alive && p.AtCentre() {
					view := g.State
					cmds[p.ID-1] = bots[k].Command(&view, p.ID)
				}
			}
			g.PlayTick(&cmds)
			for k := 0; k < g.N; k++ {
				p := &g.Players[k]
				if !p.Alive || !p.AtCentre() {
					continue
				}
				for _, sn := range snaps {
					if dt := int32(g.Tick - sn.tick); dt <= horizon {
						checked++
						if at := sn.maps[k][p.Cell()]; dt < at {
							t.Fatalf("seed %d: player %d on cell (%d,%d) %d ticks after tick %d; map said %d",
								seed, p.ID, p.Cell().I(), p.Cell().J(), dt, sn.tick, at)
						}
					}
				}
			}
		}
	}
	if checked < 10000 {
		t.Fatalf("only %d checks", checked)
	}
}

// TestArrivalFollowsSpeedAndTrail checks the map on hand-made positions:
// cells cost the ticks of the current speed, a held nitro runs out cell
// by cell, a slowdown on the map slows the rest of the way, and the own
// trail blocks until the player has been home.
func TestArrivalFollowsSpeedAndTrail(t *testing.T) {
	s, err := paperio.NewState(paperio.DefaultRules(), 1)
	if err != nil {
		t.Fatal(err)
	}
	p := &s.Players[0] // at (14, 14), no direction, territory 13..15
	var none [paperio.NumCells]bonusCell
	var a arrivals
	at := func(i, j int) int32 {
		var m [paperio.NumCells]int32
		for c := range m {
			m[c] = unreached
		}
		a.minInto(&m)
		return m[paperio.CellAt(i, j)]
	}
	if home := a.run(p, 5, &none, horizon); home != 0 {
		t.Fatalf("no trail: home at %d", home)
	}
	if got := at(14, 20); got != 6*6 {
		t.Fatalf("6 cells at speed 5: %d ticks, want 36", got)
	}
	// Nitro for 3 more cells: 3 cells at 5 ticks, then 6 ticks each.
	p.Held[0] = paperio.Held{Kind: paperio.Nitro, Active: 3}
	p.NHeld = 1
	p.Speed = 6
	a.run(p, 5, &none, horizon)
	if got := at(14, 20); got != 3*5+3*6 {
		t.Fatalf("nitro for 3 cells then 3 plain: %d ticks, want 33", got)
	}
	p.NHeld, p.Speed = 0, 5
	// A slowdown lying 2 cells up: 10 ticks a cell after picking it up.
	var withSlow [paperio.NumCells]bonusCell
	withSlow[paperio.CellAt(14, 16)] = bonusCell{kind: bonusSlow, active: 50}
	a.run(p, 5, &withSlow, horizon)
	if got := at(14, 18); got != 2*6+2*10 {
		t.Fatalf("slowdown after 2 cells: %d ticks to (14,18), want 32", got)
	}
	// Out of the territory moving up with a trail behind: no reversal, and
	// the trail blocks the way back until the player is home.
	put(p, 14, 18, paperio.Up)
	lay(p, paperio.CellAt(14, 16), paperio.CellAt(14, 17), paperio.CellAt(14, 18))
	home := a.run(p, 5, &none, horizon)
	// Sideways, then down beside the trail: (15,18) (15,17) (15,16) (15,15).
	if home != 4*6 {
		t.Fatalf("home at %d ticks, want 24", home)
	}
	if got := at(14, 17); got < home {
		t.Fatalf("trail cell (14,17) reached at %d, before home at %d", got, home)
	}
}

// BenchmarkArrivalMap is one opponent's map in the middle of a six-player
// game.
func BenchmarkArrivalMap(b *testing.B) {
	s := midGame(b)
	var a arrivals
	var none [paperio.NumCells]bonusCell
	o := &s.Players[0]
	b.ReportAllocs()
	for b.Loop() {
		a.run(o, s.Rules.Speed, &none, horizon)
	}
}
