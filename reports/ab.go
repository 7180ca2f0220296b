package reports

import (
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"gauntlet/harness/contract"
	"gauntlet/harness/results"
)

// ABCaseTable lists A's and B's scores per case: one game each in
// single-player games (and A − B), the two games of the pair with the seats
// swapped otherwise (and A's points of the pair, 0..2).
func ABCaseTable(s *results.ABSummary) *Table {
	t := &Table{Title: fmt.Sprintf("%s: A = %s vs B = %s on %s", s.Game, s.A, s.B, s.CaseSet)}
	cell := func(xs []float64, i int) string {
		if i < len(xs) {
			return Num(xs[i])
		}
		return ""
	}
	if s.MeanDiff != nil {
		t.Header = []string{"case", "group", "A", "B", "A − B"}
		for _, c := range s.Cases {
			t.Rows = append(t.Rows, []string{c.Case, c.Group, cell(c.A, 0), cell(c.B, 0), Num(c.Points)})
		}
		if s.MeanA != nil && s.MeanB != nil && s.CI95 != nil {
			t.Footer = []string{"mean", "", Num(*s.MeanA), Num(*s.MeanB), PlusMinus(*s.MeanDiff, s.CI95[0], s.CI95[1])}
		}
	} else {
		t.Header = []string{"case", "A (A first)", "B (A first)", "A (B first)", "B (B first)", "A points"}
		for _, c := range s.Cases {
			t.Rows = append(t.Rows, []string{c.Case, cell(c.A, 0), cell(c.B, 0), cell(c.A, 1), cell(c.B, 1), Num(c.Points)})
		}
	}
	t.NumericRight()
	if t.Right != nil {
		t.Right[0] = false
	}
	if s.MeanDiff != nil && !hasGroups(s) {
		t = dropColumn(t, 1)
	}
	return t
}

// ABGroupTable is the official aggregation per group of a single-player A/B
// run (hextris problems), or nil when there is none.
func ABGroupTable(s *results.ABSummary) *Table {
	if len(s.Groups) == 0 {
		return nil
	}
	t := &Table{Title: fmt.Sprintf("%s: official aggregation per group", s.Game), Header: []string{"group", "A", "B", "A − B"}}
	var ta, tb float64
	for _, g := range s.Groups {
		t.Rows = append(t.Rows, []string{g.Group, Num(g.A), Num(g.B), Num(g.A - g.B)})
		ta += g.A
		tb += g.B
	}
	t.NumericRight()
	t.Footer = []string{"total", Num(ta), Num(tb), Num(ta - tb)}
	return t
}

func hasGroups(s *results.ABSummary) bool {
	for _, c := range s.Cases {
		if c.Group != "" {
			return true
		}
	}
	return false
}

// dropColumn removes column i of t.
func dropColumn(t *Table, i int) *Table {
	cut := func(r []string) []string {
		if i >= len(r) {
			return r
		}
		return append(append([]string{}, r[:i]...), r[i+1:]...)
	}
	out := &Table{Title: t.Title, Header: cut(t.Header), Right: map[int]bool{}}
	for _, r := range t.Rows {
		out.Rows = append(out.Rows, cut(r))
	}
	if len(t.Footer) > 0 {
		out.Footer = cut(t.Footer)
	}
	for c, v := range t.Right {
		switch {
		case c < i:
			out.Right[c] = v
		case c > i:
			out.Right[c-1] = v
		}
	}
	return out
}

// abFacts are the headline numbers of an A/B run.
func abFacts(s *results.ABSummary) []Fact {
	if s.MeanDiff != nil {
		f := []Fact{{"cases", strconv.Itoa(len(s.Cases))}}
		diff := "A − B"
		if s.Direction == contract.Lower {
			diff = "A − B (lower is better)"
		}
		if s.CI95 != nil {
			f = append(f, Fact{diff + " ± 95% CI", PlusMinus(*s.MeanDiff, s.CI95[0], s.CI95[1])})
		} else {
			f = append(f, Fact{diff, Num(*s.MeanDiff)})
		}
		f = append(f, Fact{"verdict", ABVerdict(s)})
		if s.MeanA != nil && s.MeanB != nil {
			f = append(f, Fact{"mean A", Num(*s.MeanA)}, Fact{"mean B", Num(*s.MeanB)})
		}
		if s.WilcoxonP != nil {
			f = append(f, Fact{"Wilcoxon p", fmt.Sprintf("%.4g", *s.WilcoxonP)})
		}
		if s.BetterA != nil && s.BetterB != nil {
			f = append(f, Fact{"A better / B better", fmt.Sprintf("%d / %d", *s.BetterA, *s.BetterB)})
		}
		return f
	}
	f := []Fact{
		{"games", strconv.Itoa(s.Games)},
		{"W/D/L", fmt.Sprintf("+%d =%d −%d", s.Wins, s.Draws, s.Losses)},
		{"Elo ± 95% CI", eloCI(s.Elo, s.EloCI95)},
		{"LOS", pct(s.LOS)},
		{"score", fmt.Sprintf("%.3f", s.Score)},
	}
	sprt := s.SPRT
	if s.SPRTConfig != nil {
		sprt = fmt.Sprintf("%s: %s (LLR %.2f, bounds %.2f .. %.2f)", *s.SPRTConfig, s.SPRT, s.LLR, llrLower(*s.SPRTConfig), llrUpper(*s.SPRTConfig))
	}
	if sprt != "" {
		f = append(f, Fact{"SPRT", sprt})
	}
	if s.ForfeitsA+s.ForfeitsB > 0 {
		f = append(f, Fact{"forfeits A / B", fmt.Sprintf("%d / %d", s.ForfeitsA, s.ForfeitsB)})
	}
	return f
}

