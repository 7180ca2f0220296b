package main

import (
	"context"
	"fmt"
	"os"

	"gauntlet/harness/contract"
	"gauntlet/harness/store"
	"gauntlet/internal/untrusted"
	"gauntlet/reports"
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

func runReport(ctx context.Context, e *env, args []string) error {
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
	rep, err := reports.WriteStoredReport(ctx, contract.Default, reports.Stored{Storage: storage, Study: study, Run: run, AB: ab, NoOptimum: noOptimum}, out)
	if err != nil {
		return err
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
