package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/harness/store"
	"gauntlet/internal/owner"
	"gauntlet/internal/untrusted"
	"gauntlet/reports"
	"gauntlet/tuning"
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
	rf          runFlags
	noBaseTrial bool
	strategy    string
	params      multiFlag
	paramsFile  string
	cases       string
	trials      int
	space       string
	opponents   string
	fillers     string
	sampler     string
	seed        int64
	pruner      string
	pruneP      float64
	pruneMin    int
	chunk       int
	study       string
	timeout     time.Duration
	heartbeat   time.Duration
	worker      string
	bestJSON    string
	list        bool
}

func (f *tuneFlags) register(e *env) *flag.FlagSet {
	fs := newFlags(e, "tune", "--game G --strategy S --cases SET --trials N [flags]")
	f.rf.register(fs, false)
	fs.StringVar(&f.rf.storage, "storage", store.DefaultStorage, "study storage: sqlite:FILE or postgres://... (shared by all workers of a study); none: a temporary SQLite file")
	fs.StringVar(&f.strategy, "strategy", "", "strategy NAME[:k=v,...] whose declared parameters are tuned, or cmd:COMMAND with typed placeholders ({w:float[0,5]=1.5}) or {params@spec.json}")
	fs.Var(&f.params, "param", "base value k=v of a parameter (repeatable): kept by parameters outside --space, and part of the default configuration")
	fs.StringVar(&f.paramsFile, "params-file", "", "JSON file of base values (e.g. from an earlier --best-json)")
	fs.StringVar(&f.cases, "cases", "", "case set every trial plays (see 'gauntlet list'; default: the game's choice, else smoke)")
	fs.IntVar(&f.trials, "trials", 0, "trials in the study in all, whatever the number of workers (a larger number extends a study)")
	fs.StringVar(&f.space, "space", "", "comma-separated parameters to search (default: every declared parameter)")
	fs.StringVar(&f.opponents, "opponents", "", "opponent pool of 2+ player games, e.g. greedy,random (default: the game's lineup); each plays every case twice, seats swapped")
	fs.StringVar(&f.fillers, "fillers", "", "lineup for the other seats in games of more than two players, e.g. simple*4: each game seats the tuned strategy, one opponent of the pool and these (default: the opponent fills the seats the game needs)")
	fs.StringVar(&f.sampler, "sampler", "tpe", "sampler: tpe, cmaes or random")
	fs.Int64Var(&f.seed, "seed", 0, "sampler seed (tpe and random replay exactly with one worker)")
	fs.StringVar(&f.pruner, "pruner", "none", "pruner: none, median, sha (successive halving) or wilcoxon (paired, against the best trial)")
	fs.Float64Var(&f.pruneP, "prune-p", tuning.DefaultPruneP, "wilcoxon pruner: one-sided p-value below which a trial stops")
	fs.IntVar(&f.pruneMin, "prune-min", tuning.DefaultPruneMinCases, "wilcoxon pruner: paired cases needed before a trial may stop")
	fs.IntVar(&f.chunk, "chunk", 0, "cases between two intermediate values (0: automatic, about a tenth of the cases)")
	fs.StringVar(&f.study, "study", "", "study name (default: derived from game, strategy, cases, space, sampler and seed; the same command resumes it)")
	fs.DurationVar(&f.timeout, "timeout", 0, "stop after this long (0: none): no new trial starts, and a running trial is interrupted and queued again with its finished games kept (the same command resumes it)")
	fs.DurationVar(&f.heartbeat, "heartbeat", 10*time.Second, "heartbeat interval of a running trial; a trial silent for 3 intervals is re-run by another worker")
	fs.StringVar(&f.worker, "worker", "", "this worker's name in the study (default: host:pid.start)")
	fs.StringVar(&f.bestJSON, "best-json", "", "write the best configuration to this file ({\"game\",\"strategy\",\"params\",\"value\"}; 'gauntlet eval --params-file' reads it)")
	fs.BoolVar(&f.list, "list", false, "list the studies in --storage and exit")
	fs.BoolVar(&f.noBaseTrial, "no-base-trial", false, "do not run the base (default) configuration as a new study's first trial")
	return fs
}

