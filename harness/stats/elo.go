package stats

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"
)

// ScoreClamp is how close to 0 or 1 a score may come before it is turned
// into Elo: scores are clamped to [ScoreClamp, 1 − ScoreClamp], as in
// fishtest's stat_util.elo.
const ScoreClamp = 1e-3

// MaxElo is the largest Elo difference reported, Elo(1 − ScoreClamp) =
// 400·log10(999) ≈ 1199.83. Every Elo figure lies in [−MaxElo, MaxElo].
const MaxElo = 1199.8261952903777

// emptyBin is the weight, in games or pairs, given to an empty bin of a
// count vector before estimates and likelihood ratios (fishtest's
// LLRcalc.regularize).
const emptyBin = 1e-3

// nEloPerT converts a t-value (mean score minus ½, over the per-game
// standard deviation) into normalized Elo: 800/ln 10 (fishtest's
// nelo_divided_by_nt).
const nEloPerT = 800 / math.Ln10

// EloModel names the scale of the Elo bounds of a sequential test.
type EloModel int

const (
	// Logistic Elo: a score s is worth −400·log10(1/s − 1).
	Logistic EloModel = iota
	// Normalized Elo (nElo): (s − ½)/σ·800/ln 10 with σ the standard
	// deviation of one game's score (for pairs, √2 times that of the pair's
	// mean score), so that a fixed nElo needs a fixed number of games to
	// resolve whatever the draw rate.
	Normalized
)

// String returns "logistic" or "normalized".
func (m EloModel) String() string {
	switch m {
	case Logistic:
		return "logistic"
	case Normalized:
		return "normalized"
	}
	return fmt.Sprintf("EloModel(%d)", int(m))
}

// ParseEloModel reads "logistic" or "normalized" (case-insensitive).
func ParseEloModel(s string) (EloModel, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "logistic":
		return Logistic, nil
	case "normalized", "normalised":
		return Normalized, nil
	}
	return 0, fmt.Errorf("elo model %q: want logistic or normalized", s)
}

