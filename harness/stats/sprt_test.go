package stats

import (
	"math"
	"testing"
)

// Published SPRT results of fishtest (tests.stockfishchess.org), as copied
// into Stockfish commit messages: "LLR: x (−2.94,2.94) <elo0,elo1>" with the
// pentanomial counts "Ptnml(0-2)". Bounds in <…> are normalized Elo (the
// default since 2021); the ones in {…} from 2020–early 2021 are logistic.
// The LLR is printed to 0.01.
var fishtestSPRTRuns = []struct {
	src        string
	model      EloModel
	elo0, elo1 float64
	ptnml      Pentanomial
	llr        float64
	verdict    Verdict
}{
	{"Stockfish b0ee14405, tests/view/6a662c7dc054e285ae028d31", Normalized, -1.75, 0.25, Pentanomial{210, 9236, 25655, 9432, 187}, 2.93, Continue},
	{"tests/view/6a6dac3ac054e285ae029b30", Normalized, 0, 2, Pentanomial{20, 1334, 3810, 1569, 35}, 2.95, AcceptH1},
	{"tests/view/6a4f36355529b8472df7ff7e (failed)", Normalized, 0, 2, Pentanomial{521, 17154, 37050, 17170, 489}, -2.94, Continue},
	{"tests/view/6a1143ad818cacc1db0ac14c (failed)", Normalized, -1.75, 0.25, Pentanomial{390, 91902, 261789, 90790, 389}, -2.97, AcceptH0},
	{"Stockfish 56d5504f6, tests/view/5e0e30d062fb773bb7047e95", Logistic, 0, 2, Pentanomial{353, 5397, 14751, 5545, 423}, 2.94, Continue},
	{"tests/view/6037b88e7f517a561bc4a392", Logistic, -0.25, 1.25, Pentanomial{183, 3907, 19075, 4136, 167}, 2.96, AcceptH1},
	{"Stockfish 508906165, tests/view/605128702433018de7a38ca1 (failed)", Logistic, 0.25, 1.25, Pentanomial{13, 1176, 17184, 1178, 21}, -3.00, AcceptH0},
}

// The verdicts above follow from the unrounded LLR against ±ln 19 =
// ±2.944439; fishtest itself stops a little earlier or later because of
// its overshoot correction (see SPRT), so "Continue" for a printed 2.93 or
// 2.94 is what Wald's plain bounds give.
func TestSPRTFishtestPublished(t *testing.T) {
	for _, r := range fishtestSPRTRuns {
		s, err := NewSPRT(r.elo0, r.elo1, 0.05, 0.05, r.model)
		if err != nil {
			t.Fatal(err)
		}
		st, err := s.Status(r.ptnml)
		if err != nil {
			t.Fatalf("%s: %v", r.src, err)
		}
		if math.Abs(st.LLR-r.llr) > 0.005 {
			t.Errorf("%s: LLR %.4f, published %.2f", r.src, st.LLR, r.llr)
		}
		if st.Verdict != r.verdict {
			t.Errorf("%s: verdict %v (LLR %.4f), want %v", r.src, st.Verdict, st.LLR, r.verdict)
		}
	}
}

