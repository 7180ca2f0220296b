// Package paperio is an exact port of the referee of Paper.io (Mail.Ru AI
// Cups 4, 2019; the organisers' local runner): a 31×31 grid of 30-px
// cells, 1 to 6 players, trails and the official capture algorithm,
// nitro, slowdown and saw bonuses spawned with Python's MT19937, every
// loss cause and the score. The rules as implemented are described in
// RULES.md; the reference games recorded from the organisers' code in
// testdata decide every detail.
//
// State is a plain value (no pointers, no maps): copying it gives an
// independent game, and State.Advance plays one tick of commands on it
// without bonus spawns and without allocating, which is what a search
// needs. Game adds the referee's random generator (MT) and the spawns.
// Cells are indexed j*Cols+i (Cell, CellAt, CellOf); territories and
// trails are also kept as bitsets (Bits).
//
// Bots: in-process strategies implement Bot and play through PlayMatch
// (or the allocation-free Play); external programs speak the runner's
// JSON protocol (start_game / tick / end_game, answer {"command": ...})
// through PlayMatch's Agent.Command, and Serve runs an in-process Bot as
// such a program. Replay reads a conformance trace and writes the state
// after every tick, with the trace hash.
package paperio
