package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"runtime"
	"strings"
	"time"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/harness/runner"
	"gauntlet/harness/store"
	"gauntlet/reports"
	"gauntlet/tuning"
	"gauntlet/tuning/spsa"
	"gauntlet/workflow"
)

func init() {
	register(&command{
		name:    "spsa",
		summary: "tune many parameters at once by self-play with SPSA (fishtest's classic algorithm; shared, resumable studies)",
		run:     runSPSA,
	})
}

// spsaFlags are the flags of 'gauntlet spsa'.
type spsaFlags struct {
	studyFlags
	games     int
	cases     string
	seats     int
	seed      uint64
	cEnd      multiFlag
	rEnd      multiFlag
	gainsFile string
	aRatio    float64
	alpha     float64
	gamma     float64
	lease     time.Duration
	progress  time.Duration
	holdout   string
}

func (f *spsaFlags) register(e *env) *flag.FlagSet {
	fs := newFlags(e, "spsa", "--game G --strategy S --games N [--space p1,p2,...|all] [flags]")
	f.studyFlags.register(fs, studyHelp{
		strategy:     "strategy NAME[:k=v,...] whose parameters are tuned; its values after --param/--params-file are the start",
		param:        "start value k=v of a parameter (repeatable)",
		paramsFile:   "JSON file of start values (e.g. an earlier --best-json)",
		space:        "comma-separated parameters to tune, or all (every numeric parameter; categorical ones keep their start values)",
		spaceDefault: "all",
		study:        "study name (default: derived from the definition; the same command resumes it)",
		bestJSON:     "write the final values to this file ('gauntlet eval/ab/bot --params-file' read it)",
		list:         "list the SPSA studies in --storage and exit",
	})
	fs.IntVar(&f.games, "games", 0, "budget in games: games/2 iterations of one seat-swapped pair each (part of the study's definition)")
	fs.StringVar(&f.cases, "cases", "", "case set; iteration k plays its (k-1 mod size)-th case (default: seeds:GAMES/2, one case per iteration)")
	fs.IntVar(&f.seats, "seats", 0, "players per game (default: 2, or the game's minimum); seats beyond the pair hold the start values")
	fs.Uint64Var(&f.seed, "seed", 0, "study seed: Δ and the rounding of integer parameters come from it and the iteration number")
	fs.Var(&f.cEnd, "c-end", "perturbation at the last iteration: X for every parameter, or NAME=X (repeatable; default: a tenth of the range, at least 0.5 for integers; log-float parameters in log units)")
	fs.Var(&f.rEnd, "r-end", fmt.Sprintf("learning rate at the last iteration: X for every parameter, or NAME=X (repeatable; default %g)", spsa.DefaultREnd))
	fs.StringVar(&f.gainsFile, "gains-file", "", `JSON file of per-parameter settings: {"NAME": {"c_end": X, "r_end": Y}, "*": {...}}`)
	fs.Float64Var(&f.aRatio, "a-ratio", spsa.DefaultARatio, "stability constant A as a share of the iterations")
	fs.Float64Var(&f.alpha, "alpha", spsa.DefaultAlpha, "decay exponent of the step a_k = a/(A+k)^alpha")
	fs.Float64Var(&f.gamma, "gamma", spsa.DefaultGamma, "decay exponent of the perturbation c_k = c/k^gamma")
	fs.DurationVar(&f.lease, "lease", 30*time.Second, "claim on a block of iterations, renewed while it plays; a block whose worker is silent this long is played again by another")
	fs.StringVar(&f.holdout, "holdout", "", "case set the study does not play: once its budget is spent, the final values play the start values there (an A/B, seats swapped, stored beside the study; the same command resumes it)")
	fs.DurationVar(&f.progress, "progress", 10*time.Second, "interval between progress lines (iterations applied and the current values) on stderr")
	return fs
}

// config turns the flags into an SPSA request; every error is a usage
// error, found before a game is played.
func (f *spsaFlags) config() (spsa.Config, error) {
	c := spsa.Config{Game: f.rf.Game, Games: f.games, Cases: f.cases, Seats: f.seats, Seed: f.seed,
		ARatio: f.aRatio, Alpha: f.alpha, Gamma: f.gamma}
	if f.rf.Game == "" {
		return c, usagef("--game is required (games: %s)", workflow.GameNames())
	}
	if _, err := contract.Default.Game(f.rf.Game); err != nil {
		return c, usagef("--game: %v", err)
	}
	if f.strategy == "" {
		return c, usagef("--strategy is required")
	}
	if f.games == 0 {
		return c, usagef("--games is required: the budget in games (e.g. --games 40000)")
	}
	switch {
	case !(f.aRatio >= 0):
		return c, usagef("--a-ratio %v: want a number >= 0", f.aRatio)
	case !(f.alpha > 0):
		return c, usagef("--alpha %v: want a number > 0", f.alpha)
	case !(f.gamma > 0):
		return c, usagef("--gamma %v: want a number > 0", f.gamma)
	case f.lease < 100*time.Millisecond:
		return c, usagef("--lease %v: want at least 100ms", f.lease)
	case f.progress <= 0:
		return c, usagef("--progress %v: want a positive interval", f.progress)
	case f.rf.Jobs < 1:
		return c, usagef("--jobs %d: want at least 1", f.rf.Jobs)
	}
	if err := cli.OutputFiles("--best-json", f.bestJSON); err != nil {
		return c, err
	}
	assign, err := workflow.FileAssignments(f.paramsFile)
	if err != nil {
		return c, usagef("--params-file: %v", err)
	}
	external := strings.HasPrefix(f.strategy, "cmd:")
	if external {
		assign = append(assign, f.params...) // fixed placeholders take --param too
	}
	t, start, err := spsa.ResolveTarget(contract.Default, f.rf.Game, f.strategy, assign)
	if err != nil {
		return c, err
	}
	c.Target = t
	c.Start = start
	if !external {
		c.Start = append(c.Start, f.params...)
	}
	c.Space = tuning.SplitNames(f.space)
	if c.Settings, err = spsa.ParseSettings(f.gainsFile, f.cEnd, f.rEnd); err != nil {
		return c, err
	}
	return c, nil
}

