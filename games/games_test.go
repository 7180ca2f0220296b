package games

import (
	"context"
	"encoding/json"
	"testing"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/runner"
	"gauntlet/internal/testjson"
)

// shortParams are cheaper settings of the strategies that take long under
// the race detector at their defaults, used by the -short form of the
// determinism test below (same code paths, smaller searches); the
// strategies' own packages test their defaults, and make test-long runs
// this test with them too, but for longParams.
var shortParams = map[string]string{
	"hextris/hexlookahead":       ":game_beam=4,portfolio=1,nodes=2000,dp_nodes=5000",
	"paperio/paperpaths":         ":paths=12",
	"paperio/paperpaths2":        ":game_ms=0,paths=12",
	"paperio-finals/paperpaths":  ":paths=12",
	"paperio-finals/paperpaths2": ":game_ms=0,paths=12",
}

// longParams replace the defaults in the long form where a game at the
// defaults takes minutes: hexlookahead's defaults play problem 0 (the
// first smoke case) in about 75 s, and the two games of the test took
// some thirty minutes under the race detector (two thirds of CI's time).
// Its beams are played a hundredth as wide (fall and well beams played,
// 2.8 s a game without the detector); its own TestDeterministic plays its
// defaults without the detector, which finds nothing in a single-threaded
// solver.
var longParams = map[string]string{
	"hextris/hexlookahead": ":game_nodes=1000000,seed_nodes=0,portfolio=1,nodes=5000,dp_nodes=20000",
}

// clockParams replace the budget of the strategies whose default budget is
// a clock by a count, in every form of the test: a clock that binds makes
// the game depend on the machine (the race detector's slowdown makes it
// bind), which is the strategy's choice, not a fault of the harness.
var clockParams = map[string]string{
	"paperio/paperpaths2":        ":game_ms=0,paths=120",
	"paperio-finals/paperpaths2": ":game_ms=0,paths=120",
}

// TestEveryStrategyPlaysDeterministically plays the first smoke case of
// every registered game with each of its strategies (opponents: the game's
// default lineup) twice, and checks that the outcome is well formed and
// the same both times.
func TestEveryStrategyPlaysDeterministically(t *testing.T) {
	reg := contract.Default
	for _, g := range reg.Games() {
		info := g.Info()
		cases, err := g.Cases("smoke")
		if err != nil || len(cases) == 0 {
			t.Fatalf("%s: smoke case set: %v", info.Name, err)
		}
		for _, s := range reg.Strategies(info.Name) {
			t.Run(info.Name+"/"+s.Name, func(t *testing.T) {
				spec := s.Name + clockParams[info.Name+"/"+s.Name]
				sized := longParams
				if testing.Short() {
					sized = shortParams
				}
				if p, ok := sized[info.Name+"/"+s.Name]; ok {
					spec = s.Name + p
				}
				ent, err := entrant.Parse(reg, info.Name, spec)
				if err != nil {
					t.Fatal(err)
				}
				var opps []*entrant.Entrant
				if info.MaxSeats > 1 {
					if opps, err = entrant.ParseLineup(reg, info.Name, info.Opponents); err != nil {
						t.Fatal(err)
					}
					for len(opps)+1 < info.MinSeats {
						opps = append(opps, opps[0])
					}
				}
				plan, err := runner.EvalPlan(g, cases[0].ID, ent, opps, "")
				if err != nil {
					t.Fatal(err)
				}
				before, err := json.Marshal(plan.Matches[0].Case)
				if err != nil {
					t.Fatal(err)
				}
				var first string
				for i := 0; i < 2; i++ {
					out, _, err := runner.PlayMatch(context.Background(), plan, &plan.Matches[0], contract.PlayOptions{})
					if err != nil {
						t.Fatal(err)
					}
					if len(out.Seats) != len(plan.Entrants) {
						t.Fatalf("%d seat results for %d entrants", len(out.Seats), len(plan.Entrants))
					}
					for _, seat := range out.Seats {
						if seat.Forfeit != "" {
							t.Fatalf("built-in strategy forfeited: %s", seat.Forfeit)
						}
						if seat.Rank < 1 || seat.Rank > len(out.Seats) {
							t.Fatalf("rank %d", seat.Rank)
						}
					}
					js := testjson.Marshal(t, out)
					if i == 0 {
						first = string(js)
					} else if string(js) != first {
						t.Fatalf("same case, same seeds, different outcomes:\n%s\n%s", first, js)
					}
				}
				after := testjson.Marshal(t, plan.Matches[0].Case)
				if string(after) != string(before) {
					t.Fatal("playing the case changed its data")
				}
			})
		}
	}
}

func TestCaseSets(t *testing.T) {
	g, err := contract.Default.Game("hextris")
	if err != nil {
		t.Fatal(err)
	}
	q, err := g.Cases("qualifier")
	if err != nil || len(q) != 174 {
		t.Fatalf("qualifier: %d cases, %v (want 174 distinct problem/seed pairs)", len(q), err)
	}
	one, err := g.Cases(q[5].ID)
	if err != nil || len(one) != 1 || one[0].ID != q[5].ID {
		t.Fatalf("single case %s: %v %v", q[5].ID, one, err)
	}
	for _, bad := range []string{"p99/s0", "p1/s12345", "problem:x", "qualifier@nope", "bogus"} {
		if _, err := g.Cases(bad); err == nil {
			t.Errorf("hextris case set %q: no error", bad)
		}
	}
	b := mustGame(t, "brew")
	s1, err := b.Cases("seeds:20")
	if err != nil || len(s1) != 20 {
		t.Fatal(err)
	}
	s2, err := b.Cases("seeds:5")
	if err != nil {
		t.Fatal(err)
	}
	for i := range s2 {
		if s2[i].ID != s1[i].ID {
			t.Fatalf("seeds:5 is not a prefix of seeds:20")
		}
	}
	if r, err := b.Cases("seeds:1001-1010"); err != nil || len(r) != 10 || r[0].ID != "seed:1001" {
		t.Fatalf("seeds:1001-1010: %v %v", r, err)
	}
	for _, bad := range []string{"seeds:5-1", "seeds:x-3", "seeds:0", "seed:abc"} {
		if _, err := b.Cases(bad); err == nil {
			t.Errorf("brew case set %q: no error", bad)
		}
	}
	if one, err := b.Cases(s1[3].ID); err != nil || len(one) != 1 || one[0].Seed != s1[3].Seed {
		t.Fatalf("brew single case %s: %v", s1[3].ID, err)
	}
}
