package tuning

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/c-bata/goptuna"
	"github.com/c-bata/goptuna/cmaes"
	rdb "github.com/c-bata/goptuna/rdb.v2"
	"gorm.io/gorm"

	"gauntlet/harness"
	"gauntlet/internal/sqldb"
	"gauntlet/strategies/param"
)

// RunOptions are a worker's settings; they do not define the study.
type RunOptions struct {
	// Study is the study name ("": Spec.DefaultName()).
	Study string
	// Trials is the study's budget: the number of finished trials (complete,
	// pruned or failed) it gets in all, whatever the number of workers.
	// Trials lost with a dead worker do not count; they are re-run. Running
	// again with a larger number extends the study.
	Trials int
	// Jobs is the number of games played in parallel within a trial.
	Jobs int
	// Timeout ends the study's work in this process after this long (0:
	// none): no new trial starts, and the trial in progress is interrupted
	// (its games are cancelled), handed back as lost and queued again with
	// its finished units kept, so that a later run resumes it.
	Timeout time.Duration
	// Heartbeat is how often a running trial's heartbeat is renewed (0: 10s).
	// A trial whose heartbeat is older than three intervals is lost: a
	// surviving or restarted worker marks it failed and re-runs its
	// parameters.
	Heartbeat time.Duration
	// Worker names this process in the heartbeat table ("": host:TOKEN, see
	// sqldb.WorkerName).
	Worker string
	// Play is passed to every game.
	Play harness.PlayOptions
	// Log receives progress (nil: slog.Default()).
	Log *slog.Logger
}

func (o *RunOptions) heartbeat() time.Duration {
	if o.Heartbeat > 0 {
		return o.Heartbeat
	}
	return 10 * time.Second
}

// StaleFactor is how many heartbeat intervals without a beat make a trial
// lost.
const StaleFactor = 3

// errLost cancels a trial whose heartbeat row was taken over.
var errLost = errors.New("trial declared lost by another worker")

// errTimeout ends the work of a worker whose RunOptions.Timeout passed.
var errTimeout = errors.New("--timeout reached")

// worker runs trials of one study.
type worker struct {
	t       *Tuner
	st      *Storage
	study   *goptuna.Study
	name    string
	studyID int
	opt     RunOptions
	log     *slog.Logger
	pace    pace
}

// Run works on the study until its budget is spent (waiting for the other
// workers' trials, which it takes over if their heartbeats stop), the
// timeout passes or ctx ends, and returns the study's summary. Interrupted,
// it hands its running trial back (marked lost and queued for a re-run) and
// returns ctx's error.
func (t *Tuner) Run(ctx context.Context, st *Storage, opt RunOptions) (*Summary, error) {
	if opt.Trials < 1 {
		return nil, fmt.Errorf("trials %d: want at least 1", opt.Trials)
	}
	if opt.Study == "" {
		opt.Study = t.spec.DefaultName()
	}
	if opt.Worker == "" {
		opt.Worker = sqldb.WorkerName()
	}
	log := opt.Log
	if log == nil {
		log = slog.Default()
	}
	sid, err := st.ensureStudy(ctx, opt.Study, t.spec, t.Units())
	if err != nil {
		return nil, err
	}
	study, err := t.loadStudy(st, opt.Study, log)
	if err != nil {
		return nil, err
	}
	w := &worker{t: t, st: st, study: study, name: opt.Worker, studyID: sid, opt: opt, log: log}
	if err := w.startPace(ctx); err != nil {
		return nil, fmt.Errorf("study %s: counting its trials: %w", opt.Study, err)
	}
	// rctx ends with the timeout: it interrupts the running trial too.
	rctx := ctx
	if opt.Timeout > 0 {
		var cancel context.CancelFunc
		rctx, cancel = context.WithTimeoutCause(ctx, opt.Timeout, errTimeout)
		defer cancel()
	}
	timedOut := false
	poll := min(max(opt.heartbeat()/2, 50*time.Millisecond), 2*time.Second)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if rctx.Err() != nil {
			timedOut = true
			break
		}
		a, err := w.acquire(ctx)
		if err != nil {
			return nil, fmt.Errorf("study %s: taking a trial: %w", opt.Study, err)
		}
		if a.done {
			break
		}
		if a.trialID == 0 {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-rctx.Done():
			case <-time.After(poll):
			}
			continue
		}
		if err := w.run(rctx, a); errors.Is(err, errTimeout) && ctx.Err() == nil {
			timedOut = true
			break
		} else if err != nil {
			return nil, err
		}
	}
	if timedOut {
		log.Info("tune: --timeout reached; no new trials, and a trial in progress was interrupted and queued again", "study", opt.Study, "timeout", opt.Timeout)
	}
	// After a timeout nothing more is played: a default configuration
	// no trial evaluated stays unknown rather than delaying the answer.
	sum, err := t.summarize(ctx, st, opt.Study, opt.Jobs, opt.Play, !timedOut)
	if err != nil {
		return nil, err
	}
	sum.Budget = opt.Trials
	sum.TimedOut = timedOut
	return sum, nil
}

