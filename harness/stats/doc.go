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
// difference with a Student-t interval ([PairedMeanCI95], [MeanCI95],
// [MeanCI]) and the Wilcoxon signed-rank test:
//
//	func WilcoxonSignedRank(d []float64, alt Alternative) (WilcoxonResult, error)
//	func WilcoxonPaired(x, y []float64, alt Alternative) (WilcoxonResult, error)
//	func (w *Wilcoxon) Test(d []float64, alt Alternative) (WilcoxonResult, error)
//
// with alt one of [TwoSided], [Less], [Greater]. Trial pruning asks whether
// a trial is significantly worse than the best so far on the same cases
// (one-sided, Less on trial − best, higher scores better), allocation-free
// with a caller-owned scratch buffer of [WilcoxonScratchLen](n) values:
//
//	func PairedWorse(trial, best []float64, scratch []float64) (p float64)
//
// The conventions follow fishtest (official-stockfish/fishtest, directory
// server/fishtest/stats) wherever it defines one: trinomial counts are
// ordered losses, draws, wins; pentanomial counts are ordered by the pair's
// points, 0 to 2; an empty bin is replaced by 1e-3 of a game before an
// estimate or a likelihood ratio is computed, so that a sample with every
// result in one bin still has finite figures; scores are clamped to
// [0.001, 0.999] before they are turned into Elo.
//
// The Wilcoxon signed-rank test follows R's wilcox.test: zero differences
// are dropped (scipy's zero_method="wilcox"), ties get average ranks, the
// p-value is exact for up to [WilcoxonExactMax] untied differences and
// normal (tie- and continuity-corrected, R's correct = TRUE) otherwise.
// Where this differs: dropped zeros do not prevent the exact p-value (it is
// exact given the number of zeros; R and scipy switch to the normal
// approximation), tied magnitudes are never fed to the untied exact
// distribution (scipy's exact mode ignores ties), and the continuity
// correction is on by default (scipy's is off; [Wilcoxon.NoContinuity]).
//
// No estimate, likelihood ratio or p-value here is ±Inf or NaN for finite
// input: where the data do not bound a figure (every game won, every game
// drawn, no games at all) the figure is clamped and [Estimate.Note] says
// why. The distribution functions ([NormalQuantile], [StudentTQuantile])
// follow package math at the edges of their domains (±Inf at 0 and 1).
package stats
