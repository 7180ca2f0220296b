package tuning

import (
	"gauntlet/harness/stats"
)

// The statistics of this package come from harness/stats; this file only
// adapts them.

// wilcoxonWorseP is the one-sided p-value of the Wilcoxon signed-rank test
// of the differences d (trial − reference) against the alternative "the
// trial is worse" (median difference below zero); 1 when the test is
// undefined.
func wilcoxonWorseP(d []float64) float64 {
	r, err := stats.WilcoxonSignedRank(d, stats.Less)
	if err != nil || r.N == 0 {
		return 1
	}
	return r.P
}

// wilcoxonP is the two-sided p-value of the signed-rank test of d; ok is
// false when the test is undefined.
func wilcoxonP(d []float64) (p float64, ok bool) {
	r, err := stats.WilcoxonSignedRank(d, stats.TwoSided)
	if err != nil || r.N == 0 {
		return 0, false
	}
	return r.P, true
}

// pairedCI is the mean of the paired differences d with its 95% Student-t
// interval (lo = hi = mean for fewer than two differences or zero
// variance).
func pairedCI(d []float64) (mean, lo, hi float64) {
	e := stats.MeanCI95(d)
	return e.Value, e.Lo, e.Hi
}
