package stats

import (
	"math"
	"testing"
)

// Closed forms of Student's t (see e.g. the "Student's t-distribution"
// article, section "Cumulative distribution function", and Hill, Algorithm
// 395, 1970): for ν = 1 (Cauchy), F(t) = ½ + atan(t)/π, t_p = tan(π(p − ½));
// for ν = 2, F(t) = ½ + t/(2√(2 + t²)), t_p = (2p − 1)/√(2p(1 − p)); for
// ν = 4, t_p = sign(p − ½)·2√(q − 1) with α = 4p(1 − p),
// q = cos(arccos(√α)/3)/√α.
func TestStudentTClosedForms(t *testing.T) {
	for _, p := range []float64{1e-8, 0.001, 0.01, 0.025, 0.05, 0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9, 0.95, 0.975, 0.99, 0.999} {
		// tan(π(p − ½)) = −cot(πp), which keeps the accuracy of small p.
		want1 := -1 / math.Tan(math.Pi*p)
		want2 := (2*p - 1) / math.Sqrt(2*p*(1-p))
		alpha := 4 * p * (1 - p)
		q := math.Cos(math.Acos(math.Sqrt(alpha))/3) / math.Sqrt(alpha)
		want4 := 2 * math.Sqrt(q-1)
		if p < 0.5 {
			want4 = -want4
		}
		for _, c := range []struct{ df, want float64 }{{1, want1}, {2, want2}, {4, want4}} {
			got := StudentTQuantile(p, c.df)
			if !near(got, c.want, 1e-10) {
				t.Errorf("StudentTQuantile(%v, %v) = %.15g, want %.15g", p, c.df, got, c.want)
			}
		}
	}
	for _, x := range []float64{-50, -3, -1, -0.2, 0, 0.2, 1, 3, 50} {
		if got, want := StudentTCDF(x, 1), 0.5+math.Atan(x)/math.Pi; !near(got, want, 1e-13) {
			t.Errorf("StudentTCDF(%v, 1) = %.15g, want %.15g", x, got, want)
		}
		if got, want := StudentTCDF(x, 2), 0.5+x/(2*math.Sqrt(2+x*x)); !near(got, want, 1e-13) {
			t.Errorf("StudentTCDF(%v, 2) = %.15g, want %.15g", x, got, want)
		}
	}
}

// Critical values of Student's t from the NIST/SEMATECH e-Handbook of
// Statistical Methods, table 1.4.2.7.2 ("Upper critical values of
// Student's t distribution", three decimals), and the ν = ∞ row (the
// normal quantiles).
func TestStudentTTable(t *testing.T) {
	table := []struct{ df, p, t float64 }{
		{1, 0.95, 6.314}, {1, 0.975, 12.706}, {1, 0.995, 63.657},
		{2, 0.975, 4.303}, {3, 0.975, 3.182}, {5, 0.95, 2.015}, {5, 0.975, 2.571},
		{9, 0.975, 2.262}, {10, 0.975, 2.228}, {10, 0.995, 3.169},
		{20, 0.975, 2.086}, {30, 0.975, 2.042}, {30, 0.999, 3.385},
		{60, 0.975, 2.000}, {100, 0.975, 1.984}, {100, 0.9, 1.290},
	}
	for _, c := range table {
		got := StudentTQuantile(c.p, c.df)
		if math.Abs(got-c.t) > 0.0005+1e-12 {
			t.Errorf("StudentTQuantile(%v, %v) = %.6f, table %.3f", c.p, c.df, got, c.t)
		}
		if back := StudentTQuantile(1-c.p, c.df); !near(back, -got, 1e-12) {
			t.Errorf("StudentTQuantile(%v, %v) = %v, want %v by symmetry", 1-c.p, c.df, back, -got)
		}
	}
	if got := StudentTQuantile(0.975, math.Inf(1)); got != NormalQuantile(0.975) {
		t.Errorf("StudentTQuantile(0.975, Inf) = %v", got)
	}
}

// Round trip through the distribution function over many degrees of
// freedom, fractional ones included: the quantile is accurate to far
// better than 1e-6.
func TestStudentTRoundTrip(t *testing.T) {
	for _, df := range []float64{0.5, 1, 1.5, 3, 7, 12.5, 29, 100, 1000, 1e6} {
		for _, p := range []float64{1e-6, 0.001, 0.025, 0.2, 0.5, 0.8, 0.975, 0.999} {
			x := StudentTQuantile(p, df)
			back := StudentTCDF(x, df)
			tol := 1e-12 * math.Max(p, 1e-3)
			if df > 1e4 {
				tol = 1e-10 // slow continued fraction; still 1e-9 relative in t
			}
			if math.Abs(back-p) > tol {
				t.Errorf("df %v: CDF(Quantile(%v)) = %.15g", df, p, back)
			}
		}
	}
}

// The large-ν limit: t_{0.975, 10⁷} agrees with Φ⁻¹(0.975) to 1e-6.
func TestStudentTLargeDF(t *testing.T) {
	if got, want := StudentTQuantile(0.975, 1e7), NormalQuantile(0.975); math.Abs(got-want) > 1e-6 {
		t.Errorf("StudentTQuantile(0.975, 1e7) = %v, want ≈ %v", got, want)
	}
}

func TestStudentTEdges(t *testing.T) {
	if !math.IsNaN(StudentTQuantile(0.5, 0)) || !math.IsNaN(StudentTQuantile(2, 3)) || !math.IsNaN(StudentTCDF(1, -1)) {
		t.Error("bad arguments should give NaN")
	}
	if !math.IsInf(StudentTQuantile(1, 3), 1) || !math.IsInf(StudentTQuantile(0, 3), -1) {
		t.Error("p = 0, 1 should give ∓Inf")
	}
}

// Closed forms of the regularized incomplete beta function:
// I_x(1, b) = 1 − (1 − x)^b, I_x(a, 1) = x^a, I_½(a, a) = ½.
func TestBetaIncClosedForms(t *testing.T) {
	for _, x := range []float64{0.001, 0.1, 0.37, 0.5, 0.9, 0.999} {
		for _, v := range []float64{0.5, 1, 2.5, 10, 100} {
			if got, want := BetaInc(1, v, x), 1-math.Pow(1-x, v); !near(got, want, 1e-13) {
				t.Errorf("BetaInc(1, %v, %v) = %.15g, want %.15g", v, x, got, want)
			}
			if got, want := BetaInc(v, 1, x), math.Pow(x, v); !near(got, want, 1e-13) {
				t.Errorf("BetaInc(%v, 1, %v) = %.15g, want %.15g", v, x, got, want)
			}
			if got := BetaInc(v, v, 0.5); !near(got, 0.5, 1e-12) {
				t.Errorf("BetaInc(%v, %v, ½) = %.15g, want ½", v, v, got)
			}
			for _, w := range []float64{0.5, 3, 40} {
				p := BetaInc(v, w, x)
				// Skip p so close to 0 or 1 that x is not determined by it.
				if p < 1e-200 || p > 1-1e-9 {
					continue
				}
				if back := BetaIncInv(v, w, p); !near(back, x, 1e-9) {
					t.Errorf("BetaIncInv(%v, %v, BetaInc(…, %v)) = %.15g", v, w, x, back)
				}
			}
		}
	}
}
