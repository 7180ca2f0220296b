package league

import (
	"errors"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// EloScale turns a log-strength θ into Elo points: r = θ·400/ln 10, so that
// a difference of 400 is odds of 10 to 1.
const EloScale = 400 / math.Ln10

// z95 is the two-sided 95% normal quantile.
var z95 = distuv.UnitNormal.Quantile(0.975)

// Fit is a maximum-likelihood fit of the versions' strengths.
type Fit struct {
	// Rating is each version's Elo relative to the mean of the fitted
	// versions (NaN for a version without games).
	Rating []float64
	// cov is the covariance of θ (log-strengths) under Σθ = 0, over the
	// fitted versions (see idx).
	cov *mat.SymDense
	idx []int // version → row of cov (-1: not fitted)
	// Prior is the number of virtual draws added to each pair of versions
	// that met: 0 when the maximum-likelihood estimate exists as it is.
	Prior float64
	// Iterations of Newton's method the fit took.
	Iterations int
}

// SD is the standard error of version i's rating (Elo), relative to the
// mean; NaN when i has no games.
func (f *Fit) SD(i int) float64 {
	if i >= len(f.idx) || f.idx[i] < 0 {
		return math.NaN()
	}
	k := f.idx[i]
	return EloScale * math.Sqrt(max(f.cov.At(k, k), 0))
}

// Interval is version i's 95% interval (Elo).
func (f *Fit) Interval(i int) (lo, hi float64) {
	h := z95 * f.SD(i)
	return f.Rating[i] - h, f.Rating[i] + h
}

// DiffSD is the standard error of rating(i) − rating(j), in Elo.
func (f *Fit) DiffSD(i, j int) float64 {
	if i >= len(f.idx) || j >= len(f.idx) || f.idx[i] < 0 || f.idx[j] < 0 {
		return math.NaN()
	}
	a, b := f.idx[i], f.idx[j]
	v := f.cov.At(a, a) + f.cov.At(b, b) - 2*f.cov.At(a, b)
	return EloScale * math.Sqrt(max(v, 0))
}

// LOS is the likelihood that version i is stronger than version j:
// Φ((r_i − r_j) / sd(r_i − r_j)); NaN when either has no games.
func (f *Fit) LOS(i, j int) float64 {
	sd := f.DiffSD(i, j)
	d := f.Rating[i] - f.Rating[j]
	switch {
	case math.IsNaN(sd) || math.IsNaN(d):
		return math.NaN()
	case sd == 0:
		return 0.5
	}
	return distuv.UnitNormal.CDF(d / sd)
}

// model is a log-likelihood over the log-strengths θ of n items.
type model interface {
	// eval returns the log-likelihood at theta and writes its gradient
	// into grad and its negative Hessian into h (both zeroed by the caller).
	eval(theta, grad []float64, h *mat.SymDense) float64
	// edges calls fn(i, j) for each "i did at least as well as j once"
	// relation: the maximum-likelihood estimate exists (is finite) when
	// these edges make the graph of the items strongly connected.
	edges(fn func(i, j int))
}

// ErrNoConvergence is returned when Newton's method does not converge.
var ErrNoConvergence = errors.New("league: rating fit did not converge")

// maximise finds the θ of greatest likelihood with Σθ = 0 by Newton's
// method from start (nil: zeros), halving a step that lowers the
// likelihood. The log-likelihoods here are concave, so it converges from
// anywhere when the maximum exists. ridge > 0 keeps the linear systems
// regular when the comparison graph is not connected.
func maximise(m model, n int, start []float64) (theta []float64, cov *mat.SymDense, iters int, err error) {
	theta = make([]float64, n)
	if len(start) == n {
		copy(theta, start)
		centre(theta)
	}
	if n == 0 {
		return theta, mat.NewSymDense(1, nil), 0, nil
	}
	grad := make([]float64, n)
	next := make([]float64, n)
	h := mat.NewSymDense(n, nil)
	var chol mat.Cholesky
	step := mat.NewVecDense(n, nil)
	ll := evalZero(m, theta, grad, h)
	const ridge = 1e-9
	for iters = 1; iters <= 200; iters++ {
		regularise(h, n, ridge)
		if !chol.Factorize(h) {
			return nil, nil, iters, ErrNoConvergence
		}
		if err := chol.SolveVecTo(step, mat.NewVecDense(n, grad)); err != nil {
			return nil, nil, iters, err
		}
		t := 1.0
		var llNext float64
		for range 60 {
			for i := range next {
				next[i] = theta[i] + t*step.AtVec(i)
			}
			centre(next)
			llNext = evalZero(m, next, grad, h)
			if llNext >= ll-1e-12*math.Abs(ll) {
				break
			}
			t /= 2
		}
		moved := 0.0
		for i := range theta {
			moved = max(moved, math.Abs(next[i]-theta[i]))
		}
		theta, next = next, theta
		ll = llNext
		if moved < 1e-10 {
			break
		}
	}
	if iters > 200 {
		return nil, nil, iters, ErrNoConvergence
	}
	// Covariance under Σθ = 0: the pseudo-inverse of the negative Hessian,
	// (H + J/n)⁻¹ − J/n for the all-ones J, when H's null space is the
	// constant vector (a connected comparison graph).
	regularise(h, n, ridge)
	if !chol.Factorize(h) {
		return nil, nil, iters, ErrNoConvergence
	}
	cov = mat.NewSymDense(n, nil)
	if err := chol.InverseTo(cov); err != nil {
		return nil, nil, iters, err
	}
	for i := range n {
		for j := i; j < n; j++ {
			cov.SetSym(i, j, cov.At(i, j)-1/float64(n))
		}
	}
	return theta, cov, iters, nil
}

// evalZero zeroes grad and h and evaluates m at theta.
func evalZero(m model, theta, grad []float64, h *mat.SymDense) float64 {
	clear(grad)
	h.Zero()
	return m.eval(theta, grad, h)
}

// regularise adds J/n (the constraint Σθ = 0) and a small ridge to h.
func regularise(h *mat.SymDense, n int, ridge float64) {
	for i := range n {
		for j := i; j < n; j++ {
			v := h.At(i, j) + 1/float64(n)
			if i == j {
				v += ridge
			}
			h.SetSym(i, j, v)
		}
	}
}

func centre(x []float64) {
	if len(x) == 0 {
		return
	}
	m := 0.0
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	for i := range x {
		x[i] -= m
	}
}

// stronglyConnected reports whether the directed graph of n nodes with the
// edges of m is strongly connected: every node reaches node 0 and node 0
// reaches every node.
func stronglyConnected(m model, n int) bool {
	if n <= 1 {
		return true
	}
	fwd := make([][]int, n)
	back := make([][]int, n)
	m.edges(func(i, j int) {
		fwd[i] = append(fwd[i], j)
		back[j] = append(back[j], i)
	})
	reach := func(adj [][]int) bool {
		seen := make([]bool, n)
		stack := []int{0}
		seen[0] = true
		count := 1
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, w := range adj[v] {
				if !seen[w] {
					seen[w] = true
					count++
					stack = append(stack, w)
				}
			}
		}
		return count == n
	}
	return reach(fwd) && reach(back)
}

