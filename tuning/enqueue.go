package tuning

import (
	"context"
	"strconv"

	"github.com/c-bata/goptuna"
	rdb "github.com/c-bata/goptuna/rdb.v2"
	"gorm.io/gorm"
)

// Enqueue queues a trial with the given values of the searched parameters
// (Study.EnqueueTrial); it takes the next budget slot and runs before any
// new trial. Useful to start a study from known good configurations.
func (t *Tuner) Enqueue(ctx context.Context, st *Storage, study string, v map[string]float64) error {
	if study == "" {
		study = t.spec.DefaultName()
	}
	vals, err := t.space.Specs.Validate(v)
	if err != nil {
		return err
	}
	sid, err := st.ensureStudy(ctx, study, t.spec, t.Units())
	if err != nil {
		return err
	}
	return st.locked(ctx, sid, func(tx *gorm.DB) error {
		slot, err := st.countSlots(tx, sid)
		if err != nil {
			return err
		}
		ts := rdb.NewStorage(tx)
		if err := (&goptuna.Study{ID: sid, Storage: ts}).EnqueueTrial(t.space.Internal(vals)); err != nil {
			return err
		}
		id, err := st.in(tx).LastTrial(ctx, sid)
		if err != nil {
			return err
		}
		return ts.SetTrialSystemAttr(id, attrSlot, strconv.Itoa(slot))
	})
}

// EnqueueBase queues the base configuration (every searched parameter at
// its base value) as the study's first trial when the study has no trial
// yet; it does nothing otherwise. The check and the queueing happen under
// the study's lock, so several workers starting together queue it once.
// With it the best trial is never worse than the default on the study's
// cases. It reports whether it queued the trial.
func (t *Tuner) EnqueueBase(ctx context.Context, st *Storage, study string) (bool, error) {
	if study == "" {
		study = t.spec.DefaultName()
	}
	vals, err := t.space.Specs.Validate(t.space.Base)
	if err != nil {
		return false, err
	}
	sid, err := st.ensureStudy(ctx, study, t.spec, t.Units())
	if err != nil {
		return false, err
	}
	queued := false
	err = st.locked(ctx, sid, func(tx *gorm.DB) error {
		n, err := st.in(tx).CountTrials(ctx, sid, false)
		if err != nil {
			return err
		}
		if n > 0 {
			return nil
		}
		ts := rdb.NewStorage(tx)
		if err := (&goptuna.Study{ID: sid, Storage: ts}).EnqueueTrial(t.space.Internal(vals)); err != nil {
			return err
		}
		id, err := st.in(tx).LastTrial(ctx, sid)
		if err != nil {
			return err
		}
		queued = true
		return ts.SetTrialSystemAttr(id, attrSlot, "0")
	})
	return queued, err
}
