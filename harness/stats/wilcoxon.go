package stats

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Alternative is the alternative hypothesis of a test on paired
// differences d = x − y, against the null hypothesis that d is distributed
// symmetrically about zero.
type Alternative int

const (
	// TwoSided: d is not symmetric about zero.
	TwoSided Alternative = iota
	// Less: d tends to be negative (x is stochastically smaller than y).
	Less
	// Greater: d tends to be positive (x is stochastically larger than y).
	Greater
)

// String returns "two-sided", "less" or "greater".
func (a Alternative) String() string {
	switch a {
	case TwoSided:
		return "two-sided"
	case Less:
		return "less"
	case Greater:
		return "greater"
	}
	return fmt.Sprintf("Alternative(%d)", int(a))
}

// WilcoxonMethod chooses how the p-value of a signed-rank test is computed.
type WilcoxonMethod int

const (
	// WilcoxonAuto is exact for at most WilcoxonExactMax non-zero
	// differences with no tied magnitudes, normal otherwise.
	WilcoxonAuto WilcoxonMethod = iota
	// WilcoxonExact always uses the exact null distribution of W⁺ (with
	// average ranks when magnitudes tie: the exact permutation distribution
	// given those ranks); at most WilcoxonExactLimit non-zero differences.
	WilcoxonExact
	// WilcoxonNormal always uses the normal approximation.
	WilcoxonNormal
)

// String returns "auto", "exact" or "normal".
func (m WilcoxonMethod) String() string {
	switch m {
	case WilcoxonAuto:
		return "auto"
	case WilcoxonExact:
		return "exact"
	case WilcoxonNormal:
		return "normal"
	}
	return fmt.Sprintf("WilcoxonMethod(%d)", int(m))
}

const (
	// WilcoxonExactMax is the largest number of non-zero differences for
	// which WilcoxonAuto computes the exact p-value (when no magnitudes tie).
	WilcoxonExactMax = 25
	// WilcoxonExactLimit is the largest number of non-zero differences
	// WilcoxonExact accepts (its cost grows as n³).
	WilcoxonExactLimit = 400
)

// WilcoxonResult is the outcome of a Wilcoxon signed-rank test.
type WilcoxonResult struct {
	// N is the number of non-zero differences ranked; Zeros the number of
	// zero differences dropped before ranking.
	N     int `json:"n"`
	Zeros int `json:"zeros"`
	// WPlus and WMinus are the sums of the ranks of the positive and of the
	// negative differences; WPlus + WMinus = N(N + 1)/2. R reports WPlus as
	// V; scipy reports WPlus for one-sided tests and min(WPlus, WMinus) for
	// the two-sided one.
	WPlus  float64 `json:"w_plus"`
	WMinus float64 `json:"w_minus"`
	// Z is the standardized statistic of the normal approximation (with the
	// tie and continuity corrections in use); it is filled in whatever the
	// method, and is 0 when N = 0.
	Z float64 `json:"z"`
	// P is the p-value for Alternative: 1 when N = 0.
	P           float64     `json:"p"`
	Alternative Alternative `json:"alternative"`
	// Exact tells whether P comes from the exact distribution; Ties whether
	// some non-zero magnitudes were equal (average ranks were given).
	Exact bool `json:"exact"`
	Ties  bool `json:"ties"`
	// Note is empty for an ordinary test; otherwise it says why there is no
	// test (every difference zero).
	Note string `json:"note,omitempty"`
}

// Wilcoxon runs Wilcoxon signed-rank tests and keeps its working buffers
// between calls, so that a long-lived Wilcoxon allocates nothing once its
// buffers have grown. The zero value is ready to use: automatic method,
// continuity correction on. A Wilcoxon is not safe for concurrent use.
type Wilcoxon struct {
	// Method chooses the exact or normal p-value (default WilcoxonAuto).
	Method WilcoxonMethod
	// NoContinuity turns off the continuity correction of the normal
	// approximation (R: correct = FALSE; scipy's default).
	NoContinuity bool

	buf []float64
}

// WilcoxonSignedRank runs the Wilcoxon signed-rank test of the differences
// d against alt with the defaults of a zero [Wilcoxon]. See [Wilcoxon.Test]
// for the conventions.
func WilcoxonSignedRank(d []float64, alt Alternative) (WilcoxonResult, error) {
	var w Wilcoxon
	return w.Test(d, alt)
}

// WilcoxonPaired runs the signed-rank test on the paired differences
// x[i] − y[i] (the same cases played by two entrants): alt = Greater asks
// whether x tends to score more than y.
func WilcoxonPaired(x, y []float64, alt Alternative) (WilcoxonResult, error) {
	var w Wilcoxon
	return w.Paired(x, y, alt)
}

