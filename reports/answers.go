package reports

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/harness/results"
	"gauntlet/internal/untrusted"
	"gauntlet/workflow"
)

// This file writes the terminal answers of the commands that play games
// (eval, ab) and list runs: what workflow returns, in words and tables.

// TableFiles are the files a command also writes its tables to: CSV and
// Markdown, each when named.
type TableFiles struct{ CSV, MD string }

// Check checks the named files (--csv, --md) before any game starts.
func (t TableFiles) Check() error {
	if err := cli.OutputFile("--csv", t.CSV); err != nil {
		return err
	}
	return cli.OutputFile("--md", t.MD)
}

// Named reports whether either file is named.
func (t TableFiles) Named() bool { return t.CSV != "" || t.MD != "" }

// Write writes tables as CSV and as Markdown, each only when named, each
// file whole or not at all (WriteTablesFile); the error names the flag and
// the file.
func (t TableFiles) Write(tables ...*Table) error {
	if t.CSV != "" {
		if err := WriteTablesFile(t.CSV, false, tables...); err != nil {
			return fmt.Errorf("--csv: %w", err)
		}
	}
	if t.MD != "" {
		if err := WriteTablesFile(t.MD, true, tables...); err != nil {
			return fmt.Errorf("--md: %w", err)
		}
	}
	return nil
}

// EvalTables are an eval's tables: per case, per group of cases and the
// standings (nil where the game has none). Without files, the case table
// holds at most rows cases (0: all); a file holds them all.
func EvalTables(r *workflow.EvalResult, rows int, wall bool, files TableFiles) []*Table {
	shown := r.Summary
	if !files.Named() && rows > 0 && len(shown.Cases) > rows {
		// Only the first rows are printed: the table of a 20,000-game
		// run's every case took 11 ms to build for nothing.
		head := *shown
		head.Cases = shown.Cases[:rows]
		shown = &head
	}
	return []*Table{EvalCaseTable(r.Game, shown, wall), EvalGroupTable(r.Summary), EvalStandingsTable(r.Summary)}
}

