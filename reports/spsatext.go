package reports

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"gauntlet/internal/untrusted"
	"gauntlet/tuning"
	"gauntlet/tuning/spsa"
)

// WriteSPSASummary writes the terminal answer of `gauntlet spsa`: each
// tuned parameter's start and final value, then the study in a few lines;
// wall is the command's wall time.
func WriteSPSASummary(w io.Writer, s *spsa.Summary, wall time.Duration) {
	if err := spsaSummaryTable(s).WriteText(w); err != nil {
		fmt.Fprintln(w, err)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "SPSA study %s: %s %s on %s, %d seats, seed %d\n", s.Study, untrusted.Line(tuning.GameArg(s.Game, s.Source)), s.Target, s.Cases, s.Seats, s.Seed)
	fmt.Fprintf(w, "iterations: %d of %d applied (%d games); A %g, alpha %g, gamma %g\n", s.Applied, s.Iterations, s.Played, s.A, s.Alpha, s.Gamma)
	games := max(s.Wins+s.Draws+s.Losses, 1)
	fmt.Fprintf(w, "theta+ against theta-: %d wins, %d draws, %d losses (score %.3f)\n", s.Wins, s.Draws, s.Losses,
		(float64(s.Wins)+float64(s.Draws)/2)/float64(games))
	fmt.Fprintf(w, "final: %s\n", FormatParams(s.Final))
	if s.Replayed > 0 {
		fmt.Fprintf(w, "%d block(s) of iterations played again after their worker stopped\n", s.Replayed)
	}
	fmt.Fprintln(w, s.ReproducibleNote)
	fmt.Fprintf(w, "wall %.1fs\n", wall.Seconds())
}

// spsaSummaryTable lists each tuned parameter's start, final value and the
// distance moved.
func spsaSummaryTable(s *spsa.Summary) *Table {
	tb := &Table{Title: "parameters of SPSA study " + s.Study,
		Header: []string{"param", "kind", "min", "max", "start", "final", "moved", "moved % of range", "c_end", "r_end"}}
	for _, p := range s.Params {
		tb.Rows = append(tb.Rows, []string{p.Name, p.Kind, Num(p.Min), Num(p.Max), Num(p.Start),
			Num(p.Final), fmt.Sprintf("%+.4g", p.Moved), fmt.Sprintf("%+.1f%%", 100*p.MovedRange), Num(p.CEnd), Num(p.REnd)})
	}
	tb.NumericRight()
	return tb
}

// SPSAStudiesTable is the table of `gauntlet spsa --list`.
func SPSAStudiesTable(list []spsa.StudyInfo) *Table {
	tb := &Table{Title: "SPSA studies", Header: []string{"study", "game", "strategy", "params", "games", "applied", "complete", "created"}}
	for _, s := range list {
		tb.Rows = append(tb.Rows, []string{s.Name, untrusted.Line(tuning.GameArg(s.Game, s.Source)), s.Target, strconv.Itoa(s.Params), strconv.Itoa(s.Games),
			strconv.Itoa(s.Applied), strconv.FormatBool(s.Complete), s.Created.UTC().Format(time.DateTime)})
	}
	tb.NumericRight()
	return tb
}

// SPSAStudyOf converts a stored SPSA study into the plain data a report
// takes: θ after every applied iteration in the parameters' units.
func SPSAStudyOf(rec *spsa.Record, sum *spsa.Summary) *SPSAStudy {
	s := &SPSAStudy{Name: rec.Name, Game: sum.Game, Strategy: sum.Target, Cases: sum.Cases, Games: sum.Games,
		Applied: sum.Applied, Wins: sum.Wins, Draws: sum.Draws, Losses: sum.Losses, Reproducible: sum.ReproducibleNote}
	for _, p := range sum.Params {
		s.Params = append(s.Params, SPSAParam{Name: p.Name, Kind: p.Kind, Min: p.Min, Max: p.Max, Start: p.Start,
			Final: p.Final, Theta: p.Theta, CEnd: p.CEnd, REnd: p.REnd})
	}
	for _, it := range rec.Iterations {
		v := make([]float64, len(it.Theta))
		for i, t := range it.Theta {
			if i < len(rec.Spec.Params) {
				v[i] = rec.Spec.Params[i].Value(t)
			}
		}
		s.Points = append(s.Points, SPSAPoint{Games: 2 * it.Seq, Values: v})
	}
	if sum.Replayed > 0 {
		s.Notes = append(s.Notes, fmt.Sprintf("%d block(s) of iterations were played again after their worker stopped", sum.Replayed))
	}
	return s
}
