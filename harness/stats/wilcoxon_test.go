package stats

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// The corn-plant example of the scipy.stats.wilcoxon documentation
// (Darwin's data as given by Fisher): the differences in height between
// cross- and self-fertilized plants. scipy reports, exact:
//
//	wilcoxon(d)                        → (24.0, 0.041259765625)
//	wilcoxon(d, alternative='greater') → (96.0, 0.0206298828125)
//
// and with the normal approximation without continuity correction
// (method='approx', scipy's default correction=False):
//
//	wilcoxon(d, method='approx')       → (24.0, 0.04088813291185591)
var cornDiffs = []float64{6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75}

func TestWilcoxonScipyCorn(t *testing.T) {
	r, err := WilcoxonSignedRank(cornDiffs, TwoSided)
	if err != nil {
		t.Fatal(err)
	}
	if r.N != 15 || r.WPlus != 96 || r.WMinus != 24 || !r.Exact || r.Ties {
		t.Errorf("two-sided: %+v, want N 15, W+ 96, W− 24, exact, no ties", r)
	}
	if math.Abs(r.P-0.041259765625) > 1e-15 {
		t.Errorf("two-sided exact p = %.17g, scipy 0.041259765625", r.P)
	}
	r, err = WilcoxonSignedRank(cornDiffs, Greater)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.P-0.0206298828125) > 1e-15 {
		t.Errorf("greater exact p = %.17g, scipy 0.0206298828125", r.P)
	}
	r, err = WilcoxonSignedRank(cornDiffs, Less)
	if err != nil {
		t.Fatal(err)
	}
	// P(W⁺ ≤ 96) = 1 − P(W⁺ ≥ 97) = 1 − (0.0206298828125 − P(W⁺ = 96)).
	if r.P < 0.979 || r.P > 1 {
		t.Errorf("less exact p = %v, want about 0.98", r.P)
	}
	w := Wilcoxon{Method: WilcoxonNormal, NoContinuity: true}
	r, err = w.Test(cornDiffs, TwoSided)
	if err != nil {
		t.Fatal(err)
	}
	if r.Exact || math.Abs(r.P-0.04088813291185591) > 1e-13 {
		t.Errorf("two-sided approx p = %.17g, scipy 0.04088813291185591", r.P)
	}
}

// Hollander & Wolfe (1973, p. 29f), the Hamilton depression scale factor
// of nine patients before (x) and after (y) a tranquilizer; the paired
// example of R's ?wilcox.test, whose printed results are
//
//	wilcox.test(x, y, paired = TRUE, alternative = "greater")  V = 40, p-value = 0.01953
//	wilcox.test(y - x, alternative = "less")                   V = 5,  p-value = 0.01953
//	wilcox.test(y - x, alternative = "less",
//	            exact = FALSE, correct = FALSE)                V = 5,  p-value = 0.01908
//
// (the exact value is 10/512).
var (
	hwX = []float64{1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30}
	hwY = []float64{0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29}
)

func TestWilcoxonHollanderWolfe(t *testing.T) {
	r, err := WilcoxonPaired(hwX, hwY, Greater)
	if err != nil {
		t.Fatal(err)
	}
	if r.WPlus != 40 || !r.Exact || math.Abs(r.P-10.0/512) > 1e-15 || math.Abs(r.P-0.01953) > 5e-6 {
		t.Errorf("paired greater: V = %v, p = %v, R: V = 40, p = 0.01953", r.WPlus, r.P)
	}
	d, err := PairedDiffs(hwY, hwX)
	if err != nil {
		t.Fatal(err)
	}
	r, err = WilcoxonSignedRank(d, Less)
	if err != nil {
		t.Fatal(err)
	}
	if r.WPlus != 5 || math.Abs(r.P-10.0/512) > 1e-15 {
		t.Errorf("y − x less: V = %v, p = %v, R: V = 5, p = 0.01953", r.WPlus, r.P)
	}
	w := Wilcoxon{Method: WilcoxonNormal, NoContinuity: true}
	r, err = w.Test(d, Less)
	if err != nil {
		t.Fatal(err)
	}
	if r.WPlus != 5 || math.Abs(r.P-0.01908) > 5e-6 {
		t.Errorf("y − x less, normal: V = %v, p = %v, R: V = 5, p = 0.01908", r.WPlus, r.P)
	}
	// Two-sided exact: 2·10/512.
	r, err = WilcoxonPaired(hwX, hwY, TwoSided)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.P-20.0/512) > 1e-15 {
		t.Errorf("paired two-sided p = %v, want 20/512", r.P)
	}
}

