package contract_test

import (
	"strings"
	"testing"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/internal/harnesstest"
	"gauntlet/strategies/param"
)

// TestRegistrationOrder registers a game and its strategy in both orders,
// as init functions in differently named files may: the registries built
// answer the same, and a strategy of a game never registered is reported
// by Check, naming the strategy and the game.
func TestRegistrationOrder(t *testing.T) {
	specs := param.Specs{{Name: "skill", Kind: param.Float, Min: 0, Max: 10, Default: 5, Help: "how good"}}
	strategy := func(game string) *contract.Strategy {
		return &contract.Strategy{Game: game, Name: "fixed", Params: specs,
			New: func(v param.Values, seed uint64) (any, error) { return &harnesstest.DuelBot{Skill: v["skill"]}, nil }}
	}
	gameFirst := contract.NewRegistry()
	gameFirst.RegisterGame(&harnesstest.Duel{Seats: 2})
	gameFirst.RegisterStrategy(strategy("duel"))
	strategyFirst := contract.NewRegistry()
	strategyFirst.RegisterStrategy(strategy("duel"))
	strategyFirst.RegisterGame(&harnesstest.Duel{Seats: 2})
	for name, r := range map[string]*contract.Registry{"game first": gameFirst, "strategy first": strategyFirst} {
		if err := r.Check(); err != nil {
			t.Errorf("%s: Check: %v", name, err)
		}
		if s, err := r.Strategy("duel", "fixed"); err != nil || s.Name != "fixed" {
			t.Errorf("%s: Strategy = %v, %v", name, s, err)
		}
		if got := r.Strategies("duel"); len(got) != 1 {
			t.Errorf("%s: Strategies = %v, want the one registered", name, got)
		}
		if _, err := entrant.ParseLineup(r, "duel", "fixed:skill=2,fixed"); err != nil {
			t.Errorf("%s: ParseLineup: %v", name, err)
		}
	}

	orphan := contract.NewRegistry()
	orphan.RegisterGame(&harnesstest.Duel{Seats: 2})
	orphan.RegisterStrategy(strategy("dule"))
	err := orphan.Check()
	if err == nil || !strings.Contains(err.Error(), `fixed registered for unknown game "dule"`) || !strings.Contains(err.Error(), "known: duel") {
		t.Fatalf("Check with a strategy of an unknown game = %v", err)
	}
}

// TestRegistrationDuplicate: a strategy registered twice for one game
// still panics, though its game is not registered yet.
func TestRegistrationDuplicate(t *testing.T) {
	s := &contract.Strategy{Game: "duel", Name: "fixed", New: func(param.Values, uint64) (any, error) { return &harnesstest.DuelBot{}, nil }}
	r := contract.NewRegistry()
	r.RegisterStrategy(s)
	defer func() {
		if recover() == nil {
			t.Fatal("a duplicate strategy did not panic")
		}
	}()
	r.RegisterStrategy(s)
}