func runSPSA(ctx context.Context, e *env, args []string) error {
	var f spsaFlags
	fs := f.register(e)
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if f.list {
		if f.rf.Storage == "" || f.rf.Storage == "none" {
			return usagef("--list reads a stored study: give --storage")
		}
		if _, err := store.ParseStorage(f.rf.Storage); err != nil {
			return usagef("--storage: %v", err)
		}
		return listStudies(ctx, e, f.rf.Storage, f.rf.json, spsa.ListStudies, reports.SPSAStudiesTable)
	}
	c, err := f.config()
	if err != nil {
		return err
	}
	s, err := spsa.New(contract.Default, c)
	if err != nil {
		return usagef("%v", err)
	}
	if err := f.checkHoldout(s.Spec()); err != nil {
		return err
	}
	url, cleanup, err := tuning.StorageURL(f.rf.Storage)
	if err != nil {
		return err
	}
	defer cleanup()
	log := tuning.Logger(e.stderr, f.rf.Quiet)
	sp := s.Spec()
	study := cmp.Or(f.study, sp.DefaultName())
	start := time.Now()
	sum, err := tuning.RunStudy(ctx, url, spsa.OpenStorage, study, "applied iterations", func(st *spsa.Storage) (*spsa.Summary, error) {
		names := make([]string, len(sp.Params))
		for i, p := range sp.Params {
			names[i] = p.Name
		}
		log.Info("spsa: study", "study", study, "game", sp.Game, "strategy", sp.Name, "cases", sp.Cases, "games", sp.Games,
			"iterations", sp.Iterations(), "space", strings.Join(names, ","), "seed", sp.Seed)
		if fixed := s.Space().Fixed; len(fixed) > 0 {
			log.Info("spsa: kept at their start values (categorical or single-valued)", "params", strings.Join(fixed, ","))
		}
		if g, err := contract.Default.Game(sp.Game); err == nil { // resolved by config already
			f.rf.FitJobsTo(g.Info(), strings.HasPrefix(f.strategy, "cmd:"), sp.Seats, runtime.NumCPU())
		}
		return s.Run(ctx, st, spsa.RunOptions{Study: study, Jobs: f.rf.Jobs, Lease: f.lease, Worker: f.worker,
			Play: f.rf.PlayOptions(), Log: log, Progress: f.progress})
	})
	if err != nil {
		return err
	}
	if f.bestJSON != "" {
		if err := tuning.WriteBestJSON(f.bestJSON, sum.Best()); err != nil {
			return err
		}
	}
	var held *workflow.ABResult
	if f.holdout != "" {
		if !sum.Complete {
			log.Info("spsa: the hold-out waits for the study to spend its budget (run the same command again)")
		} else {
			opt := f.rf.Options
			opt.Storage = url // where the study is, a temporary file without --storage
			if held, err = workflow.SPSAHoldout(ctx, opt, sum, f.holdout, e.stderr); err != nil {
				return err
			}
		}
	}
	if f.rf.json {
		return writeJSON(e.stdout, sum)
	}
	reports.WriteSPSASummary(e.stdout, sum, time.Since(start))
	if held != nil {
		fmt.Fprintf(e.stdout, "\nheld out (%s): the final values (A) against the start (B)\n", f.holdout)
		reports.WriteABText(e.stdout, held)
	}
	return nil
}

// checkHoldout refuses a --holdout set that the game does not know or that
// shares a case with the study's, before any game.
func (f *spsaFlags) checkHoldout(sp spsa.Spec) error {
	if f.holdout == "" {
		return nil
	}
	if sp.Seats > 2 {
		return usagef("--holdout: the study seats %d players; play its A/B with 'gauntlet ab --fillers'", sp.Seats)
	}
	g, err := contract.Default.Game(f.rf.Game)
	if err != nil {
		return usagef("--game: %v", err)
	}
	held, err := runner.CasesOf(g, f.holdout) // as the A/B will expand it
	if err != nil {
		return usagef("--holdout: %v", err)
	}
	studied, err := g.Cases(sp.Cases)
	if err != nil {
		return usagef("--cases: %v", err)
	}
	ids := func(cs []contract.Case) []string {
		out := make([]string, len(cs))
		for i, c := range cs {
			out[i] = c.ID
		}
		return out
	}
	if shared, first := tuning.SharedCases(ids(studied), ids(held)); shared > 0 {
		return usagef("--holdout %s shares %d case(s) with the study's cases %s (%s first): held-out cases must be new to the study", f.holdout, shared, sp.Cases, first)
	}
	return nil
}