// ABVerdict says in words which entrant did better in a single-player A/B
// run, in the game's direction: "A better", "B better" (the 95% interval
// of the mean difference excludes 0), or no clear difference.
func ABVerdict(s *results.ABSummary) string {
	if s.MeanDiff == nil {
		return ""
	}
	d, lo, hi := *s.MeanDiff, *s.MeanDiff, *s.MeanDiff
	if s.CI95 != nil {
		lo, hi = s.CI95[0], s.CI95[1]
	}
	if s.Direction == contract.Lower {
		d, lo, hi = -d, -hi, -lo
	}
	switch {
	case d > 0 && lo > 0:
		return "A better (95% CI excludes 0)"
	case d < 0 && hi < 0:
		return "B better (95% CI excludes 0)"
	case d > 0:
		return "A better on average, not significant at 95%"
	case d < 0:
		return "B better on average, not significant at 95%"
	}
	return "no difference"
}

// eloCI formats an Elo difference with its interval; an infinite Elo (0% or
// 100% score) is written as such instead of ±Inf.
func eloCI(elo float64, ci [2]float64) string {
	if !finite(elo) {
		switch {
		case math.IsInf(elo, 1):
			return "+∞ (B never scored)"
		case math.IsInf(elo, -1):
			return "−∞ (A never scored)"
		}
		return "- (no games)"
	}
	if !finite(ci[0]) || !finite(ci[1]) {
		return fmt.Sprintf("%+.1f (interval unbounded)", elo)
	}
	return fmt.Sprintf("%+.1f ± %.1f", elo, (ci[1]-ci[0])/2)
}

func pct(x float64) string {
	if !finite(x) {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*x)
}

// llrLower and llrUpper are the SPRT bounds ln(β/(1−α)) and ln((1−β)/α).
func llrLower(sp results.SPRTSpec) float64 { return math.Log(sp.Beta / (1 - sp.Alpha)) }
func llrUpper(sp results.SPRTSpec) float64 { return math.Log((1 - sp.Beta) / sp.Alpha) }

