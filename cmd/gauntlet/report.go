package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"gauntlet/harness/contract"
	"gauntlet/harness/results"
	"gauntlet/harness/store"
	"gauntlet/internal/untrusted"
	"gauntlet/reports"
	"gauntlet/strategies/param"
	"gauntlet/tuning"
)

func init() {
	register(&command{
		name:    "report",
		summary: "write tables, SVG/PNG plots and index.html for a stored eval run, ab run or tuning study",
		run:     runReport,
	})
}

// reportOutput is the --json answer of report.
type reportOutput struct {
	Kind     string         `json:"kind"`
	Dir      string         `json:"dir"`
	Index    string         `json:"index"`
	Headline []reports.Fact `json:"headline"`
	Notes    []string       `json:"notes,omitempty"`
	Files    []string       `json:"files"`
}

func runReport(ctx context.Context, e *env, args []string) (retErr error) {
	var study, run, ab, out, storage string
	var asJSON, noOptimum bool
	fs := newFlags(e, "report", "(--study NAME | --run ID | --ab ID) --out DIR [--storage URL]")
	fs.StringVar(&study, "study", "", "tuning or SPSA study name (see 'gauntlet tune --list', 'gauntlet spsa --list')")
	fs.StringVar(&run, "run", "", "id of a stored eval or ab run")
	fs.StringVar(&ab, "ab", "", "id of a stored ab run")
	fs.StringVar(&out, "out", "", "directory to write the report into (created if missing)")
	fs.StringVar(&storage, "storage", store.DefaultStorage, "results store: sqlite:FILE or postgres://...")
	fs.BoolVar(&asJSON, "json", false, "print the headline and the files written as JSON")
	fs.BoolVar(&noOptimum, "no-optimum", false, "eval runs: do not compute the optimum of each case (games that know it show the optimum and the gap by default)")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	chosen := 0
	for _, s := range []string{study, run, ab} {
		if s != "" {
			chosen++
		}
	}
	if chosen != 1 {
		return usagef("give exactly one of --study, --run or --ab")
	}
	if out == "" {
		return usagef("--out DIR is required")
	}
	if err := outputDir("--out", out); err != nil {
		return err
	}
	if err := readStorage("--storage", storage, "a report reads a stored run or study"); err != nil {
		return err
	}
	if err := existingDatabase(storage); err != nil {
		return err
	}
	var rep *reports.Report
	switch {
	case study != "":
		var ok bool // an SPSA study of that name, else a tuning study
		var err error
		if rep, ok, err = spsaReport(ctx, storage, study, out); err != nil {
			return err
		} else if ok {
			break
		}
		rec, err := tuning.LoadStudy(ctx, storage, study)
		if err != nil {
			return err
		}
		rep, err = reports.WriteStudyReport(out, studyFromRecord(rec, tuning.BuildSummary(rec)))
		if err != nil {
			return err
		}
	default:
		st, err := store.OpenReadOnly(ctx, storage)
		if err != nil {
			return err
		}
		defer closeInto(&retErr, st)
		if run != "" {
			// --run takes an ab run too: its kind decides the report.
			rec, err := st.Run(ctx, run)
			if err != nil {
				return err
			}
			if rec.Kind == "ab" {
				ab, run = run, ""
			} else if rec.Kind != "eval" {
				return fmt.Errorf("run %s is a %s run: report it with --study", run, rec.Kind)
			}
		}
		if run != "" {
			rs, _, err := results.LoadResults(ctx, st, contract.Default, run)
			if err != nil {
				return err
			}
			sum := results.SummarizeEval(rs)
			if !noOptimum {
				if err := sum.AddOptima(ctx, rs.Plan, runtime.NumCPU()); err != nil {
					return err
				}
			}
			g := rs.Plan.Game
			links, notes := reportReplays(ctx, st, out, run, reports.PickEvalReplays(sum, g.Info().Direction))
			if rep, err = reports.WriteEvalReport(out, g, sum, reports.WithReplays(links)); err != nil {
				return err
			}
			rep.Notes = append(rep.Notes, notes...)
		} else {
			sum, err := results.LoadABSummary(ctx, st, contract.Default, ab)
			if err != nil {
				return err
			}
			var picks []reports.ReplayPick
			if g, err := contract.Default.Game(sum.Game); err == nil {
				info := g.Info()
				picks = reports.PickABReplays(sum, info.MaxSeats == 1, info.Direction, 3)
			}
			links, notes := reportReplays(ctx, st, out, ab, picks)
			if rep, err = reports.WriteABReport(out, sum, reports.WithReplays(links)); err != nil {
				return err
			}
			rep.Notes = append(rep.Notes, notes...)
		}
	}
	if asJSON {
		return writeJSON(e.stdout, reportOutput{Kind: rep.Kind, Dir: out, Index: out + string(os.PathSeparator) + "index.html",
			Headline: rep.Headline, Notes: rep.Notes, Files: rep.Files})
	}
	fmt.Fprintln(e.stdout, rep.Summary)
	for _, n := range rep.Notes {
		fmt.Fprintln(e.stdout, "note:", untrusted.Line(n))
	}
	fmt.Fprintf(e.stdout, "%d files in %s; open %s\n", len(rep.Files), out, out+string(os.PathSeparator)+"index.html")
	return nil
}