// fitModel fits m over the versions that have games (played[i]) and
// spreads the result back over all n versions. prior builds the model with
// virtual draws, used when the plain maximum does not exist.
func fitModel(n int, played []bool, build func(idx []int, m int, prior float64) model, start []float64) (*Fit, error) {
	idx := make([]int, n)
	m := 0
	for i := range n {
		idx[i] = -1
		if played[i] {
			idx[i] = m
			m++
		}
	}
	f := &Fit{Rating: make([]float64, n), idx: idx}
	mod := build(idx, m, 0)
	if !stronglyConnected(mod, m) {
		f.Prior = 1
		mod = build(idx, m, f.Prior)
	}
	var st []float64
	if len(start) == n {
		st = make([]float64, m)
		for i, k := range idx {
			if k >= 0 && !math.IsNaN(start[i]) {
				st[k] = start[i] / EloScale
			}
		}
	}
	theta, cov, iters, err := maximise(mod, m, st)
	if err != nil {
		return nil, err
	}
	f.cov, f.Iterations = cov, iters
	for i, k := range idx {
		if k < 0 {
			f.Rating[i] = math.NaN()
		} else {
			f.Rating[i] = EloScale * theta[k]
		}
	}
	return f, nil
}

// Pairs are two-player results between n versions: the points each scored
// against each other (a win 1, a draw ½) and the games they played. The
// zero value holds no version; Grow adds them.
type Pairs struct {
	n      int
	points []float64 // points[i*n+j]: points i scored against j
	games  []float64 // games[i*n+j] = games[j*n+i]
}

// Grow makes room for n versions (it never shrinks).
func (p *Pairs) Grow(n int) {
	if n <= p.n {
		return
	}
	pts := make([]float64, n*n)
	gm := make([]float64, n*n)
	for i := range p.n {
		copy(pts[i*n:i*n+p.n], p.points[i*p.n:(i+1)*p.n])
		copy(gm[i*n:i*n+p.n], p.games[i*p.n:(i+1)*p.n])
	}
	p.n, p.points, p.games = n, pts, gm
}

