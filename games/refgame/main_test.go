package refgame

import (
	"os"
	"testing"

	"gauntlet/internal/testpy"
)

// TestMain starts the relayed referees of the tests with the Python
// interpreter itself, not a version manager's shim (see testpy).
func TestMain(m *testing.M) {
	os.Exit(testpy.Main(m.Run))
}
