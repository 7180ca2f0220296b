package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"runtime"
	"strings"
	"time"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/reports"
	"gauntlet/tuning"
	"gauntlet/workflow"
)

func init() {
	register(&command{
		name:    "tune",
		summary: "tune a strategy's parameters with Goptuna (TPE, CMA-ES, random; pruning; shared studies)",
		run:     runTune,
	})
}

// tuneFlags are the flags of 'gauntlet tune'.
type tuneFlags struct {
	studyFlags
	noBaseTrial bool
	cases       string
	holdout     string
	trials      int
	opponents   string
	opponent    []string
	fillers     string
	sampler     string
	seed        int64
	pruner      string
	pruneP      float64
	pruneMin    int
	chunk       int
	timeout     time.Duration
	heartbeat   time.Duration
}

func (f *tuneFlags) register(e *env) *flag.FlagSet {
	fs := newFlags(e, "tune", "--game G --strategy S --cases SET --trials N [flags]")
	f.studyFlags.register(fs, studyHelp{
		strategy:   "strategy NAME[:k=v,...] whose declared parameters are tuned, or cmd:COMMAND with typed placeholders ({w:float[0,5]=1.5}) or {params@spec.json}",
		param:      "base value k=v of a parameter (repeatable): kept by parameters outside --space, and part of the default configuration",
		paramsFile: "JSON file of base values (e.g. from an earlier --best-json)",
		space:      "comma-separated parameters to search, each NAME or NAME=LO:HI to draw it from a narrower range than the declared one (default: every declared parameter, whole range)",
		study:      "study name (default: derived from game, strategy, cases, space, sampler and seed; the same command resumes it)",
		bestJSON:   "write the best configuration to this file ({\"game\",\"strategy\",\"params\",\"value\"}; 'gauntlet eval --params-file' reads it)",
		list:       "list the studies in --storage and exit",
	})
	fs.StringVar(&f.cases, "cases", "", "case set every trial plays (see 'gauntlet list'; default: the game's choice, else smoke)")
	fs.StringVar(&f.holdout, "holdout", "", "case set the study does not play: once it ends, the best trial and the default configuration play it too, paired per case (stored as two studies of one trial beside the study; the same command resumes them)")
	fs.IntVar(&f.trials, "trials", 0, "trials in the study in all, whatever the number of workers (a larger number extends a study)")
	fs.StringVar(&f.opponents, "opponents", "", "opponent pool of 2+ player games, e.g. greedy,random (default: the game's lineup); each plays every case twice, seats swapped")
	fs.Var((*multiFlag)(&f.opponent), "opponent", "one more opponent of the pool, e.g. 'cmd:./bot --w 1,2' (repeatable; its commas are its own)")
	fs.StringVar(&f.fillers, "fillers", "", "lineup for the other seats in games of more than two players, e.g. simple*4: each game seats the tuned strategy, one opponent of the pool and these (default: the opponent fills the seats the game needs)")
	fs.StringVar(&f.sampler, "sampler", "tpe", "sampler: tpe, cmaes or random")
	fs.Int64Var(&f.seed, "seed", 0, "sampler seed (tpe and random replay exactly with one worker)")
	fs.StringVar(&f.pruner, "pruner", "none", "pruner: none, median, sha (successive halving) or wilcoxon (paired, against the best trial)")
	fs.Float64Var(&f.pruneP, "prune-p", tuning.DefaultPruneP, "wilcoxon pruner: one-sided p-value below which a trial stops")
	fs.IntVar(&f.pruneMin, "prune-min", tuning.DefaultPruneMinCases, "wilcoxon pruner: paired cases needed before a trial may stop")
	fs.IntVar(&f.chunk, "chunk", 0, "cases between two intermediate values (0: automatic, about a tenth of the cases)")
	fs.DurationVar(&f.timeout, "timeout", 0, "stop after this long (0: none): no new trial starts, and a running trial is interrupted and queued again with its finished games kept (the same command resumes it)")
	fs.DurationVar(&f.heartbeat, "heartbeat", 10*time.Second, "heartbeat interval of a running trial; a trial silent for 3 intervals is re-run by another worker")
	fs.BoolVar(&f.noBaseTrial, "no-base-trial", false, "do not run the base (default) configuration as a new study's first trial")
	return fs
}

// config turns the flags into a tuning request.
func (f *tuneFlags) config() (tuning.Config, error) {
	c := tuning.Config{Game: f.rf.Game, Cases: f.cases, Opponents: f.opponents, OpponentCmds: f.opponent, Fillers: f.fillers, Sampler: f.sampler, Seed: f.seed,
		Pruner: f.pruner, Chunk: f.chunk}
	if f.rf.Game == "" {
		return c, usagef("--game is required (games: %s)", workflow.GameNames())
	}
	if f.strategy == "" {
		return c, usagef("--strategy is required")
	}
	if err := f.rf.CheckLimits(); err != nil {
		return c, err
	}
	// A built-in strategy's inline values come after the params file, as
	// --param does; an external command is taken whole.
	name, inline := f.strategy, ""
	if !strings.HasPrefix(name, "cmd:") {
		name, inline, _ = strings.Cut(f.strategy, ":")
	}
	c.Strategy = name
	c.Play = f.rf.PlayOptions()
	assign, err := workflow.FileAssignments(f.paramsFile)
	if err != nil {
		return c, err
	}
	c.Params = append(c.Params, assign...)
	if inline != "" {
		c.Params = append(c.Params, tuning.SplitNames(inline)...)
	}
	c.Params = append(c.Params, f.params...)
	c.Space = tuning.SplitNames(f.space)
	if c.Pruner == "wilcoxon" {
		c.PruneP, c.PruneMin = f.pruneP, f.pruneMin
	}
	return c, nil
}

