// Package stats holds the match statistics of gauntlet: pure functions on
// counts and samples, with the formulas in their doc comments.
//
// Two-seat games are played in pairs on one case with the seats swapped.
// A single game scores 1, ½ or 0 for the entrant under test (a trinomial
// sample, [WDL]); a pair scores 0, ½, 1, 1½ or 2 points (a pentanomial
// sample, [Pentanomial]). From either:
//
//   - the score s and its logistic Elo, Elo(s) = −400·log10(1/s − 1), with
//     a 95% interval from the standard error of s ([WDL.Elo], [Pentanomial.Elo]);
//   - normalized Elo as fishtest defines it ([WDL.NElo], [Pentanomial.NElo]);
//   - the likelihood of superiority ([LOS], [Pentanomial.LOS]);
//   - the generalized sequential probability ratio test of fishtest, with
//     logistic or normalized Elo bounds ([SPRT], [LLR]).
//
// Single-player games compare two entrants case by case: the mean paired
// difference with a Student-t interval ([PairedMeanCI95]) and the Wilcoxon
// signed-rank test ([Wilcoxon], [WilcoxonScratch]).
//
// The conventions follow fishtest (official-stockfish/fishtest, directory
// server/fishtest/stats) wherever it defines one: trinomial counts are
// ordered losses, draws, wins; pentanomial counts are ordered by the pair's
// points, 0 to 2; an empty bin is replaced by 1e-3 of a game before an
// estimate or a likelihood ratio is computed, so that a sample with every
// result in one bin still has finite figures; scores are clamped to
// [0.001, 0.999] before they are turned into Elo.
//
// Nothing here returns ±Inf or NaN for a finite input: where the data do not
// bound a figure (every game won, every game drawn, no games at all) the
// figure is clamped and [Estimate.Note] says why.
package stats
