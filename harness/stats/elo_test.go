package stats

import (
	"math"
	"strings"
	"testing"
)

func TestEloFormula(t *testing.T) {
	// Elo(¾) = 400·log10 3, Elo(½) = 0, Elo(1/11) = −400.
	cases := []struct{ s, elo float64 }{
		{0.5, 0}, {0.75, 400 * math.Log10(3)}, {1.0 / 11, -400}, {10.0 / 11, 400},
		{0, -MaxElo}, {1, MaxElo}, {-3, -MaxElo}, {math.NaN(), 0},
	}
	for _, c := range cases {
		if got := Elo(c.s); !near(got, c.elo, 1e-12) {
			t.Errorf("Elo(%v) = %.15g, want %.15g", c.s, got, c.elo)
		}
	}
	if got := Elo(1 - ScoreClamp); !near(got, MaxElo, 1e-12) {
		t.Errorf("MaxElo %v, Elo(0.999) = %v", MaxElo, got)
	}
	for _, e := range []float64{-800, -35.5, 0, 3, 190, 1000} {
		if got := Elo(ExpectedScore(e)); !near(got, e, 1e-9) {
			t.Errorf("Elo(ExpectedScore(%v)) = %v", e, got)
		}
	}
}

// LOS from wins and losses, as on the Chess Programming Wiki ("Match
// Statistics"): Φ((W − L)/√(W + L)). With W = 60, L = 40 the argument is 2
// and Φ(2) = 0.9772498680518208 (Abramowitz & Stegun table 26.1:
// 0.97724 98680 51821).
func TestLOS(t *testing.T) {
	if got := LOS(60, 40); !near(got, 0.9772498680518208, 1e-14) {
		t.Errorf("LOS(60, 40) = %.16g", got)
	}
	if got := LOS(40, 60); !near(got, 1-0.9772498680518208, 1e-13) {
		t.Errorf("LOS(40, 60) = %.16g", got)
	}
	if LOS(0, 0) != 0.5 || LOS(7, 7) != 0.5 || LOS(-1, -4) != 0.5 {
		t.Error("LOS without decisive games or with equal counts should be ½")
	}
	if got := LOS(1000, 0); got != 1 {
		t.Errorf("LOS(1000, 0) = %v, want 1", got)
	}
	if got := (WDL{W: 60, D: 100, L: 40}).LOS(); !near(got, 0.9772498680518208, 1e-14) {
		t.Errorf("WDL LOS = %v", got)
	}
}

// Published fishtest results, as printed on tests.stockfishchess.org and
// copied into Stockfish commit messages (the commit is given with each):
// pentanomial counts, "Elo: x ± y (95%) LOS: z%" from stat_util.get_elo,
// and "nElo: x ± y (95%)" from the run page. The printed precision is
// 0.01 Elo, 0.1 for the ± and for LOS in percent.
var fishtestEloRuns = []struct {
	src             string
	ptnml           Pentanomial
	elo, pm, losPct float64
	nelo, npm       float64
}{
	{"Stockfish 69a01b88f, tests/view/69074a49ea4b268f1fac236c", Pentanomial{154, 6440, 16053, 7148, 205}, 4.69, 1.4, 100.0, 9.38, 2.8},
	{"Stockfish 00b1540e0, tests/view/68335d276ec7634154f9c25c", Pentanomial{166, 6959, 15527, 6991, 163}, 0.15, 1.4, 58.3, 0.30, 2.8},
	{"Stockfish b5f11085d, tests/view/6822af4b3629b02d74b17be6", Pentanomial{55, 2365, 5182, 2349, 49}, -0.49, 2.4, 34.8, -0.96, 4.8},
	{"Stockfish a12dc6cc1, tests/view/69fef06c9392f0c317213dca", Pentanomial{143, 6697, 14452, 6415, 164}, -1.50, 1.5, 2.3, -2.95, 2.9},
}