// An R session published with the rtests package (wilcox.test through rpy,
// paired, two-sided, default exact = NULL and correct = TRUE): the data
// have zeros and ties, so R drops the zeros, gives up the exact test and
// prints
//
//	Wilcoxon signed rank test with continuity correction
//	V = 636.5, p-value = 1.167e-05
//
// The automatic method here does the same (ties ⇒ normal approximation with
// tie and continuity corrections).
func TestWilcoxonRTiesZeros(t *testing.T) {
	a := []float64{6, 4, 5, 5, 7, 6, 6, 6, 7, 6, 6, 5, 6, 6, 5, 5, 3, 6, 6, 5, 6, 5, 4, 6, 6, 6, 7, 4, 3, 4, 6, 6, 5, 6, 4, 6, 6, 5, 7, 6, 6, 5, 6, 7, 6, 6, 6, 5, 7, 7}
	b := []float64{5, 3, 5, 3, 5, 3, 6, 2, 3, 6, 2, 5, 5, 6, 4, 6, 4, 5, 5, 3, 7, 5, 6, 6, 4, 3, 4, 3, 2, 4, 5, 4, 4, 6, 2, 6, 7, 4, 4, 5, 5, 5, 5, 7, 4, 5, 3, 2, 6, 7}
	r, err := WilcoxonPaired(a, b, TwoSided)
	if err != nil {
		t.Fatal(err)
	}
	if r.WPlus != 636.5 || r.Exact || !r.Ties || r.Zeros == 0 {
		t.Errorf("got %+v, want V = 636.5, normal approximation, ties, zeros", r)
	}
	if math.Abs(r.P-1.167e-05) > 0.0005e-05 {
		t.Errorf("p = %.6g, R: 1.167e-05", r.P)
	}
}

// scipy's documentation also shows how rounding in x − y breaks ties:
// with x = [0.5, 0.825, 0.375, 0.5], y = [0.525, 0.775, 0.325, 0.55] the
// float64 differences have four distinct magnitudes and
// wilcoxon(x, y, alternative='greater') gives (5.0, 0.5625); we compute
// the same differences in IEEE double precision.
func TestWilcoxonScipyRoundoff(t *testing.T) {
	x := []float64{0.5, 0.825, 0.375, 0.5}
	y := []float64{0.525, 0.775, 0.325, 0.55}
	r, err := WilcoxonPaired(x, y, Greater)
	if err != nil {
		t.Fatal(err)
	}
	if r.WPlus != 5 || r.Ties || !r.Exact || r.P != 0.5625 {
		t.Errorf("got %+v, scipy: statistic 5.0, p 0.5625", r)
	}
	// With the ties restored (d rounded by hand) scipy's exact mode ignores
	// them and reports (6.0, 0.4375), the untied distribution. Here ties
	// send WilcoxonAuto to the normal approximation, and WilcoxonExact uses
	// the permutation distribution of the average ranks 1, 3, 3, 3:
	// P(W⁺ ≥ 6) = 8/16 (enumerated in TestWilcoxonExactEnumeration).
	d := []float64{-0.025, 0.05, 0.05, -0.05}
	r, err = WilcoxonSignedRank(d, Greater)
	if err != nil {
		t.Fatal(err)
	}
	if r.WPlus != 6 || !r.Ties || r.Exact {
		t.Errorf("tied, auto: %+v", r)
	}
	w := Wilcoxon{Method: WilcoxonExact}
	r, err = w.Test(d, Greater)
	if err != nil {
		t.Fatal(err)
	}
	if r.WPlus != 6 || !r.Exact || r.P != 0.5 {
		t.Errorf("tied, exact: %+v, want p = 8/16", r)
	}
}

// Critical values of the signed-rank statistic from the standard table
// (e.g. Hollander & Wolfe, table A.4; also the CRC Standard Probability and
// Statistics Tables): the largest T with P(T ≤ T_crit) ≤ α, one-sided.
// n = 10, α = 0.05: T = 10 (P = 0.0420); α = 0.025: T = 8 (P = 0.0244);
// n = 20, α = 0.05: T = 60 (P = 0.0487); α = 0.01: T = 43 (P = 0.0096).
func TestWilcoxonCriticalValues(t *testing.T) {
	cases := []struct {
		n, w int
		p    float64
	}{
		{10, 10, 0.0420}, {10, 11, 0.0527}, {10, 8, 0.0244},
		{20, 60, 0.0487}, {20, 61, 0.0527}, {20, 43, 0.0096},
	}
	for _, c := range cases {
		d := rankSample(c.n, c.w)
		r, err := WilcoxonSignedRank(d, Less)
		if err != nil {
			t.Fatal(err)
		}
		if r.WPlus != float64(c.w) || !r.Exact {
			t.Fatalf("n %d: built W⁺ = %v, want %d", c.n, r.WPlus, c.w)
		}
		if math.Abs(r.P-c.p) > 0.00005 {
			t.Errorf("n %d: P(W⁺ ≤ %d) = %.5f, table %.4f", c.n, c.w, r.P, c.p)
		}
	}
}

