package stats

import "gonum.org/v1/gonum/stat/distuv"

// SignTest returns the two-sided p-value of the exact sign test: with each
// changed pair as likely to go one way as the other, the probability of a
// split at least as uneven as better against worse (unchanged pairs are
// left out before the count):
//
//	p = min(1, 2·P(X ≤ min(better, worse))),  X ~ Binomial(better + worse, ½).
//
// No changed pair gives 1.
func SignTest(better, worse int) float64 {
	n := better + worse
	if n <= 0 || better < 0 || worse < 0 {
		return 1
	}
	k := min(better, worse)
	return min(1, 2*distuv.Binomial{N: float64(n), P: 0.5}.CDF(float64(k)))
}