// fishtest's own LLRcalc.LLR_logistic and LLR_normalized, evaluated with
// the fishtest code (server/fishtest/stats/LLRcalc.py; scipy's brentq
// replaced by plain bisection to machine precision, which does not change
// the root): reference values to 1e-6 relative. The first two inputs are
// the sample of fishtest's stat_util unit test (logistic [−3, 1]); the
// rest include samples with every result in one bin.
func TestLLRFishtestCode(t *testing.T) {
	cases := []struct {
		model      EloModel
		elo0, elo1 float64
		counts     []int
		llr        float64
	}{
		{Logistic, -3, 1, []int{10789, 19328, 33806, 19402, 10543}, 2.131067811785043},
		{Logistic, -3, 1, []int{65804, 56553, 65388}, 2.049042617981811},
		{Logistic, 0, 2, []int{353, 5397, 14751, 5545, 423}, 2.9436197176691614},
		{Logistic, -0.25, 1.25, []int{183, 3907, 19075, 4136, 167}, 2.9614955147079365},
		{Logistic, 0.25, 1.25, []int{13, 1176, 17184, 1178, 21}, -3.0031875273458644},
		{Logistic, 0, 5, []int{0, 0, 10}, 0.14287586706131325},
		{Logistic, 0, 5, []int{0, 30, 0}, -0.42847988677041393},
		{Logistic, 0, 5, []int{0, 0, 0, 0, 7}, 0.10004160399868497},
		{Logistic, -3, 1, []int{20, 10, 30}, 0.14052430111561545},
		{Normalized, 0, 2, []int{20, 1334, 3810, 1569, 35}, 2.953383286346621},
		{Normalized, -1.75, 0.25, []int{210, 9236, 25655, 9432, 187}, 2.9257819912769527},
		{Normalized, 0, 2, []int{521, 17154, 37050, 17170, 489}, -2.9352652597228595},
		{Normalized, -1.75, 0.25, []int{390, 91902, 261789, 90790, 389}, -2.973034393938578},
		{Normalized, 0, 2, []int{0, 0, 0, 0, 7}, 0.056757454525418694},
		{Normalized, 0, 2, []int{0, 0, 9, 0, 0}, -0.00031341978055449826},
		{Normalized, -3, 1, []int{20, 10, 30}, 0.12810150910209656},
		{Normalized, 0, 2, []int{1, 5, 10, 6, 2}, 0.02425568571831649},
	}
	for _, c := range cases {
		got, err := LLR(c.model, c.elo0, c.elo1, c.counts)
		if err != nil {
			t.Errorf("%v %v: %v", c.model, c.counts, err)
			continue
		}
		if math.Abs(got-c.llr) > 1e-6*math.Abs(c.llr) {
			t.Errorf("%v [%v, %v] %v: LLR %.15g, fishtest %.15g", c.model, c.elo0, c.elo1, c.counts, got, c.llr)
		}
	}
}

// An independent check of the logistic LLR: the constrained maximum
// likelihood found by brute force (coordinate ascent over mass moves
// between three bins that keep the total and the mean, each a concave 1-D
// problem solved by ternary search), with no secular equation.
func TestLLRLogisticBruteForce(t *testing.T) {
	samples := [][]int{
		{10789, 19328, 33806, 19402, 10543},
		{65804, 56553, 65388},
		{3, 10, 40, 12, 1},
		{2, 5, 9},
		{0, 4, 0, 6, 1},
	}
	for _, c := range samples {
		for _, b := range [][2]float64{{-3, 1}, {0, 5}, {-20, 20}} {
			got, err := LLR(Logistic, b[0], b[1], c)
			if err != nil {
				t.Fatal(err)
			}
			want := bruteLogisticLLR(c, b[0], b[1])
			if math.Abs(got-want) > 1e-6*math.Max(1e-3, math.Abs(want)) {
				t.Errorf("%v %v: LLR %.12g, brute force %.12g", c, b, got, want)
			}
		}
	}
}

func bruteLogisticLLR(counts []int, elo0, elo1 float64) float64 {
	k := len(counts)
	phat := make([]float64, k)
	a := make([]float64, k)
	var n float64
	for i, c := range counts {
		phat[i] = float64(c)
		if c == 0 {
			phat[i] = 1e-3
		}
		n += phat[i]
		a[i] = float64(i) / float64(k-1)
	}
	for i := range phat {
		phat[i] /= n
	}
	loglik := func(p []float64) float64 {
		var s float64
		for i := range p {
			s += phat[i] * math.Log(p[i])
		}
		return s
	}
	mle := func(s float64) []float64 {
		// Feasible start: exponential tilt of phat with mean s.
		tilt := func(th float64) []float64 {
			p := make([]float64, k)
			var z float64
			for i := range p {
				p[i] = phat[i] * math.Exp(th*a[i])
				z += p[i]
			}
			for i := range p {
				p[i] /= z
			}
			return p
		}
		lo, hi := -200.0, 200.0
		for range 200 {
			mid := (lo + hi) / 2
			var m float64
			for i, q := range tilt(mid) {
				m += q * a[i]
			}
			if m < s {
				lo = mid
			} else {
				hi = mid
			}
		}
		p := tilt((lo + hi) / 2)
		v := make([]float64, k)
		for sweep := 0; sweep < 400; sweep++ {
			before := loglik(p)
			for i := 0; i < k; i++ {
				for j := i + 1; j < k; j++ {
					for l := j + 1; l < k; l++ {
						clear(v)
						v[i], v[j], v[l] = a[l]-a[j], a[i]-a[l], a[j]-a[i]
						// Step range keeping every p > 0.
						tmin, tmax := math.Inf(-1), math.Inf(1)
						for q := range v {
							switch {
							case v[q] > 0:
								tmin = math.Max(tmin, -p[q]/v[q])
							case v[q] < 0:
								tmax = math.Min(tmax, -p[q]/v[q])
							}
						}
						f := func(step float64) float64 {
							var s float64
							for q := range p {
								s += phat[q] * math.Log(p[q]+step*v[q])
							}
							return s
						}
						x0, x1 := tmin, tmax
						for range 200 {
							m1, m2 := x0+(x1-x0)/3, x1-(x1-x0)/3
							if f(m1) < f(m2) {
								x0 = m1
							} else {
								x1 = m2
							}
						}
						step := (x0 + x1) / 2
						for q := range p {
							p[q] += step * v[q]
						}
					}
				}
			}
			if loglik(p)-before < 1e-16 {
				break
			}
		}
		return p
	}
	return n * (loglik(mle(ExpectedScore(elo1))) - loglik(mle(ExpectedScore(elo0))))
}

