package main

import (
	"context"
	"fmt"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/results"
	"gauntlet/harness/runner"
	"gauntlet/reports"
)

func init() {
	register(&command{
		name:    "eval",
		summary: "score one strategy on a case set: per-case and per-problem tables, totals, 95% CI",
		run:     runEval,
	})
}

// entrantFlags reads the evaluated entrant: --strategy with --param and
// --params-file.
type entrantFlags struct {
	strategy   string
	params     multiFlag
	paramsFile string
}

func (f *entrantFlags) entrant(game string) (*entrant.Entrant, error) {
	if f.strategy == "" {
		return nil, usagef("--strategy is required")
	}
	assign := []string(f.params)
	if f.paramsFile != "" {
		m, err := readParamsFile(f.paramsFile)
		if err != nil {
			return nil, err
		}
		assign = append(paramAssignments(m), assign...)
	}
	e, err := entrant.Parse(contract.Default, game, f.strategy, assign...)
	if err != nil {
		return nil, usagef("--strategy: %v", err)
	}
	return e, nil
}

// opponents reads the other seats: --opponents LINEUP and repeated
// --opponent ENTRANT (for external commands); default: the game's lineup.
func opponents(g contract.Game, lineup string, extra []string) ([]*entrant.Entrant, error) {
	info := g.Info()
	if lineup == "" && len(extra) == 0 {
		lineup = info.Opponents
	}
	var out []*entrant.Entrant
	if lineup != "" && lineup != "none" {
		l, err := entrant.ParseLineup(contract.Default, info.Name, lineup)
		if err != nil {
			return nil, usagef("--opponents: %v", err)
		}
		out = l
	}
	for _, spec := range extra {
		e, err := entrant.Parse(contract.Default, info.Name, spec)
		if err != nil {
			return nil, usagef("--opponent: %v", err)
		}
		out = append(out, e)
	}
	return out, nil
}

func runEval(ctx context.Context, e *env, args []string) (retErr error) {
	var rf runFlags
	var ef entrantFlags
	var cases, lineup string
	var tables tableFiles
	var opp multiFlag
	var wall, noOptimum bool
	var rows int
	fs := newFlags(e, "eval", "--game G --strategy S [--param k=v]... --cases SET [flags]")
	rf.register(fs, true)
	fs.StringVar(&ef.strategy, "strategy", "", "strategy NAME[:k=v,...] or cmd:COMMAND (an external bot)")
	fs.Var(&ef.params, "param", "parameter k=v (repeatable)")
	fs.StringVar(&ef.paramsFile, "params-file", "", "JSON file of parameter values (e.g. from 'gauntlet tune --best-json')")
	fs.StringVar(&cases, "cases", "", "case set (see 'gauntlet list'; default: the game's choice, else smoke)")
	fs.StringVar(&lineup, "opponents", "", "other seats, e.g. greedy or simple*5 (default: the game's lineup)")
	fs.Var(&opp, "opponent", "one more opponent, e.g. 'cmd:./bot' (repeatable)")
	tables.register(fs, "tables")
	fs.BoolVar(&wall, "wall", false, "show per-case wall time in the terminal table")
	fs.IntVar(&rows, "rows", 200, "most per-case rows in the terminal table (0 = all; --csv and --md hold every row)")
	fs.BoolVar(&noOptimum, "no-optimum", false, "do not compute the optimum of each case (games that know it show the optimum and the gap by default)")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	g, err := rf.gameOrErr()
	if err != nil {
		return err
	}
	if rows < 0 {
		return usagef("--rows %d: want 0 (all) or more", rows)
	}
	if err := tables.check(); err != nil {
		return err
	}
	ent, err := ef.entrant(rf.game)
	if err != nil {
		return err
	}
	var opps []*entrant.Entrant
	if g.Info().MaxSeats > 1 {
		if opps, err = opponents(g, lineup, opp); err != nil {
			return err
		}
	} else if lineup != "" || len(opp) > 0 {
		return usagef("game %s is single-player: no --opponents", rf.game)
	}
	if cases == "" {
		cases = contract.DefaultCases(g, "eval", "smoke")
	}
	plan, err := runner.EvalPlan(g, cases, ent, opps, rf.run)
	if err != nil {
		return usagef("%v", err)
	}
	rs, st, err := rf.runPlan(ctx, e, plan, nil)
	if err != nil {
		return err
	}
	if st != nil {
		defer closeInto(&retErr, st)
	}
	sum := results.SummarizeEval(rs)
	if !noOptimum {
		if err := sum.AddOptima(ctx, plan, rf.jobs); err != nil {
			return err
		}
	}
	if st != nil {
		if err := st.FinishRun(context.WithoutCancel(ctx), plan.Run.ID, "complete", sum.Stored()); err != nil {
			return err
		}
	}
	shown := sum
	if !tables.named() && rows > 0 && len(sum.Cases) > rows {
		// Only the first rows are printed: the table of a 20,000-game
		// run's every case took 11 ms to build for nothing.
		head := *sum
		head.Cases = sum.Cases[:rows]
		shown = &head
	}
	caseT := reports.EvalCaseTable(g, shown, wall)
	groupT := reports.EvalGroupTable(sum)
	standT := reports.EvalStandingsTable(sum)
	if err := tables.write(caseT, groupT, standT); err != nil {
		return err
	}
	if rf.json {
		return writeJSON(e.stdout, sum)
	}
	head, _ := caseT.Head(rows)
	more := len(sum.Cases) - len(head.Rows)
	if err := head.WriteText(e.stdout); err != nil {
		return err
	}
	if more > 0 {
		fmt.Fprintf(e.stdout, "… and %d more cases (--rows 0 shows every one; --csv, --md and gauntlet report write them all)\n", more)
	}
	for _, t := range []*reports.Table{groupT, standT} {
		if t == nil {
			continue
		}
		fmt.Fprintln(e.stdout)
		if err := t.WriteText(e.stdout); err != nil {
			return err
		}
	}
	fmt.Fprintln(e.stdout, reports.EvalHeadline(sum))
	for i, c := range sum.Conduct {
		who := ""
		if i > 0 {
			who = "opponent " + c.Entrant + ":"
		}
		for _, l := range reports.ConductText(who, c) {
			fmt.Fprintln(e.stdout, l)
		}
	}
	if l := contract.RefereeErrorsLine(rs.RefereeErrors); l != "" {
		fmt.Fprintln(e.stdout, l)
	}
	fmt.Fprintf(e.stdout, "run %s: %d played, %d resumed, %.1fs game time, %.1fs wall\n",
		plan.Run.ID, rs.Played, rs.Resumed, sum.WallSeconds, rs.Wall.Seconds())
	return nil
}
