package games

import (
	"context"
	"time"

	"gauntlet/harness"
	"gauntlet/referees/hextris"
)

// hextrisLimits: the contest's command line gave a solver its time with
// -t; with none, gauntlet bounds a solver at 10 minutes.
var hextrisLimits = harness.TimeLimits{
	Turn:            hextris.DefaultExternalTime,
	Margin:          hextris.DefaultMargin,
	Step:            time.Second,
	NoFirstTurnTime: "a hextris solver answers once, with its whole game: --turn-time is its -t",
	Measured:        "from the solver's start to its exit (the contest's -t was the time to produce output)",
}

// hexExternal runs a contest-style external solver for one case: the
// contest's command line (-f problem -p phrase... -t seconds -c cores)
// with the problem reduced to the case's seed.
func hexExternal(ctx context.Context, pl harness.Player, d hexCase, opt harness.PlayOptions) (hextris.ExternalResult, error) {
	lim := opt.Applied(hextrisLimits)
	argv, err := pl.Entrant.Argv(pl.Seed)
	if err != nil {
		return hextris.ExternalResult{}, err
	}
	return hextris.RunExternal(ctx, argv, hextris.ExternalOptions{
		Env:         pl.Entrant.Environ(pl.Seed),
		Phrases:     d.Phrases,
		TimeLimit:   opt.TurnTime,
		Margin:      lim.Margin,
		NoTimeLimit: opt.NoTimeLimit,
		Log:         opt.Log,
	}, d.Problem, d.Seed)
}
