package tuning

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/c-bata/goptuna"
	rdb "github.com/c-bata/goptuna/rdb.v2"
	"gorm.io/gorm"
)

// outcome of one trial's evaluation.
type outcome int

// run evaluates one trial: parameters from the samplers, the cases in
// chunks with an intermediate value (the running mean) after each, the
// pruner consulted between chunks. Units stored by earlier trials that the
// trial may take (see reusable) are not played again; the units it plays
// are stored after each chunk, and when it is interrupted, for its re-run.
// A trial whose every unit is stored (a repeat in a deterministic study)
// plays nothing and is not pruned. When ctx ends with errTimeout, the
// trial is handed back and run returns errTimeout.
func (w *worker) run(ctx context.Context, a acquired) error {
	tctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stopBeat := w.beat(tctx, a.trialID, cancel)
	defer stopBeat()
	trial := goptuna.Trial{Study: w.study, ID: a.trialID}
	res := outComplete
	var scores []float64
	var terr error
	if err := trial.CallRelativeSampler(); err != nil {
		terr = fmt.Errorf("relative sampler: %w", err)
	}
	var values map[string]float64
	if terr == nil {
		v, err := w.t.space.Suggest(&trial)
		if err != nil {
			terr = err
		}
		values = v
	}
	n := len(w.t.units)
	ru := &reuse{scores: map[int]float64{}, repeatOf: -1}
	if terr == nil {
		if r, err := w.reusable(tctx, a, values); err != nil {
			terr = fmt.Errorf("reading stored cases: %w", err)
		} else {
			ru = r
		}
	}
	reused := len(ru.scores)
	switch {
	case ru.repeatOf >= 0:
		w.log.Info("tune: trial repeats a complete trial of this deterministic study: its stored scores are taken, nothing is played", "trial", a.number, "repeat_of", ru.repeatOf)
	case reused > 0 && ru.resumed:
		w.log.Info("tune: trial resumes an interrupted trial: its finished cases are kept", "trial", a.number, "kept", reused, "of", n)
	case reused > 0:
		w.log.Info("tune: trial takes the stored scores of cases earlier trials played with the same parameters (deterministic study)", "trial", a.number, "taken", reused, "of", n)
	}
	full := reused == n
	chunk := max(w.t.spec.Chunk, 1)
	tally := newTrialTally(w.t.game, w.t.base.IsExternal())
	finished := reused // units with a score, taken or played
	for from := 0; terr == nil && from < n; from += chunk {
		to := min(from+chunk, n)
		var missing []int
		for u := from; u < to; u++ {
			if _, ok := ru.scores[u]; !ok {
				missing = append(missing, u)
			}
		}
		got, err := w.t.playUnits(tctx, values, missing, w.opt.Jobs, w.opt.Play, tally)
		finished += len(got)
		if serr := w.saveUnits(tctx, a, ru.config, got); serr != nil && err == nil {
			err = serr
		}
		if err != nil {
			terr = err
			break
		}
		if tally != nil {
			// A bot that forfeits every game is not being tuned: fail the
			// trial with the reason, and let the study go on.
			if c := tally.cand.Conduct(); c.Games > 0 && c.Forfeits == c.Games {
				terr = fmt.Errorf("the bot forfeited all %d games: %s", c.Games, c.Reasons[0].First)
				break
			}
		}
		for u := from; u < to; u++ {
			x, ok := got[u]
			if !ok {
				x = ru.scores[u]
			}
			scores = append(scores, x)
		}
		if err := w.st.saveScores(tctx, w.studyID, a.trialID, scores); err != nil {
			terr = err
			break
		}
		step, v := len(scores), mean(scores)
		if to == n || full {
			if err := w.st.rdb.SetTrialIntermediateValue(a.trialID, step, v); err != nil && tctx.Err() == nil {
				terr = err
			}
			continue
		}
		if err := trial.ShouldPrune(step, v); errors.Is(err, goptuna.ErrTrialPruned) {
			res = outPruned
			break
		} else if err != nil {
			terr = err
			break
		}
	}
	stopBeat()
	if tctx.Err() != nil {
		return w.handBack(ctx, tctx, a, finished, n)
	}
	if terr != nil {
		res = outFailed
	}
	lost := false
	err := w.st.locked(ctx, w.studyID, func(tx *gorm.DB) error {
		owner, err := w.st.in(tx).HeartbeatOwner(ctx, a.trialID)
		if err != nil {
			return err
		}
		if owner != w.name {
			lost = true
			return nil
		}
		ts := rdb.NewStorage(tx)
		if tally != nil && tally.cand.Conduct().Games > 0 {
			js, err := json.Marshal(tally.trialConduct())
			if err != nil {
				return err
			}
			if err := ts.SetTrialSystemAttr(a.trialID, attrConduct, string(js)); err != nil {
				return err
			}
		}
		if err := w.recordReuse(ts, a.trialID, values, ru, reused); err != nil {
			return err
		}
		state := goptuna.TrialStateComplete
		switch res {
		case outPruned:
			state = goptuna.TrialStatePruned
		case outFailed:
			state = goptuna.TrialStateFail
			if err := ts.SetTrialSystemAttr(a.trialID, attrError, truncate(terr.Error(), 1000)); err != nil {
				return err
			}
		}
		if res != outFailed {
			if err := ts.SetTrialValue(a.trialID, mean(scores)); err != nil {
				return err
			}
		}
		if err := ts.SetTrialState(a.trialID, state); err != nil {
			return err
		}
		return w.st.in(tx).DropHeartbeat(ctx, a.trialID)
	})
	if err != nil {
		return fmt.Errorf("trial %d: recording the result: %w", a.number, err)
	}
	if lost {
		w.log.Warn("tune: this worker's trial was declared lost by another worker; dropping its result", "trial", a.number)
		return nil
	}
	attrs := []any{"trial", a.number, "cases", len(scores)}
	if reused > 0 {
		attrs = append(attrs, "played", len(scores)-min(reused, len(scores)))
	}
	if res != outFailed {
		attrs = append(attrs, "value", mean(scores))
	}
	attrs = append(attrs, w.progress(ctx)...)
	switch res {
	case outComplete:
		w.log.Info("tune: trial complete", append(attrs, "params", w.t.space.Specs.String(values))...)
	case outPruned:
		w.log.Info("tune: trial pruned", append(attrs, "params", w.t.space.Specs.String(values))...)
	default:
		w.log.Warn("tune: trial failed", append(attrs, "err", terr)...)
	}
	return nil
}

