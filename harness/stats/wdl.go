package stats

import (
	"fmt"
	"math"
)

// WDL counts single games by result for the entrant under test: a
// trinomial sample.
type WDL struct {
	W int `json:"wins"`
	D int `json:"draws"`
	L int `json:"losses"`
}

// GamePoints checks one game's result for the entrant under test: 1 (win),
// ½ (draw) or 0 (loss).
func GamePoints(points float64) error {
	if points != 0 && points != 0.5 && points != 1 {
		return fmt.Errorf("game points %v: want 0, 0.5 or 1", points)
	}
	return nil
}

// Add counts one game worth points (1, ½ or 0).
func (t *WDL) Add(points float64) error {
	if err := GamePoints(points); err != nil {
		return err
	}
	switch points {
	case 1:
		t.W++
	case 0.5:
		t.D++
	default:
		t.L++
	}
	return nil
}

// Games returns W + D + L.
func (t WDL) Games() int { return t.W + t.D + t.L }

// Counts returns the counts in fishtest's order, by ascending score:
// losses, draws, wins.
func (t WDL) Counts() [3]int { return [3]int{t.L, t.D, t.W} }

// Score returns s = (W + D/2)/N, the mean points per game; ½ when there is
// no game (or a count is negative).
func (t WDL) Score() float64 {
	n := t.Games()
	if n <= 0 || t.W < 0 || t.D < 0 || t.L < 0 {
		return 0.5
	}
	return (float64(t.W) + float64(t.D)/2) / float64(n)
}

// Elo returns the logistic Elo of the score with its 95% interval, as
// fishtest's get_elo computes it on the trinomial: with s̄ and σ² the mean
// and variance of one game's points (1, ½, 0) over N games,
//
//	se = σ/√N,  Elo = Elo(s̄),  [Lo, Hi] = [Elo(s̄ − 1.96·se), Elo(s̄ + 1.96·se)]
//
// (1.96 = Φ⁻¹(0.975)). Empty bins count as 1e-3 of a game (fishtest's
// regularization): figures stay finite when every game is won, lost or
// drawn, and Note says so. Scores are clamped to [0.001, 0.999].
func (t WDL) Elo() Estimate {
	c := t.Counts()
	s, err := newSample(c[:])
	if err != nil {
		return invalid(err)
	}
	return s.elo()
}

// NElo returns fishtest's normalized Elo of the sample with its 95%
// interval: nElo = (s̄ − ½)/σ·800/ln 10, σ the standard deviation of one
// game's points. See [Pentanomial.NElo] for the interval.
func (t WDL) NElo() Estimate {
	c := t.Counts()
	s, err := newSample(c[:])
	if err != nil {
		return invalid(err)
	}
	return s.nElo()
}

// LOS returns [LOS](W, L), the likelihood of superiority of the entrant
// under test from its wins and losses.
func (t WDL) LOS() float64 { return LOS(t.W, t.L) }

// StdErr returns the standard error of the score, σ/√N with σ² the
// variance of one game's points; 0 for fewer than one game.
func (t WDL) StdErr() float64 {
	n := float64(t.Games())
	if n <= 0 || t.W < 0 || t.D < 0 || t.L < 0 {
		return 0
	}
	s := t.Score()
	v := (float64(t.W)*(1-s)*(1-s) + float64(t.D)*(0.5-s)*(0.5-s) + float64(t.L)*s*s) / n
	return math.Sqrt(v / n)
}