// WriteABReport writes the report of an A/B run into dir: the per-case table
// (cases.*) and, for single-player games, the per-group table (groups.*);
// box plots of A's and B's scores per case (scores.*), the A − B difference
// per case (diff.*), and for games of two or more seats the Elo and the
// SPRT log-likelihood ratio over the games (elo.*, llr.*); and index.html.
func WriteABReport(dir string, s *results.ABSummary, opts ...Option) (*Report, error) {
	if s == nil {
		return nil, fmt.Errorf("ab report: no summary")
	}
	if err := prepare(dir); err != nil {
		return nil, err
	}
	r := &Report{Kind: "ab", Title: shortNums(fmt.Sprintf("ab %s: A = %s vs B = %s on %s (%s)", s.Game, s.A, s.B, s.CaseSet, s.Run))}
	for _, o := range opts {
		o(r)
	}
	r.Headline = abFacts(s)
	r.Notes = append(r.Notes, s.Notes...)
	r.Tables = append(r.Tables, TableFile{Name: "cases", Table: ABCaseTable(s)})
	if gt := ABGroupTable(s); gt != nil {
		r.Tables = append(r.Tables, TableFile{Name: "groups", Table: gt})
	}
	who, cs := []string{"A", "B"}, []results.Conduct{s.ConductA, s.ConductB}
	if ct := ConductTable("Forfeits, eliminations, ignored answers and answer times", who, cs); ct != nil {
		r.Tables = append(r.Tables, TableFile{Name: "conduct", Table: ct})
	}
	r.Notes = append(r.Notes, conductNotes(who, cs)...)
	single := s.MeanDiff != nil
	noCases := func() string {
		if len(s.Cases) == 0 {
			return "the run has no played case"
		}
		return ""
	}
	err := r.figure(dir, "scores", "Scores of A and B", "Box plots of A's and B's scores over all the cases (both seats of every pair in games of two or more seats), the grey dots being the scores themselves. A = "+s.A+", B = "+s.B+".",
		func(f *Figure) (string, error) {
			if m := noCases(); m != "" {
				return m, nil
			}
			var a, b []float64
			for _, c := range s.Cases {
				a = append(a, c.A...)
				b = append(b, c.B...)
			}
			p := newPlot("Scores of A and B", "", "score")
			n, err := boxPlots(p, []string{"A", "B"}, [][]float64{a, b}, colBlue)
			if err != nil {
				return "", err
			}
			if n == 0 {
				return "no finite score", nil
			}
			return "", saveFigure(dir, f, p, plotW, plotH)
		})
	if err != nil {
		return nil, err
	}
	diffCaption := "A's points of each pair minus 1 (the two games of a case with the seats swapped): above 0 A did better."
	if single {
		diffCaption = "A − B on each case in play order: above 0 A did better."
		if s.Direction == contract.Lower {
			diffCaption = "A − B on each case in play order; lower is better, so below 0 A did better."
		}
	}
	err = r.figure(dir, "diff", "A − B per case", diffCaption, func(f *Figure) (string, error) {
		if m := noCases(); m != "" {
			return m, nil
		}
		vs := make(plotter.Values, len(s.Cases))
		for i, c := range s.Cases {
			vs[i] = c.Points
			if !single {
				vs[i] = c.Points - 1
			}
			if !finite(vs[i]) {
				vs[i] = 0
			}
		}
		p := newPlot("A − B per case", "case (play order)", "A − B")
		if !single {
			p.Y.Label.Text = "A's pair points − 1"
		}
		bars, err := plotter.NewBarChart(vs, barWidth(len(vs)))
		if err != nil {
			return "", err
		}
		bars.Color = colBlue
		bars.LineStyle.Width = 0
		bars.XMin = 1
		p.Add(bars)
		return "", saveFigure(dir, f, p, plotW, plotH)
	})
	if err != nil {
		return nil, err
	}
	if !single {
		err = r.figure(dir, "elo", "Elo over games", "The Elo difference of A over B as the games come in; the dashed orange lines are the final 95% confidence interval (when finite), the grey one is 0.",
			func(f *Figure) (string, error) { return historyPlot(dir, f, s, false) })
		if err != nil {
			return nil, err
		}
		err = r.figure(dir, "llr", "SPRT log-likelihood ratio over games", "The GSPRT log-likelihood ratio after each game; the test accepts H1 (A stronger) at the upper dashed bound and H0 at the lower.",
			func(f *Figure) (string, error) { return historyPlot(dir, f, s, true) })
		if err != nil {
			return nil, err
		}
	}
	if err := r.finish(dir); err != nil {
		return nil, err
	}
	return r, nil
}

// barWidth is the width of one bar among n.
func barWidth(n int) vg.Length {
	if n < 1 {
		n = 1
	}
	w := plotW * 0.8 / vg.Length(n)
	if w > plotW/20 {
		w = plotW / 20
	}
	if w < 0.5 {
		w = 0.5
	}
	return w
}

// historyPlot draws the Elo (llr false) or the LLR (llr true) over games.
func historyPlot(dir string, f *Figure, s *results.ABSummary, llr bool) (string, error) {
	if len(s.History) == 0 {
		return "the run has no recorded history", nil
	}
	xys := make(plotter.XYs, 0, len(s.History))
	for _, h := range s.History {
		y := h.Elo
		if llr {
			y = h.LLR
		}
		xys = append(xys, plotter.XY{X: float64(h.Games), Y: y})
	}
	xys = finiteXYs(xys)
	if len(xys) == 0 {
		if llr {
			return "no finite LLR (no decisive pair yet)", nil
		}
		return "no finite Elo (every game was won by the same side)", nil
	}
	title, ylab := "Elo over games", "Elo (A − B)"
	if llr {
		title, ylab = "SPRT LLR over games", "LLR"
	}
	p := newPlot(title, "games", ylab)
	l, err := line(xys, colBlue, false)
	if err != nil {
		return "", err
	}
	p.Add(l)
	x0, x1 := xys[0].X, xys[len(xys)-1].X
	if llr && s.SPRTConfig != nil {
		for i, y := range []float64{llrLower(*s.SPRTConfig), llrUpper(*s.SPRTConfig)} {
			if !finite(y) {
				continue
			}
			c := colRed
			name := "H0 bound"
			if i == 1 {
				c, name = colGreen, "H1 bound"
			}
			b, err := hline(y, x0, x1, c)
			if err != nil {
				return "", err
			}
			p.Add(b)
			p.Legend.Add(name, b)
		}
	}
	if !llr {
		z, err := hline(0, x0, x1, colGrey)
		if err != nil {
			return "", err
		}
		p.Add(z)
		if finite(s.EloCI95[0]) && finite(s.EloCI95[1]) {
			for _, y := range s.EloCI95 {
				b, err := hline(y, x0, x1, colOrange)
				if err != nil {
					return "", err
				}
				p.Add(b)
			}
		}
	}
	return "", saveFigure(dir, f, p, plotW, plotH)
}
