package spsa

import (
	"fmt"
	"math"
)

// fishtest's defaults for classic SPSA.
const (
	DefaultAlpha  = 0.602
	DefaultGamma  = 0.101
	DefaultARatio = 0.1
	DefaultREnd   = 0.002
	// DefaultCEndShare is the default c_end as a share of a parameter's
	// declared range (of its logarithm for a log-float parameter).
	// Stockfish's TUNE macro proposes a twentieth; from six spoiled starts
	// of brew greedy (40,000 games each), a twentieth left two of them on a
	// plateau where the perturbation did not reach the slope (score 0.60
	// against the start), a tenth recovered all six (0.976 to 0.995).
	DefaultCEndShare = 1.0 / 10
	// MinIntCEnd is the smallest default c_end of an integer parameter: a
	// smaller perturbation is rounded away in most games.
	MinIntCEnd = 0.5
)

// Schedule is the gain schedule of a study of N iterations.
type Schedule struct {
	N     int     // iterations (game pairs) in the study
	A     float64 // stability constant ⌊A_ratio · N⌋
	Alpha float64
	Gamma float64
}

// NewSchedule returns the schedule of n iterations with fishtest's
// constants: A = ⌊aRatio · n⌋ (fishtest: int(A_ratio · games / 2)).
func NewSchedule(n int, aRatio, alpha, gamma float64) (Schedule, error) {
	switch {
	case n < 1:
		return Schedule{}, fmt.Errorf("spsa: %d iterations: want at least 1", n)
	case !(aRatio >= 0) || math.IsInf(aRatio, 0):
		return Schedule{}, fmt.Errorf("spsa: A ratio %v: want a finite number >= 0", aRatio)
	case !(alpha > 0) || math.IsInf(alpha, 0):
		return Schedule{}, fmt.Errorf("spsa: alpha %v: want a finite number > 0", alpha)
	case !(gamma > 0) || math.IsInf(gamma, 0):
		return Schedule{}, fmt.Errorf("spsa: gamma %v: want a finite number > 0", gamma)
	}
	return Schedule{N: n, A: math.Floor(aRatio * float64(n)), Alpha: alpha, Gamma: gamma}, nil
}

// Gains are one parameter's constants c and a, from its c_end and r_end.
type Gains struct {
	C float64 // c = c_end · N^γ
	A float64 // a = r_end · c_end² · (A + N)^α
}

// Gains returns the constants of a parameter with the given c_end and r_end.
func (s Schedule) Gains(cEnd, rEnd float64) Gains {
	n := float64(s.N)
	return Gains{C: cEnd * math.Pow(n, s.Gamma), A: rEnd * cEnd * cEnd * math.Pow(s.A+n, s.Alpha)}
}

// C is the perturbation c_k = c / k^γ at iteration k (1-based).
func (s Schedule) C(g Gains, k int) float64 { return g.C / math.Pow(float64(k), s.Gamma) }

// Step is the gain a_k = a / (A + k)^α at iteration k.
func (s Schedule) Step(g Gains, k int) float64 { return g.A / math.Pow(s.A+float64(k), s.Alpha) }

// R is the learning rate R_k = a_k / c_k² at iteration k (fishtest's "R").
func (s Schedule) R(g Gains, k int) float64 {
	c := s.C(g, k)
	return s.Step(g, k) / (c * c)
}

// Update is the move of one coordinate after iteration k's pair:
// a_k · result · Δ / c_k, result being wins − losses of θ+ over the pair.
func (s Schedule) Update(g Gains, k int, result int, flip float64) float64 {
	return s.Step(g, k) * float64(result) * flip / s.C(g, k)
}
