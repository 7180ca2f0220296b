package main

import (
	"context"
	"fmt"
	"strings"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/results"
	"gauntlet/harness/runner"
	"gauntlet/internal/untrusted"
	"gauntlet/reports"
)

func init() {
	register(&command{
		name:    "ab",
		summary: "compare two entrants: W/D/L, pentanomial Elo ± 95% CI, LOS, SPRT (paired differences for single-player games)",
		run:     runAB,
	})
}

func runAB(ctx context.Context, e *env, args []string) (retErr error) {
	var rf runFlags
	var aSpec, bSpec, aFile, bFile, cases, fillers, sprtArg string
	var tables tableFiles
	var games int
	var showCases bool
	fs := newFlags(e, "ab", "--game G --a ENTRANT --b ENTRANT [--games N] [--sprt elo0,elo1[,alpha,beta]] [flags]")
	rf.register(fs, true)
	fs.StringVar(&aSpec, "a", "", "entrant A: strategy NAME[:k=v,...] or cmd:COMMAND")
	fs.StringVar(&bSpec, "b", "", "entrant B: strategy NAME[:k=v,...] or cmd:COMMAND")
	fs.StringVar(&aFile, "a-params-file", "", "JSON parameter values for A (e.g. from 'gauntlet tune --best-json')")
	fs.StringVar(&bFile, "b-params-file", "", "JSON parameter values for B")
	fs.StringVar(&cases, "cases", "", "case set (default: the game's choice (see 'gauntlet list'), else seeds:GAMES/2 or smoke for single-player games)")
	fs.IntVar(&games, "games", 0, "at most this many games (pairs of seat-swapped games); 0 = the whole case set")
	fs.StringVar(&fillers, "fillers", "", "lineup for the other seats in games of more than two players, e.g. simple*4")
	fs.StringVar(&sprtArg, "sprt", "", "stop as soon as the SPRT [model:]elo0,elo1[,alpha,beta] decides; model normalized (default) or logistic (default: report nElo H0: 0 vs H1: 10, no early stop)")
	tables.register(fs, "tables")
	fs.BoolVar(&showCases, "cases-table", false, "print the per-case table")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	g, err := rf.gameOrErr()
	if err != nil {
		return err
	}
	info := g.Info()
	if err := tables.check(); err != nil {
		return err
	}
	if aSpec == "" || bSpec == "" {
		return usagef("--a and --b are required")
	}
	a, err := abEntrant(rf.game, "--a", aSpec, aFile)
	if err != nil {
		return err
	}
	b, err := abEntrant(rf.game, "--b", bSpec, bFile)
	if err != nil {
		return err
	}
	if games < 0 {
		return usagef("--games %d: want a number of games >= 0 (0: the whole case set)", games)
	}
	if cases == "" {
		switch {
		case info.MaxSeats == 1:
			cases = "smoke"
		case games > 0:
			cases = fmt.Sprintf("seeds:%d", (games+1)/2)
		default:
			cases = "seeds:100"
		}
		cases = contract.DefaultCases(g, "ab", cases)
	}
	var fill []*entrant.Entrant
	if fillers != "" {
		if info.MaxSeats < 3 {
			return usagef("game %s has %d seats: no --fillers", info.Name, info.MaxSeats)
		}
		if fill, err = entrant.ParseLineup(contract.Default, info.Name, fillers); err != nil {
			return usagef("--fillers: %v", err)
		}
	}
	sp := results.DefaultSPRT
	if sprtArg != "" {
		if info.MaxSeats == 1 {
			return usagef("--sprt: game %s is single-player; ab compares per-case scores there", info.Name)
		}
		if sp, err = results.ParseSPRT(sprtArg); err != nil {
			return usagef("%v", err)
		}
	}
	extra := map[string]any{"sprt": sp}
	plan, err := runner.ABPlan(g, cases, a, b, fill, games, rf.run, extra)
	if err != nil {
		return usagef("%v", err)
	}
	var stop runner.Stopper
	if info.MaxSeats > 1 && sp.Early {
		if stop, err = results.NewSPRTStopper(plan, sp); err != nil {
			return err
		}
	}
	rs, st, err := rf.runPlan(ctx, e, plan, stop)
	if err != nil {
		return err
	}
	if st != nil {
		defer closeInto(&retErr, st)
	}
	sum, err := results.SummarizeAB(rs, sp)
	if err != nil {
		return err
	}
	if st != nil {
		rec, err := st.Run(context.WithoutCancel(ctx), plan.Run.ID)
		if err != nil {
			return err
		}
		sum.CountStored(rec.GameCount)
		status := "complete"
		if sum.Stopped {
			status = "stopped"
		}
		if err := st.FinishRun(context.WithoutCancel(ctx), plan.Run.ID, status, sum.Stored()); err != nil {
			return err
		}
	}
	caseT := reports.ABCaseTable(sum)
	if err := tables.write(caseT); err != nil {
		return err
	}
	if rf.json {
		return writeJSON(e.stdout, sum)
	}
	if showCases {
		if err := caseT.WriteText(e.stdout); err != nil {
			return err
		}
	}
	fmt.Fprintln(e.stdout, untrusted.Text(abHeadline(sum)))
	for _, l := range append(reports.ConductText("A", sum.ConductA), reports.ConductText("B", sum.ConductB)...) {
		fmt.Fprintln(e.stdout, l)
	}
	for _, n := range sum.Notes {
		fmt.Fprintln(e.stdout, "note:", untrusted.Line(n))
	}
	if l := abStopLine(sum); l != "" {
		fmt.Fprintln(e.stdout, l)
	}
	if sum.StoredGames != nil {
		fmt.Fprintf(e.stdout, "run %s: %d games stored of %d planned (%d played by this process, %d resumed), %.1fs wall\n",
			plan.Run.ID, *sum.StoredGames, sum.Planned, rs.Played, rs.Resumed, rs.Wall.Seconds())
	} else {
		fmt.Fprintf(e.stdout, "run %s: %d games played of %d planned, none stored (--storage none), %.1fs wall\n",
			plan.Run.ID, rs.Played, sum.Planned, rs.Wall.Seconds())
	}
	if l := contract.RefereeErrorsLine(rs.RefereeErrors); l != "" {
		fmt.Fprintln(e.stdout, l)
	}
	return nil
}

