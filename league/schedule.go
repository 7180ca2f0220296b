package league

import (
	"math"
	"math/rand/v2"
)

// FreshGames is how many games a version plays before matchmaking treats
// it like the others: until then it plays first, fewest games first.
const FreshGames = 30

// Scheduler picks the groups of versions the next units play, from a
// tally and the last fit, counting the units it has scheduled that are
// not in the tally yet. It is not safe for concurrent use.
type Scheduler struct {
	Size  int // versions per unit
	Fresh int // games under which a version is under-played (0: FreshGames)
	rng   *rand.Rand
	fit   *Fit
	n     int
	// pending counts scheduled games not yet in the tally, per version
	// and per pair; since counts the comparisons of each pair scheduled
	// since the last fit (their information is not in its intervals).
	pending  []float64
	pendPair []float64
	since    []float64
	// pq and vr are each pair's p(1−p) and Var(θ_i − θ_j) at the last
	// fit (NaN: a version without a rating), computed once per fit.
	pq, vr []float64
}

// NewScheduler makes a scheduler of units of size versions, its random
// choices (ties) drawn from seed.
func NewScheduler(size int, seed uint64) *Scheduler {
	return &Scheduler{Size: size, rng: rand.New(rand.NewPCG(seed, 0x6c65616775650a))}
}

func (s *Scheduler) grow(n int) {
	if n <= s.n {
		return
	}
	pp := make([]float64, n*n)
	sn := make([]float64, n*n)
	for i := range s.n {
		copy(pp[i*n:i*n+s.n], s.pendPair[i*s.n:(i+1)*s.n])
		copy(sn[i*n:i*n+s.n], s.since[i*s.n:(i+1)*s.n])
	}
	s.pendPair, s.since = pp, sn
	s.pending = append(s.pending, make([]float64, n-s.n)...)
	s.n = n
}

// SetFit installs a new fit: the comparisons scheduled since the last one
// that are still pending keep counting as new information.
func (s *Scheduler) SetFit(f *Fit) {
	s.grow(len(f.Rating))
	s.fit = f
	copy(s.since, s.pendPair)
	n := s.n
	s.pq, s.vr = make([]float64, n*n), make([]float64, n*n)
	for i := range n {
		for j := range n {
			k := i*n + j
			if s.unrated(i) || s.unrated(j) {
				s.pq[k], s.vr[k] = math.NaN(), math.NaN()
				continue
			}
			p := 1 / (1 + math.Exp(-(f.Rating[i]-f.Rating[j])/EloScale))
			sd := f.DiffSD(i, j) / EloScale
			s.pq[k], s.vr[k] = p*(1-p), sd*sd
		}
	}
}

// Pending is the number of games scheduled for version i that are not
// in the tally yet.
func (s *Scheduler) Pending(i int) float64 {
	if i >= len(s.pending) {
		return 0
	}
	return s.pending[i]
}

// GamesPerUnit is how many games a version of a unit plays: every
// rotation of the seats (a single-player unit: one game each).
func GamesPerUnit(size int, single bool) int {
	if single {
		return 1
	}
	return size
}

// Scheduled counts a unit of group as scheduled (gpu games per version).
func (s *Scheduler) Scheduled(group []int, gpu int, sign float64) {
	for _, v := range group {
		s.grow(v + 1)
	}
	for a, i := range group {
		s.pending[i] += sign * float64(gpu)
		for b, j := range group {
			if a != b && i != j {
				s.pendPair[i*s.n+j] += sign * float64(gpu)
				if sign > 0 {
					s.since[i*s.n+j] += float64(gpu)
				}
			}
		}
	}
}

