// Package botlimit carries the bounds gauntlet puts on the processes of
// external bots from the harness, which knows the run's options, to the
// code that starts the processes (referees/internal/lineproc), through the
// context of each game: the referees in between pass the context along
// and need not know of them.
package botlimit

import (
	"context"
	"time"
)

// Limits are the bounds on every external bot process of one game. The
// zero value bounds nothing.
type Limits struct {
	// Deadline is the game's wall-clock cap: an answer still awaited then
	// is a timeout, whatever the time limits (zero: no cap). Cap is its
	// length, for messages.
	Deadline time.Time
	Cap      time.Duration
	// Memory is the most resident memory, in bytes, that the processes of
	// one bot may hold together (0: no cap).
	Memory int64
	// Procs is the most processes one bot may run at once, itself
	// included (0: no cap).
	Procs int
	// CPU times each answer by the CPU time the bot's processes spent on
	// it instead of the wall clock.
	CPU bool
	// Shared, when not empty, says how the machine was shared while the
	// game was played on the wall clock ("2 games on 2 cores"): a timeout
	// says so, since another game may have taken the bot's CPU.
	Shared string
}

type key struct{}

// With returns a context that carries l.
func With(ctx context.Context, l Limits) context.Context {
	return context.WithValue(ctx, key{}, l)
}

// From returns the limits ctx carries (the zero Limits when none).
func From(ctx context.Context) Limits {
	l, _ := ctx.Value(key{}).(Limits)
	return l
}