func TestPentanomialFishtestPublished(t *testing.T) {
	for _, r := range fishtestEloRuns {
		e := r.ptnml.Elo()
		if math.Abs(e.Value-r.elo) > 0.005 || math.Abs(e.HalfWidth()-r.pm) > 0.05 || !e.OK() {
			t.Errorf("%s: Elo %.4f ± %.4f (%q), published %.2f ± %.1f", r.src, e.Value, e.HalfWidth(), e.Note, r.elo, r.pm)
		}
		if los := 100 * r.ptnml.LOS(); math.Abs(los-r.losPct) > 0.05 {
			t.Errorf("%s: LOS %.3f%%, published %.1f%%", r.src, los, r.losPct)
		}
		n := r.ptnml.NElo()
		if math.Abs(n.Value-r.nelo) > 0.005 || math.Abs(n.HalfWidth()-r.npm) > 0.05 {
			t.Errorf("%s: nElo %.4f ± %.4f, published %.2f ± %.1f", r.src, n.Value, n.HalfWidth(), r.nelo, r.npm)
		}
	}
}

// fishtest's stat_util.get_elo evaluated with its own code (server/fishtest/
// stats, run with scipy's normal quantile replaced by Python's
// statistics.NormalDist): the first input is the sample in fishtest's own
// unit test (stat_util.py, "SPRT tests": W 65388, L 65804, D 56553,
// pentanomial 10789, 19328, 33806, 19402, 10543); the others are
// degenerate samples where the 1e-3 regularization and the score clamp
// decide the figures.
func TestEloFishtestCode(t *testing.T) {
	cases := []struct {
		counts   []int
		elo, pm  float64
		wantNote string
	}{
		{[]int{65804, 56553, 65388}, -0.7698390908603271, 1.313742840854298, ""},
		{[]int{10789, 19328, 33806, 19402, 10543}, -0.7735773359165423, 1.2775798957280218, ""},
		{[]int{10, 20, 30}, 120.41199826559247, 75.25988693832561, ""},
		{[]int{0, 0, 10}, 1199.8261952903777, 170.5057564466158, "all games won"},
		{[]int{0, 30, 0}, -7.714619732426294e-14, 1.0150522917145954, "all games drawn"},
		{[]int{0, 0, 0, 0, 7}, 1199.8261952903777, 220.18524304499022, "all games won"},
		{[]int{3, 0, 0}, -1199.826195290393, 276.47850474588165, "all games lost"},
	}
	for _, c := range cases {
		var e Estimate
		if len(c.counts) == 3 {
			e = WDL{L: c.counts[0], D: c.counts[1], W: c.counts[2]}.Elo()
		} else {
			e = Pentanomial(c.counts).Elo()
		}
		if math.Abs(e.Value-c.elo) > 1e-9*math.Max(1, math.Abs(c.elo)) || math.Abs(e.HalfWidth()-c.pm) > 1e-9*c.pm {
			t.Errorf("%v: Elo %.15g ± %.15g, fishtest %.15g ± %.15g", c.counts, e.Value, e.HalfWidth(), c.elo, c.pm)
		}
		if !strings.Contains(e.Note, c.wantNote) || (c.wantNote == "") != (e.Note == "") {
			t.Errorf("%v: note %q, want one containing %q", c.counts, e.Note, c.wantNote)
		}
		for _, v := range []float64{e.Value, e.Lo, e.Hi} {
			if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > MaxElo+1e-9 {
				t.Errorf("%v: figure %v out of range", c.counts, v)
			}
		}
	}
	// fishtest's get_elo LOS for its unit-test pentanomial: 0.11765885803277504.
	p := Pentanomial{10789, 19328, 33806, 19402, 10543}
	if got := p.LOS(); !near(got, 0.11765885803277504, 1e-9) {
		t.Errorf("LOS = %.15g, fishtest 0.11765885803277504", got)
	}
}

