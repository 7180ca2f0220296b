package games

import (
	"testing"

	"gauntlet/harness/contract"
)

// TestRegistryComplete: once every init has run, whatever the file order,
// each strategy's game is registered and each game has a strategy.
func TestRegistryComplete(t *testing.T) {
	if err := contract.Default.Check(); err != nil {
		t.Fatal(err)
	}
	for _, g := range contract.Default.Games() {
		if len(contract.Default.Strategies(g.Info().Name)) == 0 {
			t.Errorf("game %s has no strategy", g.Info().Name)
		}
	}
}
