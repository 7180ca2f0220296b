package stats

import "math"

// lnBeta returns ln B(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a + b) for a, b > 0.
//
// When the larger argument, say b, is 10 or more, ln Γ(b) − ln Γ(a + b) is
// taken from Stirling's series rather than as the difference of two large
// logarithms, which would cancel (for Student's t with 10⁶ degrees of
// freedom the direct sum loses seven digits):
//
//	ln Γ(b) − ln Γ(a + b) = −(b − ½)·log1p(a/b) − a·ln(a + b) + a + c(b) − c(a + b)
//
// with c(x) = ln Γ(x) − (x − ½)·ln x + x − ½·ln 2π the Stirling correction.
func lnBeta(a, b float64) float64 {
	if a > b {
		a, b = b, a
	}
	la, _ := math.Lgamma(a)
	if b >= 10 {
		return la - (b-0.5)*math.Log1p(a/b) - a*math.Log(a+b) + a + stirlingCorr(b) - stirlingCorr(a+b)
	}
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	return la + lb - lab
}

// stirlingCorr returns c(x) = ln Γ(x) − (x − ½)·ln x + x − ½·ln 2π for
// x ≥ 10 from its asymptotic series Σ B₂ₖ/(2k(2k − 1)·x^(2k−1)), seven
// terms (the first omitted term is below 1e-17 at x = 10).
func stirlingCorr(x float64) float64 {
	z := 1 / x
	z2 := z * z
	return z * (1.0/12 + z2*(-1.0/360+z2*(1.0/1260+z2*(-1.0/1680+z2*(1.0/1188+z2*(-691.0/360360+z2*(1.0/156)))))))
}

// BetaInc returns the regularized incomplete beta function
//
//	I_x(a, b) = (1/B(a, b))·∫₀ˣ u^(a−1)·(1 − u)^(b−1) du
//
// for a, b > 0 and 0 ≤ x ≤ 1, from its continued fraction (evaluated with
// the modified Lentz method):
//
//	I_x(a, b) = x^a·(1 − x)^b/(a·B(a, b)) · 1/(1 + d₁/(1 + d₂/(1 + …)))
//	d₂ₘ₊₁ = −(a + m)(a + b + m)·x/((a + 2m)(a + 2m + 1))
//	d₂ₘ   = m(b − m)·x/((a + 2m − 1)(a + 2m))
//
// which converges quickly for x < (a + 1)/(a + b + 2); above that it uses
// I_x(a, b) = 1 − I_{1−x}(b, a). Arguments outside the domain give NaN.
func BetaInc(a, b, x float64) float64 {
	switch {
	case math.IsNaN(a) || math.IsNaN(b) || math.IsNaN(x) || !(a > 0) || !(b > 0) || x < 0 || x > 1:
		return math.NaN()
	case x == 0:
		return 0
	case x == 1:
		return 1
	case math.IsInf(a, 0) || math.IsInf(b, 0):
		return math.NaN()
	}
	// ln x and ln(1 − x) from x itself: with large a or b the prefactor
	// x^a·(1 − x)^b is sensitive to the rounding of 1 − x.
	lx, l1x := math.Log(x), math.Log1p(-x)
	if x > (a+1)/(a+b+2) {
		return 1 - betaIncCF(b, a, 1-x, l1x, lx)
	}
	return betaIncCF(a, b, x, lx, l1x)
}

// betaIncCF evaluates the continued fraction of BetaInc at x, with
// lx = ln x and l1x = ln(1 − x); x should lie below (a + 1)/(a + b + 2).
func betaIncCF(a, b, x, lx, l1x float64) float64 {
	const tiny = 1e-300
	const eps = 1e-16
	front := math.Exp(a*lx + b*l1x - lnBeta(a, b))
	// Lentz: h = 1/(1 + d1/(1 + d2/(1 + …))), with C and D the ratios of
	// successive numerators and denominators.
	c := 1.0
	d := 1 - (a+b)*x/(a+1)
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= 100000; m++ {
		fm := float64(m)
		for _, num := range [2]float64{
			fm * (b - fm) * x / ((a + 2*fm - 1) * (a + 2*fm)),
			-(a + fm) * (a + b + fm) * x / ((a + 2*fm) * (a + 2*fm + 1)),
		} {
			d = 1 + num*d
			if math.Abs(d) < tiny {
				d = tiny
			}
			c = 1 + num/c
			if math.Abs(c) < tiny {
				c = tiny
			}
			d = 1 / d
			h *= d * c
		}
		if math.Abs(d*c-1) < eps {
			break
		}
	}
	return front * h / a
}

