package games

import (
	"math"
	"strconv"
	"testing"

	"gauntlet/harness/contract"
)

// TestCaseSetsAtTheLargestSeed: a case set ending at the largest seed
// has its cases and ends (a loop to the last seed inclusive used to wrap
// around and never end).
func TestCaseSetsAtTheLargestSeed(t *testing.T) {
	maxI, maxU := strconv.FormatInt(math.MaxInt64, 10), strconv.FormatUint(math.MaxUint64, 10)
	for _, c := range []struct {
		game, set string
		want      int
	}{
		{"paperio", "seeds:" + maxI + "-" + maxI, 1},
		{"brew", "seeds:9223372036854775806-" + maxI, 2},
		{"towers", "case:hanoi/" + maxU, 1},
		{"towers", "hanoi:18446744073709551614-" + maxU, 2},
	} {
		g, err := contract.Default.Game(c.game)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := g.Cases(c.set)
		if err != nil || len(cs) != c.want {
			t.Errorf("%s %q: %d cases, %v; want %d", c.game, c.set, len(cs), err, c.want)
		}
	}
}
