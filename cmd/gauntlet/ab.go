package main

import (
	"context"

	"gauntlet/reports"
	"gauntlet/workflow"
)

func init() {
	register(&command{
		name:    "ab",
		summary: "compare two entrants: W/D/L, pentanomial Elo ± 95% CI, LOS, SPRT (paired differences for single-player games)",
		run:     runAB,
	})
}

func runAB(ctx context.Context, e *env, args []string) error {
	var rf runFlags
	var req workflow.ABRequest
	var tables reports.TableFiles
	var showCases bool
	fs := newFlags(e, "ab", "--game G --a ENTRANT --b ENTRANT [--games N] [--sprt elo0,elo1[,alpha,beta]] [flags]")
	rf.register(fs, true)
	fs.StringVar(&req.A, "a", "", "entrant A: strategy NAME[:k=v,...] or cmd:COMMAND")
	fs.StringVar(&req.B, "b", "", "entrant B: strategy NAME[:k=v,...] or cmd:COMMAND")
	fs.StringVar(&req.AFile, "a-params-file", "", "JSON parameter values for A (e.g. from 'gauntlet tune --best-json')")
	fs.StringVar(&req.BFile, "b-params-file", "", "JSON parameter values for B")
	fs.StringVar(&req.Cases, "cases", "", "case set (default: the game's choice (see 'gauntlet list'), else seeds:GAMES/2 or smoke for single-player games)")
	fs.IntVar(&req.Games, "games", 0, "at most this many games (pairs of seat-swapped games); 0 = the whole case set")
	fs.StringVar(&req.Fillers, "fillers", "", "lineup for the other seats in games of more than two players, e.g. simple*4")
	fs.StringVar(&req.SPRT, "sprt", "", "stop as soon as the SPRT [model:]elo0,elo1[,alpha,beta] decides; model normalized (default) or logistic (default: report nElo H0: 0 vs H1: 10, no early stop)")
	fs.Var(&req.Report, "report-every", "interim W/D/L, score, Elo and (with --sprt) LLR on stderr every N games or every DURATION, e.g. 200 or 30s; 0: none (default 10s; none with --quiet)")
	tablesFlags(fs, &tables, "tables")
	fs.BoolVar(&showCases, "cases-table", false, "print the per-case table")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if err := tables.Check(); err != nil {
		return err
	}
	req.Options = rf.Options
	res, err := workflow.AB(ctx, req, e.stderr)
	if err != nil {
		return err
	}
	caseT := reports.ABCaseTable(res.Summary)
	if err := tables.Write(caseT); err != nil {
		return err
	}
	if rf.json {
		return writeJSON(e.stdout, res.Summary)
	}
	if showCases {
		if err := caseT.WriteText(e.stdout); err != nil {
			return err
		}
	}
	reports.WriteABText(e.stdout, res)
	return nil
}