// Paired is [Wilcoxon.Test] on x[i] − y[i].
func (w *Wilcoxon) Paired(x, y []float64, alt Alternative) (WilcoxonResult, error) {
	if len(x) != len(y) {
		return WilcoxonResult{Alternative: alt, P: 1}, fmt.Errorf("wilcoxon: paired samples of different lengths: %d and %d", len(x), len(y))
	}
	w.grow(len(x))
	d := w.buf[:len(x)]
	for i := range x {
		d[i] = x[i] - y[i]
	}
	return w.test(d, alt)
}

// Test runs the Wilcoxon signed-rank test of the null hypothesis that the
// differences d are distributed symmetrically about zero, against alt. d is
// not modified.
//
// Conventions (those of R's wilcox.test and of scipy.stats.wilcoxon with
// zero_method="wilcox"):
//
//   - Zero differences are dropped before ranking ("wilcox" convention); N
//     counts the rest.
//   - The magnitudes |dᵢ| are ranked 1..N, tied magnitudes (exactly equal
//     float64 values) sharing their average rank.
//   - W⁺ = Σ rank(dᵢ) over dᵢ > 0. Under the null hypothesis each rank is
//     positive with probability ½ independently.
//   - Exact p-value: the null distribution of W⁺ is built by dynamic
//     programming over the ranks (on doubled ranks, which are whole numbers
//     even with ties), P(W⁺ = w) for every w, in O(N³) time. Less gives
//     P(W⁺ ≤ w⁺), Greater P(W⁺ ≥ w⁺), TwoSided min(1, 2·min of the two).
//     With WilcoxonAuto it is used for N ≤ WilcoxonExactMax without ties;
//     dropped zeros do not prevent it (the distribution is conditional on
//     the zeros, as in scipy; R switches to the normal approximation).
//   - Normal approximation: E[W⁺] = N(N + 1)/4,
//     Var[W⁺] = N(N + 1)(2N + 1)/24 − Σⱼ(tⱼ³ − tⱼ)/48 (tⱼ the sizes of the
//     groups of tied magnitudes), and
//     z = (W⁺ − E[W⁺] − c)/√Var[W⁺] with the continuity correction
//     c = ½·sign(W⁺ − E[W⁺]) for TwoSided, +½ for Greater, −½ for Less (0
//     with NoContinuity). Less gives Φ(z), Greater 1 − Φ(z), TwoSided
//     2·min(Φ(z), 1 − Φ(z)). These are R's formulas (exact = FALSE).
//
// With every difference zero (or d empty) there is no test: P = 1 and Note
// says why. Errors report a NaN or infinite difference, an unknown
// alternative or method, or WilcoxonExact with more than
// WilcoxonExactLimit non-zero differences.
func (w *Wilcoxon) Test(d []float64, alt Alternative) (WilcoxonResult, error) {
	w.grow(len(d))
	buf := w.buf[:len(d)]
	copy(buf, d)
	return w.test(buf, alt)
}

// grow makes room for n differences followed by the exact distribution of
// up to min(n, WilcoxonExactMax) ranks (more is allocated on demand by
// WilcoxonExact).
func (w *Wilcoxon) grow(n int) {
	if need := WilcoxonScratchLen(n); cap(w.buf) < need {
		w.buf = make([]float64, need)
	}
	w.buf = w.buf[:cap(w.buf)]
}

// WilcoxonScratchLen returns the length of scratch buffer with which
// [PairedWorse] on n pairs allocates nothing: n for the differences plus
// m(m + 1) + 1 for the exact distribution, m = min(n, WilcoxonExactMax).
func WilcoxonScratchLen(n int) int {
	m := min(n, WilcoxonExactMax)
	return n + m*(m+1) + 1
}

