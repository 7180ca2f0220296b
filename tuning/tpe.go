package tuning

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"sync"

	"github.com/c-bata/goptuna"
	"gonum.org/v1/gonum/stat/distuv"
)

// TPESampler is the tree-structured Parzen estimator (Bergstra et al., 2011)
// with the settings Goptuna and Optuna use by default: Startup random trials,
// then for each parameter the finished trials are split into the best
// ceil(10%) (at most 25) and the rest, a Parzen estimator (a truncated
// Gaussian mixture with a prior component) is fitted to each group, and of
// Candidates draws from the good group's estimator the one with the highest
// ratio l(x)/g(x) is chosen. Pruned trials count, ranked behind complete ones
// by how far they got. Every draw comes from a generator derived from Seed,
// the trial's slot and the parameter name, so a study with one worker
// replays exactly.
type TPESampler struct {
	Seed        uint64
	Startup     int     // trials sampled at random first (0: 10)
	Candidates  int     // candidates per parameter (0: 24)
	PriorWeight float64 // weight of the prior component (0: 1)

	mu      sync.Mutex
	cacheID int
	cache   []goptuna.FrozenTrial
}

var _ goptuna.Sampler = (*TPESampler)(nil)

func (s *TPESampler) startup() int {
	if s.Startup > 0 {
		return s.Startup
	}
	return 10
}

func (s *TPESampler) candidates() int {
	if s.Candidates > 0 {
		return s.Candidates
	}
	return 24
}

func (s *TPESampler) priorWeight() float64 {
	if s.PriorWeight > 0 {
		return s.PriorWeight
	}
	return 1
}

// history returns the study's trials, read once per trial being sampled.
func (s *TPESampler) history(study *goptuna.Study, trialID int) ([]goptuna.FrozenTrial, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cache != nil && s.cacheID == trialID {
		return s.cache, nil
	}
	trials, err := study.GetTrials()
	if err != nil {
		return nil, err
	}
	s.cacheID, s.cache = trialID, trials
	return trials, nil
}

// Sample draws one parameter of trial.
func (s *TPESampler) Sample(study *goptuna.Study, trial goptuna.FrozenTrial, name string, dist any) (float64, error) {
	r := drawRand(s.Seed, trialSlot(trial), name)
	trials, err := s.history(study, trial.ID)
	if err != nil {
		return 0, err
	}
	obs := observations(trials, trial.ID, name, study.Direction() == goptuna.StudyDirectionMaximize)
	if len(obs) < s.startup() {
		return sampleUniform(r, dist)
	}
	below, above := splitObservations(obs)
	switch d := dist.(type) {
	case goptuna.UniformDistribution:
		if d.Low == d.High {
			return d.Low, nil
		}
		return s.sampleNumeric(r, d.Low, d.High, below, above, false, false), nil
	case goptuna.LogUniformDistribution:
		if d.Low == d.High {
			return d.Low, nil
		}
		x := s.sampleNumeric(r, math.Log(d.Low), math.Log(d.High), below, above, true, false)
		return clamp(math.Exp(x), d.Low, d.High), nil
	case goptuna.IntUniformDistribution:
		if d.Low == d.High {
			return float64(d.Low), nil
		}
		x := s.sampleNumeric(r, float64(d.Low)-0.5, float64(d.High)+0.5, below, above, false, true)
		return clamp(x, float64(d.Low), float64(d.High)), nil
	case goptuna.CategoricalDistribution:
		return s.sampleCategorical(r, len(d.Choices), below, above), nil
	}
	return 0, fmt.Errorf("unsupported distribution %T", dist)
}

// observation is one finished trial's value of the parameter and its rank
// key: complete trials first (by value, best first), then pruned trials
// (those that went further first).
type observation struct {
	slot   int
	x      float64
	key0   float64
	key1   float64
	weight float64
}

func observations(trials []goptuna.FrozenTrial, self int, name string, maximize bool) []observation {
	sign := 1.0
	if maximize {
		sign = -1
	}
	var out []observation
	for _, t := range trials {
		if t.ID == self || (t.State != goptuna.TrialStateComplete && t.State != goptuna.TrialStatePruned) {
			continue
		}
		x, ok := t.InternalParams[name]
		if !ok {
			continue
		}
		o := observation{slot: trialSlot(t), x: x}
		switch {
		case t.State == goptuna.TrialStateComplete:
			o.key0, o.key1 = math.Inf(-1), sign*t.Value
		default:
			if step, ok := t.GetLatestStep(); ok {
				o.key0, o.key1 = -float64(step), sign*t.IntermediateValues[step]
			} else {
				o.key0 = math.Inf(1)
			}
		}
		if math.IsNaN(o.key1) {
			o.key1 = math.Inf(1)
		}
		out = append(out, o)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].slot < out[j].slot })
	return out
}

