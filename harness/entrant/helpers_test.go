package entrant

import (
	"os"
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

// mustArgv is e's command line for the seed.
func mustArgv(t testing.TB, e *Entrant, seed uint64) []string {
	t.Helper()
	argv, err := e.Argv(seed)
	if err != nil {
		t.Fatal(err)
	}
	return argv
}

// writeFile writes a test's file.
func writeFile(t testing.TB, name string, data []byte, perm os.FileMode) {
	t.Helper()
	if err := os.WriteFile(name, data, perm); err != nil {
		t.Fatal(err)
	}
}