// BetaIncInv returns x in [0, 1] with I_x(a, b) = p, the inverse of
// BetaInc in x. It starts from a normal-approximation guess (Abramowitz and
// Stegun 26.5.22 for a, b ≥ 1, the leading terms of the series at either end
// otherwise) and takes Halley steps on I_x(a, b) − p, using
//
//	d/dx I_x = x^(a−1)(1 − x)^(b−1)/B(a, b),  (d²/dx²)/(d/dx) = (a−1)/x − (b−1)/(1−x),
//
// inside a bracket that falls back to bisection, until the step is below
// 1e-15 relative. p ≤ 0 gives 0, p ≥ 1 gives 1; a or b ≤ 0 or NaN gives NaN.
func BetaIncInv(a, b, p float64) float64 {
	switch {
	case math.IsNaN(a) || math.IsNaN(b) || math.IsNaN(p) || !(a > 0) || !(b > 0) || math.IsInf(a, 0) || math.IsInf(b, 0):
		return math.NaN()
	case p <= 0:
		return 0
	case p >= 1:
		return 1
	}
	lnB := lnBeta(a, b)
	x := betaIncGuess(a, b, p, lnB)
	lo, hi := 0.0, 1.0
	for iter := 0; iter < 300; iter++ {
		g := BetaInc(a, b, x) - p
		if g == 0 {
			return x
		}
		if g < 0 {
			lo = x
		} else {
			hi = x
		}
		dens := math.Exp((a-1)*math.Log(x) + (b-1)*math.Log1p(-x) - lnB)
		next := math.NaN()
		if dens > 0 && !math.IsInf(dens, 0) {
			u := g / dens
			r := (a-1)/x - (b-1)/(1-x)
			if k := u * r / 2; math.Abs(k) < 1 {
				next = x - u/(1-k)
			} else {
				next = x - u
			}
		}
		if !(next > lo && next < hi) {
			next = lo + (hi-lo)/2
			if next <= lo || next >= hi {
				return x
			}
		}
		if math.Abs(next-x) <= 1e-15*x {
			return next
		}
		x = next
	}
	return x
}

// betaIncGuess is a first guess for BetaIncInv, strictly inside (0, 1).
func betaIncGuess(a, b, p, lnB float64) float64 {
	var x float64
	if a >= 1 && b >= 1 {
		// Normal approximation to the beta quantile (A&S 26.5.22), with
		// y the upper normal quantile of p.
		y := -NormalQuantile(p)
		l := (y*y - 3) / 6
		h := 2 / (1/(2*a-1) + 1/(2*b-1))
		w := y*math.Sqrt(h+l)/h - (1/(2*b-1)-1/(2*a-1))*(l+5.0/6-2/(3*h))
		x = a / (a + b*math.Exp(2*w))
	} else {
		// Near 0, I_x ≈ x^a/(a·B); near 1, 1 − I_x ≈ (1−x)^b/(b·B).
		// Split p by the mass each end approximation assigns to its half.
		ta := math.Exp(a*math.Log(a/(a+b))-lnB) / a
		tb := math.Exp(b*math.Log(b/(a+b))-lnB) / b
		if p < ta/(ta+tb) {
			x = math.Pow(p*a*math.Exp(lnB), 1/a)
		} else {
			x = 1 - math.Pow((1-p)*b*math.Exp(lnB), 1/b)
		}
	}
	if !(x > 0 && x < 1) {
		x = 0.5
	}
	return x
}

// StudentTCDF returns the distribution function of Student's t with df
// degrees of freedom (df > 0, not necessarily whole):
//
//	F(t) = 1 − ½·I_{df/(df+t²)}(df/2, ½)   for t ≥ 0,  F(−t) = 1 − F(t);
//
// for t² < df it uses the equivalent F(t) = ½ + ½·sign(t)·I_{t²/(df+t²)}(½, df/2),
// whose argument is then the small one. df = +Inf gives Φ(t); df ≤ 0 or NaN
// gives NaN.
func StudentTCDF(t, df float64) float64 {
	switch {
	case math.IsNaN(t) || math.IsNaN(df) || !(df > 0):
		return math.NaN()
	case math.IsInf(df, 1):
		return NormalCDF(t)
	case math.IsInf(t, 1):
		return 1
	case math.IsInf(t, -1):
		return 0
	}
	t2 := t * t
	if t2 < df {
		half := 0.5 * BetaInc(0.5, df/2, t2/(df+t2))
		if t < 0 {
			return 0.5 - half
		}
		return 0.5 + half
	}
	tail := 0.5 * BetaInc(df/2, 0.5, df/(df+t2))
	if t < 0 {
		return tail
	}
	return 1 - tail
}

// StudentTQuantile returns t with StudentTCDF(t, df) = p (df > 0). With
// q = min(p, 1 − p) and the two-sided tail 2q it inverts the incomplete beta
// function on whichever argument is below ½ (t² > df or not):
//
//	2q < I_½(df/2, ½):  x = I⁻¹(df/2, ½; 2q),      t² = df·(1 − x)/x
//	otherwise:          y = I⁻¹(½, df/2; 1 − 2q),  t² = df·y/(1 − y)
//
// and t takes the sign of p − ½. Accurate to about 1e-12 relative for
// moderate df and 1e-10 for df near 10⁶ (where the continued fraction of
// the incomplete beta function converges slowly).
// df = +Inf gives Φ⁻¹(p); p = 0 or 1 gives ∓Inf; p outside [0, 1], df ≤ 0 or
// NaN gives NaN (as package math does).
func StudentTQuantile(p, df float64) float64 {
	switch {
	case math.IsNaN(p) || math.IsNaN(df) || !(df > 0) || p < 0 || p > 1:
		return math.NaN()
	case p == 0:
		return math.Inf(-1)
	case p == 1:
		return math.Inf(1)
	case p == 0.5:
		return 0
	case math.IsInf(df, 1):
		return NormalQuantile(p)
	}
	q := p
	if p > 0.5 {
		q = 1 - p
	}
	var t float64
	// t² > df exactly when the two-sided tail 2q is below
	// I_½(df/2, ½); then x = df/(df + t²) < ½ is the accurate variable,
	// otherwise y = t²/(df + t²) < ½ is.
	if 2*q < BetaInc(df/2, 0.5, 0.5) {
		x := BetaIncInv(df/2, 0.5, 2*q)
		t = math.Sqrt(df * (1 - x) / x)
	} else {
		y := BetaIncInv(0.5, df/2, 1-2*q)
		t = math.Sqrt(df * y / (1 - y))
	}
	if p < 0.5 {
		t = -t
	}
	return t
}
