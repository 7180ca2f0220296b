package tuning

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"time"

	"github.com/c-bata/goptuna"
	"github.com/c-bata/goptuna/cmaes"

	"gauntlet/harness/contract"
	"gauntlet/internal/sqldb"
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
	Play contract.PlayOptions
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

const (
	outComplete outcome = iota
	outPruned
	outFailed
)

// goptunaLog sends Goptuna's messages to slog (its routine ones at debug
// level).
type goptunaLog struct{ l *slog.Logger }

var _ goptuna.Logger = goptunaLog{}

func (g goptunaLog) Debug(msg string, fields ...any) { g.l.Debug("goptuna: "+msg, "fields", fields) }
func (g goptunaLog) Info(msg string, fields ...any)  { g.l.Debug("goptuna: "+msg, "fields", fields) }
func (g goptunaLog) Warn(msg string, fields ...any)  { g.l.Warn("goptuna: "+msg, "fields", fields) }
func (g goptunaLog) Error(msg string, fields ...any) { g.l.Error("goptuna: "+msg, "fields", fields) }
