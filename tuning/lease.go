package tuning

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/c-bata/goptuna"
	rdb "github.com/c-bata/goptuna/rdb.v2"
	"gorm.io/gorm"

	"gauntlet/internal/sqldb"
)

// acquired is the outcome of acquire: a trial to run, nothing to do yet
// (trialID 0: others are running the last trials), or done.
type acquired struct {
	trialID int
	number  int
	slot    int
	done    bool
}

// acquire does the study's bookkeeping under its lock: trials whose
// heartbeat is stale are marked failed and queued again with the same
// parameters; then the oldest queued trial is taken, or a new one created
// if the budget allows.
func (w *worker) acquire(ctx context.Context) (acquired, error) {
	var a acquired
	err := w.st.locked(ctx, w.studyID, func(tx *gorm.DB) error {
		a = acquired{}
		ts := rdb.NewStorage(tx)
		if err := w.recoverStale(tx, ts); err != nil {
			return err
		}
		waiting, err := w.st.in(tx).WaitingTrials(ctx, w.studyID)
		if err != nil {
			return err
		}
		for _, id := range waiting {
			if err := ts.SetTrialState(id, goptuna.TrialStateRunning); errors.Is(err, goptuna.ErrTrialCannotBeUpdated) {
				continue
			} else if err != nil {
				return err
			}
			ft, err := ts.GetTrial(id)
			if err != nil {
				return err
			}
			a.trialID, a.number, a.slot = id, ft.Number, trialSlot(ft)
			if _, ok := ft.SystemAttrs[attrSlot]; !ok {
				if err := ts.SetTrialSystemAttr(id, attrSlot, strconv.Itoa(a.slot)); err != nil {
					return err
				}
			}
			return w.claim(tx, ts, id)
		}
		used, err := w.st.countSlots(tx, w.studyID)
		if err != nil {
			return err
		}
		if used < w.opt.Trials {
			id, err := ts.CreateNewTrial(w.studyID)
			if err != nil {
				return err
			}
			num, err := ts.GetTrialNumberFromID(id)
			if err != nil {
				return err
			}
			a.trialID, a.number, a.slot = id, num, used
			if err := ts.SetTrialSystemAttr(id, attrSlot, strconv.Itoa(used)); err != nil {
				return err
			}
			return w.claim(tx, ts, id)
		}
		running, err := w.st.in(tx).CountTrials(ctx, w.studyID, true)
		if err != nil {
			return err
		}
		a.done = running == 0
		return nil
	})
	return a, err
}

// staleMS is how long a heartbeat of this worker lasts, in milliseconds.
func (w *worker) staleMS() int64 { return (StaleFactor * w.opt.heartbeat()).Milliseconds() }

// claim records this worker as the trial's owner with a fresh heartbeat.
func (w *worker) claim(tx *gorm.DB, ts *rdb.Storage, id int) error {
	return w.st.claimTrial(tx, ts, w.studyID, id, w.name, w.staleMS())
}

// recoverStale marks the running trials with a stale heartbeat as lost and
// queues their parameters again. A running trial without a heartbeat row
// (not started by gauntlet) gets one now, so it is judged stale later.
func (w *worker) recoverStale(tx *gorm.DB, ts *rdb.Storage) error {
	q, ctx := w.st.in(tx), tx.Statement.Context
	rows, err := q.RunningTrials(ctx, w.studyID)
	if err != nil {
		return err
	}
	for _, r := range rows {
		if !r.Beating {
			if err := q.StartHeartbeat(ctx, w.studyID, r.TrialID, "unknown", w.staleMS()); err != nil {
				return err
			}
			continue
		}
		stale := r.Stale()
		if (r.Worker == w.name && !stale) || !sqldb.Free(r.Worker, stale) {
			continue
		}
		// Free: stale, or a worker of this machine killed (-9, or by the
		// machine), for which there is no need to wait for its heartbeat
		// to go stale.
		why := fmt.Sprintf("worker %s: its process is gone (this machine); noticed by %s", r.Worker, w.name)
		if stale {
			why = fmt.Sprintf("worker %s: no heartbeat for %.1fs (limit %.1fs); noticed by %s", r.Worker,
				float64(r.AgeMS)/1000, float64(r.StaleMS)/1000, w.name)
		}
		if err := w.markLost(tx, ts, r.TrialID, why); err != nil {
			return err
		}
	}
	return nil
}

// markLost fails a running trial and queues a re-run with its parameters
// (Study.EnqueueTrial) that takes over its budget slot and the units the
// lost trial finished (attrResume). A trial lost
// before it had drawn all of them (they are stored one by one as the
// sampler draws them) is re-run with those it drew; the rest are drawn
// again.
func (w *worker) markLost(tx *gorm.DB, ts *rdb.Storage, id int, why string) error {
	ft, err := ts.GetTrial(id)
	if err != nil {
		return err
	}
	if ft.State != goptuna.TrialStateRunning {
		return nil
	}
	if err := ts.SetTrialState(id, goptuna.TrialStateFail); errors.Is(err, goptuna.ErrTrialCannotBeUpdated) {
		return nil
	} else if err != nil {
		return err
	}
	if err := ts.SetTrialSystemAttr(id, attrLost, why); err != nil {
		return err
	}
	if err := w.st.in(tx).DropHeartbeat(tx.Statement.Context, id); err != nil {
		return err
	}
	txStudy := &goptuna.Study{ID: w.studyID, Storage: ts}
	if err := txStudy.EnqueueTrial(ft.InternalParams); err != nil {
		return err
	}
	newID, err := w.st.in(tx).LastTrial(tx.Statement.Context, w.studyID)
	if err != nil {
		return err
	}
	if err := ts.SetTrialSystemAttr(newID, attrSlot, strconv.Itoa(trialSlot(ft))); err != nil {
		return err
	}
	if err := ts.SetTrialSystemAttr(newID, attrRetryOf, strconv.Itoa(ft.Number)); err != nil {
		return err
	}
	// The re-run takes the units the lost trial (and those it re-ran)
	// finished.
	resume := strconv.Itoa(id)
	if prev := ft.SystemAttrs[attrResume]; prev != "" {
		resume += "," + prev
	}
	if err := ts.SetTrialSystemAttr(newID, attrResume, resume); err != nil {
		return err
	}
	w.log.Warn("tune: trial lost; queued again with the same parameters", "trial", ft.Number, "reason", why)
	return nil
}

// beat renews the trial's heartbeat until stop is called; if the row was
// taken over (the trial declared lost), it cancels the trial.
func (w *worker) beat(ctx context.Context, id int, cancel context.CancelCauseFunc) (stop func()) {
	hctx, hcancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(w.opt.heartbeat())
		defer tick.Stop()
		for {
			select {
			case <-hctx.Done():
				return
			case <-tick.C:
				held, err := w.st.hs.Studies().Beat(hctx, id, w.name)
				switch {
				case err != nil:
					if hctx.Err() == nil {
						w.log.Warn("tune: heartbeat failed", "trial_id", id, "err", err)
					}
				case !held:
					cancel(errLost)
					return
				}
			}
		}
	}()
	return func() { hcancel(); <-done }
}
