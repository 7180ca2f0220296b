package tuning

import (
	"gauntlet/harness/contract"

	"github.com/c-bata/goptuna"
)

// A study maximises its objective, or minimises it when the game's scores
// are costs (Spec.Direction is contract.Lower). Goptuna's study direction
// carries it to the TPE sampler, the pruners (median, successive halving, ours) and the best
// trial; Goptuna v0.9.0's CMA-ES ignores it and always minimises, so it is
// shown the negated values of a maximising study (cmaDirection).

// StudyDirection is the Goptuna direction of the study.
func (s Spec) StudyDirection() goptuna.StudyDirection {
	if s.Direction == contract.Lower {
		return goptuna.StudyDirectionMinimize
	}
	return goptuna.StudyDirectionMaximize
}

// objectiveDirection is the direction of a study of a game with that many
// opponents: the game's for a mean score alone, Higher for a score
// fraction against opponents.
func objectiveDirection(info contract.GameInfo, opponents int) contract.Direction {
	if opponents > 0 {
		return contract.Higher
	}
	return info.Direction
}

// better reports whether value a is strictly better than b in the study's
// direction.
func (s Spec) better(a, b float64) bool { return s.Direction.Better(a, b) }

// cmaDirection makes Goptuna's CMA-ES sampler follow the study's direction:
// its optimizer ranks solutions by ascending value whatever the direction,
// so in a maximising study it would walk towards the worst values. It sees
// the trials of a maximising study with their values negated.
type cmaDirection struct{ s goptuna.RelativeSampler }

var _ goptuna.RelativeSampler = cmaDirection{}

// SampleRelative samples the trial's parameters with the wrapped sampler.
func (c cmaDirection) SampleRelative(study *goptuna.Study, trial goptuna.FrozenTrial, space map[string]any) (map[string]float64, error) {
	if study.Direction() == goptuna.StudyDirectionMinimize {
		return c.s.SampleRelative(study, trial, space)
	}
	view := &goptuna.Study{ID: study.ID, Storage: negatedValues{study.Storage}}
	if err := goptuna.StudyOptionLogger(study.GetLogger())(view); err != nil {
		return nil, err
	}
	return c.s.SampleRelative(view, trial, space)
}

// negatedValues is a read view of a study's storage whose trials' values
// are negated (CMA-ES reads the trials only through GetAllTrials).
type negatedValues struct{ goptuna.Storage }

// GetAllTrials returns the study's trials with their values negated.
func (n negatedValues) GetAllTrials(studyID int) ([]goptuna.FrozenTrial, error) {
	ts, err := n.Storage.GetAllTrials(studyID)
	for i := range ts {
		ts[i].Value = -ts[i].Value
	}
	return ts, err
}