// rankSample returns n differences with magnitudes 1..n whose positive
// ranks sum to w (greedy from the largest rank).
func rankSample(n, w int) []float64 {
	d := make([]float64, n)
	for i := range d {
		d[i] = -float64(i + 1)
	}
	for r := n; r >= 1 && w > 0; r-- {
		if r <= w {
			d[r-1] = float64(r)
			w -= r
		}
	}
	return d
}

// The exact distribution against brute-force enumeration of all 2ⁿ sign
// patterns, with and without ties.
func TestWilcoxonExactEnumeration(t *testing.T) {
	samples := [][]float64{
		{1, -2, 3, 4, -5, 6, 7},
		{-0.025, 0.05, 0.05, -0.05},
		{1, 1, -2, 2, 2, -3, 4, 4, 4, -4, 5},
		{3, -1, 4, -1, 5, -9, 2, 6, -5, 3, 5},
	}
	w := Wilcoxon{Method: WilcoxonExact}
	for _, d := range samples {
		ranks := midRanks(d)
		var obs float64
		for i, x := range d {
			if x > 0 {
				obs += ranks[i]
			}
		}
		n := len(d)
		var le, ge int
		for mask := 0; mask < 1<<n; mask++ {
			var s float64
			for i := 0; i < n; i++ {
				if mask&(1<<i) != 0 {
					s += ranks[i]
				}
			}
			if s <= obs {
				le++
			}
			if s >= obs {
				ge++
			}
		}
		total := float64(int(1) << n)
		for _, c := range []struct {
			alt  Alternative
			want float64
		}{
			{Less, float64(le) / total},
			{Greater, float64(ge) / total},
			{TwoSided, math.Min(1, 2*math.Min(float64(le), float64(ge))/total)},
		} {
			r, err := w.Test(d, c.alt)
			if err != nil {
				t.Fatal(err)
			}
			if r.WPlus != obs || math.Abs(r.P-c.want) > 1e-14 {
				t.Errorf("%v %v: W⁺ %v p %.15g, enumeration W⁺ %v p %.15g", d, c.alt, r.WPlus, r.P, obs, c.want)
			}
		}
	}
}

// midRanks ranks |d| with ties averaged, the slow obvious way.
func midRanks(d []float64) []float64 {
	r := make([]float64, len(d))
	for i, x := range d {
		less, equal := 0, 0
		for _, y := range d {
			switch {
			case math.Abs(y) < math.Abs(x):
				less++
			case math.Abs(y) == math.Abs(x):
				equal++
			}
		}
		r[i] = float64(less) + float64(equal+1)/2
	}
	return r
}

// Exact and normal p-values agree closely for moderate n, and the normal
// one with continuity correction is R's formula (checked by hand here:
// n = 30 all positive but the smallest sixteen, W⁺ = 465 − 136 = 329).
func TestWilcoxonNormalFormula(t *testing.T) {
	d := make([]float64, 30)
	for i := range d {
		d[i] = float64(i + 1)
		if i < 16 {
			d[i] = -d[i]
		}
	}
	w := Wilcoxon{Method: WilcoxonNormal}
	r, err := w.Test(d, Greater)
	if err != nil {
		t.Fatal(err)
	}
	mean, sd := 30.0*31/4, math.Sqrt(30.0*31*61/24)
	z := (329 - mean - 0.5) / sd
	if r.WPlus != 329 || math.Abs(r.Z-z) > 1e-12 || math.Abs(r.P-distuv.UnitNormal.CDF(-z)) > 1e-15 {
		t.Errorf("got W⁺ %v z %v p %v, want 329, %v, %v", r.WPlus, r.Z, r.P, z, distuv.UnitNormal.CDF(-z))
	}
	exact := Wilcoxon{Method: WilcoxonExact}
	re, err := exact.Test(d, Greater)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(re.P-r.P) > 0.05*re.P || re.P > 0.1 || re.P < 0.01 {
		t.Errorf("exact %v and normal %v differ by more than 5%% (or are not near 0.05)", re.P, r.P)
	}
}