// splitObservations returns the good group (the best ceil(10%), at most 25)
// and the rest, each in slot order with its recency weights.
func splitObservations(obs []observation) (below, above []observation) {
	n := len(obs)
	nb := int(math.Ceil(0.1 * float64(n)))
	if nb > 25 {
		nb = 25
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		oa, ob := obs[order[a]], obs[order[b]]
		if oa.key0 != ob.key0 {
			return oa.key0 < ob.key0
		}
		return oa.key1 < ob.key1
	})
	good := make([]bool, n)
	for _, i := range order[:nb] {
		good[i] = true
	}
	for i, o := range obs {
		if good[i] {
			below = append(below, o)
		} else {
			above = append(above, o)
		}
	}
	setWeights(below)
	setWeights(above)
	return below, above
}

// setWeights gives the 25 most recent observations weight 1 and older ones
// a linear ramp from 1/n up to 1.
func setWeights(obs []observation) {
	n := len(obs)
	for i := range obs {
		obs[i].weight = 1
	}
	if n < 25 {
		return
	}
	ramp := n - 25
	for i := 0; i < ramp; i++ {
		if ramp == 1 {
			obs[i].weight = 1 / float64(n)
			continue
		}
		obs[i].weight = 1/float64(n) + float64(i)*(1-1/float64(n))/float64(ramp-1)
	}
}

// sampleNumeric samples on [low, high] (already log-transformed for
// log-float, widened by ½ for ints).
func (s *TPESampler) sampleNumeric(r *rand.Rand, low, high float64, below, above []observation, isLog, isInt bool) float64 {
	tr := func(obs []observation) ([]float64, []float64) {
		xs := make([]float64, len(obs))
		ws := make([]float64, len(obs))
		for i, o := range obs {
			xs[i], ws[i] = o.x, o.weight
			if isLog {
				xs[i] = math.Log(o.x)
			}
		}
		return xs, ws
	}
	bx, bw := tr(below)
	ax, aw := tr(above)
	l := newParzen(bx, bw, low, high, s.priorWeight())
	g := newParzen(ax, aw, low, high, s.priorWeight())
	best, bestScore := math.NaN(), math.Inf(-1)
	for i := 0; i < s.candidates(); i++ {
		x := l.sample(r)
		var score float64
		if isInt {
			x = math.Round(x)
			x = clamp(x, low+0.5, high-0.5)
			lo, hi := math.Max(x-0.5, low), math.Min(x+0.5, high)
			score = l.logMass(lo, hi) - g.logMass(lo, hi)
		} else {
			score = l.logPDF(x) - g.logPDF(x)
		}
		if math.IsNaN(best) || score > bestScore {
			best, bestScore = x, score
		}
	}
	return best
}

// sampleCategorical picks a choice index by the ratio of the good and bad
// groups' smoothed (prior-weighted) choice frequencies.
func (s *TPESampler) sampleCategorical(r *rand.Rand, k int, below, above []observation) float64 {
	probs := func(obs []observation) []float64 {
		p := make([]float64, k)
		for i := range p {
			p[i] = s.priorWeight()
		}
		for _, o := range obs {
			if c := int(o.x); c >= 0 && c < k {
				p[c] += o.weight
			}
		}
		sum := 0.0
		for _, x := range p {
			sum += x
		}
		for i := range p {
			p[i] /= sum
		}
		return p
	}
	pl, pg := probs(below), probs(above)
	var cands []int
	if s.candidates() >= k {
		for i := 0; i < k; i++ {
			cands = append(cands, i)
		}
	} else {
		for i := 0; i < s.candidates(); i++ {
			cands = append(cands, pick(r, pl))
		}
	}
	best, bestScore := cands[0], math.Inf(-1)
	for _, c := range cands {
		if score := math.Log(pl[c]) - math.Log(pg[c]); score > bestScore {
			best, bestScore = c, score
		}
	}
	return float64(best)
}

// pick draws an index with the given probabilities (summing to 1).
func pick(r *rand.Rand, p []float64) int {
	u := r.Float64()
	acc := 0.0
	for i, x := range p {
		acc += x
		if u < acc {
			return i
		}
	}
	return len(p) - 1
}

