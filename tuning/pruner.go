package tuning

import (
	"strconv"
	"strings"

	"github.com/c-bata/goptuna"
	"github.com/c-bata/goptuna/medianstopping"
	"github.com/c-bata/goptuna/successivehalving"
)

// ScoreSource gives the per-case scores stored for a trial.
type ScoreSource interface {
	// TrialScores returns a trial's per-case scores in case order (fewer
	// than the study's cases for a running or pruned trial).
	TrialScores(trialID int) ([]float64, error)
}

var _ ScoreSource = (*Storage)(nil)

// WilcoxonPruner stops a trial once it is significantly worse than the best
// complete trial on the same cases: the per-case differences (trial − best)
// over the cases both played are tested with the Wilcoxon signed-rank test,
// and the trial stops when the one-sided p-value (H1: the trial is worse) is
// below P, after at least MinCases cases. Unlike the median and
// successive-halving rules, which compare running means across different
// luck, it pairs the cases seed by seed, so the noise shared by both trials
// cancels.
type WilcoxonPruner struct {
	Scores   ScoreSource
	P        float64 // threshold on the one-sided p-value (0: DefaultPruneP)
	MinCases int     // paired cases needed before pruning (0: DefaultPruneMinCases)
}

var _ goptuna.Pruner = (*WilcoxonPruner)(nil)

// Prune judges the trial at its latest step.
func (p *WilcoxonPruner) Prune(study *goptuna.Study, trial goptuna.FrozenTrial) (bool, error) {
	best, err := study.Storage.GetBestTrial(study.ID)
	if err != nil {
		return false, err
	}
	if best.State != goptuna.TrialStateComplete || best.ID == trial.ID {
		return false, nil
	}
	cur, err := p.Scores.TrialScores(trial.ID)
	if err != nil {
		return false, err
	}
	ref, err := p.Scores.TrialScores(best.ID)
	if err != nil {
		return false, err
	}
	n := min(len(cur), len(ref))
	minCases := p.MinCases
	if minCases <= 0 {
		minCases = DefaultPruneMinCases
	}
	if n < minCases {
		return false, nil
	}
	d := make([]float64, n)
	for i := range d {
		d[i] = cur[i] - ref[i]
	}
	if study.Direction() == goptuna.StudyDirectionMinimize {
		for i := range d {
			d[i] = -d[i]
		}
	}
	threshold := p.P
	if threshold <= 0 {
		threshold = DefaultPruneP
	}
	return wilcoxonWorseP(d) < threshold, nil
}

// nopPruner never prunes; with it Trial.ShouldPrune still records the
// intermediate values (Goptuna records them only through a pruner).
type nopPruner struct{}

func (nopPruner) Prune(*goptuna.Study, goptuna.FrozenTrial) (bool, error) { return false, nil }

// pruner builds the study's pruner. Steps are cases played, so the median
// rule compares trials after the same cases and successive halving promotes
// at chunk × 3^k cases.
func (t *Tuner) pruner(scores ScoreSource) (goptuna.Pruner, error) {
	switch t.spec.Pruner {
	case "median":
		return medianstopping.NewMedianPruner(), nil
	case "sha":
		p, err := successivehalving.NewPruner(
			successivehalving.OptionMinResource(t.spec.Chunk),
			successivehalving.OptionReductionFactor(3))
		if err != nil {
			return nil, err
		}
		return shaPruner{p}, nil
	case "wilcoxon":
		return &WilcoxonPruner{Scores: scores, P: t.spec.PruneP, MinCases: t.spec.PruneMin}, nil
	}
	return nopPruner{}, nil
}

// shaPruner corrects Goptuna v0.9.0's successive halving, which takes the
// highest completed rung's index for the trial's current rung (instead of
// the number of completed rungs): after its first promotion a trial would
// compete at rung 0 again, against its own earlier value, and be stopped
// whenever its running mean went down. The wrapper shows the pruner a copy
// of the trial marked with the rung it is really at (nothing is stored).
type shaPruner struct{ p *successivehalving.Pruner }

var _ goptuna.Pruner = shaPruner{}

// Prune judges the trial at its latest step.
func (s shaPruner) Prune(study *goptuna.Study, trial goptuna.FrozenTrial) (bool, error) {
	done := 0
	for k := range trial.SystemAttrs {
		if strings.HasPrefix(k, "completed_rung_") {
			done++
		}
	}
	attrs := make(map[string]string, len(trial.SystemAttrs)+1)
	for k, v := range trial.SystemAttrs {
		attrs[k] = v
	}
	attrs["completed_rung_"+strconv.Itoa(done)] = ""
	trial.SystemAttrs = attrs
	return s.p.Prune(study, trial)
}
