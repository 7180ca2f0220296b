package stats

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// near reports whether got is within tol of want, relative for |want| > 1
// and absolute otherwise.
func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

// The confidence intervals and the Wilcoxon normal approximation use
// gonum's distributions; these checks hold them to published values at the
// precision the reports print.
//
// Student's t: closed forms for ν = 1 (Cauchy, t_p = tan(π(p − ½))), ν = 2
// (t_p = (2p − 1)/√(2p(1 − p))), and the NIST/SEMATECH e-Handbook table
// 1.4.2.7.2 of upper critical values (three decimals).
func TestStudentTAgainstPublished(t *testing.T) {
	q := func(p, df float64) float64 { return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(p) }
	for _, p := range []float64{1e-8, 0.001, 0.025, 0.1, 0.5, 0.9, 0.975, 0.999} {
		if got, want := q(p, 1), -1/math.Tan(math.Pi*p); !near(got, want, 1e-9) {
			t.Errorf("t quantile(%v, 1) = %.15g, want %.15g", p, got, want)
		}
		if got, want := q(p, 2), (2*p-1)/math.Sqrt(2*p*(1-p)); !near(got, want, 1e-9) {
			t.Errorf("t quantile(%v, 2) = %.15g, want %.15g", p, got, want)
		}
	}
	table := []struct{ df, p, t float64 }{
		{1, 0.975, 12.706}, {2, 0.975, 4.303}, {5, 0.975, 2.571}, {9, 0.975, 2.262},
		{10, 0.995, 3.169}, {30, 0.975, 2.042}, {100, 0.975, 1.984}, {100, 0.9, 1.290},
	}
	for _, c := range table {
		if got := q(c.p, c.df); math.Abs(got-c.t) > 0.0005+1e-12 {
			t.Errorf("t quantile(%v, %v) = %.6f, table %.3f", c.p, c.df, got, c.t)
		}
	}
}

// The standard normal: Φ(1.96) = 0.97500210485178, Φ(1) =
// 0.841344746068543 (Abramowitz & Stegun, table 26.1).
func TestNormalAgainstPublished(t *testing.T) {
	for _, c := range []struct{ x, p float64 }{{1.96, 0.97500210485178}, {1, 0.841344746068543}, {-1, 0.158655253931457}, {0, 0.5}} {
		if got := distuv.UnitNormal.CDF(c.x); !near(got, c.p, 1e-12) {
			t.Errorf("Φ(%v) = %.16g, want %.16g", c.x, got, c.p)
		}
	}
}