func TestWilcoxonEdges(t *testing.T) {
	for _, d := range [][]float64{nil, {0, 0, 0}} {
		r, err := WilcoxonSignedRank(d, Less)
		if err != nil || r.P != 1 || r.N != 0 || r.Note == "" {
			t.Errorf("%v: %+v, %v; want P = 1 with a note", d, r, err)
		}
	}
	if _, err := WilcoxonSignedRank([]float64{1, math.NaN()}, Less); err == nil || !strings.Contains(err.Error(), "difference 1") {
		t.Errorf("NaN: error %v, want one naming difference 1", err)
	}
	if _, err := WilcoxonSignedRank([]float64{1}, Alternative(7)); err == nil {
		t.Error("unknown alternative accepted")
	}
	if _, err := WilcoxonPaired([]float64{1}, []float64{1, 2}, Less); err == nil {
		t.Error("paired samples of different lengths accepted")
	}
	big := make([]float64, WilcoxonExactLimit+1)
	for i := range big {
		big[i] = float64(i + 1)
	}
	w := Wilcoxon{Method: WilcoxonExact}
	if _, err := w.Test(big, Less); err == nil {
		t.Error("exact test beyond the limit accepted")
	}
	// One positive difference: P(W⁺ ≥ 1) = ½, P(W⁺ ≤ 1) = 1.
	r, err := WilcoxonSignedRank([]float64{0, 3, 0}, Greater)
	if err != nil {
		t.Fatal(err)
	}
	if r.P != 0.5 || r.Zeros != 2 || r.N != 1 {
		t.Errorf("single difference: %+v", r)
	}
	// The input is not modified.
	d := []float64{3, -1, 0, 2}
	if _, err := WilcoxonSignedRank(d, Less); err != nil || d[0] != 3 || d[1] != -1 || d[2] != 0 || d[3] != 2 {
		t.Errorf("input modified: %v", d)
	}
}

func TestPairedWorse(t *testing.T) {
	// Trial worse on 9 of 10 cases.
	best := []float64{10, 12, 9, 14, 11, 13, 10, 15, 12, 11}
	trial := []float64{8, 11, 7, 13, 9, 12, 11, 12, 10, 9}
	scratch := make([]float64, WilcoxonScratchLen(len(best)))
	p := PairedWorse(trial, best, scratch)
	r, err := WilcoxonPaired(trial, best, Less)
	if err != nil {
		t.Fatal(err)
	}
	if p != r.P || !(p < 0.01) {
		t.Errorf("PairedWorse = %v, WilcoxonPaired less = %v; want equal and < 0.01", p, r.P)
	}
	if q := PairedWorse(best, trial, scratch); !(q > 0.99) {
		t.Errorf("best vs trial: p = %v, want near 1", q)
	}
	if q := PairedWorse(trial, best[:3], scratch); q != 1 {
		t.Errorf("different lengths: p = %v, want 1", q)
	}
	if q := PairedWorse(best, best, nil); q != 1 {
		t.Errorf("identical: p = %v, want 1", q)
	}
	allocs := testing.AllocsPerRun(100, func() { PairedWorse(trial, best, scratch) })
	if allocs != 0 {
		t.Errorf("PairedWorse allocates %v times with a scratch buffer", allocs)
	}
	big := make([]float64, 200)
	bigBest := make([]float64, 200)
	for i := range big {
		big[i] = float64(i % 7)
		bigBest[i] = float64(i%5) + 0.5
	}
	scratch = make([]float64, WilcoxonScratchLen(len(big)))
	allocs = testing.AllocsPerRun(100, func() { PairedWorse(big, bigBest, scratch) })
	if allocs != 0 {
		t.Errorf("PairedWorse (n = 200) allocates %v times with a scratch buffer", allocs)
	}
}

func FuzzWilcoxon(f *testing.F) {
	f.Add(6.0, -8.0, 14.0, 0.0, 3.0, 3.0, uint8(0))
	f.Add(1.83, -0.5, 1.62, 2.48, -1.68, 1.88, uint8(2))
	f.Fuzz(func(t *testing.T, a, b, c, d, e, g float64, alt uint8) {
		xs := []float64{a, b, c, d, e, g, a - b, c + d}
		for _, m := range []WilcoxonMethod{WilcoxonAuto, WilcoxonExact, WilcoxonNormal} {
			w := Wilcoxon{Method: m}
			r, err := w.Test(xs, Alternative(alt%3))
			if err != nil {
				continue
			}
			if !(r.P >= 0 && r.P <= 1) || math.IsNaN(r.Z) || math.IsInf(r.Z, 0) {
				t.Fatalf("%v %v: %+v", xs, m, r)
			}
		}
	})
}

func BenchmarkPairedWorse(b *testing.B) {
	for _, n := range []int{20, 200} {
		trial := make([]float64, n)
		best := make([]float64, n)
		for i := range trial {
			trial[i] = float64((i*7919)%101) / 3
			best[i] = float64((i*104729)%103) / 3
		}
		scratch := make([]float64, WilcoxonScratchLen(n))
		b.Run(map[int]string{20: "n=20", 200: "n=200"}[n], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				PairedWorse(trial, best, scratch)
			}
		})
	}
}