// N is the number of versions.
func (p *Pairs) N() int { return p.n }

// Add counts one game between i and j in which i scored s (1, ½ or 0).
func (p *Pairs) Add(i, j int, s float64) {
	p.points[i*p.n+j] += s
	p.points[j*p.n+i] += 1 - s
	p.games[i*p.n+j]++
	p.games[j*p.n+i]++
}

// Games is the number of games i and j played together.
func (p *Pairs) Games(i, j int) float64 { return p.games[i*p.n+j] }

// Points is the points i scored against j.
func (p *Pairs) Points(i, j int) float64 { return p.points[i*p.n+j] }

// Fit fits the Bradley–Terry model by maximum likelihood, as Ordo and
// BayesElo do: P(i beats j) = 1 / (1 + 10^((r_j − r_i)/400)), a draw
// counting as half a win and half a loss, so that the log-likelihood is
// Σ_{i<j} pts_ij·ln P_ij + pts_ji·ln(1 − P_ij). Where the maximum does not
// exist (a version that won or lost every game: the graph of "scored at
// least a draw against" is not strongly connected) every pair that met
// gets one virtual draw (Fit.Prior). start, when it has one entry per
// version, is where the iteration starts (the last fit's ratings).
func (p *Pairs) Fit(start []float64) (*Fit, error) {
	played := make([]bool, p.n)
	for i := range p.n {
		for j := range p.n {
			if p.games[i*p.n+j] > 0 {
				played[i] = true
				break
			}
		}
	}
	return fitModel(p.n, played, func(idx []int, m int, prior float64) model {
		bt := &btModel{n: m}
		for i := range p.n {
			for j := i + 1; j < p.n; j++ {
				g := p.games[i*p.n+j]
				if g == 0 {
					continue
				}
				bt.pairs = append(bt.pairs, btPair{i: idx[i], j: idx[j], si: p.points[i*p.n+j] + prior/2, sj: p.points[j*p.n+i] + prior/2})
			}
		}
		return bt
	}, start)
}

type btPair struct {
	i, j   int
	si, sj float64 // points of i and of j
}

type btModel struct {
	n     int
	pairs []btPair
}

func (m *btModel) eval(theta, grad []float64, h *mat.SymDense) float64 {
	ll := 0.0
	for _, pr := range m.pairs {
		d := theta[pr.i] - theta[pr.j]
		p := 1 / (1 + math.Exp(-d))
		// ln p = −ln(1 + e^−d), ln(1 − p) = −ln(1 + e^d), stably.
		ll -= pr.si*softplus(-d) + pr.sj*softplus(d)
		n := pr.si + pr.sj
		g := pr.si - n*p
		grad[pr.i] += g
		grad[pr.j] -= g
		w := n * p * (1 - p)
		h.SetSym(pr.i, pr.i, h.At(pr.i, pr.i)+w)
		h.SetSym(pr.j, pr.j, h.At(pr.j, pr.j)+w)
		h.SetSym(pr.i, pr.j, h.At(pr.i, pr.j)-w)
	}
	return ll
}

func (m *btModel) edges(fn func(i, j int)) {
	for _, pr := range m.pairs {
		if pr.si > 0 {
			fn(pr.i, pr.j)
		}
		if pr.sj > 0 {
			fn(pr.j, pr.i)
		}
	}
}

// softplus is ln(1 + e^x) without overflow.
func softplus(x float64) float64 {
	if x > 30 {
		return x
	}
	return math.Log1p(math.Exp(x))
}

// MaxGroup is the most versions one placement compares (seats of a game,
// or the group of a single-player league's case).
const MaxGroup = 8

// stageKey is one stage of a placement: the versions still to be placed
// (rest, sorted; a version may hold several seats) and those placed next
// among them (chosen, sorted; more than one when tied).
type stageKey struct {
	rest, chosen [MaxGroup]int32
	nr, nc       uint8
}

// Stages are placements of groups of versions (N-player games): each
// placement is a sequence of stages, each choosing the next place among
// the versions not yet placed (Plackett–Luce). Identical stages are
// counted together, so that a fit costs by the number of distinct stages,
// not games.
type Stages struct {
	n     int
	index map[stageKey]int
	keys  []stageKey
	count []float64
	met   map[[2]int32]bool // pairs of distinct versions that met
}

// Grow makes room for n versions.
func (s *Stages) Grow(n int) { s.n = max(s.n, n) }

// N is the number of versions.
func (s *Stages) N() int { return s.n }

