package main

import (
	"context"

	"gauntlet/reports"
	"gauntlet/workflow"
)

func init() {
	register(&command{
		name:    "eval",
		summary: "score one strategy on a case set: per-case and per-problem tables, totals, 95% CI",
		run:     runEval,
	})
}

func runEval(ctx context.Context, e *env, args []string) error {
	var rf runFlags
	var req workflow.EvalRequest
	var tables reports.TableFiles
	var wall bool
	var rows int
	fs := newFlags(e, "eval", "--game G --strategy S [--param k=v]... --cases SET [flags]")
	rf.register(fs, true)
	entrantFlags(fs, &req.Entrant, "strategy NAME[:k=v,...] or cmd:COMMAND (an external bot)")
	fs.StringVar(&req.Cases, "cases", "", "case set (see 'gauntlet list'; default: the game's choice, else smoke)")
	fs.StringVar(&req.Lineup, "opponents", "", "other seats, e.g. greedy or simple*5 (default: the game's lineup)")
	fs.Var((*multiFlag)(&req.Opponents), "opponent", "one more opponent, e.g. 'cmd:./bot' (repeatable)")
	tablesFlags(fs, &tables, "tables")
	fs.BoolVar(&wall, "wall", false, "show per-case wall time in the terminal table")
	fs.IntVar(&rows, "rows", 200, "most per-case rows in the terminal table (0 = all; --csv and --md hold every row)")
	fs.BoolVar(&req.NoOptimum, "no-optimum", false, "do not compute the optimum of each case (games that know it show the optimum and the gap by default)")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if rows < 0 {
		return usagef("--rows %d: want 0 (all) or more", rows)
	}
	if err := tables.Check(); err != nil {
		return err
	}
	req.Options = rf.Options
	res, err := workflow.Eval(ctx, req, e.stderr)
	if err != nil {
		return err
	}
	ts := reports.EvalTables(res, rows, wall, tables)
	if err := tables.Write(ts...); err != nil {
		return err
	}
	if rf.json {
		return writeJSON(e.stdout, res.Summary)
	}
	return reports.WriteEvalText(e.stdout, res, ts, rows)
}