// config turns the flags into a tuning request.
func (f *tuneFlags) config() (tuning.Config, error) {
	c := tuning.Config{Game: f.rf.game, Cases: f.cases, Opponents: f.opponents, Fillers: f.fillers, Sampler: f.sampler, Seed: f.seed,
		Pruner: f.pruner, Chunk: f.chunk}
	if f.rf.game == "" {
		return c, usagef("--game is required (games: %s)", gameNames())
	}
	if f.strategy == "" {
		return c, usagef("--strategy is required")
	}
	if err := f.rf.checkLimits(); err != nil {
		return c, err
	}
	// A built-in strategy's inline values come after the params file, as
	// --param does; an external command is taken whole.
	name, inline := f.strategy, ""
	if !strings.HasPrefix(name, "cmd:") {
		name, inline, _ = strings.Cut(f.strategy, ":")
	}
	c.Strategy = name
	c.Play = f.rf.playOptions(nil)
	if f.paramsFile != "" {
		m, err := readParamsFile(f.paramsFile)
		if err != nil {
			return c, err
		}
		c.Params = append(c.Params, paramAssignments(m)...)
	}
	if inline != "" {
		c.Params = append(c.Params, tuning.SplitNames(inline)...)
	}
	c.Params = append(c.Params, f.params...)
	c.Space = tuning.SplitNames(f.space)
	if c.Pruner == "wilcoxon" {
		c.PruneP, c.PruneMin = f.pruneP, f.pruneMin
	}
	if f.trials < 1 {
		return c, usagef("--trials %d: want at least 1", f.trials)
	}
	if f.heartbeat < 100*time.Millisecond {
		return c, usagef("--heartbeat %v: want at least 100ms", f.heartbeat)
	}
	return c, nil
}

func runTune(ctx context.Context, e *env, args []string) (retErr error) {
	var f tuneFlags
	fs := f.register(e)
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if err := f.check(setFlags(fs)); err != nil {
		return err
	}
	url, cleanup, err := tuneStorageURL(f.rf.storage)
	if err != nil {
		return err
	}
	defer cleanup()
	if f.list {
		if err := existingDatabase(url); err != nil {
			return err
		}
		list, err := tuning.ListStudies(ctx, url)
		if err != nil {
			return err
		}
		if f.rf.json {
			return writeJSON(e.stdout, list)
		}
		return studyTable(list).WriteText(e.stdout)
	}
	c, err := f.config()
	if err != nil {
		return err
	}
	t, err := tuning.New(contract.Default, c)
	if err != nil {
		return usagef("%v", err) // every error of New is about the request
	}
	st, err := tuning.OpenStorage(ctx, url)
	if err != nil {
		return err
	}
	mark := store.MarkFile(url) // checked before the study is reported
	defer closeInto(&retErr, st)
	level := slog.LevelInfo
	if f.rf.quiet {
		level = slog.LevelWarn
	}
	log := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level}))
	study := f.study
	if study == "" {
		study = t.Spec().DefaultName()
	}
	log.Info("tune: study", "study", study, "game", c.Game, "strategy", c.Strategy, "cases", c.Cases,
		"units", len(t.Units()), "space", strings.Join(t.Space().Tuned, ","), "sampler", t.Spec().Sampler,
		"pruner", t.Spec().Pruner, "chunk", t.Spec().Chunk, "trials", f.trials)
	if !f.noBaseTrial && f.trials > 0 {
		queued, err := t.EnqueueBase(ctx, st, study)
		if err != nil {
			return err
		}
		if queued {
			log.Info("tune: the base configuration is the study's first trial")
		}
	}
	f.rf.fitJobsTo(t.Game().Info(), t.External(), t.Seats(), runtime.NumCPU())
	start := time.Now()
	sum, err := t.Run(ctx, st, tuning.RunOptions{Study: study, Trials: f.trials, Jobs: f.rf.jobs, Timeout: f.timeout,
		Heartbeat: f.heartbeat, Worker: f.worker, Play: f.rf.playOptions(e), Log: log})
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%w: the study %s keeps its finished trials; run the same command again to resume", err, study)
		}
		return err
	}
	if err := mark.Check(); err != nil {
		return err
	}
	if f.bestJSON != "" {
		if err := writeBestJSON(f.bestJSON, sum); err != nil {
			return err
		}
	}
	if f.rf.json {
		return writeJSON(e.stdout, sum)
	}
	writeTuneSummary(e.stdout, sum, time.Since(start))
	return nil
}

// tuneStorageURL resolves --storage; "none" is a temporary SQLite file.
func tuneStorageURL(s string) (string, func(), error) {
	if s == "" || s == "none" {
		// Named with this process, so that a later run removes it if this
		// one is killed (see package owner).
		dir, err := owner.MkdirTemp("gauntlet-tune-")
		if err != nil {
			return "", nil, err
		}
		remove := func() {
			// A directory left behind is removed by the next run
			// (package owner), so a failure here loses nothing.
			_ = os.RemoveAll(dir)
		}
		return "sqlite:" + filepath.Join(dir, "tune.db"), remove, nil
	}
	if _, err := store.ParseStorage(s); err != nil {
		return "", nil, usagef("--storage: %v", err)
	}
	return s, func() {}, nil
}

