package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/store"
	"gauntlet/internal/bounded"
	"gauntlet/internal/untrusted"
	"gauntlet/reports"
	"gauntlet/tuning"
	"gauntlet/tuning/spsa"
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
	rf         runFlags
	strategy   string
	params     multiFlag
	paramsFile string
	space      string
	games      int
	cases      string
	seats      int
	seed       uint64
	cEnd       multiFlag
	rEnd       multiFlag
	gainsFile  string
	aRatio     float64
	alpha      float64
	gamma      float64
	study      string
	bestJSON   string
	lease      time.Duration
	worker     string
	progress   time.Duration
	list       bool
}

func (f *spsaFlags) register(e *env) *flag.FlagSet {
	fs := newFlags(e, "spsa", "--game G --strategy S --games N [--space p1,p2,...|all] [flags]")
	f.rf.register(fs, false)
	fs.StringVar(&f.rf.storage, "storage", store.DefaultStorage, "study storage: sqlite:FILE or postgres://... (shared by all workers of a study); none: a temporary SQLite file")
	fs.StringVar(&f.strategy, "strategy", "", "strategy NAME[:k=v,...] whose parameters are tuned; its values after --param/--params-file are the start")
	fs.Var(&f.params, "param", "start value k=v of a parameter (repeatable)")
	fs.StringVar(&f.paramsFile, "params-file", "", "JSON file of start values (e.g. an earlier --best-json)")
	fs.StringVar(&f.space, "space", "all", "comma-separated parameters to tune, or all (every numeric parameter; categorical ones keep their start values)")
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
	fs.StringVar(&f.study, "study", "", "study name (default: derived from the definition; the same command resumes it)")
	fs.StringVar(&f.bestJSON, "best-json", "", "write the final values to this file ('gauntlet eval/ab/bot --params-file' read it)")
	fs.DurationVar(&f.lease, "lease", 30*time.Second, "claim on a block of iterations, renewed while it plays; a block whose worker is silent this long is played again by another")
	fs.StringVar(&f.worker, "worker", "", "this worker's name in the study (default: host:pid.start)")
	fs.DurationVar(&f.progress, "progress", 10*time.Second, "interval between progress lines (iterations applied and the current values) on stderr")
	fs.BoolVar(&f.list, "list", false, "list the SPSA studies in --storage and exit")
	return fs
}

// gainSettings merges --gains-file, --c-end and --r-end (flags win).
func (f *spsaFlags) gainSettings() (map[string]spsa.Setting, error) {
	out := map[string]spsa.Setting{}
	if f.gainsFile != "" {
		data, err := bounded.ReadFile(context.Background(), f.gainsFile, bounded.SettingsSize)
		if err != nil {
			return nil, usagef("--gains-file: %v", err)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&out); err != nil {
			return nil, usagef("--gains-file %s: %v (want {\"NAME\": {\"c_end\": X, \"r_end\": Y}, ...})", f.gainsFile, err)
		}
	}
	for _, fl := range []struct {
		name string
		vals []string
		set  func(s *spsa.Setting, x float64)
	}{
		{"--c-end", f.cEnd, func(s *spsa.Setting, x float64) { s.CEnd = &x }},
		{"--r-end", f.rEnd, func(s *spsa.Setting, x float64) { s.REnd = &x }},
	} {
		for _, v := range fl.vals {
			name, num, ok := strings.Cut(v, "=")
			if !ok {
				name, num = spsa.AllParams, v
			}
			x, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
			if err != nil || strings.TrimSpace(name) == "" {
				return nil, usagef("%s %q: want X or NAME=X with X a number", fl.name, v)
			}
			s := out[strings.TrimSpace(name)]
			fl.set(&s, x)
			out[strings.TrimSpace(name)] = s
		}
	}
	return out, nil
}

// spsaTarget resolves --strategy into what SPSA tunes and the inline k=v
// assignments. External commands plug in here: an adapter from a `cmd:`
// entrant with declared parameters to spsa.Target (its Specs and an Entrant
// built from values) is all they need.
func spsaTarget(game, spec string, assign []string) (spsa.Target, []string, error) {
	if strings.HasPrefix(spec, "cmd:") {
		// An external command takes every value now (fixed placeholders
		// included); its declared parameters start from them.
		e, err := entrant.Parse(contract.Default, game, spec, assign...)
		if err != nil {
			return nil, nil, usagef("--strategy: %v", err)
		}
		if len(e.Specs()) == 0 {
			return nil, nil, usagef("--strategy %q declares no parameter to tune: declare them in its placeholders ({name:int[1,9]=5}, float, log, cat) or a spec file ({params@spec.json})", spec)
		}
		var start []string
		for _, sp := range e.Specs() {
			start = append(start, sp.Name+"="+sp.FormatValue(e.Params[sp.Name]))
		}
		return spsa.EntrantTarget{Base: e}, start, nil
	}
	name, inline, _ := strings.Cut(spec, ":")
	s, err := contract.Default.Strategy(game, name)
	if err != nil {
		return nil, nil, usagef("--strategy: %v", err)
	}
	return spsa.StrategyTarget{Strategy: s}, append(assign, tuning.SplitNames(inline)...), nil
}