// parzen is a mixture of Gaussians truncated to [low, high].
type parzen struct {
	w, mu, sigma []float64
	mass         []float64 // each component's probability inside [low, high]
	low, high    float64
}

// newParzen builds the adaptive Parzen estimator of the observations xs
// (weights ws) with a prior component at the middle of the range: each
// component's width is the larger distance to its neighbours (the range
// ends excluded for the outermost ones), clipped to [range/min(100, 1+K),
// range]; the prior has the whole range as its width.
func newParzen(xs, ws []float64, low, high, priorWeight float64) *parzen {
	type comp struct {
		mu, w float64
		prior bool
	}
	cs := make([]comp, 0, len(xs)+1)
	for i, x := range xs {
		cs = append(cs, comp{mu: x, w: ws[i]})
	}
	cs = append(cs, comp{mu: 0.5 * (low + high), w: priorWeight, prior: true})
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].mu < cs[j].mu })
	k := len(cs)
	p := &parzen{w: make([]float64, k), mu: make([]float64, k), sigma: make([]float64, k), mass: make([]float64, k), low: low, high: high}
	span := high - low
	minSigma := span / math.Min(100, 1+float64(k))
	sum := 0.0
	for i, c := range cs {
		p.mu[i], p.w[i] = c.mu, c.w
		sum += c.w
		left := c.mu - low
		if i > 0 {
			left = c.mu - cs[i-1].mu
		}
		right := high - c.mu
		if i < k-1 {
			right = cs[i+1].mu - c.mu
		}
		sg := math.Max(left, right)
		if k >= 2 && i == 0 {
			sg = right
		} else if k >= 2 && i == k-1 {
			sg = left
		}
		sg = clamp(sg, minSigma, span)
		if c.prior {
			sg = span
		}
		if sg <= 0 {
			sg = math.SmallestNonzeroFloat64
		}
		p.sigma[i] = sg
	}
	for i := range p.w {
		p.w[i] /= sum
		p.mass[i] = normCDF((high-p.mu[i])/p.sigma[i]) - normCDF((low-p.mu[i])/p.sigma[i])
		if p.mass[i] <= 0 {
			p.mass[i] = math.SmallestNonzeroFloat64
		}
	}
	return p
}

// sample draws one value: a component by weight, then its truncated normal.
func (p *parzen) sample(r *rand.Rand) float64 {
	j := pick(r, p.w)
	return truncNormal(r, p.mu[j], p.sigma[j], p.low, p.high)
}

// logPDF is the log density of the truncated mixture at x.
func (p *parzen) logPDF(x float64) float64 {
	terms := make([]float64, len(p.w))
	for j := range p.w {
		z := (x - p.mu[j]) / p.sigma[j]
		terms[j] = math.Log(p.w[j]) - math.Log(p.sigma[j]) - 0.5*math.Log(2*math.Pi) - 0.5*z*z - math.Log(p.mass[j])
	}
	return logSumExp(terms)
}

// logMass is the log probability of [a, b] under the truncated mixture.
func (p *parzen) logMass(a, b float64) float64 {
	m := 0.0
	for j := range p.w {
		m += p.w[j] * (normCDF((b-p.mu[j])/p.sigma[j]) - normCDF((a-p.mu[j])/p.sigma[j])) / p.mass[j]
	}
	if m <= 0 {
		return math.Inf(-1)
	}
	return math.Log(m)
}

func logSumExp(xs []float64) float64 {
	m := math.Inf(-1)
	for _, x := range xs {
		m = math.Max(m, x)
	}
	if math.IsInf(m, 0) {
		return m
	}
	s := 0.0
	for _, x := range xs {
		s += math.Exp(x - m)
	}
	return m + math.Log(s)
}

func normCDF(z float64) float64 { return distuv.UnitNormal.CDF(z) }

// truncNormal draws from N(mu, sigma²) restricted to [lo, hi] by inverting
// the CDF (on the lower tail, where it is accurate).
func truncNormal(r *rand.Rand, mu, sigma, lo, hi float64) float64 {
	a, b := (lo-mu)/sigma, (hi-mu)/sigma
	flip := a > 0
	if flip {
		a, b = -b, -a
	}
	pa, pb := normCDF(a), normCDF(b)
	var z float64
	if pb-pa < 1e-300 {
		z = a + r.Float64()*(b-a)
	} else {
		u := pa + r.Float64()*(pb-pa)
		z = clamp(-math.Sqrt2*math.Erfcinv(2*u), a, b)
	}
	if flip {
		z = -z
	}
	return clamp(mu+sigma*z, lo, hi)
}
