package stats

import (
	"fmt"
	"math"
	"sync"
)

// Verdict is the state of a sequential test.
type Verdict string

const (
	// AcceptH0 means the LLR fell below the lower bound: the data favour
	// elo = Elo0 over Elo1 (fishtest: "rejected").
	AcceptH0 Verdict = "H0"
	// AcceptH1 means the LLR rose above the upper bound: the data favour
	// elo = Elo1 over Elo0 (fishtest: "accepted").
	AcceptH1 Verdict = "H1"
	// Continue means more games are needed.
	Continue Verdict = "continue"
)

// SPRT is fishtest's generalized sequential probability ratio test of
// H0: elo = Elo0 against H1: elo = Elo1, with type I error Alpha (accepting
// H1 when elo = Elo0) and type II error Beta (accepting H0 when
// elo = Elo1). Model says whether the bounds are logistic or normalized
// Elo. Build one with NewSPRT.
//
// The LLR is fishtest's (see [LLR]); the stopping rule is Wald's plain one
// on [SPRT.Bounds]. fishtest additionally moves its bounds by a dynamic
// overshoot estimate (Siegmund's correction, from the history of LLR
// updates); that needs the sequence of updates, not a count vector, and is
// not done here, so a test may stop a few pairs later than fishtest would.
type SPRT struct {
	Elo0  float64  `json:"elo0"`
	Elo1  float64  `json:"elo1"`
	Alpha float64  `json:"alpha"`
	Beta  float64  `json:"beta"`
	Model EloModel `json:"model"`
}

// SPRTStatus is the state of a test after some games: the log-likelihood
// ratio, Wald's bounds and the verdict.
type SPRTStatus struct {
	LLR     float64 `json:"llr"`
	Lower   float64 `json:"lower"`
	Upper   float64 `json:"upper"`
	Verdict Verdict `json:"verdict"`
}

// NewSPRT checks and returns a test. The bounds must be finite with
// elo0 < elo1 and |elo| ≤ MaxElo; alpha and beta must lie in (0, 1) with
// alpha + beta < 1 (so that the lower bound is negative and the upper one
// positive).
func NewSPRT(elo0, elo1, alpha, beta float64, model EloModel) (SPRT, error) {
	s := SPRT{Elo0: elo0, Elo1: elo1, Alpha: alpha, Beta: beta, Model: model}
	switch {
	case model != Logistic && model != Normalized:
		return s, fmt.Errorf("sprt: unknown elo model %v", model)
	case math.IsNaN(elo0) || math.IsNaN(elo1) || math.Abs(elo0) > MaxElo || math.Abs(elo1) > MaxElo:
		return s, fmt.Errorf("sprt: elo0 %v and elo1 %v must lie in [−%.1f, %.1f]", elo0, elo1, MaxElo, MaxElo)
	case !(elo0 < elo1):
		return s, fmt.Errorf("sprt: elo0 %v must be less than elo1 %v", elo0, elo1)
	case !(alpha > 0 && alpha < 1):
		return s, fmt.Errorf("sprt: alpha %v must lie in (0, 1)", alpha)
	case !(beta > 0 && beta < 1):
		return s, fmt.Errorf("sprt: beta %v must lie in (0, 1)", beta)
	case !(alpha+beta < 1):
		return s, fmt.Errorf("sprt: alpha %v + beta %v must be less than 1", alpha, beta)
	}
	if model == Normalized {
		limit := MaxNormalizedPairElo()
		for _, e := range []float64{elo0, elo1} {
			if math.Abs(e) > limit {
				return s, fmt.Errorf("sprt: nElo %v cannot be tested on game pairs: no distribution of pair scores has that normalized Elo, so the likelihood ratio does not exist (normalized bounds must lie within ±%.1f; logistic Elo bounds go further)", e, limit)
			}
		}
	}
	return s, nil
}

// MaxNormalizedPairElo is the largest |nElo| whose likelihood ratio the
// pentanomial (game pair) model can compute: beyond it the constrained
// maximum-likelihood distribution does not exist for any sample (found
// once by bisection on a uniform sample; about 231.6).
var MaxNormalizedPairElo = sync.OnceValue(func() float64 {
	uniform := []int{1, 1, 1, 1, 1}
	lo, hi := 0.0, MaxElo
	for range 60 {
		m := (lo + hi) / 2
		if _, err := LLR(Normalized, 0, m, uniform); err != nil {
			hi = m
		} else {
			lo = m
		}
	}
	return lo
})

// Bounds returns Wald's stopping bounds on the LLR:
//
//	lower = ln(β/(1 − α)),  upper = ln((1 − β)/α).
//
// For α = β = 0.05 they are ∓2.944.
func (s SPRT) Bounds() (lower, upper float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// Status returns the test's state on a pentanomial sample (the normal case:
// games in seat-swapped pairs). The verdict is AcceptH0 when LLR < lower,
// AcceptH1 when LLR > upper, Continue otherwise.
func (s SPRT) Status(p Pentanomial) (SPRTStatus, error) {
	return s.status(p[:])
}

// StatusWDL returns the test's state on a trinomial sample (games that are
// not paired).
func (s SPRT) StatusWDL(t WDL) (SPRTStatus, error) {
	c := t.Counts()
	return s.status(c[:])
}

func (s SPRT) status(counts []int) (SPRTStatus, error) {
	lo, up := s.Bounds()
	st := SPRTStatus{Lower: lo, Upper: up, Verdict: Continue}
	llr, err := LLR(s.Model, s.Elo0, s.Elo1, counts)
	if err != nil {
		return st, fmt.Errorf("sprt [%v, %v] %v: %w", s.Elo0, s.Elo1, s.Model, err)
	}
	st.LLR = llr
	switch {
	case llr < lo:
		st.Verdict = AcceptH0
	case llr > up:
		st.Verdict = AcceptH1
	}
	return st, nil
}