// WriteEvalText writes the terminal answer of eval: its tables (the first
// rows cases of the first), the headline, the conduct of external bots and
// the run's counts.
func WriteEvalText(w io.Writer, r *workflow.EvalResult, tables []*Table, rows int) error {
	sum, rs := r.Summary, r.Results
	head, _ := tables[0].Head(rows)
	more := len(sum.Cases) - len(head.Rows)
	if err := head.WriteText(w); err != nil {
		return err
	}
	if more > 0 {
		fmt.Fprintf(w, "… and %d more cases (--rows 0 shows every one; --csv, --md and gauntlet report write them all)\n", more)
	}
	for _, t := range tables[1:] {
		if t == nil {
			continue
		}
		fmt.Fprintln(w)
		if err := t.WriteText(w); err != nil {
			return err
		}
	}
	fmt.Fprintln(w, EvalHeadline(sum))
	for i, c := range sum.Conduct {
		who := ""
		if i > 0 {
			who = "opponent " + c.Entrant + ":"
		}
		for _, l := range ConductText(who, c) {
			fmt.Fprintln(w, l)
		}
	}
	if l := contract.RefereeErrorsLine(rs.RefereeErrors); l != "" {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintf(w, "run %s: %d played, %d resumed, %.1fs game time, %.1fs wall\n",
		r.Plan.Run.ID, rs.Played, rs.Resumed, sum.WallSeconds, rs.Wall.Seconds())
	return nil
}

// WriteABText writes the terminal answer of ab: the headline, the conduct
// of external bots, notes, an early stop and the run's counts.
func WriteABText(w io.Writer, r *workflow.ABResult) {
	sum, rs := r.Summary, r.Results
	fmt.Fprintln(w, untrusted.Text(ABHeadline(sum)))
	for _, l := range append(ConductText("A", sum.ConductA), ConductText("B", sum.ConductB)...) {
		fmt.Fprintln(w, l)
	}
	for _, n := range sum.Notes {
		fmt.Fprintln(w, "note:", untrusted.Line(n))
	}
	if l := ABStopLine(sum); l != "" {
		fmt.Fprintln(w, l)
	}
	if sum.StoredGames != nil {
		fmt.Fprintf(w, "run %s: %d games stored of %d planned (%d played by this process, %d resumed), %.1fs wall\n",
			r.Plan.Run.ID, *sum.StoredGames, sum.Planned, rs.Played, rs.Resumed, rs.Wall.Seconds())
	} else {
		fmt.Fprintf(w, "run %s: %d games played of %d planned, none stored (--storage none), %.1fs wall\n",
			r.Plan.Run.ID, rs.Played, sum.Planned, rs.Wall.Seconds())
	}
	if l := contract.RefereeErrorsLine(rs.RefereeErrors); l != "" {
		fmt.Fprintln(w, l)
	}
}

// ABStopLine says what an early stop counted, kept and abandoned: "SPRT
// stopped at 414 games (H1 accepted); 38 more finished after the stop are
// stored but not counted; 348 planned games abandoned". "" without a stop.
func ABStopLine(s *results.ABSummary) string {
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

// ABHeadline is the one-paragraph answer of ab.
func ABHeadline(s *results.ABSummary) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: A = %s vs B = %s on %s\n", s.Game, s.A, s.B, s.CaseSet)
	if s.MeanDiff != nil {
		lower := ""
		if s.Direction == contract.Lower {
			lower = ", lower is better"
		}
		fmt.Fprintf(&b, "%d cases: mean A %s, mean B %s, A − B = %s (95%% CI %s .. %s%s)",
			len(s.Cases), Num(*s.MeanA), Num(*s.MeanB), Num(*s.MeanDiff), Num(s.CI95[0]), Num(s.CI95[1]), lower)
		if s.WilcoxonP != nil {
			fmt.Fprintf(&b, ", Wilcoxon p = %.4g", *s.WilcoxonP)
		}
		fmt.Fprintf(&b, "; A better on %d, B better on %d: %s", *s.BetterA, *s.BetterB, ABVerdict(s))
		if len(s.Groups) > 0 {
			var ta, tb float64
			for _, g := range s.Groups {
				ta += g.A
				tb += g.B
			}
			fmt.Fprintf(&b, "\nofficial total: A %s, B %s", Num(ta), Num(tb))
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

// RunsTable is the table of runs and studies: one row each, the
// entrants as "A vs B" (an eval's strategy against its opponents, a
// study's strategy) and the parameters that differ between them, whole:
// the terminal form wraps the long columns, CSV and Markdown keep them on
// one line.
func RunsTable(list []workflow.RunInfo) *Table {
	tb := &Table{Title: "runs", Header: []string{"name", "kind", "game", "cases", "entrants", "differs", "done", "sprt", "status", "result", "created", "updated"},
		Wrap: map[int]int{4: 48, 5: 40}}
	for _, r := range list {
		vs := ""
		if len(r.Entrants) > 0 {
			vs = r.Entrants[0]
			if len(r.Entrants) > 1 {
				vs += " vs " + strings.Join(r.Entrants[1:], ", ")
			}
		}
		result := r.Result
		if result == "" {
			result = "—"
		}
		tb.Rows = append(tb.Rows, []string{r.ID, r.Kind, r.Game, r.CaseSet, vs, strings.Join(r.Differs, "; "), runDone(&r),
			sprtText(&r), r.Status, result, r.Created.UTC().Format(time.DateTime), r.Updated.UTC().Format(time.DateTime)})
	}
	return tb
}

// runDone is how much of a run or study is done: games stored of planned
// (and counted, after an SPRT stop), a tuning study's trials by state.
func runDone(r *workflow.RunInfo) string {
	if t := r.Trials; t != nil {
		out := fmt.Sprintf("%d trials", t.All)
		sep := ": "
		for _, n := range []struct {
			n    int
			what string
		}{{t.Complete, "complete"}, {t.Pruned, "pruned"}, {t.Failed, "failed"}, {t.Running, "running"}} {
			if n.n > 0 {
				out += fmt.Sprintf("%s%d %s", sep, n.n, n.what)
				sep = ", "
			}
		}
		return out
	}
	games := strconv.Itoa(r.Games)
	if r.Planned > 0 {
		games += " of " + strconv.Itoa(r.Planned)
	}
	games += " games"
	if r.Counted != nil {
		games = fmt.Sprintf("%d counted, %s stored", *r.Counted, games)
	}
	return games
}

// sprtText is an ab run's sequential test: its hypotheses and error rates,
// whether it stops the run, and its verdict once stopped ("—": none).
func sprtText(r *workflow.RunInfo) string {
	sp := r.SPRT
	if sp == nil {
		return "—"
	}
	out := fmt.Sprintf("%v α=%g β=%g", *sp, sp.Alpha, sp.Beta)
	if !sp.Early {
		return out + ", no early stop"
	}
	out += ", early stop"
	var s results.ABSummary
	if len(r.Summary) > 0 && json.Unmarshal(r.Summary, &s) == nil && s.SPRTConfig != nil {
		if s.Stopped {
			return out + fmt.Sprintf(": %s accepted at %d games", s.SPRT, s.Games)
		}
		return out + ": " + s.SPRT
	}
	return out
}

// RunResult is a run's answer in a few words, from its stored summary: an
// eval's mean with its 95% interval, an ab run's score and Elo (or, for a
// single-player game, the mean difference A − B). "" while the run has no
// summary (it is running, or was killed).
func RunResult(kind string, summary json.RawMessage) (string, error) {
	if len(summary) == 0 || string(summary) == "null" {
		return "", nil
	}
	switch kind {
	case "eval":
		var s results.EvalSummary
		if err := json.Unmarshal(summary, &s); err != nil {
			return "", err
		}
		out := fmt.Sprintf("mean %s (95%% CI %s .. %s)", Num(s.Mean), Num(s.CI95[0]), Num(s.CI95[1]))
		if s.FirstRate != nil {
			out += fmt.Sprintf(", first %.0f%%", 100**s.FirstRate)
		}
		return out, nil
	case "ab":
		var s results.ABSummary
		if err := json.Unmarshal(summary, &s); err != nil {
			return "", err
		}
		if s.MeanDiff != nil && s.CI95 != nil {
			out := fmt.Sprintf("A − B %s (95%% CI %s .. %s)", Num(*s.MeanDiff), Num(s.CI95[0]), Num(s.CI95[1]))
			if s.Direction == contract.Lower {
				out += ", lower is better"
			}
			return out, nil
		}
		out := fmt.Sprintf("score %.3f, Elo %+.1f (95%% CI %+.1f .. %+.1f)", s.Score, s.Elo, s.EloCI95[0], s.EloCI95[1])
		if s.Stopped {
			out += fmt.Sprintf(", SPRT %s at %d games", s.SPRT, s.Games)
		}
		return out, nil
	}
	return "", nil
}
