package hextris

import "context"

// Solver is an in-process hextris strategy: it writes the command string
// for one game (problem and seed) with the given phrases of power in mind.
// A Solver is built with its own seed and must be deterministic given it
// when it runs on a node budget; a time limit, when the caller sets one
// through ctx, may make it stop early with the best solution found so far.
type Solver interface {
	// Solve returns the solution for the game of problem p and source seed.
	// The text must be playable by Play; an error is for a solver that
	// cannot answer at all.
	Solve(ctx context.Context, p *Problem, seed uint32, phrases PhraseSet) (string, error)
}
