package games

import (
	"testing"

	"gauntlet/harness"
)

// TestRegistryComplete: once every init has run, whatever the file order,
// each strategy's game is registered and each game has a strategy.
func TestRegistryComplete(t *testing.T) {
	if err := harness.Default.Check(); err != nil {
		t.Fatal(err)
	}
	for _, g := range harness.Default.Games() {
		if len(harness.Default.Strategies(g.Info().Name)) == 0 {
			t.Errorf("game %s has no strategy", g.Info().Name)
		}
	}
}