// abStopLine says what an early stop counted, kept and abandoned: "SPRT
// stopped at 414 games (H1 accepted); 38 more finished after the stop are
// stored but not counted; 348 planned games abandoned". "" without a stop.
func abStopLine(s *results.ABSummary) string {
	if !s.Stopped {
		return ""
	}
	line := fmt.Sprintf("SPRT stopped at %d games (%s accepted)", s.Games, s.SPRT)
	if s.StoredGames == nil {
		return line + fmt.Sprintf("; the other %d planned games are not counted (nothing is stored with --storage none)", s.Planned-s.Games)
	}
	if s.Uncounted > 0 {
		line += fmt.Sprintf("; %d more finished after the stop are stored but not counted", s.Uncounted)
	}
	return line + fmt.Sprintf("; %d planned games abandoned", s.Abandoned)
}

func abEntrant(game, flagName, spec, file string) (*entrant.Entrant, error) {
	var assign []string
	if file != "" {
		m, err := readParamsFile(file)
		if err != nil {
			return nil, fmt.Errorf("%s-params-file: %w", flagName, err)
		}
		assign = paramAssignments(m)
	}
	e, err := entrant.Parse(contract.Default, game, spec, assign...)
	if err != nil {
		return nil, usagef("%s: %v", flagName, err)
	}
	return e, nil
}

// abHeadline is the one-paragraph answer of ab.
func abHeadline(s *results.ABSummary) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: A = %s vs B = %s on %s\n", s.Game, s.A, s.B, s.CaseSet)
	if s.MeanDiff != nil {
		lower := ""
		if s.Direction == contract.Lower {
			lower = ", lower is better"
		}
		fmt.Fprintf(&b, "%d cases: mean A %s, mean B %s, A − B = %s (95%% CI %s .. %s%s)",
			len(s.Cases), reports.Num(*s.MeanA), reports.Num(*s.MeanB), reports.Num(*s.MeanDiff),
			reports.Num(s.CI95[0]), reports.Num(s.CI95[1]), lower)
		if s.WilcoxonP != nil {
			fmt.Fprintf(&b, ", Wilcoxon p = %.4g", *s.WilcoxonP)
		}
		fmt.Fprintf(&b, "; A better on %d, B better on %d: %s", *s.BetterA, *s.BetterB, reports.ABVerdict(s))
		if len(s.Groups) > 0 {
			var ta, tb float64
			for _, g := range s.Groups {
				ta += g.A
				tb += g.B
			}
			fmt.Fprintf(&b, "\nofficial total: A %s, B %s", reports.Num(ta), reports.Num(tb))
		}
		return b.String()
	}
	fmt.Fprintf(&b, "%d games: +%d =%d -%d, score %.3f, Elo %+.1f (95%% CI %+.1f .. %+.1f), LOS %.1f%%\n",
		s.Games, s.Wins, s.Draws, s.Losses, s.Score, s.Elo, s.EloCI95[0], s.EloCI95[1], 100*s.LOS)
	if s.Direction == contract.Lower {
		b.WriteString("(lower is better: each game is won by the lower score)\n")
	}
	fmt.Fprintf(&b, "pentanomial %v; SPRT %v LLR %.2f → %s", s.Pentanomial, *s.SPRTConfig, s.LLR, s.SPRT)
	if s.Stopped {
		b.WriteString(" (stopped early)")
	}
	if s.ForfeitsA+s.ForfeitsB > 0 {
		fmt.Fprintf(&b, "\nforfeits: A %d, B %d", s.ForfeitsA, s.ForfeitsB)
	}
	return b.String()
}
