package harness

import "math"

// meanCI95 returns the mean of xs and its 95% confidence interval.
func meanCI95(xs []float64) (mean, lo, hi float64) {
	n := float64(len(xs))
	if len(xs) == 0 {
		return 0, 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= n
	if len(xs) < 2 {
		return mean, mean, mean
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	half := 1.96 * math.Sqrt(ss/(n-1)/n)
	return mean, mean - half, mean + half
}
