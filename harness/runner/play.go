package runner

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/internal/botlimit"
)

// capGrace is how long a game may go on past its wall-clock cap before its
// context ends: at the cap every answer awaited is a forfeit, and the
// game ends by its rules; one that does not is abandoned with an error.
const capGrace = time.Minute

// botContext returns the context of a game with external bots (of seats
// players): it carries the bounds on their processes (package botlimit)
// and ends capGrace after the game's wall-clock cap, with a cause that
// says so.
func botContext(ctx context.Context, l contract.TimeLimits, o contract.PlayOptions, external, seats int) (context.Context, context.CancelFunc) {
	gameCap := o.GameCap(l, external)
	deadline := time.Now().Add(gameCap)
	bl := botlimit.Limits{Deadline: deadline, Cap: gameCap, Memory: o.BotMemory, Procs: o.BotProcs, CPU: o.CPUClock}
	if !o.CPUClock && !o.NoTimeLimit {
		bl.Shared = contract.SharedNote(max(o.Concurrent, 1), seats, runtime.NumCPU())
	}
	ctx = botlimit.With(ctx, bl)
	return context.WithDeadlineCause(ctx, deadline.Add(capGrace),
		fmt.Errorf("the game went on %v past its wall-clock cap %v (every bot's answer was due at the cap)", capGrace, gameCap))
}

// PlayerSeed derives a seat's bot seed from the case seed (splitmix64), so
// that reruns are bit-identical whatever the scheduling.
func PlayerSeed(caseSeed uint64, seat int) uint64 {
	z := caseSeed + 0x9E3779B97F4A7C15*uint64(seat+1)
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// PlayMatch plays one match of a plan.
func PlayMatch(ctx context.Context, p *Plan, m *Match, opt contract.PlayOptions) (contract.Outcome, time.Duration, error) {
	return playMatch(ctx, p, m, opt, make([]contract.Player, len(m.Seats)), labels(p.Entrants))
}

// labels returns the entrants' labels, the names their players go by ("" for
// a nil entrant: a league's plan has none for the versions a worker cannot
// play, which no match seats).
func labels(es []*entrant.Entrant) []string {
	out := make([]string, len(es))
	for i, e := range es {
		if e != nil {
			out[i] = e.Label()
		}
	}
	return out
}

// playMatch is PlayMatch with the caller's players buffer (len(m.Seats))
// and the entrants' labels. A game with external bots is played under its
// wall-clock cap and the bounds on their processes (see botContext).
func playMatch(ctx context.Context, p *Plan, m *Match, opt contract.PlayOptions, players []contract.Player, names []string) (contract.Outcome, time.Duration, error) {
	external := 0
	for seat, ei := range m.Seats {
		e := p.Entrants[ei]
		pl, err := e.Player(PlayerSeed(m.Case.Seed, seat), names[ei])
		if err != nil {
			return contract.Outcome{}, 0, fmt.Errorf("%s case %s: %w", p.Game.Info().Name, m.Case.ID, err)
		}
		players[seat] = pl
		if e.IsExternal() {
			external++
		}
	}
	// An external bot need not play the same game twice: keep its moves,
	// so that the game can be watched later.
	opt.RecordMoves = opt.RecordMoves || external > 0
	gameCtx := ctx
	if external > 0 {
		var cancel context.CancelFunc
		gameCtx, cancel = botContext(ctx, p.Game.Info().Limits, opt, external, len(m.Seats))
		defer cancel()
	}
	start := time.Now()
	out, err := p.Game.Play(gameCtx, m.Case, players, opt)
	wall := time.Since(start)
	if err != nil && ctx.Err() == nil && gameCtx.Err() != nil {
		err = context.Cause(gameCtx)
	}
	if err != nil {
		return contract.Outcome{}, wall, fmt.Errorf("%s case %s: %w", p.Game.Info().Name, m.Case.ID, err)
	}
	if len(out.Seats) != len(m.Seats) {
		return contract.Outcome{}, wall, fmt.Errorf("%s case %s: outcome has %d seats, want %d", p.Game.Info().Name, m.Case.ID, len(out.Seats), len(m.Seats))
	}
	return out, wall, nil
}
