package tuning

import (
	"context"
	"fmt"
	"time"

	"gauntlet/harness/contract"
)

// pace is what a worker's trial lines say of its study besides the trial:
// the trials finished of the budget, the best so far and the time left at
// the study's pace since the worker started.
type pace struct {
	start time.Time
	done0 int // the study's finished trials when the worker started
}

// finished counts the study's finished trials (not the lost ones, whose
// re-runs hold their budget slots) and returns its best complete trial in
// the study's direction, the earliest on a tie (as StudyRecord.Best).
func (s *Storage) finished(ctx context.Context, studyID int, minimize bool) (done, number int, best float64, found bool, err error) {
	return s.hs.Studies().FinishedTrials(ctx, studyID, attrLost, minimize)
}

// startPace records the study's finished trials as this worker starts.
func (w *worker) startPace(ctx context.Context) error {
	done, _, _, _, err := w.st.finished(ctx, w.studyID, w.t.spec.Direction == contract.Lower)
	w.pace = pace{start: time.Now(), done0: done}
	return err
}

// progress are the attributes of a trial's line that tell the study's
// state: "trials" finished of the budget, the "best" value so far and its
// "best_trial", and the "eta" of the budget at the pace of the trials
// finished since this worker started (by all workers).
func (w *worker) progress(ctx context.Context) []any {
	done, number, best, found, err := w.st.finished(ctx, w.studyID, w.t.spec.Direction == contract.Lower)
	if err != nil {
		return []any{"progress", "unknown: " + err.Error()} // a line without its figures; the trial is recorded
	}
	attrs := []any{"trials", fmt.Sprintf("%d/%d", done, w.opt.Trials)}
	if found {
		attrs = append(attrs, "best", best, "best_trial", number)
	}
	eta := "?"
	if left := w.opt.Trials - done; left <= 0 {
		eta = "0s"
	} else if n := done - w.pace.done0; n > 0 {
		per := time.Since(w.pace.start) / time.Duration(n)
		eta = (per * time.Duration(left)).Round(time.Second).String()
	}
	return append(attrs, "eta", eta)
}
