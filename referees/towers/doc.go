// Package towers is the referee of the Sarov towers solitaire
// ("Саровские башни", bashni.org): c colours of seven blocks each (sizes
// 0..6) dealt on c columns, two more columns empty; a move takes the whole
// top run of a column (blocks once stacked in order stay glued) onto an
// empty column or a larger block of the run's colour; the puzzle is solved
// when every colour stands as one tower 6..0. The score is the number of
// moves: lower is better. RULES.md gives the rules in full.
//
// The files follow the game:
//
//	block.go    Block (colour and size) and the text form of a layout
//	state.go    State, a flat value copied with =: moves, the 64-bit
//	            canonical key, the count of blocks off their final support
//	deal.go     Deal: a uniform shuffle from a seed, redealt until solvable
//	solve.go    Solver: optimal A* and a quick weighted search
//	table.go    the open-addressing table of seen positions
//	replay.go   the `gauntlet replay towers` contract
//
// For search, a State is copied by value; Moves lists the legal moves into
// a caller-owned buffer and Apply plays one in place. Neither allocates.
package towers
