package reports

import (
	"fmt"
	"strconv"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"

	"gauntlet/harness/contract"
	"gauntlet/harness/results"
)

// WriteEvalReport writes the report of an eval run into dir: tables of the
// per-case and per-group scores (cases.*, groups.*), box plots of the scores
// across the cases (seeds) of each group or of the whole case set
// (scores.svg/.png), the score of every case (case-scores.svg/.png) and
// index.html. g may be nil; when given it chooses the detail columns of the
// case table (see EvalCaseTable).
func WriteEvalReport(dir string, g contract.Game, s *results.EvalSummary, opts ...Option) (*Report, error) {
	if s == nil {
		return nil, fmt.Errorf("eval report: no summary")
	}
	if err := prepare(dir); err != nil {
		return nil, err
	}
	r := &Report{Kind: "eval", Title: shortNums(fmt.Sprintf("eval %s: %s on %s (%s)", s.Game, s.Strategy, s.CaseSet, s.Run))}
	for _, o := range opts {
		o(r)
	}
	r.Headline = evalFacts(s)
	if len(s.Cases) == 0 {
		r.Notes = append(r.Notes, "the run has no played case: nothing to plot")
	}
	r.Tables = append(r.Tables, TableFile{Name: "cases", Table: EvalCaseTable(g, s, false)})
	if gt := EvalGroupTable(s); gt != nil {
		r.Tables = append(r.Tables, TableFile{Name: "groups", Table: gt})
	}
	if st := EvalStandingsTable(s); st != nil {
		r.Tables = append(r.Tables, TableFile{Name: "standings", Table: st})
	}
	if ct := ConductTable("Forfeits, eliminations, ignored answers and answer times", nil, s.Conduct); ct != nil {
		r.Tables = append(r.Tables, TableFile{Name: "conduct", Table: ct})
	}
	r.Notes = append(r.Notes, conductNotes(nil, s.Conduct)...)
	names, groups := evalGroups(s)
	err := r.figure(dir, "scores", "Score per case", "Box plots of the scores across the cases (seeds) of each group: median, quartiles, whiskers to 1.5 IQR; the grey dots are the scores themselves.",
		func(f *Figure) (string, error) {
			if len(s.Cases) == 0 {
				return "the run has no played case", nil
			}
			p := newPlot("Score per case", "", "score")
			if len(s.Groups) > 0 {
				p.X.Label.Text = "group"
			}
			n, err := boxPlots(p, names, groups, colBlue)
			if err != nil {
				return "", err
			}
			if n == 0 {
				return "no finite score", nil
			}
			return "", saveFigure(dir, f, p, boxWidth(n), plotH)
		})
	if err != nil {
		return nil, err
	}
	caption := "The score of each case in play order; the dashed lines are the mean and its 95% confidence interval."
	if s.OptimumKnown != nil {
		caption += " The green rings are the optimum of each case where it is known."
	}
	if s.Direction == contract.Lower {
		caption += " Lower is better."
	}
	err = r.figure(dir, "case-scores", "Score of every case", caption,
		func(f *Figure) (string, error) {
			xys := make(plotter.XYs, len(s.Cases))
			for i, c := range s.Cases {
				xys[i] = plotter.XY{X: float64(i + 1), Y: c.Score}
			}
			xys = finiteXYs(xys)
			if len(xys) == 0 {
				if len(s.Cases) == 0 {
					return "the run has no played case", nil
				}
				return "no finite score", nil
			}
			p := newPlot("Score of every case", "case (play order)", "score")
			sc, err := scatter(xys, colBlue, nil)
			if err != nil {
				return "", err
			}
			p.Add(sc)
			if s.OptimumKnown != nil {
				var opt plotter.XYs
				for i, c := range s.Cases {
					if c.Optimum != nil {
						opt = append(opt, plotter.XY{X: float64(i + 1), Y: *c.Optimum})
					}
				}
				if opt = finiteXYs(opt); len(opt) > 0 {
					ring, err := scatter(opt, colGreen, draw.RingGlyph{})
					if err != nil {
						return "", err
					}
					p.Add(ring)
					p.Legend.Add("optimum", ring)
				}
			}
			x1 := float64(len(s.Cases))
			for i, y := range []float64{s.Mean, s.CI95[0], s.CI95[1]} {
				if !finite(y) {
					continue
				}
				c := colGrey
				if i == 0 {
					c = colOrange
				}
				l, err := hline(y, 1, x1, c)
				if err != nil {
					return "", err
				}
				p.Add(l)
				if i == 0 {
					p.Legend.Add("mean", l)
				}
			}
			legendOnTop(p, 1)
			return "", saveFigure(dir, f, p, plotW, plotH)
		})
	if err != nil {
		return nil, err
	}
	if err := r.finish(dir); err != nil {
		return nil, err
	}
	return r, nil
}

// evalFacts are the headline numbers of an eval.
func evalFacts(s *results.EvalSummary) []Fact {
	f := []Fact{
		{"mean ± 95% CI", PlusMinus(s.Mean, s.CI95[0], s.CI95[1])},
		{"total", Num(s.Total)},
		{"games", strconv.Itoa(s.Games)},
	}
	if s.Direction == contract.Lower {
		f = append(f, Fact{"direction", "lower is better"})
	}
	if s.OptimumKnown != nil {
		f = append(f, Fact{"at the optimum", fmt.Sprintf("%d of %d", *s.AtOptimum, *s.OptimumKnown)})
		if s.MeanGap != nil {
			f = append(f, Fact{"mean gap to the optimum", Num(*s.MeanGap)})
		}
	}
	if s.FirstRate != nil {
		f = append(f, Fact{"first place", fmt.Sprintf("%.1f%%", 100**s.FirstRate)})
	}
	if s.MeanRank != nil {
		f = append(f, Fact{"mean rank", fmt.Sprintf("%.2f", *s.MeanRank)})
	}
	f = append(f, Fact{"forfeits", strconv.Itoa(s.Forfeits)})
	if s.Missing > 0 {
		f = append(f, Fact{"cases missing", strconv.Itoa(s.Missing)})
	}
	return f
}

// evalGroups splits the case scores by group (in first-seen order), or
// returns one group of every case when the game has none.
func evalGroups(s *results.EvalSummary) ([]string, [][]float64) {
	var names []string
	var groups [][]float64
	at := map[string]int{}
	for _, c := range s.Cases {
		key := c.Group
		if key == "" {
			key = s.CaseSet
		}
		i, ok := at[key]
		if !ok {
			i = len(names)
			at[key] = i
			names = append(names, key)
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], c.Score)
	}
	return names, groups
}
