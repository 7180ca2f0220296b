package tuning

import "math"

// PLACEHOLDER until harness/stats lands.

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

func wilcoxonP(d []float64) float64 { return 1 }

func pairedCI(d []float64) (mean, lo, hi float64) {
	for _, x := range d {
		mean += x
	}
	if len(d) > 0 {
		mean /= float64(len(d))
	}
	return mean, mean, mean
}