func TestEstimatesNeverNaN(t *testing.T) {
	samples := []Pentanomial{{}, {5, 0, 0, 0, 0}, {0, 0, 5, 0, 0}, {0, 0, 0, 0, 5}, {1, 0, 0, 0, 1}, {0, 1, 0, 0, 0}}
	for _, p := range samples {
		for _, e := range []Estimate{p.Elo(), p.NElo()} {
			for _, v := range []float64{e.Value, e.Lo, e.Hi} {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Errorf("%v: %+v", p, e)
				}
			}
			if !(e.Lo <= e.Value && e.Value <= e.Hi) {
				t.Errorf("%v: %+v not ordered", p, e)
			}
		}
		if l := p.LOS(); math.IsNaN(l) || l < 0 || l > 1 {
			t.Errorf("%v: LOS %v", p, l)
		}
	}
	if e := (Pentanomial{}).Elo(); !strings.HasPrefix(e.Note, "no games") || e.Value != 0 {
		t.Errorf("empty: %+v", e)
	}
	if e := (Pentanomial{-1, 0, 0, 0, 0}).Elo(); !strings.Contains(e.Note, "negative") {
		t.Errorf("negative count: %+v", e)
	}
	for _, w := range []WDL{{}, {W: 3}, {D: 3}, {L: 3}, {W: 1, L: 1}} {
		for _, e := range []Estimate{w.Elo(), w.NElo()} {
			for _, v := range []float64{e.Value, e.Lo, e.Hi} {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Errorf("%+v: %+v", w, e)
				}
			}
		}
		if se := w.StdErr(); math.IsNaN(se) {
			t.Errorf("%+v: StdErr NaN", w)
		}
	}
}

func TestPentanomialCounting(t *testing.T) {
	p, err := PentanomialFromPoints([]float64{0, 0.5, 1, 1, 1.5, 2, 2})
	if err != nil || p != (Pentanomial{1, 1, 2, 1, 2}) {
		t.Errorf("FromPoints: %v, %v", p, err)
	}
	if _, err := PentanomialFromPoints([]float64{1, 0.25}); err == nil || !strings.Contains(err.Error(), "pair 1") {
		t.Errorf("bad points: error %v, want one naming pair 1", err)
	}
	g, err := PentanomialFromGames([]float64{1, 0, 0.5, 0.5, 1, 1, 0, 0.5})
	if err != nil || g != (Pentanomial{0, 1, 2, 0, 1}) {
		t.Errorf("FromGames: %v, %v", g, err)
	}
	if _, err := PentanomialFromGames([]float64{1, 0, 1}); err == nil {
		t.Error("odd number of games accepted")
	}
	if _, err := PentanomialFromGames([]float64{1, 0.7}); err == nil || !strings.Contains(err.Error(), "second game") {
		t.Errorf("bad game: error %v", err)
	}
	if g.Pairs() != 4 || g.Games() != 8 {
		t.Errorf("Pairs %d Games %d", g.Pairs(), g.Games())
	}
	// Pair mean scores ¼, ½, ½, 1: μ = 9/16, σ² = Σ(x − μ)²/4.
	m, v := g.MeanVar()
	wantV := (math.Pow(0.25-9.0/16, 2) + 2*math.Pow(0.5-9.0/16, 2) + math.Pow(1-9.0/16, 2)) / 4
	if !near(m, 9.0/16, 1e-15) || !near(v, wantV, 1e-15) || g.Score() != m {
		t.Errorf("MeanVar = %v, %v; want %v, %v", m, v, 9.0/16, wantV)
	}
	var w WDL
	for _, x := range []float64{1, 1, 0.5, 0} {
		if err := w.Add(x); err != nil {
			t.Fatal(err)
		}
	}
	if w != (WDL{W: 2, D: 1, L: 1}) || w.Score() != 0.625 || w.Counts() != [3]int{1, 1, 2} {
		t.Errorf("WDL %+v score %v", w, w.Score())
	}
	if err := w.Add(0.3); err == nil {
		t.Error("game worth 0.3 accepted")
	}
}

func TestParseEloModel(t *testing.T) {
	for in, want := range map[string]EloModel{"logistic": Logistic, " Normalized ": Normalized, "normalised": Normalized} {
		if got, err := ParseEloModel(in); err != nil || got != want {
			t.Errorf("ParseEloModel(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseEloModel("bayeselo"); err == nil {
		t.Error("bayeselo accepted")
	}
	if Logistic.String() != "logistic" || Normalized.String() != "normalized" {
		t.Error("String")
	}
}

func FuzzParseEloModel(f *testing.F) {
	f.Add("logistic")
	f.Add("normalized")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseEloModel(s)
		if err == nil {
			if back, err2 := ParseEloModel(m.String()); err2 != nil || back != m {
				t.Fatalf("%q → %v does not round-trip", s, m)
			}
		}
	})
}