// reportReplays writes the viewer pages of the picked games of a stored run
// into dir/replays. A game that cannot be watched (its game has no viewer,
// an external bot's moves were not recorded) is a note, not a failure.
func reportReplays(ctx context.Context, st *store.Store, dir, run string, picks []reports.ReplayPick) ([]reports.ReplayLink, []string) {
	var links []reports.ReplayLink
	var notes []string
	for _, p := range picks {
		for _, key := range p.Keys {
			r, v, err := results.WatchStored(ctx, st, contract.Default, run, key)
			if err != nil {
				notes = append(notes, fmt.Sprintf("no replay of %s: %v", key, err))
				continue
			}
			file := reports.ReplayFile(key)
			if err := os.MkdirAll(filepath.Join(dir, "replays"), 0o755); err != nil {
				notes = append(notes, fmt.Sprintf("no replay of %s: %v", key, err))
				continue
			}
			if err := reports.WriteReplayFile(filepath.Join(dir, file), r, v.Renderer()); err != nil {
				notes = append(notes, fmt.Sprintf("no replay of %s: %v", key, err))
				continue
			}
			links = append(links, reports.ReplayLink{Why: p.Why, Case: p.Case, Key: key, File: file})
		}
	}
	return links, notes
}

// studyFromRecord converts a stored study (and its summary, for the default
// value and the improvement) into the plain data a report takes. Categorical
// parameters (string values) become the index of their choice.
func studyFromRecord(rec *tuning.StudyRecord, sum *tuning.Summary) *reports.Study {
	s := &reports.Study{Name: rec.Name, Game: rec.Spec.Game, Strategy: rec.Spec.Strategy, Cases: rec.Spec.Cases,
		Params: append([]string{}, rec.Spec.Space...), Choices: map[string][]string{}, Direction: rec.Spec.Direction}
	if len(rec.Spec.Opponents) > 0 {
		s.Objective = "score fraction against the opponent pool " + strings.Join(rec.Spec.Opponents, ", ") + " (seats swapped per case)"
	} else {
		s.Objective = "mean score per case"
	}
	if sum != nil && sum.Objective != "" {
		s.Objective = sum.Objective
	}
	for _, u := range rec.Units {
		name := u.Case
		if u.Opponent != "" {
			name += " vs " + u.Opponent
		}
		s.Units = append(s.Units, name)
	}
	// Every parameter seen in a trial is shown, searched ones first.
	known := map[string]bool{}
	for _, p := range s.Params {
		known[p] = true
	}
	var extra []string
	choices := map[string]map[string]bool{}
	for _, t := range rec.Trials {
		for k, v := range t.Params {
			if !known[k] {
				known[k] = true
				extra = append(extra, k)
			}
			if str, ok := v.(string); ok {
				if choices[k] == nil {
					choices[k] = map[string]bool{}
				}
				choices[k][str] = true
			}
		}
	}
	sort.Strings(extra)
	s.Params = append(s.Params, extra...)
	// Choices in their declared order when the strategy is registered here,
	// else the names seen, sorted; log-scale parameters get a log axis.
	var specs param.Specs
	if st, err := contract.Default.Strategy(rec.Spec.Game, rec.Spec.Strategy); err == nil {
		specs = st.Params
	}
	declared := map[string]param.Spec{}
	for _, sp := range specs {
		declared[sp.Name] = sp
	}
	for k, set := range choices {
		var list []string
		if sp, ok := declared[k]; ok && sp.Kind == param.Categorical {
			list = append(list, sp.Choices...)
			for _, c := range list {
				delete(set, c)
			}
		}
		var rest []string
		for c := range set {
			rest = append(rest, c)
		}
		sort.Strings(rest)
		s.Choices[k] = append(list, rest...)
	}
	for _, sp := range specs {
		if sp.Kind == param.LogFloat {
			if s.Log == nil {
				s.Log = map[string]bool{}
			}
			s.Log[sp.Name] = true
		}
	}
	for _, t := range rec.Trials {
		tr := reports.Trial{Number: t.Number, State: t.State, Value: t.Value, Params: map[string]float64{},
			Scores: t.Scores}
		for k, v := range t.Params {
			if x, ok := paramNumber(v, s.Choices[k]); ok {
				tr.Params[k] = x
			}
		}
		for _, st := range t.Intermediate {
			tr.Intermediate = append(tr.Intermediate, reports.Step{Step: st.Step, Value: st.Value})
		}
		s.Trials = append(s.Trials, tr)
	}
	if sum != nil {
		s.DefaultValue, s.Improvement, s.CI95, s.WilcoxonP = sum.DefaultValue, sum.Improvement, sum.CI95, sum.WilcoxonP
		s.Notes = append(s.Notes, sum.Notes...)
		if sum.DefaultValue == nil && sum.DefaultState != "" {
			s.Notes = append(s.Notes, "the default configuration"+strings.TrimPrefix(defaultLine(sum), "default"))
		}
		s.Notes = append(s.Notes, configsLine(sum))
	}
	return s
}

// paramNumber turns a parameter value in Goptuna's external representation
// into a number: itself, or the index of a categorical choice.
func paramNumber(v any, choices []string) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case string:
		for i, c := range choices {
			if c == x {
				return float64(i), true
			}
		}
	}
	return 0, false
}
