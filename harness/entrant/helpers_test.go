package entrant

import (
	"testing"

	"gauntlet/harness/contract"
)

// mustEntrant parses spec as an entrant of the duel test game.
func mustEntrant(t testing.TB, r *contract.Registry, spec string) *Entrant {
	t.Helper()
	e, err := Parse(r, "duel", spec)
	if err != nil {
		t.Fatal(err)
	}
	return e
}
