package stats

import (
	"math"
	"testing"
)

// close reports whether got is within tol of want, relative for |want| > 1
// and absolute otherwise.
func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

// Published values of Φ and Φ⁻¹.
//
// Φ⁻¹(0.25), Φ⁻¹(0.001) and Φ⁻¹(1e-20) are the check values printed with
// Wichura's algorithm AS 241 (Applied Statistics 37(3), 1988, p. 477):
// −0.6744897501960817, −3.090232306167814, −9.262340089798408.
// Φ(1.96) = 0.97500210485178, Φ(1) = 0.841344746068543 and the two-sided
// 95% and 99% points 1.959963984540054 and 2.575829303548901 are the
// standard normal table values (Abramowitz & Stegun, table 26.1 and 26.5,
// to the digits given there).
func TestNormalPublished(t *testing.T) {
	quantiles := []struct{ p, x float64 }{
		{0.25, -0.6744897501960817},
		{0.001, -3.090232306167814},
		{1e-20, -9.262340089798408},
		{0.975, 1.959963984540054},
		{0.995, 2.575829303548901},
		{0.5, 0},
	}
	for _, c := range quantiles {
		if got := NormalQuantile(c.p); !near(got, c.x, 1e-9) {
			t.Errorf("NormalQuantile(%v) = %.16g, want %.16g", c.p, got, c.x)
		}
	}
	cdfs := []struct{ x, p float64 }{
		{1.96, 0.97500210485178},
		{1, 0.841344746068543},
		{-1, 0.158655253931457},
		{0, 0.5},
		{-3.090232306167814, 0.001},
	}
	for _, c := range cdfs {
		if got := NormalCDF(c.x); !near(got, c.p, 1e-12) {
			t.Errorf("NormalCDF(%v) = %.16g, want %.16g", c.x, got, c.p)
		}
	}
}

func TestNormalQuantileRoundTrip(t *testing.T) {
	for _, p := range []float64{1e-100, 1e-15, 1e-9, 0.001, 0.02425, 0.02426, 0.1, 0.3, 0.5, 0.7, 0.9, 0.97575, 0.999, 1 - 1e-12} {
		x := NormalQuantile(p)
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t.Fatalf("NormalQuantile(%v) = %v", p, x)
		}
		back := NormalCDF(x)
		tol := 1e-12
		if p > 0.5 {
			// Φ near 1 loses the relative accuracy of 1 − p.
			tol = 1e-15
			if math.Abs(back-p) > tol {
				t.Errorf("NormalCDF(NormalQuantile(%v)) = %.17g", p, back)
			}
			continue
		}
		if math.Abs(back-p) > tol*p {
			t.Errorf("NormalCDF(NormalQuantile(%v)) = %.17g (relative error %.2g)", p, back, math.Abs(back-p)/p)
		}
	}
}

func TestNormalQuantileEdges(t *testing.T) {
	// Deep in the tail only Acklam's approximation is used (relative error
	// below 1.15e-9 in x): Φ⁻¹(1e-300) ≈ −37.0471.
	if x := NormalQuantile(1e-300); !near(x, -37.0471, 1e-5) {
		t.Errorf("NormalQuantile(1e-300) = %v", x)
	}
	if !math.IsInf(NormalQuantile(0), -1) || !math.IsInf(NormalQuantile(1), 1) {
		t.Error("NormalQuantile(0), NormalQuantile(1) should be ∓Inf")
	}
	for _, p := range []float64{-0.1, 1.1, math.NaN()} {
		if !math.IsNaN(NormalQuantile(p)) {
			t.Errorf("NormalQuantile(%v) should be NaN", p)
		}
	}
}
