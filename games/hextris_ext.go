package games

import (
	"context"
	"io"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/referees/hextris"
)

// hextrisLimits: the contest's command line gave a solver its time with
// -t; with none, gauntlet bounds a solver at 10 minutes.
var hextrisLimits = contract.TimeLimits{
	Turn:            hextris.DefaultExternalTime,
	Margin:          hextris.DefaultMargin,
	Step:            time.Second,
	NoFirstTurnTime: "a hextris solver answers once, with its whole game: --turn-time is its -t",
	Measured:        "from the solver's start to its exit (the contest's -t was the time to produce output)",
}

// hexCommand is an external solver as a hextris.Solver: the contest's
// command line (-f problem -p phrase... -t seconds -c cores) with the
// problem reduced to the case's seed. It keeps what a seat's result holds
// beyond the solution: the output the rules ignored and the time taken.
type hexCommand struct {
	cmd     contract.Command
	opt     contract.PlayOptions
	answers contract.Answers
}

var _ hextris.Solver = (*hexCommand)(nil)

// Solve runs the solver once. Its output so far comes back with an error,
// as an in-process solver's best solution does.
func (h *hexCommand) Solve(ctx context.Context, p *hextris.Problem, seed uint32, phrases hextris.PhraseSet) (string, error) {
	lim := h.opt.Applied(hextrisLimits)
	res, err := hextris.RunExternal(ctx, h.cmd.Argv, hextris.ExternalOptions{
		Env:         h.cmd.Env,
		Phrases:     phrases,
		TimeLimit:   h.opt.TurnTime,
		Margin:      lim.Margin,
		NoTimeLimit: h.opt.NoTimeLimit,
		Log:         seatLog(h.opt.Log, h.cmd.Stderr),
	}, p, seed)
	h.answers = contract.Answers{Ignored: res.Ignored, IgnoredFirst: res.IgnoredFirst}
	if res.Took > 0 {
		h.answers.Times = contract.NewAnswerTimes([]time.Duration{res.Took}, lim)
	}
	if err != nil && ctx.Err() != nil {
		return res.Solution, ctx.Err()
	}
	return res.Solution, err
}

// hexSolver is the seat's solver: its built-in one, or its external
// command behind the same interface.
func hexSolver(pl contract.Player, opt contract.PlayOptions) (hextris.Solver, *hexCommand, error) {
	solver, err := hexTypes.seat(pl)
	if err != nil || solver != nil {
		return solver, nil, err
	}
	ext := &hexCommand{cmd: pl.Command, opt: opt}
	return ext, ext, nil
}

// seatLog is where a solver's stderr goes: the run's log and the seat's
// (either may be nil).
func seatLog(log, seat io.Writer) io.Writer {
	switch {
	case seat == nil:
		return log
	case log == nil:
		return seat
	}
	return io.MultiWriter(log, seat)
}
