package reports

import (
	"math"
	"testing"
)

// TestPlusMinusDigits: the half-width keeps two significant digits and the
// mean as many decimals; an interval that cannot be read that way is
// printed as it is.
func TestPlusMinusDigits(t *testing.T) {
	for _, c := range []struct {
		mean, lo, hi float64
		want         string
	}{
		{79.14035, 79.01338, 79.26732, "79.14 ± 0.13"},
		{54.1, 50.1898, 58.0102, "54.1 ± 3.9"},
		{755.25, 300, 1210.5, "755 ± 455"},
		{0.5123, 0.5, 0.5246, "0.512 ± 0.012"},
		{-12.5, -37.5, 12.5, "-12 ± 25"},
		{3, 3, 3, "3 ± 0"},
		{math.NaN(), 0, 1, "- ± 0.5000"},
		{1, math.Inf(-1), math.Inf(1), "1 ± -"},
	} {
		if got := PlusMinus(c.mean, c.lo, c.hi); got != c.want {
			t.Errorf("PlusMinus(%v, %v, %v) = %q, want %q", c.mean, c.lo, c.hi, got, c.want)
		}
	}
}
