package league

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/optimize"
)

// TestBradleyTerryTwoVersions: with two versions the maximum-likelihood
// difference is the logit of the score, by hand: A scores 3 of 4 (two
// wins, two draws) → r_A − r_B = 400·log10(3) = 190.85, each ±95.42 around
// the mean; the variance of θ_A − θ_B is 1/(n·s·(1−s)) = 1/(4·¾·¼) = 4/3.
func TestBradleyTerryTwoVersions(t *testing.T) {
	var p Pairs
	p.Grow(2)
	p.Add(0, 1, 1)
	p.Add(0, 1, 1)
	p.Add(1, 0, 0.5)
	p.Add(0, 1, 0.5)
	f, err := p.Fit(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := 400 * math.Log10(3)
	if d := f.Rating[0] - f.Rating[1]; math.Abs(d-want) > 1e-6 {
		t.Errorf("r_A − r_B = %v, want 400·log10(3) = %v", d, want)
	}
	if math.Abs(f.Rating[0]+f.Rating[1]) > 1e-9 {
		t.Errorf("ratings %v do not average 0", f.Rating)
	}
	if f.Prior != 0 {
		t.Errorf("prior %v, want none", f.Prior)
	}
	wantSD := EloScale * math.Sqrt(4.0/3)
	if sd := f.DiffSD(0, 1); math.Abs(sd-wantSD) > 1e-6 {
		t.Errorf("sd(r_A − r_B) = %v, want %v", sd, wantSD)
	}
	// Relative to the mean each rating has half the difference's spread.
	if sd := f.SD(0); math.Abs(sd-wantSD/2) > 1e-6 {
		t.Errorf("sd(r_A) = %v, want %v", sd, wantSD/2)
	}
	wantLOS := 0.5 * math.Erfc(-want/wantSD/math.Sqrt2)
	if los := f.LOS(0, 1); math.Abs(los-wantLOS) > 1e-9 {
		t.Errorf("LOS = %v, want Φ(%v/%v) = %v", los, want, wantSD, wantLOS)
	}
}

// TestBradleyTerryCycle: a cycle of equal results (A beats B, B beats C,
// C beats A, each 2–1) gives three equal ratings, by symmetry.
func TestBradleyTerryCycle(t *testing.T) {
	var p Pairs
	p.Grow(3)
	for _, pr := range [][2]int{{0, 1}, {1, 2}, {2, 0}} {
		p.Add(pr[0], pr[1], 1)
		p.Add(pr[0], pr[1], 1)
		p.Add(pr[0], pr[1], 0)
	}
	f, err := p.Fit(nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range f.Rating {
		if math.Abs(r) > 1e-9 {
			t.Errorf("rating %d = %v, want 0", i, r)
		}
	}
}

// btLogLik is the Bradley–Terry log-likelihood written out directly
// (independent of btModel): Σ over ordered pairs of points·ln P.
func btLogLik(p *Pairs, r []float64) float64 {
	ll := 0.0
	for i := range p.N() {
		for j := range p.N() {
			if i == j || p.Games(i, j) == 0 {
				continue
			}
			pij := 1 / (1 + math.Pow(10, (r[j]-r[i])/400))
			ll += p.Points(i, j) * math.Log(pij)
		}
	}
	return ll
}

// bruteMax maximises ll over ratings of n versions with version 0 fixed
// at 0, by Nelder–Mead (no derivatives: a different algorithm from the
// Newton fit), and returns the ratings centred on their mean.
func bruteMax(t *testing.T, n int, ll func(r []float64) float64) []float64 {
	t.Helper()
	full := func(x []float64) []float64 { return append([]float64{0}, x...) }
	prob := optimize.Problem{Func: func(x []float64) float64 { return -ll(full(x)) }}
	res, err := optimize.Minimize(prob, make([]float64, n-1), &optimize.Settings{
		Converger: &optimize.FunctionConverge{Absolute: 1e-13, Iterations: 2000}, MajorIterations: 100000, FuncEvaluations: 1000000,
	}, &optimize.NelderMead{})
	if err != nil {
		t.Fatal(err)
	}
	r := full(res.X)
	centre(r)
	return r
}

// TestBradleyTerryAgainstBruteForce: five versions of random strengths
// and random (non-transitive) results; the Newton fit equals the maximum
// of the likelihood found by Nelder–Mead on the written-out formula.
func TestBradleyTerryAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 17))
	const n = 5
	var p Pairs
	p.Grow(n)
	for i := range n {
		for j := i + 1; j < n; j++ {
			for range 3 + rng.IntN(20) {
				p.Add(i, j, float64(rng.IntN(3))/2)
			}
		}
	}
	f, err := p.Fit(nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Prior != 0 {
		t.Fatalf("prior %v: the test wants the plain maximum", f.Prior)
	}
	ref := bruteMax(t, n, func(r []float64) float64 { return btLogLik(&p, r) })
	for i := range n {
		if math.Abs(f.Rating[i]-ref[i]) > 0.01 {
			t.Errorf("version %d: Newton %v, Nelder–Mead %v", i, f.Rating[i], ref[i])
		}
	}
	// The interval: the numerical second derivative of the likelihood
	// along e_0 − e_1 gives the variance of r_0 − r_1.
	const hh = 0.5
	at := func(d float64) float64 {
		r := append([]float64(nil), f.Rating...)
		r[0] += d / 2
		r[1] -= d / 2
		return btLogLik(&p, r)
	}
	curv := -(at(hh) - 2*at(0) + at(-hh)) / (hh * hh)
	// The profile curvature along one direction is not the marginal
	// variance in general; with both sides fixed it bounds it below.
	if sd := f.DiffSD(0, 1); sd < 1/math.Sqrt(curv)-1e-6 {
		t.Errorf("sd(r0 − r1) = %v below the conditional bound %v", sd, 1/math.Sqrt(curv))
	}
}

