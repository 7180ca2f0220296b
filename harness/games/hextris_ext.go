package games

import (
	"context"
	"errors"

	"gauntlet/harness"
)

// hexExternal runs a contest-style external solver for one case.
func hexExternal(ctx context.Context, pl harness.Player, d hexCase, opt harness.PlayOptions) (string, error) {
	return "", errors.New("external hextris solvers are not wired yet")
}