// config turns the flags into an SPSA request; every error is a usage
// error, found before a game is played.
func (f *spsaFlags) config() (spsa.Config, error) {
	c := spsa.Config{Game: f.rf.game, Games: f.games, Cases: f.cases, Seats: f.seats, Seed: f.seed,
		ARatio: f.aRatio, Alpha: f.alpha, Gamma: f.gamma}
	if f.rf.game == "" {
		return c, usagef("--game is required (games: %s)", gameNames())
	}
	if _, err := contract.Default.Game(f.rf.game); err != nil {
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
	case f.rf.jobs < 1:
		return c, usagef("--jobs %d: want at least 1", f.rf.jobs)
	}
	if err := outputFiles("--best-json", f.bestJSON); err != nil {
		return c, err
	}
	var assign []string
	if f.paramsFile != "" {
		m, err := readParamsFile(f.paramsFile)
		if err != nil {
			return c, usagef("--params-file: %v", err)
		}
		assign = paramAssignments(m)
	}
	external := strings.HasPrefix(f.strategy, "cmd:")
	if external {
		assign = append(assign, f.params...) // fixed placeholders take --param too
	}
	t, start, err := spsaTarget(f.rf.game, f.strategy, assign)
	if err != nil {
		return c, err
	}
	c.Target = t
	c.Start = start
	if !external {
		c.Start = append(c.Start, f.params...)
	}
	c.Space = tuning.SplitNames(f.space)
	if c.Settings, err = f.gainSettings(); err != nil {
		return c, err
	}
	return c, nil
}

func runSPSA(ctx context.Context, e *env, args []string) (retErr error) {
	var f spsaFlags
	fs := f.register(e)
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if f.list {
		return listSPSA(ctx, e, &f)
	}
	c, err := f.config()
	if err != nil {
		return err
	}
	s, err := spsa.New(contract.Default, c)
	if err != nil {
		return usagef("%v", err)
	}
	url, cleanup, err := tuneStorageURL(f.rf.storage)
	if err != nil {
		return err
	}
	defer cleanup()
	st, err := spsa.OpenStorage(ctx, url)
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
		study = s.Spec().DefaultName()
	}
	sp := s.Spec()
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
		f.rf.fitJobsTo(g.Info(), strings.HasPrefix(f.strategy, "cmd:"), sp.Seats, runtime.NumCPU())
	}
	start := time.Now()
	sum, err := s.Run(ctx, st, spsa.RunOptions{Study: study, Jobs: f.rf.jobs, Lease: f.lease, Worker: f.worker,
		Play: f.rf.playOptions(e), Log: log, Progress: f.progress})
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%w: the study %s keeps its applied iterations; run the same command again to resume", err, study)
		}
		return err
	}
	if err := mark.Check(); err != nil {
		return err
	}
	if f.bestJSON != "" {
		if err := writeSPSABest(f.bestJSON, sum); err != nil {
			return err
		}
	}
	if f.rf.json {
		return writeJSON(e.stdout, sum)
	}
	writeSPSASummary(e.stdout, sum, time.Since(start))
	return nil
}

func listSPSA(ctx context.Context, e *env, f *spsaFlags) (retErr error) {
	if f.rf.storage == "" || f.rf.storage == "none" {
		return usagef("--list reads a stored study: give --storage")
	}
	ps, err := store.ParseStorage(f.rf.storage)
	if err != nil {
		return usagef("--storage: %v", err)
	}
	if ps.Dialect == "sqlite" && ps.Path != ":memory:" {
		if _, err := os.Stat(ps.Path); err != nil {
			return fmt.Errorf("--storage %s: no database: %w", f.rf.storage, err)
		}
	}
	st, err := spsa.OpenStorageReadOnly(ctx, f.rf.storage)
	if err != nil {
		return err
	}
	defer closeInto(&retErr, st)
	list, err := st.Studies(ctx)
	if err != nil {
		return err
	}
	if f.rf.json {
		return writeJSON(e.stdout, list)
	}
	tb := &reports.Table{Title: "SPSA studies", Header: []string{"study", "game", "strategy", "params", "games", "applied", "complete", "created"}}
	for _, s := range list {
		tb.Rows = append(tb.Rows, []string{s.Name, untrusted.Line(gameArg(s.Game, s.Source)), s.Target, strconv.Itoa(s.Params), strconv.Itoa(s.Games),
			strconv.Itoa(s.Applied), strconv.FormatBool(s.Complete), s.Created.UTC().Format(time.RFC3339)})
	}
	tb.NumericRight()
	return tb.WriteText(e.stdout)
}

