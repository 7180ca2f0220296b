package runner

import (
	"testing"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
)

// mustEntrant parses spec as an entrant of the duel test game.
func mustEntrant(t testing.TB, r *contract.Registry, spec string) *entrant.Entrant {
	t.Helper()
	e, err := entrant.Parse(r, "duel", spec)
	if err != nil {
		t.Fatal(err)
	}
	return e
}
