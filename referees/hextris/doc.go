// Package hextris is an exact port of the ICFP Contest 2015 referee
// ("Honeycomb", hexagonal Tetris with phrases of power).
//
// The rules are those of the organisers' scorer, described in RULES.md;
// the reference games in testdata (scored by that scorer) are the arbiter.
// The package holds the problem format, the random source, the game engine (Game: Reset, Step and accessors, usable by strategies),
// the one-shot scorer Play, phrase scoring, the official leaderboard
// aggregation, the final round's board and points (OfficialFinalBoard,
// FinalPoints), the contest solution format, the JSONL conformance replay and
// a runner for external contest-style solvers.
//
// The 33 official problems (qualifier 0-24, final round 25-32) and the
// phrase sets of the final judging (power, custom, illegal, none) are
// embedded: see Official and OfficialPhrases.
//
// Hot paths allocate nothing: a Game reuses its bit-row board and history
// between Reset calls, and (*Game).Run scores a solution without allocating.
package hextris
