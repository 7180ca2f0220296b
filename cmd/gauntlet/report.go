package main

import (
	"context"
	"errors"
	"fmt"
	"gauntlet/tuning/spsa"
	"gauntlet/workflow"
	"os"
	"path/filepath"
	"runtime"

	"gauntlet/harness"
	"gauntlet/internal/untrusted"
	"gauntlet/reports"
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
	fs.StringVar(&storage, "storage", harness.DefaultStorage, "results store: sqlite:FILE or postgres://...")
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
	if err := workflow.ReadStorage("--storage", storage, "a report reads a stored run or study"); err != nil {
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
		rep, err = reports.WriteStudyReport(out, reports.TuningStudy(harness.Default, rec, tuning.BuildSummary(rec)))
		if err != nil {
			return err
		}
	default:
		st, err := harness.OpenStoreReadOnly(ctx, storage)
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
			rs, _, err := harness.LoadResults(ctx, st, harness.Default, run)
			if err != nil {
				return err
			}
			sum := harness.SummarizeEval(rs)
			if !noOptimum {
				if err := sum.AddOptima(ctx, rs.Plan, runtime.NumCPU()); err != nil {
					return err
				}
			}
			g := rs.Plan.Game
			links, notes := reportReplays(ctx, st, out, run, reports.PickEvalReplays(sum, g.Info().HigherIsBetter))
			if rep, err = reports.WriteEvalReport(out, g, sum, reports.WithReplays(links)); err != nil {
				return err
			}
			rep.Notes = append(rep.Notes, notes...)
		} else {
			sum, err := harness.LoadABSummary(ctx, st, harness.Default, ab)
			if err != nil {
				return err
			}
			var picks []reports.ReplayPick
			if g, err := harness.Default.Game(sum.Game); err == nil {
				info := g.Info()
				picks = reports.PickABReplays(sum, info.MaxSeats == 1, info.HigherIsBetter, 3)
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
func reportReplays(ctx context.Context, st *harness.Store, dir, run string, picks []reports.ReplayPick) ([]reports.ReplayLink, []string) {
	var links []reports.ReplayLink
	var notes []string
	for _, p := range picks {
		for _, key := range p.Keys {
			r, v, err := harness.WatchStored(ctx, st, harness.Default, run, key)
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
	rep, err = reports.WriteSPSAReport(out, reports.SPSAStudyOf(rec, sum))
	return rep, true, err
}