// saveUnits stores the units a trial finished; when the trial was
// interrupted, it still stores them (for its re-run), within a bounded time.
func (w *worker) saveUnits(tctx context.Context, a acquired, config string, got map[int]float64) error {
	if len(got) == 0 || config == "" {
		return nil
	}
	if tctx.Err() == nil {
		return w.st.hs.SaveUnits(tctx, w.studyID, a.trialID, config, got)
	}
	bg, cancel := context.WithTimeout(context.WithoutCancel(tctx), 30*time.Second)
	defer cancel()
	if err := w.st.hs.SaveUnits(bg, w.studyID, a.trialID, config, got); err != nil {
		// The re-run plays these units again: nothing is wrong, only slower.
		w.log.Warn("tune: could not store the finished cases of the interrupted trial", "trial", a.number, "err", err)
	}
	return nil
}

// handBack ends an interrupted trial (tctx ended): dropped if another
// worker declared it lost, else marked lost and queued again at once, so
// that the others need not wait for its heartbeat to go stale, with its
// finished units kept for the re-run. It returns errTimeout when the
// worker's timeout ended it, else ctx's error.
func (w *worker) handBack(ctx, tctx context.Context, a acquired, finished, n int) error {
	if errors.Is(context.Cause(tctx), errLost) && ctx.Err() == nil {
		w.log.Warn("tune: this worker's trial was declared lost by another worker; dropping it", "trial", a.number)
		return nil
	}
	timeout := errors.Is(context.Cause(ctx), errTimeout)
	why := "interrupted (worker " + w.name + ")"
	if timeout {
		why = fmt.Sprintf("stopped by --timeout %v with %d of %d cases finished (worker %s)", w.opt.Timeout, finished, n, w.name)
	}
	if finished > 0 {
		why += "; its re-run keeps the finished cases"
	}
	bg, cancelBg := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancelBg()
	err := w.st.locked(bg, w.studyID, func(tx *gorm.DB) error {
		return w.markLost(tx, rdb.NewStorage(tx), a.trialID, why)
	})
	if err != nil {
		w.log.Warn("tune: could not hand back the interrupted trial", "trial", a.number, "err", err)
	}
	if timeout {
		return fmt.Errorf("trial %d: %w", a.number, errTimeout)
	}
	return ctx.Err()
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
