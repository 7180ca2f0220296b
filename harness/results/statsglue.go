package results

import "gauntlet/harness/stats"

// meanCI95 returns the mean of xs and its 95% Student-t confidence interval
// (lo = hi = mean for fewer than two values).
func meanCI95(xs []float64) (mean, lo, hi float64) {
	e := stats.MeanCI95(xs)
	return e.Value, e.Lo, e.Hi
}

// wilcoxonTwoSided is the two-sided p-value of the Wilcoxon signed-rank test
// of the paired samples a and b; ok is false when the test is undefined
// (every difference zero).
func wilcoxonTwoSided(a, b []float64) (p float64, ok bool) {
	r, err := stats.WilcoxonPaired(a, b, stats.TwoSided)
	if err != nil || r.N == 0 {
		return 0, false
	}
	return r.P, true
}