// TestBradleyTerryPerfectScore: a version that won every game has no
// finite maximum; the fit adds one virtual draw per pair and says so.
func TestBradleyTerryPerfectScore(t *testing.T) {
	var p Pairs
	p.Grow(3)
	p.Add(0, 1, 1)
	p.Add(0, 2, 1)
	p.Add(1, 2, 0.5)
	f, err := p.Fit(nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Prior != 1 {
		t.Fatalf("prior %v, want 1", f.Prior)
	}
	for i, r := range f.Rating {
		if math.IsNaN(r) || math.IsInf(r, 0) {
			t.Fatalf("rating %d = %v", i, r)
		}
	}
	if !(f.Rating[0] > f.Rating[1] && math.Abs(f.Rating[1]-f.Rating[2]) < 1e-6) {
		t.Errorf("ratings %v: want 0 first, 1 and 2 equal", f.Rating)
	}
	// Checked against the written-out likelihood with the virtual draws.
	var q Pairs
	q.Grow(3)
	q.Add(0, 1, 1)
	q.Add(0, 2, 1)
	q.Add(1, 2, 0.5)
	q.Add(0, 1, 0.5)
	q.Add(0, 2, 0.5)
	q.Add(1, 2, 0.5)
	ref := bruteMax(t, 3, func(r []float64) float64 { return btLogLik(&q, r) })
	for i := range 3 {
		if math.Abs(f.Rating[i]-ref[i]) > 0.01 {
			t.Errorf("version %d: %v, want %v", i, f.Rating[i], ref[i])
		}
	}
}

// TestUnplayedVersionHasNoRating: a version without games is left out of
// the fit (NaN), the others fitted as without it.
func TestUnplayedVersionHasNoRating(t *testing.T) {
	var p Pairs
	p.Grow(3)
	p.Add(0, 2, 1)
	p.Add(0, 2, 0)
	p.Add(0, 2, 1)
	f, err := p.Fit(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(f.Rating[1]) || !math.IsNaN(f.SD(1)) || !math.IsNaN(f.LOS(0, 1)) {
		t.Errorf("unplayed version: rating %v, sd %v, LOS %v; want NaN", f.Rating[1], f.SD(1), f.LOS(0, 1))
	}
	if d := f.Rating[0] - f.Rating[2]; math.Abs(d-400*math.Log10(2)) > 1e-6 {
		t.Errorf("r0 − r2 = %v, want 400·log10(2)", d)
	}
}

// plLogLik is the Plackett–Luce log-likelihood of placements written out
// directly: each version is chosen at its rank among the versions ranked
// no better than it (tied versions each from the same rest), a choice
// among one version counting nothing.
func plLogLik(games [][2][]int, r []float64) float64 {
	ll := 0.0
	for _, g := range games {
		vs, rank := g[0], g[1]
		for a := range vs {
			den, rest := 0.0, 0
			for b := range vs {
				if rank[b] >= rank[a] {
					den += math.Exp(r[vs[b]] / EloScale)
					rest++
				}
			}
			if rest >= 2 {
				ll += r[vs[a]]/EloScale - math.Log(den)
			}
		}
	}
	return ll
}

// TestPlackettLuceAgainstBruteForce: random four-player placements (with
// ties) of five versions; the Newton fit equals the Nelder–Mead maximum of
// the written-out likelihood.
func TestPlackettLuceAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 3))
	const n = 5
	strength := []float64{0, 0.5, 1, 1.5, 2}
	var s Stages
	s.Grow(n)
	var games [][2][]int
	for range 300 {
		perm := rng.Perm(n)[:4]
		score := make([]float64, 4)
		for k, v := range perm {
			score[k] = math.Round(strength[v] + rng.NormFloat64()*1.5)
		}
		rank := make([]int, 4)
		for k := range 4 {
			rank[k] = 1
			for m := range 4 {
				if score[m] > score[k] {
					rank[k]++
				}
			}
		}
		if err := s.AddPlacement(perm, rank); err != nil {
			t.Fatal(err)
		}
		games = append(games, [2][]int{perm, rank})
	}
	f, err := s.Fit(nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Prior != 0 {
		t.Fatalf("prior %v: want the plain maximum", f.Prior)
	}
	ref := bruteMax(t, n, func(r []float64) float64 { return plLogLik(games, r) })
	for i := range n {
		if math.Abs(f.Rating[i]-ref[i]) > 0.01 {
			t.Errorf("version %d: Newton %v, Nelder–Mead %v", i, f.Rating[i], ref[i])
		}
	}
	for i := 1; i < n; i++ {
		if f.Rating[i] <= f.Rating[i-1] {
			t.Errorf("ratings %v not in the order of the strengths", f.Rating)
			break
		}
	}
}

// TestPlackettLuceTwoPlayersIsBradleyTerry: placements of two versions
// without ties are Bradley–Terry games: both fits agree.
func TestPlackettLuceTwoPlayersIsBradleyTerry(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var p Pairs
	var s Stages
	p.Grow(4)
	s.Grow(4)
	for range 200 {
		i, j := rng.IntN(4), rng.IntN(4)
		if i == j {
			continue
		}
		win := rng.Float64() < 0.5+0.1*float64(i-j)
		rank := []int{2, 1}
		sc := 0.0
		if win {
			rank, sc = []int{1, 2}, 1
		}
		p.Add(i, j, sc)
		if err := s.AddPlacement([]int{i, j}, rank); err != nil {
			t.Fatal(err)
		}
	}
	fp, err := p.Fit(nil)
	if err != nil {
		t.Fatal(err)
	}
	fs, err := s.Fit(nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		if math.Abs(fp.Rating[i]-fs.Rating[i]) > 1e-6 || math.Abs(fp.SD(i)-fs.SD(i)) > 1e-6 {
			t.Errorf("version %d: BT %v ± %v, PL %v ± %v", i, fp.Rating[i], fp.SD(i), fs.Rating[i], fs.SD(i))
		}
	}
}
