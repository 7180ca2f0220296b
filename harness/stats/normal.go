package stats

import "math"

// NormalCDF returns Φ(x), the standard normal distribution function:
//
//	Φ(x) = ½·erfc(−x/√2)
//
// computed with math.Erfc, so both tails keep their relative accuracy.
func NormalCDF(x float64) float64 {
	return 0.5 * math.Erfc(-x/math.Sqrt2)
}

// Rational approximation of the normal quantile by P. J. Acklam (2003):
// relative error below 1.15e-9 over (0, 1). The coefficients are the
// published ones.
var (
	acklamA = [6]float64{-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00}
	acklamB = [5]float64{-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01}
	acklamC = [6]float64{-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00}
	acklamD = [4]float64{7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00}
)

// acklamLow is where Acklam's approximation switches from the central
// rational function to the tail one.
const acklamLow = 0.02425

// NormalQuantile returns Φ⁻¹(p), the standard normal quantile.
//
// It starts from Acklam's rational approximation (relative error < 1.15e-9)
// and takes one Halley step on Φ(x) − p, which brings the result to about
// 1e-15 relative. The upper half uses the symmetry Φ⁻¹(p) = −Φ⁻¹(1 − p),
// where 1 − p is exact for p ≥ ½.
//
// As in package math, the domain edges give NormalQuantile(0) = −Inf and
// NormalQuantile(1) = +Inf, and p outside [0, 1] or NaN gives NaN.
func NormalQuantile(p float64) float64 {
	switch {
	case math.IsNaN(p) || p < 0 || p > 1:
		return math.NaN()
	case p == 0:
		return math.Inf(-1)
	case p == 1:
		return math.Inf(1)
	case p > 0.5:
		return -NormalQuantile(1 - p)
	}
	var x float64
	if p < acklamLow {
		q := math.Sqrt(-2 * math.Log(p))
		c, d := &acklamC, &acklamD
		x = (((((c[0]*q+c[1])*q+c[2])*q+c[3])*q+c[4])*q + c[5]) /
			((((d[0]*q+d[1])*q+d[2])*q+d[3])*q + 1)
	} else {
		q := p - 0.5
		r := q * q
		a, b := &acklamA, &acklamB
		x = (((((a[0]*r+a[1])*r+a[2])*r+a[3])*r+a[4])*r + a[5]) * q /
			(((((b[0]*r+b[1])*r+b[2])*r+b[3])*r+b[4])*r + 1)
	}
	// One Halley step: with e = Φ(x) − p and u = e/φ(x),
	// x ← x − u/(1 + x·u/2). Skipped where φ(x) underflows.
	if x > -37 {
		e := NormalCDF(x) - p
		u := e * math.Sqrt(2*math.Pi) * math.Exp(x*x/2)
		x -= u / (1 + x*u/2)
	}
	return x
}
