package paperpaths

import (
	"os"
	"strings"
	"testing"

	"gauntlet/strategies/param"
)

// TestFinalsParams: the configuration for the finals' rules in finals.json
// is valid for paperpaths2, changes only weights of a game of two players,
// and changes each of them from its default.
func TestFinalsParams(t *testing.T) {
	data, err := os.ReadFile("finals.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := param.DecodeFile(data)
	if err != nil {
		t.Fatalf("finals.json: %v", err)
	}
	v, err := Params2.FromMap(m)
	if err != nil {
		t.Fatalf("finals.json: %v", err)
	}
	if _, err := New2(v, 1); err != nil {
		t.Fatalf("finals.json: %v", err)
	}
	def := Params2.Defaults()
	for name := range m {
		if !strings.HasPrefix(name, "duel_") {
			t.Errorf("finals.json sets %q, not a weight of a game of two players", name)
		}
		if v[name] == def[name] {
			t.Errorf("finals.json sets %q to its default %v", name, def[name])
		}
	}
	if d, f := readWeights(Params2, def, "duel_"), readWeights(Params2, v, "duel_"); d == f {
		t.Error("finals.json leaves the weights of a duel as they are")
	}
}
