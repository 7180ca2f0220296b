// Package brew is an exact port of the referee of CodinGame's Fall
// Challenge 2020, "Witches' Brew": two witches cast spells to turn
// ingredients into potions and brew orders for rupees.
//
// The port reproduces the organisers' referee on every detail the
// conformance data checks: the decks and their ids, java.util.Random and
// Collections.shuffle bit for bit (any 64-bit seed), leagues 1 to 3, the
// per-turn input text, the output-line grammar with its Java-regex quirks,
// simultaneous resolution with the tome-tax index shift, the urgency bonus,
// and the end-of-game scoring. RULES.md gives the rules in full; the
// reference games in testdata decide every detail.
//
// The files follow the game:
//
//	decks.go     tome spells, orders, starting spells, ids, the deal
//	javarand.go  java.util.Random and Collections.shuffle
//	state.go     State, a flat value copied with =, and its queries
//	actions.go   Action, validity (Valid) and legal moves (Legal)
//	turn.go      Step: one simultaneous turn, the shared-state update, the end
//	protocol.go  the turn input text (AppendInput, ParseInput) and the
//	             output-line parser (ParseCommand)
//	serve.go     Tracker and Serve: an in-process Bot as a CodinGame process
//	process.go   external bot processes with time limits
//	match.go     PlayMatch (the harness's entry point) and Play (fast loop)
//	replay.go    the `gauntlet replay brew` contract
//
// For search, a State is copied by value; Legal lists one player's actions
// into a caller-owned buffer, StepOne advances a copy by one player's
// action (the other waits) and Step by both. None of these allocates.
package brew