// bestFile is what --best-json writes.
type bestFile struct {
	Game     string         `json:"game"`
	Strategy string         `json:"strategy"`
	Study    string         `json:"study"`
	Trial    int            `json:"trial"`
	Params   map[string]any `json:"params"`
	Value    float64        `json:"value"`
}

func writeBestJSON(path string, s *tuning.Summary) error {
	if s.BestValue == nil || s.BestTrial == nil {
		return fmt.Errorf("--best-json %s: the study has no complete trial", path)
	}
	data, err := json.MarshalIndent(bestFile{Game: gameArg(s.Game, s.Source), Strategy: s.Strategy, Study: s.Study, Trial: *s.BestTrial,
		Params: s.BestParams, Value: *s.BestValue}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("--best-json: %w", err)
	}
	return nil
}

// formatParams prints parameters as k=v in name order.
func formatParams(m map[string]any) string {
	keys := sortedKeys(m)
	parts := make([]string, len(keys))
	for i, k := range keys {
		v := m[k]
		if x, ok := v.(float64); ok {
			v = reports.Num(x)
		}
		parts[i] = fmt.Sprintf("%s=%v", k, v)
	}
	return untrusted.Line(strings.Join(parts, " ")) // a cat choice may come from a spec file
}

func optNum(x *float64) string {
	if x == nil {
		return "-"
	}
	return reports.Num(*x)
}

