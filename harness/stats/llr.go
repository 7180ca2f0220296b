package stats

import (
	"errors"
	"fmt"
	"math"
)

// LLR returns the generalized log-likelihood ratio of H1: elo = elo1 against
// H0: elo = elo0 for a trinomial (losses, draws, wins) or pentanomial
// (pairs worth 0, ½, 1, 1½, 2) count vector, as fishtest computes it
// (LLRcalc.LLR_logistic and LLRcalc.LLR_normalized):
//
// The sample is a distribution p̂ᵢ = cᵢ/N over scores aᵢ = i/(k−1) (empty
// bins count 1e-3). Under each hypothesis the multinomial is replaced by its
// maximum-likelihood estimate p⁽ʰ⁾ subject to the hypothesis, and
//
//	LLR = N·Σᵢ p̂ᵢ·(ln p⁽¹⁾ᵢ − ln p⁽⁰⁾ᵢ).
//
// Logistic bounds constrain the expected score: E[a] = L(eloʰ) with
// L(x) = 1/(1 + 10^(−x/400)). The constrained maximum is
// pᵢ = p̂ᵢ/(1 + λ·(aᵢ − s)) with λ the root of the secular equation
// Σᵢ p̂ᵢ·(aᵢ − s)/(1 + λ·(aᵢ − s)) = 0.
//
// Normalized bounds constrain the t-value (E[a] − ½)/σ = tʰ, with
// tʰ = nEloʰ·ln 10/800 for games and √2 times that for pairs; the
// maximum is found by iterating the secular equation on
// aᵢ − ½ − t·σ·(1 + ((μ − aᵢ)/σ)²)/2 with μ, σ of the previous iterate,
// from the uniform distribution, until it stops moving.
//
// An empty sample gives 0. Errors report a count vector of the wrong length,
// a negative count, or bounds for which no constrained maximum exists.
func LLR(model EloModel, elo0, elo1 float64, counts []int) (float64, error) {
	s, err := newSample(counts)
	if err != nil {
		return 0, err
	}
	if s.rn == 0 {
		return 0, nil
	}
	var phat, a [5]float64
	for i := 0; i < s.k; i++ {
		phat[i] = s.reg[i] / s.n
		a[i] = s.value(i)
	}
	var p0, p1 [5]float64
	switch model {
	case Logistic:
		if err := mleExpected(phat[:s.k], a[:s.k], ExpectedScore(elo0), p0[:s.k]); err != nil {
			return 0, fmt.Errorf("H0 (elo %v): %w", elo0, err)
		}
		if err := mleExpected(phat[:s.k], a[:s.k], ExpectedScore(elo1), p1[:s.k]); err != nil {
			return 0, fmt.Errorf("H1 (elo %v): %w", elo1, err)
		}
	case Normalized:
		t0, t1 := elo0/nEloPerT, elo1/nEloPerT
		if s.k == 5 {
			t0, t1 = t0*math.Sqrt2, t1*math.Sqrt2
		}
		if err := mleTValue(phat[:s.k], a[:s.k], 0.5, t0, p0[:s.k]); err != nil {
			return 0, fmt.Errorf("H0 (nElo %v): %w", elo0, err)
		}
		if err := mleTValue(phat[:s.k], a[:s.k], 0.5, t1, p1[:s.k]); err != nil {
			return 0, fmt.Errorf("H1 (nElo %v): %w", elo1, err)
		}
	default:
		return 0, fmt.Errorf("unknown elo model %v", model)
	}
	var llr float64
	for i := 0; i < s.k; i++ {
		llr += phat[i] * (math.Log(p1[i]) - math.Log(p0[i]))
	}
	llr *= s.n
	if math.IsNaN(llr) || math.IsInf(llr, 0) {
		return 0, errors.New("likelihood ratio is not finite")
	}
	return llr, nil
}

// errNoMLE is returned when the constraint cannot be met by any
// distribution on the sample's support.
var errNoMLE = errors.New("constraint outside the range of the sample's scores")

// secular solves Σᵢ pᵢ·bᵢ/(1 + x·bᵢ) = 0 for x, where the bᵢ take both
// signs and pᵢ > 0. The left side decreases strictly from +∞ at x = −1/max b
// to −∞ at x = −1/min b, so the root is unique; it is found by Newton steps
// kept inside a shrinking bracket (bisection when a step leaves it).
func secular(p, b []float64) (float64, error) {
	vmin, vmax := math.Inf(1), math.Inf(-1)
	for _, v := range b {
		vmin, vmax = min(vmin, v), max(vmax, v)
	}
	if !(vmin < 0 && vmax > 0) {
		return 0, errNoMLE
	}
	lo, hi := -1/vmax, -1/vmin
	x := 0.0
	for iter := 0; iter < 400; iter++ {
		var f, df float64
		for i, v := range b {
			d := 1 + x*v
			f += p[i] * v / d
			df -= p[i] * v * v / (d * d)
		}
		if f == 0 {
			return x, nil
		}
		if f > 0 {
			lo = x
		} else {
			hi = x
		}
		next := x - f/df
		if !(next > lo && next < hi) {
			next = lo + (hi-lo)/2
			if next <= lo || next >= hi {
				return x, nil // the bracket is down to adjacent floats
			}
		}
		if math.Abs(next-x) <= 1e-16*math.Max(1, math.Abs(x)) {
			return next, nil
		}
		x = next
	}
	return x, nil
}

// mleExpected writes into out the distribution on the scores a that
// maximizes the likelihood of phat subject to mean score s
// (fishtest's MLE_expected).
func mleExpected(phat, a []float64, s float64, out []float64) error {
	var b [5]float64
	for i := range a {
		b[i] = a[i] - s
	}
	x, err := secular(phat, b[:len(a)])
	if err != nil {
		return err
	}
	for i := range a {
		out[i] = phat[i] / (1 + x*b[i])
	}
	return nil
}

// mleTValue writes into out the distribution on the scores a that
// maximizes the likelihood of phat subject to (μ − ref)/σ = t
// (fishtest's MLE_t_value), by fixed-point iteration from the uniform
// distribution.
func mleTValue(phat, a []float64, ref, t float64, out []float64) error {
	n := len(a)
	for i := range out {
		out[i] = 1 / float64(n)
	}
	var b [5]float64
	for iter := 0; iter < 100; iter++ {
		var mu, v float64
		for i := range a {
			mu += out[i] * a[i]
		}
		for i := range a {
			v += out[i] * (a[i] - mu) * (a[i] - mu)
		}
		sigma := math.Sqrt(v)
		if !(sigma > 0) {
			return errNoMLE
		}
		for i := range a {
			z := (mu - a[i]) / sigma
			b[i] = a[i] - ref - t*sigma*(1+z*z)/2
		}
		x, err := secular(phat, b[:n])
		if err != nil {
			return err
		}
		var moved float64
		for i := range a {
			next := phat[i] / (1 + x*b[i])
			moved = max(moved, math.Abs(next-out[i]))
			out[i] = next
		}
		if moved < 1e-13 {
			break
		}
	}
	return nil
}