// Next returns the group of the next unit among the active versions: an
// under-played version (fewest games first) with the versions it met
// least; otherwise the pair whose result is least certain and, for larger
// groups, the versions that add most uncertainty to it. With fewer active
// versions than the size, versions repeat in turn. ok is false with fewer
// than two active versions.
func (s *Scheduler) Next(t *Tally, active []bool) (group []int, ok bool) {
	s.grow(t.N())
	s.grow(len(active))
	var act []int
	for i, a := range active {
		if a {
			act = append(act, i)
		}
	}
	if len(act) < 2 {
		return nil, false
	}
	fresh := s.Fresh
	if fresh <= 0 {
		fresh = FreshGames
	}
	played := func(i int) float64 {
		g := s.pending[i]
		if i < t.N() {
			g += float64(t.V[i].Games)
		}
		return g
	}
	first, least := -1, float64(fresh)
	for _, i := range act {
		if g := played(i); g < least {
			first, least = i, g
		}
	}
	k := min(s.Size, len(act))
	if first >= 0 {
		group = []int{first}
		for len(group) < k {
			group = append(group, s.leastMet(t, act, group))
		}
	} else {
		group = s.mostUncertain(act, k)
	}
	for x := 0; len(group) < s.Size; x++ {
		group = append(group, group[x])
	}
	return group, true
}

// unrated reports whether version i has no rating in the last fit.
func (s *Scheduler) unrated(i int) bool {
	return s.fit == nil || i >= len(s.fit.Rating) || math.IsNaN(s.fit.Rating[i])
}

// met is how often i and j met, scheduled units included.
func (s *Scheduler) met(t *Tally, i, j int) float64 {
	m := s.pendPair[i*s.n+j]
	if i < t.N() && j < t.N() {
		m += t.Meet(i, j)
	}
	return m
}

// leastMet picks the active version not in group that met its members
// least; ties go to the closest rating, then to chance.
func (s *Scheduler) leastMet(t *Tally, act, group []int) int {
	best, bestMet, bestGap, bestJit := -1, math.Inf(1), math.Inf(1), 0.0
	for _, j := range act {
		if contains(group, j) {
			continue
		}
		m := 0.0
		gap := 0.0
		for _, i := range group {
			m += s.met(t, i, j)
			if !s.unrated(i) && !s.unrated(j) {
				gap += math.Abs(s.fit.Rating[i] - s.fit.Rating[j])
			}
		}
		jit := s.rng.Float64()
		if m < bestMet || m == bestMet && (gap < bestGap || gap == bestGap && jit < bestJit) {
			best, bestMet, bestGap, bestJit = j, m, gap, jit
		}
	}
	return best
}

// uncertainty is how uncertain a comparison of i and j is: p(1−p) times
// the variance of θ_i − θ_j, the variance shrunk by the comparisons
// scheduled since the fit (each adds p(1−p) of information). It is the
// first-order gain in information of one more game between them.
func (s *Scheduler) uncertainty(i, j int) float64 {
	k := i*s.n + j
	if k >= len(s.pq) || math.IsNaN(s.pq[k]) {
		return math.Inf(1) // a version not rated at the last fit
	}
	pq, v := s.pq[k], s.vr[k]
	if extra := s.since[i*s.n+j]; extra > 0 && v > 0 {
		v = 1 / (1/v + pq*extra)
	}
	return pq * v
}

// mostUncertain picks the pair of greatest uncertainty, then adds the
// versions that add most uncertainty with the group's members, up to k.
func (s *Scheduler) mostUncertain(act []int, k int) []int {
	bi, bj, best, bestJit := -1, -1, -1.0, 0.0
	for x, i := range act {
		for _, j := range act[x+1:] {
			u := s.uncertainty(i, j)
			if u > best {
				bi, bj, best, bestJit = i, j, u, s.rng.Float64()
			} else if u == best {
				// Ties (unrated versions) go to chance.
				if jit := s.rng.Float64(); jit < bestJit {
					bi, bj, bestJit = i, j, jit
				}
			}
		}
	}
	group := []int{bi, bj}
	if s.rng.IntN(2) == 1 {
		group[0], group[1] = bj, bi
	}
	for len(group) < k {
		pick, bestSum := -1, -1.0
		for _, j := range act {
			if contains(group, j) {
				continue
			}
			sum := 0.0
			for _, i := range group {
				sum += s.uncertainty(i, j)
			}
			if sum > bestSum {
				pick, bestSum = j, sum
			}
		}
		group = append(group, pick)
	}
	return group
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
