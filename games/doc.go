// Package games wraps each referee package as a contract.Game and registers
// it, with its built-in strategies, in contract.Default. Import it for its
// side effects.
//
// A game is one file here (brew.go, hextris.go, paperio.go): its Game type,
// its registration in init, a typed adapter (adapt.go) for the values that
// cross the harness boundary as any (its case data and its bot type), and
// the optional abilities it declares with compile-time assertions
// (var _ contract.Replayer = brewGame{}): a replay, reference data for it, a
// native-protocol bot server, tools of its own (hextris_score.go,
// hextris_solve.go), default case sets, the optimum of a case, detail
// columns, an official aggregation, a cost model. The CLI finds all of them
// in the registry; adding a game edits nothing in cmd/.
package games