// loadStudy opens the Goptuna study with our samplers and pruner.
func (t *Tuner) loadStudy(st *Storage, name string, log *slog.Logger) (*goptuna.Study, error) {
	pr, err := t.pruner(st)
	if err != nil {
		return nil, err
	}
	seed := uint64(t.spec.Seed)
	var sampler goptuna.Sampler = &RandomSampler{Seed: seed}
	if t.spec.Sampler == "tpe" {
		sampler = &TPESampler{Seed: seed}
	}
	opts := []goptuna.StudyOption{
		goptuna.StudyOptionStorage(st.rdb),
		goptuna.StudyOptionLogger(goptunaLog{log}),
		goptuna.StudyOptionSampler(sampler),
		goptuna.StudyOptionPruner(pr),
		goptuna.StudyOptionDefineSearchSpace(t.space.Distributions()),
	}
	if t.spec.Sampler == "cmaes" {
		opts = append(opts, goptuna.StudyOptionRelativeSampler(cmaDirection{cmaes.NewSampler(
			cmaes.SamplerOptionSeed(t.spec.Seed),
			cmaes.SamplerOptionInitialMean(t.cmaMean()))}))
	}
	return goptuna.LoadStudy(name, opts...)
}

// cmaMean starts CMA-ES at the base values (in its coordinates: logarithms
// for log-float parameters).
func (t *Tuner) cmaMean() map[string]float64 {
	out := map[string]float64{}
	for _, n := range t.space.Tuned {
		s, _ := t.space.Specs.Lookup(n)
		x := t.space.Base[n]
		switch Distribution(s).(type) {
		case goptuna.LogUniformDistribution:
			out[n] = math.Log(x)
		case goptuna.CategoricalDistribution:
		default:
			out[n] = x
		}
	}
	return out
}

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
		waiting, err := w.st.waitingTrials(tx, w.studyID)
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
		running, err := w.st.countTrials(tx, w.studyID, true)
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
	rows, err := w.st.runningTrials(tx, w.studyID)
	if err != nil {
		return err
	}
	for _, r := range rows {
		if r.Worker == nil || r.Age == nil || r.StaleMs == nil {
			if err := w.st.startHeartbeat(tx, w.studyID, r.TrialID, "unknown", w.staleMS()); err != nil {
				return err
			}
			continue
		}
		var why string
		switch {
		case *r.Worker != w.name && sqldb.Gone(*r.Worker):
			// A worker of this machine killed (-9, or by the machine):
			// no need to wait for its heartbeat to go stale.
			why = fmt.Sprintf("worker %s: its process is gone (this machine); noticed by %s", *r.Worker, w.name)
		case *r.Age > *r.StaleMs:
			why = fmt.Sprintf("worker %s: no heartbeat for %.1fs (limit %.1fs); noticed by %s", *r.Worker,
				float64(*r.Age)/1000, float64(*r.StaleMs)/1000, w.name)
		default:
			continue
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
	if err := w.st.dropHeartbeat(tx, id); err != nil {
		return err
	}
	txStudy := &goptuna.Study{ID: w.studyID, Storage: ts}
	if err := txStudy.EnqueueTrial(ft.InternalParams); err != nil {
		return err
	}
	newID, err := w.st.lastTrial(tx, w.studyID)
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
				held, err := w.st.beat(hctx, id, w.name)
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

// outcome of one trial's evaluation.
type outcome int

const (
	outComplete outcome = iota
	outPruned
	outFailed
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
	det, _ := w.t.deterministic(values)
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
	var tally *harness.ConductTally
	if w.t.base.IsExternal() {
		tally = &harness.ConductTally{}
	}
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
			if c := tally.Conduct(); c.Games > 0 && c.Forfeits == c.Games {
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
		owner, err := w.st.heartbeatOwner(tx, a.trialID)
		if err != nil {
			return err
		}
		if owner != w.name {
			lost = true
			return nil
		}
		ts := rdb.NewStorage(tx)
		if tally != nil && tally.Conduct().Games > 0 {
			js, err := json.Marshal(trialConduct(tally.Conduct()))
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
		return w.st.dropHeartbeat(tx, a.trialID)
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
		return w.st.saveUnits(tctx, w.studyID, a.trialID, config, got)
	}
	bg, cancel := context.WithTimeout(context.WithoutCancel(tctx), 30*time.Second)
	defer cancel()
	if err := w.st.saveUnits(bg, w.studyID, a.trialID, config, got); err != nil {
		// The re-run plays these units again: nothing is wrong, only slower.
		w.log.Warn("tune: could not store the finished cases of the interrupted trial", "trial", a.number, "err", err)
	}
	return nil
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

// goptunaLog sends Goptuna's messages to slog (its routine ones at debug
// level).
type goptunaLog struct{ l *slog.Logger }

var _ goptuna.Logger = goptunaLog{}

func (g goptunaLog) Debug(msg string, fields ...any) { g.l.Debug("goptuna: "+msg, "fields", fields) }
func (g goptunaLog) Info(msg string, fields ...any)  { g.l.Debug("goptuna: "+msg, "fields", fields) }
func (g goptunaLog) Warn(msg string, fields ...any)  { g.l.Warn("goptuna: "+msg, "fields", fields) }
func (g goptunaLog) Error(msg string, fields ...any) { g.l.Error("goptuna: "+msg, "fields", fields) }

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
		id, err := st.lastTrial(tx, sid)
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
		n, err := st.countTrials(tx, sid, false)
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
		id, err := st.lastTrial(tx, sid)
		if err != nil {
			return err
		}
		queued = true
		return ts.SetTrialSystemAttr(id, attrSlot, "0")
	})
	return queued, err
}
