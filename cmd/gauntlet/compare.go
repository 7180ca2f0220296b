package main

import (
	"cmp"
	"context"
	"fmt"

	"gauntlet/harness/store"
	"gauntlet/internal/untrusted"
	"gauntlet/reports"
	"gauntlet/workflow"
)

func init() {
	register(&command{
		name:    "compare",
		summary: "compare two stored runs game by game: changed results, sign test, paired margin differences",
		run:     runCompare,
	})
}

func runCompare(ctx context.Context, e *env, args []string) error {
	var base, run, storage, baseStorage string
	var tables reports.TableFiles
	var asJSON, all bool
	fs := newFlags(e, "compare", "--base ID --run ID [--storage URL] [--base-storage URL] [--all]")
	fs.StringVar(&base, "base", "", "id of the stored eval or ab run to compare against (the former version)")
	fs.StringVar(&run, "run", "", "id of the stored run of the same game and cases (the new version)")
	fs.StringVar(&storage, "storage", store.DefaultStorage, "results store of --run: sqlite:FILE or postgres://...")
	fs.StringVar(&baseStorage, "base-storage", "", "results store of --base (default: --storage)")
	fs.BoolVar(&all, "all", false, "list every common game, not only those whose result changed")
	fs.BoolVar(&asJSON, "json", false, "print the comparison, every common game included, as JSON")
	tablesFlags(fs, &tables, "table")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if err := tables.Check(); err != nil {
		return err
	}
	c, err := workflow.Compare(ctx, cmp.Or(baseStorage, storage), base, storage, run)
	if err != nil {
		return err
	}
	t := reports.CompareTable(c, all)
	if err := tables.Write(t); err != nil {
		return err
	}
	if asJSON {
		return writeJSON(e.stdout, c)
	}
	if len(t.Rows) > 0 {
		if err := t.WriteText(e.stdout); err != nil {
			return err
		}
	}
	fmt.Fprintln(e.stdout, reports.CompareHeadline(c))
	for _, n := range c.Notes {
		fmt.Fprintln(e.stdout, "note:", untrusted.Line(n))
	}
	return nil
}
