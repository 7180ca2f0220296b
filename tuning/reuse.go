package tuning

import (
	"context"
	"maps"
	"slices"
	"strconv"

	"github.com/c-bata/goptuna"
	rdb "github.com/c-bata/goptuna/rdb.v2"

	"gauntlet/strategies/param"
)

// reuse is what a trial takes from earlier trials instead of playing it.
type reuse struct {
	config   string          // configKey of the trial's values
	scores   map[int]float64 // stored unit scores, by unit index
	repeatOf int             // number of the complete trial with the same configuration (deterministic studies), or -1
	resumed  bool            // the scores come from the interrupted trial(s) it re-runs
}

// reusable finds the units of the trial's configuration stored by earlier
// trials that it may take: in a deterministic study (Tuner.deterministic)
// those of any trial, since every play of a unit gives the same score;
// otherwise only those of the interrupted trials it re-runs (attrResume),
// whose games were its own.
func (w *worker) reusable(ctx context.Context, a acquired, values param.Values) (*reuse, error) {
	key, err := configKey(values)
	if err != nil {
		return nil, err
	}
	r := &reuse{config: key, scores: map[int]float64{}, repeatOf: -1}
	ft, err := w.st.rdb.GetTrial(a.trialID)
	if err != nil {
		return nil, err
	}
	resume := resumeIDs(ft.SystemAttrs[attrResume])
	det, _ := w.t.deterministic(values, w.opt.Play)
	from := resume
	if det {
		from = nil // any trial
	} else if from == nil {
		return r, nil
	}
	rows, err := w.st.loadUnits(ctx, w.studyID, key, from)
	if err != nil {
		return nil, err
	}
	n := len(w.t.units)
	// A failed trial's units are not taken: its failure (a bot that
	// forfeits every game, say) is judged on the games it played.
	failed := map[int]bool{}
	for _, row := range rows {
		if _, seen := failed[row.TrialID]; seen {
			continue
		}
		src, err := w.st.rdb.GetTrial(row.TrialID)
		if err != nil {
			return nil, err
		}
		_, lost := src.SystemAttrs[attrLost]
		failed[row.TrialID] = src.State == goptuna.TrialStateFail && !lost
	}
	byTrial := map[int]int{}
	for _, row := range rows {
		if row.TrialID == a.trialID || row.Unit < 0 || row.Unit >= n || failed[row.TrialID] {
			continue
		}
		if _, ok := r.scores[row.Unit]; !ok {
			r.scores[row.Unit] = row.Score
		}
		byTrial[row.TrialID]++
	}
	for _, id := range resume {
		if byTrial[id] > 0 {
			r.resumed = true
		}
	}
	if !det || len(r.scores) < n {
		return r, nil
	}
	for _, id := range slices.Sorted(maps.Keys(byTrial)) {
		if byTrial[id] < n {
			continue
		}
		src, err := w.st.rdb.GetTrial(id)
		if err != nil {
			return nil, err
		}
		if src.State == goptuna.TrialStateComplete {
			r.repeatOf = src.Number
			break
		}
	}
	return r, nil
}

// isBase reports whether values are the study's base configuration.
func (w *worker) isBase(values param.Values) bool {
	for _, n := range w.t.space.Tuned {
		if values[n] != w.t.space.Base[n] {
			return false
		}
	}
	return true
}

// recordReuse notes on a finished trial what it took from earlier trials,
// and whether it plays the base configuration.
func (w *worker) recordReuse(ts *rdb.Storage, id int, values param.Values, ru *reuse, reused int) error {
	if values != nil && w.isBase(values) {
		if err := ts.SetTrialSystemAttr(id, attrBase, "1"); err != nil {
			return err
		}
	}
	if reused > 0 {
		if err := ts.SetTrialSystemAttr(id, attrReused, strconv.Itoa(reused)); err != nil {
			return err
		}
	}
	if ru.repeatOf >= 0 {
		return ts.SetTrialSystemAttr(id, attrRepeatOf, strconv.Itoa(ru.repeatOf))
	}
	return nil
}