// spsaBestFile is what --best-json writes; "params" is what --params-file
// reads.
type spsaBestFile struct {
	Game       string         `json:"game"`
	Strategy   string         `json:"strategy"`
	Study      string         `json:"study"`
	Iterations int            `json:"iterations"`
	Params     map[string]any `json:"params"`
}

func writeSPSABest(path string, s *spsa.Summary) error {
	data, err := json.MarshalIndent(spsaBestFile{Game: gameArg(s.Game, s.Source), Strategy: s.Target, Study: s.Study, Iterations: s.Applied, Params: s.Final}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("--best-json: %w", err)
	}
	return nil
}

// spsaParamTable lists each tuned parameter's start, final value and the
// distance moved.
func spsaParamTable(s *spsa.Summary) *reports.Table {
	tb := &reports.Table{Title: "parameters of SPSA study " + s.Study,
		Header: []string{"param", "kind", "min", "max", "start", "final", "moved", "moved % of range", "c_end", "r_end"}}
	for _, p := range s.Params {
		tb.Rows = append(tb.Rows, []string{p.Name, p.Kind, reports.Num(p.Min), reports.Num(p.Max), reports.Num(p.Start),
			reports.Num(p.Final), fmt.Sprintf("%+.4g", p.Moved), fmt.Sprintf("%+.1f%%", 100*p.MovedRange), reports.Num(p.CEnd), reports.Num(p.REnd)})
	}
	tb.NumericRight()
	return tb
}

func writeSPSASummary(w io.Writer, s *spsa.Summary, wall time.Duration) {
	if err := spsaParamTable(s).WriteText(w); err != nil {
		fmt.Fprintln(w, err)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "SPSA study %s: %s %s on %s, %d seats, seed %d\n", s.Study, untrusted.Line(gameArg(s.Game, s.Source)), s.Target, s.Cases, s.Seats, s.Seed)
	fmt.Fprintf(w, "iterations: %d of %d applied (%d games); A %g, alpha %g, gamma %g\n", s.Applied, s.Iterations, s.Played, s.A, s.Alpha, s.Gamma)
	games := max(s.Wins+s.Draws+s.Losses, 1)
	fmt.Fprintf(w, "theta+ against theta-: %d wins, %d draws, %d losses (score %.3f)\n", s.Wins, s.Draws, s.Losses,
		(float64(s.Wins)+float64(s.Draws)/2)/float64(games))
	fmt.Fprintf(w, "final: %s\n", formatParams(s.Final))
	if s.Replayed > 0 {
		fmt.Fprintf(w, "%d block(s) of iterations played again after their worker stopped\n", s.Replayed)
	}
	fmt.Fprintln(w, s.ReproducibleNote)
	fmt.Fprintf(w, "wall %.1fs\n", wall.Seconds())
}

// spsaReport writes the report of SPSA study name if the storage has one;
// ok is false when it has none (the name may be a tuning study).
func spsaReport(ctx context.Context, storage, name, out string) (rep *reports.Report, ok bool, err error) {
	rec, err := spsa.LoadStudy(ctx, storage, name)
	if errors.Is(err, spsa.ErrNoStudy) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	sum, err := spsa.BuildSummary(rec)
	if err != nil {
		return nil, false, err
	}
	rep, err = reports.WriteSPSAReport(out, spsaStudyFromRecord(rec, sum))
	return rep, true, err
}

// spsaStudyFromRecord converts a stored SPSA study into the plain data a
// report takes: θ after every applied iteration in the parameters' units.
func spsaStudyFromRecord(rec *spsa.Record, sum *spsa.Summary) *reports.SPSAStudy {
	s := &reports.SPSAStudy{Name: rec.Name, Game: sum.Game, Strategy: sum.Target, Cases: sum.Cases, Games: sum.Games,
		Applied: sum.Applied, Wins: sum.Wins, Draws: sum.Draws, Losses: sum.Losses, Reproducible: sum.ReproducibleNote}
	for _, p := range sum.Params {
		s.Params = append(s.Params, reports.SPSAParam{Name: p.Name, Kind: p.Kind, Min: p.Min, Max: p.Max, Start: p.Start,
			Final: p.Final, Theta: p.Theta, CEnd: p.CEnd, REnd: p.REnd})
	}
	for _, it := range rec.Iterations {
		v := make([]float64, len(it.Theta))
		for i, t := range it.Theta {
			if i < len(rec.Spec.Params) {
				v[i] = rec.Spec.Params[i].Value(t)
			}
		}
		s.Points = append(s.Points, reports.SPSAPoint{Games: 2 * it.Seq, Values: v})
	}
	if sum.Replayed > 0 {
		s.Notes = append(s.Notes, fmt.Sprintf("%d block(s) of iterations were played again after their worker stopped", sum.Replayed))
	}
	return s
}