// Estimate is a point value with its 95% interval [Lo, Hi]. Note is empty
// for an ordinary sample; otherwise it says why the figures are clamped or
// otherwise not what the formula alone would give (every game won, zero
// variance, no data). The fields are always finite.
type Estimate struct {
	Value float64 `json:"value"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	Note  string  `json:"note,omitempty"`
}

// HalfWidth returns (Hi − Lo)/2, the "±" figure fishtest prints next to an
// Elo estimate.
func (e Estimate) HalfWidth() float64 { return (e.Hi - e.Lo) / 2 }

// OK reports whether the estimate needed no clamping or caveat.
func (e Estimate) OK() bool { return e.Note == "" }

// Elo returns the logistic Elo difference that gives an expected score s:
//
//	Elo(s) = −400·log10(1/s − 1)
//
// s is first clamped to [ScoreClamp, 1 − ScoreClamp], so the result lies in
// [−MaxElo, MaxElo]; NaN is taken as ½ (no information) and gives 0.
func Elo(s float64) float64 {
	switch {
	case math.IsNaN(s):
		return 0
	case s < ScoreClamp:
		s = ScoreClamp
	case s > 1-ScoreClamp:
		s = 1 - ScoreClamp
	}
	return -400 * math.Log10(1/s-1)
}

// ExpectedScore is the inverse of Elo: the expected score of an entrant
// that is elo points stronger,
//
//	L(elo) = 1/(1 + 10^(−elo/400))
func ExpectedScore(elo float64) float64 {
	return 1 / (1 + math.Pow(10, -elo/400))
}

// LOS returns the likelihood of superiority from wins and losses (draws do
// not count), in the normal approximation of the sign test given on the
// Chess Programming Wiki ("Match Statistics"):
//
//	LOS = ½·(1 + erf((W − L)/√(2(W + L)))) = Φ((W − L)/√(W + L))
//
// With no decisive game it is ½. Negative counts are treated as zero.
func LOS(wins, losses int) float64 {
	w, l := float64(max(wins, 0)), float64(max(losses, 0))
	if w+l == 0 {
		return 0.5
	}
	return 0.5 * (1 + math.Erf((w-l)/math.Sqrt(2*(w+l))))
}

// sample is a count vector over equally spaced scores 0, 1/(k−1), …, 1
// (k = 3 for games, k = 5 for pairs), with the moments that estimates need.
type sample struct {
	k      int
	raw    [5]float64 // counts as given
	reg    [5]float64 // empty bins replaced by emptyBin
	n, rn  float64    // total of reg, total of raw
	mean   float64    // mean score of reg, in [0, 1]
	vari   float64    // variance of one unit's score under reg
	m3, m4 float64    // third and fourth central moments under reg
}

// newSample validates counts (3 or 5 of them, none negative) and computes
// the regularized moments.
func newSample(counts []int) (sample, error) {
	var s sample
	if len(counts) != 3 && len(counts) != 5 {
		return s, fmt.Errorf("want 3 (trinomial) or 5 (pentanomial) counts, got %d", len(counts))
	}
	s.k = len(counts)
	for i, c := range counts {
		if c < 0 {
			return s, fmt.Errorf("count %d is negative (%d)", i, c)
		}
		s.raw[i] = float64(c)
		s.rn += float64(c)
		s.reg[i] = float64(c)
		if c == 0 {
			s.reg[i] = emptyBin
		}
		s.n += s.reg[i]
	}
	for i := 0; i < s.k; i++ {
		s.mean += s.reg[i] * s.value(i)
	}
	s.mean /= s.n
	for i := 0; i < s.k; i++ {
		d := s.value(i) - s.mean
		p := s.reg[i] / s.n
		s.vari += p * d * d
		s.m3 += p * d * d * d
		s.m4 += p * d * d * d * d
	}
	return s, nil
}

// value is the score of bin i, i/(k−1).
func (s *sample) value(i int) float64 { return float64(i) / float64(s.k-1) }

// degenerate describes a sample whose raw counts leave the Elo unbounded
// or the variance zero; it is empty for an ordinary sample.
func (s *sample) degenerate() string {
	if s.rn == 0 {
		return "no games"
	}
	for i := 0; i < s.k; i++ {
		if s.raw[i] != s.rn {
			continue
		}
		switch i {
		case 0:
			return "all games lost: Elo unbounded below, figures from the regularized sample"
		case s.k - 1:
			return "all games won: Elo unbounded above, figures from the regularized sample"
		}
		if s.k == 3 {
			return "all games drawn: zero variance, interval from the regularized sample"
		}
		return "every pair scored the same: zero variance, interval from the regularized sample"
	}
	return ""
}

// elo is fishtest's get_elo on the regularized sample: the mean score μ,
// its standard error se = √(var/N) per unit (game or pair), and
//
//	Elo = Elo(μ),  [Lo, Hi] = [Elo(μ − z·se), Elo(μ + z·se)],  z = Φ⁻¹(0.975).
func (s *sample) elo() Estimate {
	z := distuv.UnitNormal.Quantile(0.975)
	se := math.Sqrt(s.vari / s.n)
	lo, hi := s.mean-z*se, s.mean+z*se
	e := Estimate{Value: Elo(s.mean), Lo: Elo(lo), Hi: Elo(hi)}
	var notes []string
	if d := s.degenerate(); d != "" {
		notes = append(notes, d)
	}
	if lo < ScoreClamp || hi > 1-ScoreClamp {
		notes = append(notes, fmt.Sprintf("interval clamped to ±%.1f Elo", MaxElo))
	}
	e.Note = strings.Join(notes, "; ")
	return e
}

// los is fishtest's likelihood of superiority from the mean score:
// Φ((μ − ½)/se).
func (s *sample) los() float64 {
	if s.rn == 0 {
		return 0.5
	}
	return distuv.UnitNormal.CDF((s.mean - 0.5) / math.Sqrt(s.vari/s.n))
}

// nElo is fishtest's normalized Elo with its 95% interval (the "nElo" of
// fishtest's test pages): with t = (μ − ½)/σ, σ² the variance of one unit,
// the delta method gives
//
//	Var(t̂)·N ≈ 1 − t·γ₁ + t²·(γ₂ + 2)/4
//
// (γ₁ skewness, γ₂ excess kurtosis of one unit's score) and
//
//	nElo = c·t,  [Lo, Hi] = c·(t ∓ z·√(Var(t̂))),
//
// c = 800/ln 10 for games and 800/ln 10/√2 for pairs (a pair's mean score
// has half the variance of one game when the games are independent).
func (s *sample) nElo() Estimate {
	if s.rn == 0 {
		return Estimate{Note: "no games"}
	}
	c := nEloPerT
	if s.k == 5 {
		c /= math.Sqrt2
	}
	sd := math.Sqrt(s.vari)
	t := (s.mean - 0.5) / sd
	skew := s.m3 / (s.vari * sd)
	exkurt := s.m4/(s.vari*s.vari) - 3
	vt := max(1-t*skew+0.25*t*t*(exkurt+2), 0)
	half := distuv.UnitNormal.Quantile(0.975) * math.Sqrt(vt/s.n)
	return Estimate{Value: c * t, Lo: c * (t - half), Hi: c * (t + half), Note: s.degenerate()}
}

// invalid is the estimate returned for counts that fail validation.
func invalid(err error) Estimate {
	return Estimate{Lo: -MaxElo, Hi: MaxElo, Note: "invalid sample: " + err.Error()}
}