// byMagnitude orders differences by |d|.
func byMagnitude(a, b float64) int {
	a, b = math.Abs(a), math.Abs(b)
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// test runs the test on d, which it reorders; w.buf must hold d at its
// start.
func (w *Wilcoxon) test(d []float64, alt Alternative) (WilcoxonResult, error) {
	r := WilcoxonResult{Alternative: alt, P: 1}
	if alt != TwoSided && alt != Less && alt != Greater {
		return r, fmt.Errorf("wilcoxon: unknown alternative %v", alt)
	}
	if w.Method != WilcoxonAuto && w.Method != WilcoxonExact && w.Method != WilcoxonNormal {
		return r, fmt.Errorf("wilcoxon: unknown method %v", w.Method)
	}
	// Drop zeros, keeping the order of the rest.
	m := 0
	for i, x := range d {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return r, fmt.Errorf("wilcoxon: difference %d is %v", i, x)
		}
		if x != 0 {
			d[m] = x
			m++
		}
	}
	r.Zeros = len(d) - m
	r.N = m
	if m == 0 {
		if len(d) == 0 {
			r.Note = "no differences: no test"
		} else {
			r.Note = "all differences zero: no test"
		}
		return r, nil
	}
	d = d[:m]
	slices.SortFunc(d, byMagnitude)

	// Ranks, W⁺ and the tie correction Σ(t³ − t).
	var tieSum float64
	for i := 0; i < m; {
		j := i + 1
		for j < m && math.Abs(d[j]) == math.Abs(d[i]) {
			j++
		}
		rank := float64(i+1+j) / 2 // average of ranks i+1 .. j
		for k := i; k < j; k++ {
			if d[k] > 0 {
				r.WPlus += rank
			}
		}
		if t := float64(j - i); t > 1 {
			tieSum += t*t*t - t
			r.Ties = true
		}
		i = j
	}
	fm := float64(m)
	total := fm * (fm + 1) / 2
	r.WMinus = total - r.WPlus

	mean := total / 2
	sd := math.Sqrt(fm*(fm+1)*(2*fm+1)/24 - tieSum/48)
	var c float64
	if !w.NoContinuity {
		switch alt {
		case TwoSided:
			switch {
			case r.WPlus > mean:
				c = 0.5
			case r.WPlus < mean:
				c = -0.5
			}
		case Greater:
			c = 0.5
		case Less:
			c = -0.5
		}
	}
	r.Z = (r.WPlus - mean - c) / sd

	exact := w.Method == WilcoxonExact || (w.Method == WilcoxonAuto && m <= WilcoxonExactMax && !r.Ties)
	if !exact {
		lower, upper := distuv.UnitNormal.CDF(r.Z), distuv.UnitNormal.CDF(-r.Z)
		switch alt {
		case Less:
			r.P = lower
		case Greater:
			r.P = upper
		default:
			r.P = min(1, 2*min(lower, upper))
		}
		return r, nil
	}
	if m > WilcoxonExactLimit {
		return r, fmt.Errorf("wilcoxon: exact method with %d non-zero differences (at most %d)", m, WilcoxonExactLimit)
	}
	r.Exact = true
	lower, upper, err := w.exactTails(d, r.WPlus)
	if err != nil {
		return r, err
	}
	switch alt {
	case Less:
		r.P = lower
	case Greater:
		r.P = upper
	default:
		r.P = min(1, 2*min(lower, upper))
	}
	return r, nil
}

// exactTails returns P(W⁺ ≤ wplus) and P(W⁺ ≥ wplus) under the null
// hypothesis for the sorted non-zero differences d (ranks recomputed with
// ties averaged), by dynamic programming on doubled ranks:
//
//	f₀(0) = 1,  fₖ(s) = ½·fₖ₋₁(s) + ½·fₖ₋₁(s − 2·rankₖ).
//
// The table lives in w.buf after the len(d) differences (callers put d at
// the start of w.buf).
func (w *Wilcoxon) exactTails(d []float64, wplus float64) (lower, upper float64, err error) {
	m := len(d)
	size := m*(m+1) + 1 // doubled ranks sum to m(m+1)
	if cap(w.buf) < m+size {
		nb := make([]float64, m+size)
		copy(nb, d)
		w.buf = nb
		d = nb[:m]
	}
	f := w.buf[m : m+size]
	clear(f)
	f[0] = 1
	top := 0 // highest reachable doubled sum so far
	for i := 0; i < m; {
		j := i + 1
		for j < m && math.Abs(d[j]) == math.Abs(d[i]) {
			j++
		}
		r2 := i + 1 + j // doubled average rank of ranks i+1 .. j
		for k := i; k < j; k++ {
			top += r2
			for s := top; s >= r2; s-- {
				f[s] = 0.5 * (f[s] + f[s-r2])
			}
			for s := min(r2-1, top); s >= 0; s-- {
				f[s] *= 0.5
			}
		}
		i = j
	}
	w2 := 2 * wplus
	if w2 != math.Trunc(w2) || w2 < 0 || int(w2) >= size {
		return 0, 0, errors.New("wilcoxon: internal error: rank sum off the grid")
	}
	k := int(w2)
	for s := 0; s <= k; s++ {
		lower += f[s]
	}
	for s := k; s < size; s++ {
		upper += f[s]
	}
	return min(lower, 1), min(upper, 1), nil
}

// PairedWorse returns the one-sided p-value of the Wilcoxon signed-rank
// test that trial is worse than best on the same cases, higher being
// better: the Less alternative on trial[i] − best[i], with the conventions
// of [Wilcoxon.Test] (zeros dropped, exact for at most WilcoxonExactMax
// untied differences, normal approximation with tie and continuity
// corrections otherwise). A small p (say < 0.05) means the trial is
// significantly worse. Where lower is better, swap the arguments:
// PairedWorse(best, trial, scratch).
//
// scratch is working memory; with len or cap at least
// WilcoxonScratchLen(len(trial)) nothing is allocated. Its contents are
// overwritten.
//
// There is no error: samples of different lengths, a NaN or infinite
// difference, or no non-zero difference give p = 1 (never evidence that
// the trial is worse).
func PairedWorse(trial, best []float64, scratch []float64) (p float64) {
	if len(trial) != len(best) {
		return 1
	}
	w := Wilcoxon{buf: scratch[:cap(scratch)]}
	r, err := w.Paired(trial, best, Less)
	if err != nil {
		return 1
	}
	return r.P
}