// AddPlacement counts one placement: versions[k] finished at rank[k]
// (1 = first; equal ranks tie). len(versions) ≤ MaxGroup.
func (s *Stages) AddPlacement(versions []int, rank []int) error {
	k := len(versions)
	if k > MaxGroup || len(rank) != k {
		return errors.New("league: placement of more than MaxGroup versions, or ranks that do not match")
	}
	if s.index == nil {
		s.index = map[stageKey]int{}
		s.met = map[[2]int32]bool{}
	}
	var order [MaxGroup]int
	for i := range k {
		order[i] = i
	}
	slices.SortFunc(order[:k], func(a, b int) int { return rank[a] - rank[b] })
	for a := range k {
		for b := range k {
			if versions[a] < versions[b] {
				s.met[[2]int32{int32(versions[a]), int32(versions[b])}] = true
			}
		}
	}
	for start := 0; start < k; {
		end := start + 1
		for end < k && rank[order[end]] == rank[order[start]] {
			end++
		}
		if k-start >= 2 {
			var key stageKey
			for x := start; x < k; x++ {
				key.rest[key.nr] = int32(versions[order[x]])
				key.nr++
			}
			for x := start; x < end; x++ {
				key.chosen[key.nc] = int32(versions[order[x]])
				key.nc++
			}
			slices.Sort(key.rest[:key.nr])
			slices.Sort(key.chosen[:key.nc])
			i, ok := s.index[key]
			if !ok {
				i = len(s.keys)
				s.index[key] = i
				s.keys = append(s.keys, key)
				s.count = append(s.count, 0)
			}
			s.count[i]++
		}
		start = end
	}
	return nil
}

// Fit fits the Plackett–Luce model by maximum likelihood: a placement's
// probability is the product over its stages of Π_{c∈chosen} e^θc /
// (Σ_{r∈rest} e^θr), tied versions each chosen from the same rest (the
// Breslow treatment of ties), a version in several seats counted once per
// seat. Ratings are θ in Elo units, so that between two versions they
// mean what Elo means. Where the maximum does not exist, every pair of
// versions that met gets one virtual draw (half a win each way).
func (s *Stages) Fit(start []float64) (*Fit, error) {
	played := make([]bool, s.n)
	for _, k := range s.keys {
		for _, v := range k.rest[:k.nr] {
			played[v] = true
		}
	}
	return fitModel(s.n, played, func(idx []int, m int, prior float64) model {
		pl := &plModel{n: m}
		for x, k := range s.keys {
			st := plStage{w: s.count[x]}
			for _, v := range k.rest[:k.nr] {
				st.rest = append(st.rest, idx[v])
			}
			for _, v := range k.chosen[:k.nc] {
				st.chosen = append(st.chosen, idx[v])
			}
			pl.stages = append(pl.stages, st)
		}
		if prior > 0 {
			for p := range s.met {
				a, b := idx[p[0]], idx[p[1]]
				pl.stages = append(pl.stages,
					plStage{w: prior / 2, rest: []int{a, b}, chosen: []int{a}},
					plStage{w: prior / 2, rest: []int{a, b}, chosen: []int{b}})
			}
		}
		return pl
	}, start)
}

type plStage struct {
	w            float64
	rest, chosen []int
}

type plModel struct {
	n      int
	stages []plStage
}

func (m *plModel) eval(theta, grad []float64, h *mat.SymDense) float64 {
	ll := 0.0
	var p [MaxGroup]float64
	for _, st := range m.stages {
		// log Σ e^θ, stably.
		top := math.Inf(-1)
		for _, r := range st.rest {
			top = max(top, theta[r])
		}
		sum := 0.0
		for x, r := range st.rest {
			p[x] = math.Exp(theta[r] - top)
			sum += p[x]
		}
		lse := top + math.Log(sum)
		c := float64(len(st.chosen))
		for _, v := range st.chosen {
			ll += st.w * theta[v]
			grad[v] += st.w
		}
		ll -= st.w * c * lse
		wc := st.w * c
		for x, r := range st.rest {
			p[x] /= sum
			grad[r] -= wc * p[x]
		}
		for x, r := range st.rest {
			h.SetSym(r, r, h.At(r, r)+wc*p[x])
			for y, q := range st.rest {
				if r <= q {
					h.SetSym(r, q, h.At(r, q)-wc*p[x]*p[y])
				}
			}
		}
	}
	return ll
}

func (m *plModel) edges(fn func(i, j int)) {
	for _, st := range m.stages {
		for _, c := range st.chosen {
			for _, r := range st.rest {
				if r != c {
					fn(c, r)
				}
			}
		}
	}
}
