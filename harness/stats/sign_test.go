package stats

import (
	"math"
	"testing"
)

// The p-values are the exact sums 2·Σ_{i≤k} C(n, i)/2ⁿ (binom.test in R).
func TestSignTest(t *testing.T) {
	for _, c := range []struct {
		better, worse int
		want          float64
	}{
		{16, 10, 0.3269396},
		{10, 16, 0.3269396},
		{8, 2, 0.109375},
		{0, 5, 0.0625},
		{3, 3, 1},
		{12, 1, 0.003417969},
		{0, 0, 1},
	} {
		if got := SignTest(c.better, c.worse); math.Abs(got-c.want) > 1e-6 {
			t.Errorf("SignTest(%d, %d) = %.7f, want %.7f", c.better, c.worse, got, c.want)
		}
	}
}
