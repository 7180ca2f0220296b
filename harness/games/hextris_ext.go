package games

import (
	"context"

	"gauntlet/harness"
	"gauntlet/referees/hextris"
)

// hexExternal runs a contest-style external solver for one case: the
// contest's command line (-f problem -p phrase... -t seconds -c cores)
// with the problem reduced to the case's seed.
func hexExternal(ctx context.Context, pl harness.Player, d hexCase, opt harness.PlayOptions) (string, error) {
	return hextris.RunExternal(ctx, pl.Entrant.Argv(pl.Seed), hextris.ExternalOptions{
		Env:         pl.Entrant.Environ(pl.Seed),
		Phrases:     d.Phrases,
		TimeLimit:   opt.TurnTime,
		NoTimeLimit: opt.NoTimeLimit,
		Log:         opt.Log,
	}, d.Problem, d.Seed)
}