func runTune(ctx context.Context, e *env, args []string) error {
	var f tuneFlags
	fs := f.register(e)
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if err := f.check(cli.SetFlags(fs)); err != nil {
		return err
	}
	url, cleanup, err := tuning.StorageURL(f.rf.Storage)
	if err != nil {
		return err
	}
	defer cleanup()
	if f.list {
		return listStudies(ctx, e, url, f.rf.json, tuning.ListStudies, reports.StudiesTable)
	}
	c, err := f.config()
	if err != nil {
		return err
	}
	t, err := tuning.New(contract.Default, c)
	if err != nil {
		return usagef("%v", err) // every error of New is about the request
	}
	var hold *tuning.HoldoutPlan
	if f.holdout != "" {
		if hold, err = tuning.NewHoldout(contract.Default, c, t, f.holdout); err != nil {
			return usagef("%v", err)
		}
	}
	log := tuning.Logger(e.stderr, f.rf.Quiet)
	study := cmp.Or(f.study, t.Spec().DefaultName())
	start := time.Now()
	sum, err := tuning.RunStudy(ctx, url, tuning.OpenStorage, study, "finished trials", func(st *tuning.Storage) (*tuning.Summary, error) {
		log.Info("tune: study", "study", study, "game", c.Game, "strategy", c.Strategy, "cases", c.Cases,
			"units", len(t.Units()), "space", strings.Join(t.Space().Items(), ","), "sampler", t.Spec().Sampler,
			"pruner", t.Spec().Pruner, "chunk", t.Spec().Chunk, "trials", f.trials)
		if !f.noBaseTrial {
			queued, err := t.EnqueueBase(ctx, st, study)
			if err != nil {
				return nil, err
			}
			if queued {
				log.Info("tune: the base configuration is the study's first trial")
			}
		}
		f.rf.FitJobsTo(t.Game().Info(), t.External(), t.Seats(), runtime.NumCPU())
		opt := tuning.RunOptions{Study: study, Trials: f.trials, Jobs: f.rf.Jobs, Timeout: f.timeout,
			Heartbeat: f.heartbeat, Worker: f.worker, Play: f.rf.PlayOptions(), Log: log}
		sum, err := t.Run(ctx, st, opt)
		if err != nil || hold == nil {
			return sum, err
		}
		return sum, f.playHoldout(ctx, st, hold, sum, opt, start)
	})
	if err != nil {
		return err
	}
	if f.bestJSON != "" {
		best, err := sum.Best(f.bestJSON)
		if err != nil {
			return err
		}
		if err := tuning.WriteBestJSON(f.bestJSON, best); err != nil {
			return err
		}
	}
	if f.rf.json {
		return writeJSON(e.stdout, sum)
	}
	reports.WriteTuneSummary(e.stdout, sum, time.Since(start))
	return nil
}

// playHoldout plays the hold-out of a finished study into sum.Holdout:
// nothing when the study has no best trial other than the default, or when
// --timeout stopped it; within what is left of --timeout.
func (f *tuneFlags) playHoldout(ctx context.Context, st *tuning.Storage, hold *tuning.HoldoutPlan, sum *tuning.Summary, opt tuning.RunOptions, start time.Time) error {
	switch {
	case sum.TimedOut:
		opt.Log.Info("tune: the hold-out waits for the study to finish (run the same command again)")
		return nil
	case sum.BestTrial == nil:
		opt.Log.Info("tune: no complete trial: nothing to hold out")
		return nil
	case sum.DefaultTrial != nil && *sum.BestTrial == *sum.DefaultTrial:
		opt.Log.Info("tune: the best trial is the default configuration: nothing to hold out")
		return nil
	}
	if opt.Timeout > 0 {
		if opt.Timeout -= time.Since(start); opt.Timeout <= 0 {
			opt.Log.Info("tune: --timeout reached before the hold-out; run the same command again to play it")
			return nil
		}
	}
	opt.Log.Info("tune: hold-out", "cases", f.holdout, "best_trial", *sum.BestTrial)
	ho, err := hold.Run(ctx, st, sum.Study, *sum.BestTrial, sum.BestParams, opt)
	if errors.Is(err, tuning.ErrTimeout) {
		opt.Log.Info("tune: --timeout reached during the hold-out; what it played is stored: run the same command again to finish it")
		return nil
	}
	sum.Holdout = ho
	return err
}