func TestSPRTBoundsAndValidation(t *testing.T) {
	s, err := NewSPRT(0, 2, 0.05, 0.05, Normalized)
	if err != nil {
		t.Fatal(err)
	}
	lo, up := s.Bounds()
	if !near(up, math.Log(19), 1e-15) || !near(lo, -math.Log(19), 1e-15) || math.Abs(up-2.944) > 0.0005 {
		t.Errorf("bounds %v, %v; want ∓ln 19 ≈ ∓2.944", lo, up)
	}
	s2, err := NewSPRT(0, 2, 0.1, 0.2, Logistic)
	if err != nil {
		t.Fatal(err)
	}
	if lo, up := s2.Bounds(); !near(lo, math.Log(0.2/0.9), 1e-15) || !near(up, math.Log(0.8/0.1), 1e-15) {
		t.Errorf("bounds α 0.1 β 0.2: %v, %v", lo, up)
	}
	bad := []struct{ e0, e1, a, b float64 }{
		{2, 0, 0.05, 0.05}, {0, 0, 0.05, 0.05}, {math.NaN(), 1, 0.05, 0.05},
		{0, 5000, 0.05, 0.05}, {0, 2, 0, 0.05}, {0, 2, 0.05, 1}, {0, 2, 0.6, 0.5},
	}
	for _, c := range bad {
		if _, err := NewSPRT(c.e0, c.e1, c.a, c.b, Logistic); err == nil {
			t.Errorf("NewSPRT(%v) accepted", c)
		}
	}
	if _, err := NewSPRT(0, 2, 0.05, 0.05, EloModel(9)); err == nil {
		t.Error("unknown model accepted")
	}
}

// Samples with every result in one bin, and empty samples, give finite
// LLRs (the 1e-3 regularization of fishtest) and sensible verdicts.
func TestSPRTDegenerate(t *testing.T) {
	for _, model := range []EloModel{Logistic, Normalized} {
		s, err := NewSPRT(0, 5, 0.05, 0.05, model)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []Pentanomial{{}, {0, 0, 0, 0, 500}, {500, 0, 0, 0, 0}, {0, 0, 500, 0, 0}, {0, 1, 0, 0, 0}} {
			st, err := s.Status(p)
			if err != nil {
				t.Errorf("%v %v: %v", model, p, err)
				continue
			}
			if math.IsNaN(st.LLR) || math.IsInf(st.LLR, 0) {
				t.Errorf("%v %v: LLR %v", model, p, st.LLR)
			}
			switch {
			case p == Pentanomial{} && (st.LLR != 0 || st.Verdict != Continue):
				t.Errorf("%v empty: %+v", model, st)
			case p[4] == 500 && st.Verdict != AcceptH1:
				t.Errorf("%v all won: %+v", model, st)
			case p[0] == 500 && st.Verdict != AcceptH0:
				t.Errorf("%v all lost: %+v", model, st)
			}
		}
		for _, w := range []WDL{{}, {W: 300}, {D: 300}, {L: 300}} {
			st, err := s.StatusWDL(w)
			if err != nil || math.IsNaN(st.LLR) || math.IsInf(st.LLR, 0) {
				t.Errorf("%v %+v: %+v, %v", model, w, st, err)
			}
		}
	}
	if _, err := LLR(Logistic, 0, 5, []int{1, 2}); err == nil {
		t.Error("two counts accepted")
	}
	if _, err := LLR(Logistic, 0, 5, []int{1, -2, 3}); err == nil {
		t.Error("negative count accepted")
	}
}

func BenchmarkSPRTStatus(b *testing.B) {
	for _, model := range []EloModel{Logistic, Normalized} {
		s, err := NewSPRT(0, 2, 0.05, 0.05, model)
		if err != nil {
			b.Fatal(err)
		}
		p := Pentanomial{20, 1334, 3810, 1569, 35}
		b.Run(model.String(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Status(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
