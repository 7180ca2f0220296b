package main

import (
	"context"

	"gauntlet/harness/store"
	"gauntlet/reports"
	"gauntlet/workflow"
)

func init() {
	register(&command{
		name:    "runs",
		summary: "list the stored eval and ab runs, tuning and SPSA studies in one table: entrants whole, differing parameters, progress, SPRT, result",
		run:     runRuns,
	})
}

func runRuns(ctx context.Context, e *env, args []string) error {
	var storage, game string
	var tables reports.TableFiles
	var asJSON bool
	fs := newFlags(e, "runs", "[--storage URL] [--game G] [--json] [--csv F] [--md F]")
	fs.StringVar(&storage, "storage", store.DefaultStorage, "results store: sqlite:FILE or postgres://...")
	fs.StringVar(&game, "game", "", "only the runs and studies of this game")
	fs.BoolVar(&asJSON, "json", false, "print the runs and studies, each run with its stored summary, as JSON")
	tablesFlags(fs, &tables, "table")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if err := tables.Check(); err != nil {
		return err
	}
	list, err := workflow.Runs(ctx, storage, game, reports.RunResult)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(e.stdout, list)
	}
	tb := reports.RunsTable(list)
	if err := tb.WriteText(e.stdout); err != nil {
		return err
	}
	return tables.Write(tb)
}