func writeTuneSummary(w io.Writer, s *tuning.Summary, wall time.Duration) {
	external := false
	for _, tr := range s.Trials {
		external = external || tr.Conduct != nil
	}
	tb := &reports.Table{Title: "trials of study " + s.Study,
		Header: []string{"#", "state", "value", "cases", "pruned at", "params"}}
	if external {
		// The first answer of a game includes the bot's start-up.
		tb.Header = append(tb.Header, "first answer", "later answers", "forfeits")
	}
	tb.Header = append(tb.Header, "note")
	for _, tr := range s.Trials {
		pruned := ""
		if tr.PrunedAt != nil {
			pruned = fmt.Sprint(*tr.PrunedAt)
		}
		state := tr.State
		if tr.RetryOf != nil {
			state += fmt.Sprintf(" (re-run of %d)", *tr.RetryOf)
		}
		if tr.RepeatOf != nil {
			state += fmt.Sprintf(" (repeat of %d)", *tr.RepeatOf)
		}
		row := []string{fmt.Sprint(tr.Number), state, optNum(tr.Value), fmt.Sprint(tr.Cases), pruned, formatParams(tr.Params)}
		note := tr.Reason
		switch {
		case tr.RepeatOf != nil:
			note = fmt.Sprintf("scores of trial %d taken, nothing played", *tr.RepeatOf)
		case tr.Reused > 0 && tr.RetryOf != nil:
			note = fmt.Sprintf("%d cases kept from the interrupted trial", tr.Reused)
		case tr.Reused > 0:
			note = fmt.Sprintf("%d cases taken from earlier trials with the same parameters", tr.Reused)
		}
		if tr.Base {
			note = strings.TrimPrefix(note+"; the default configuration", "; ")
		}
		if external {
			first, later, forfeits := "", "", ""
			if c := tr.Conduct; c != nil {
				if c.MaxMS > 0 {
					first, later = contract.MillisF(c.FirstMS), contract.MillisF(c.LaterMS)
				}
				forfeits = fmt.Sprintf("%d/%d", c.Forfeits, c.Games)
				if note == "" && c.FirstReason != "" {
					note = "first forfeit: " + c.FirstReason
				}
			}
			row = append(row, first, later, forfeits)
		}
		tb.Rows = append(tb.Rows, append(row, truncateText(note, 100)))
	}
	tb.NumericRight()
	if err := tb.WriteText(w); err != nil {
		fmt.Fprintln(w, err)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "study %s: %s %s on %s (%d scored cases), objective: %s\n", s.Study, untrusted.Line(gameArg(s.Game, s.Source)), s.Strategy, s.Cases, s.Units, s.Objective)
	if len(s.Opponents) > 0 {
		fmt.Fprintf(w, "opponents: %s\n", strings.Join(s.Opponents, ", "))
	}
	if len(s.Fillers) > 0 {
		fmt.Fprintf(w, "fillers (the other seats of every game): %s\n", strings.Join(s.Fillers, ", "))
	}
	fmt.Fprintf(w, "trials: %d complete, %d pruned, %d failed, %d lost (re-run), %d running; sampler %s seed %d, pruner %s, chunk %d\n",
		s.Complete, s.Pruned, s.Failed, s.Lost, s.Running, s.Sampler, s.Seed, s.Pruner, s.Chunk)
	if s.BestTrial != nil {
		fmt.Fprintf(w, "best trial %d: value %s\n  params: %s\n", *s.BestTrial, optNum(s.BestValue), formatParams(s.BestParams))
	} else {
		fmt.Fprintln(w, "best trial: none complete")
	}
	fmt.Fprintln(w, defaultLine(s))
	fmt.Fprintf(w, "  params: %s\n", formatParams(s.DefaultParams))
	if s.BestTrial != nil && s.DefaultTrial != nil && *s.BestTrial == *s.DefaultTrial {
		fmt.Fprintln(w, "improvement: none, the best trial is the default configuration")
	} else if s.Improvement != nil && s.CI95 != nil {
		what := "best - default"
		if s.Direction == contract.Lower {
			what = "default - best, lower is better"
		}
		line := fmt.Sprintf("improvement (%s, paired per case): %s, 95%% CI [%s, %s]",
			what, reports.Num(*s.Improvement), reports.Num(s.CI95[0]), reports.Num(s.CI95[1]))
		if s.WilcoxonP != nil {
			line += fmt.Sprintf(", Wilcoxon p = %.3g", *s.WilcoxonP)
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprintln(w, configsLine(s))
	if s.BestTotal != nil && s.DefaultTotal != nil {
		fmt.Fprintf(w, "official total: best %s, default %s\n", reports.Num(*s.BestTotal), reports.Num(*s.DefaultTotal))
	}
	fmt.Fprintln(w, s.ReproducibleNote)
	for _, n := range s.Notes {
		fmt.Fprintln(w, "note:", untrusted.Line(n))
	}
	if s.TimedOut {
		fmt.Fprintln(w, "stopped by --timeout before the budget was spent: a trial in progress was interrupted and queued again; run the same command to resume")
	}
	fmt.Fprintf(w, "wall %.1fs\n", wall.Seconds())
}

// defaultLine is the default configuration's value, or why it has none:
// "default (trial 0): value 0.41", "default (trial 0): failed (REASON)".
func defaultLine(s *tuning.Summary) string {
	what := "default"
	if s.DefaultTrial != nil {
		what = fmt.Sprintf("default (trial %d)", *s.DefaultTrial)
	}
	switch {
	case s.DefaultValue != nil:
		return fmt.Sprintf("%s: value %s", what, reports.Num(*s.DefaultValue))
	case s.DefaultState == "":
		return what + ": not evaluated"
	case s.DefaultReason != "":
		return fmt.Sprintf("%s: %s (%s); no improvement figures", what, s.DefaultState, truncateText(s.DefaultReason, 200))
	}
	return fmt.Sprintf("%s: %s; no improvement figures", what, s.DefaultState)
}

// configsLine says how many configurations the trials evaluated, and what
// became of repeated ones.
func configsLine(s *tuning.Summary) string {
	finished := s.Complete + s.Pruned + s.Failed
	line := fmt.Sprintf("configurations: %d distinct in %d finished trials", s.Distinct, finished)
	switch {
	case s.Repeats > 0:
		line += fmt.Sprintf("; %d repeats took the scores of earlier trials without playing", s.Repeats)
	case s.Distinct < finished && !s.Deterministic:
		line += "; repeats were played again"
	}
	if s.DeterministicNote != "" {
		line += " (" + s.DeterministicNote + ")"
	}
	return line
}

func studyTable(list []tuning.StudyInfo) *reports.Table {
	sort.SliceStable(list, func(i, j int) bool { return list[i].Created.Before(list[j].Created) })
	tb := &reports.Table{Title: "studies", Header: []string{"study", "game", "strategy", "cases", "sampler", "trials", "complete", "pruned", "failed", "running", "best", "created"}}
	for _, s := range list {
		tb.Rows = append(tb.Rows, []string{s.Name, untrusted.Line(gameArg(s.Game, s.Source)), s.Strategy, s.Cases, s.Sampler, fmt.Sprint(s.Trials), fmt.Sprint(s.Complete),
			fmt.Sprint(s.Pruned), fmt.Sprint(s.Failed), fmt.Sprint(s.Running), optNum(s.Best), s.Created.UTC().Format(time.RFC3339)})
	}
	tb.NumericRight()
	return tb
}

// gameArg is the --game value of a study's game: its source when it was
// made from a referee program, else its name.
func gameArg(name, source string) string {
	if source != "" {
		return source
	}
	return name
}

// truncateText shortens s to at most n runes for a table cell.
func truncateText(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
