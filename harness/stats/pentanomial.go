package stats

import (
	"fmt"
	"math"
)

// Pentanomial counts pairs of games played on one case with the seats
// swapped, by the points the entrant under test took in the pair:
//
//	index   0    1    2        3    4
//	points  0    ½    1        1½   2
//	pairs   LL   LD   LW, DD   DW   WW
//
// (the pair's mean score is index/4). This is fishtest's order.
type Pentanomial [5]int

// PairBin returns the pentanomial index of a pair worth points (0, ½, 1,
// 1½ or 2): 2·points.
func PairBin(points float64) (int, error) {
	k := 2 * points
	if k != math.Trunc(k) || k < 0 || k > 4 {
		return 0, fmt.Errorf("pair points %v: want 0, 0.5, 1, 1.5 or 2", points)
	}
	return int(k), nil
}

// AddPoints counts one pair worth points (0 to 2 in steps of ½).
func (p *Pentanomial) AddPoints(points float64) error {
	i, err := PairBin(points)
	if err != nil {
		return err
	}
	p[i]++
	return nil
}

// AddPair counts one pair from its two games' points (each 1, ½ or 0).
func (p *Pentanomial) AddPair(first, second float64) error {
	if err := GamePoints(first); err != nil {
		return fmt.Errorf("first game: %w", err)
	}
	if err := GamePoints(second); err != nil {
		return fmt.Errorf("second game: %w", err)
	}
	return p.AddPoints(first + second)
}

// PentanomialFromPoints counts pairs from their points (0 to 2 each).
func PentanomialFromPoints(points []float64) (Pentanomial, error) {
	var p Pentanomial
	for i, x := range points {
		if err := p.AddPoints(x); err != nil {
			return p, fmt.Errorf("pair %d: %w", i, err)
		}
	}
	return p, nil
}

// PentanomialFromGames counts pairs from game points listed pair by pair:
// games[2i] and games[2i+1] are the two games of pair i.
func PentanomialFromGames(games []float64) (Pentanomial, error) {
	var p Pentanomial
	if len(games)%2 != 0 {
		return p, fmt.Errorf("%d games: want an even number (pairs)", len(games))
	}
	for i := 0; i < len(games); i += 2 {
		if err := p.AddPair(games[i], games[i+1]); err != nil {
			return p, fmt.Errorf("pair %d: %w", i/2, err)
		}
	}
	return p, nil
}

// Pairs returns the number of pairs.
func (p Pentanomial) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// Games returns the number of games, 2·Pairs.
func (p Pentanomial) Games() int { return 2 * p.Pairs() }

// valid reports whether no count is negative.
func (p Pentanomial) valid() bool {
	return p[0] >= 0 && p[1] >= 0 && p[2] >= 0 && p[3] >= 0 && p[4] >= 0
}

// MeanVar returns the mean and the (population) variance of a pair's mean
// score over the raw counts:
//
//	μ = Σᵢ pᵢ·i/4,  σ² = Σᵢ pᵢ·(i/4 − μ)²,  pᵢ = countᵢ/N.
//
// The per-game score is μ and, for independent games, a single game's
// variance would be 2σ². An empty or invalid sample gives (½, 0).
func (p Pentanomial) MeanVar() (mean, variance float64) {
	n := float64(p.Pairs())
	if n <= 0 || !p.valid() {
		return 0.5, 0
	}
	for i, c := range p {
		mean += float64(c) * float64(i) / 4
	}
	mean /= n
	for i, c := range p {
		d := float64(i)/4 - mean
		variance += float64(c) * d * d
	}
	return mean, variance / n
}

// Score returns the mean points per game, μ of [Pentanomial.MeanVar].
func (p Pentanomial) Score() float64 {
	m, _ := p.MeanVar()
	return m
}

// Elo returns the logistic Elo of the score with its 95% interval from the
// pair variance, as fishtest's get_elo computes it on the pentanomial:
// with μ and σ² from [Pentanomial.MeanVar] over N pairs,
//
//	se = σ/√N,  Elo = Elo(μ),  [Lo, Hi] = [Elo(μ − 1.96·se), Elo(μ + 1.96·se)].
//
// Pairing removes the case's bias from the variance, so this interval is
// the right one for seat-swapped pairs (the trinomial one treats the two
// games as independent). Empty bins count as 1e-3 of a pair (fishtest's
// regularization); Note flags the degenerate samples.
func (p Pentanomial) Elo() Estimate {
	s, err := newSample(p[:])
	if err != nil {
		return invalid(err)
	}
	return s.elo()
}

// NElo returns normalized Elo as fishtest defines it for pairs:
//
//	nElo = (μ − ½)/(√2·σ)·800/ln 10
//
// with σ the standard deviation of a pair's mean score (√2·σ plays the part
// of one game's standard deviation). The 95% interval is fishtest's
// delta-method one on t = (μ − ½)/σ:
//
//	Var(t̂) ≈ (1 − t·γ₁ + t²·(γ₂ + 2)/4)/N
//
// with γ₁ the skewness and γ₂ the excess kurtosis of a pair's score.
// Empty bins count as 1e-3 of a pair.
func (p Pentanomial) NElo() Estimate {
	s, err := newSample(p[:])
	if err != nil {
		return invalid(err)
	}
	return s.nElo()
}

// LOS returns the likelihood of superiority from the pairs, as fishtest
// computes it: Φ((μ − ½)/se) with se the standard error of the score from
// [Pentanomial.Elo]. With no pair it is ½.
func (p Pentanomial) LOS() float64 {
	s, err := newSample(p[:])
	if err != nil {
		return 0.5
	}
	return s.los()
}
