package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// MeanCI returns the mean of xs with its two-sided confidence interval at
// level (0.95 for 95%), from Student's t with n − 1 degrees of freedom:
//
//	x̄ = Σxᵢ/n,  s² = Σ(xᵢ − x̄)²/(n − 1),
//	[Lo, Hi] = x̄ ∓ t_{(1+level)/2, n−1}·s/√n.
//
// One value gives Lo = Hi = x̄ and a Note; so does a sample whose values are
// all equal (zero variance); no value gives a zero Estimate with Note
// "no data". Errors report a NaN or infinite value, or a level outside
// (0, 1).
func MeanCI(xs []float64, level float64) (Estimate, error) {
	if !(level > 0 && level < 1) {
		return Estimate{}, fmt.Errorf("confidence level %v: want a value in (0, 1)", level)
	}
	for i, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return Estimate{}, fmt.Errorf("value %d is %v", i, x)
		}
	}
	n := len(xs)
	if n == 0 {
		return Estimate{Note: "no data"}, nil
	}
	var mean float64
	for _, x := range xs {
		mean += x
	}
	mean /= float64(n)
	if n == 1 {
		return Estimate{Value: mean, Lo: mean, Hi: mean, Note: "one value: no interval"}, nil
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	if ss == 0 {
		return Estimate{Value: mean, Lo: mean, Hi: mean, Note: "all values equal: zero variance"}, nil
	}
	se := math.Sqrt(ss / float64(n-1) / float64(n))
	half := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile((1+level)/2) * se
	return Estimate{Value: mean, Lo: mean - half, Hi: mean + half}, nil
}

// MeanCI95 returns the mean of xs with its 95% Student-t interval (see
// MeanCI). A NaN or infinite value gives a zero Estimate whose Note names
// it.
func MeanCI95(xs []float64) Estimate {
	e, err := MeanCI(xs, 0.95)
	if err != nil {
		return Estimate{Note: err.Error()}
	}
	return e
}

// PairedDiffs returns a[i] − b[i] for samples of equal length (the same
// cases played by two entrants).
func PairedDiffs(a, b []float64) ([]float64, error) {
	if len(a) != len(b) {
		return nil, fmt.Errorf("paired samples of different lengths: %d and %d", len(a), len(b))
	}
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	return d, nil
}

// PairedMeanCI95 returns the mean of the paired differences a[i] − b[i]
// with its 95% Student-t interval (the paired t interval).
func PairedMeanCI95(a, b []float64) (Estimate, error) {
	d, err := PairedDiffs(a, b)
	if err != nil {
		return Estimate{}, err
	}
	return MeanCI(d, 0.95)
}
