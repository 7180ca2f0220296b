package tuning

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/c-bata/goptuna"
)

// Goptuna's own random and TPE samplers draw part of their numbers from the
// process-wide math/rand generator (categorical choices, mixture components),
// so a seeded study does not replay. The samplers here draw every number of
// a trial from a generator derived from the study seed, the trial's slot and
// the parameter name: a trial's parameters depend only on the seed and on the
// trials finished before it, never on what the process did earlier.

// Trial system attributes written by this package.
const (
	attrSlot    = "gauntlet:slot"     // budget slot of the trial (0..N-1)
	attrWorker  = "gauntlet:worker"   // worker that ran the trial
	attrLost    = "gauntlet:lost"     // why the trial was declared lost
	attrRetryOf = "gauntlet:retry_of" // number of the lost trial this one re-runs
	attrError   = "gauntlet:error"    // objective error of a failed trial
	attrConduct = "gauntlet:conduct"  // the tuned entrant's forfeits and answer times (JSON TrialConduct)
	// IDs of the interrupted trials whose finished units a re-run may take
	// (comma-separated: the trial it re-runs first).
	attrResume   = "gauntlet:resume"
	attrReused   = "gauntlet:reused"    // units the trial took from earlier trials instead of playing them
	attrRepeatOf = "gauntlet:repeat_of" // number of the complete trial whose scores a repeat took
	attrBase     = "gauntlet:base"      // "1": the trial plays the base (default) configuration
)

// trialSlot is the trial's budget slot, or its number for trials that were
// not created by this package.
func trialSlot(t goptuna.FrozenTrial) int {
	if s, ok := t.SystemAttrs[attrSlot]; ok {
		if n, err := strconv.Atoi(s); err == nil {
			return n
		}
	}
	return t.Number
}

// drawRand returns the generator for one parameter of one trial.
func drawRand(seed uint64, slot int, name string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(name))
	return rand.New(rand.NewPCG(seed^0x6a09e667f3bcc908, uint64(slot)*0x9E3779B97F4A7C15^h.Sum64()))
}

// RandomSampler samples every parameter uniformly (log-uniformly for
// log-float parameters), reproducibly from Seed.
type RandomSampler struct {
	Seed uint64
}

var _ goptuna.Sampler = (*RandomSampler)(nil)

// Sample draws one parameter of trial.
func (s *RandomSampler) Sample(_ *goptuna.Study, trial goptuna.FrozenTrial, name string, dist any) (float64, error) {
	return sampleUniform(drawRand(s.Seed, trialSlot(trial), name), dist)
}

// sampleUniform draws from a distribution's prior.
func sampleUniform(r *rand.Rand, dist any) (float64, error) {
	switch d := dist.(type) {
	case goptuna.UniformDistribution:
		return d.Low + r.Float64()*(d.High-d.Low), nil
	case goptuna.LogUniformDistribution:
		lo, hi := math.Log(d.Low), math.Log(d.High)
		return clamp(math.Exp(lo+r.Float64()*(hi-lo)), d.Low, d.High), nil
	case goptuna.IntUniformDistribution:
		return float64(d.Low + r.IntN(d.High-d.Low+1)), nil
	case goptuna.CategoricalDistribution:
		if len(d.Choices) == 0 {
			return 0, errors.New("categorical distribution without choices")
		}
		return float64(r.IntN(len(d.Choices))), nil
	}
	return 0, fmt.Errorf("unsupported distribution %T", dist)
}

func clamp(x, lo, hi float64) float64 {
	return math.Max(lo, math.Min(hi, x))
}
