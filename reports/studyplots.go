package reports

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// maxCaseBoxes bounds the boxes of the per-case plot of a study.
const maxCaseBoxes = 40

// WriteStudyReport writes the report of a tuning study into dir: the trial
// list with parameters (trials.*) and the parameter importances
// (importance.*); plots of the optimization history with the best value so
// far (history.*), one slice plot per parameter (slice-NAME.*), the parameter
// importance (importance.*), the intermediate values of pruned and complete
// trials (intermediate.*) and the per-case scores across the complete trials
// (cases.*); and index.html. An empty study (or one without complete trials)
// gives a report whose plots say why they are not drawn.
func WriteStudyReport(dir string, s *Study) (*Report, error) {
	if s == nil {
		return nil, fmt.Errorf("study report: no study")
	}
	if err := prepare(dir); err != nil {
		return nil, err
	}
	r := &Report{Kind: "study", Title: fmt.Sprintf("study %s: %s %s on %s", s.Name, s.Game, s.Strategy, s.Cases)}
	r.Headline = studyFacts(s)
	r.Notes = append(r.Notes, s.Notes...)
	if len(s.Trials) == 0 {
		r.Notes = append(r.Notes, "the study has no trial yet")
	}
	r.method = ImportanceMethod
	if s.Objective != "" {
		r.method = "Objective: " + s.Objective + ". " + r.method
	}
	r.Tables = append(r.Tables, TableFile{Name: "trials", Table: StudyTrialTable(s)})
	if len(s.Holdouts) > 0 {
		r.Tables = append(r.Tables, TableFile{Name: "holdout", Table: HoldoutTable(s)})
	}
	imp, why := ParamImportance(s)
	if imp != nil {
		r.Tables = append(r.Tables, TableFile{Name: "importance", Table: ImportanceTable(s, imp)})
	}
	figs := []struct {
		name, title, caption string
		draw                 func(f *Figure) (string, error)
	}{
		{"history", "Optimization history", "The value of every complete (dots) and pruned (crosses) trial by trial number, and the best value so far (line).",
			func(f *Figure) (string, error) { return historyFigure(dir, f, s) }},
		{"importance", "Parameter importance", ImportanceMethod,
			func(f *Figure) (string, error) {
				if imp == nil || why != "" {
					return why, nil
				}
				return importanceFigure(dir, f, imp)
			}},
		{"intermediate", "Intermediate values", "The running mean of each trial after each chunk of cases: complete trials in blue, pruned trials in red (they stop where the pruner stopped them).",
			func(f *Figure) (string, error) { return intermediateFigure(dir, f, s) }},
		{"cases", "Score per case", "Box plots of each case's score across the complete trials (different parameters); the grey dots are the scores themselves.",
			func(f *Figure) (string, error) { return caseFigure(dir, f, s) }},
	}
	for _, st := range figs {
		if err := r.figure(dir, st.name, st.title, st.caption, st.draw); err != nil {
			return nil, err
		}
	}
	// One slice plot per parameter; none when no trial has a value (the
	// history plot already says why).
	if c, p := valuePoints(s, func(*Trial) (float64, bool) { return 0, true }); len(c)+len(p) > 0 {
		for _, name := range s.Params {
			f := Figure{Name: "slice-" + fileSafe(name), Title: "Slice: " + name, Small: true,
				Caption: "The value of each complete (dots) and pruned (crosses) trial against " + name + "."}
			if err := r.addFigure(dir, f, func(f *Figure) (string, error) { return sliceFigure(dir, f, s, name) }); err != nil {
				return nil, err
			}
		}
	}
	if err := r.finish(dir); err != nil {
		return nil, err
	}
	return r, nil
}

// fileSafe maps a parameter name to a file name part.
func fileSafe(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}

// valuePoints splits the finite values of complete and pruned trials into
// two point sets, x chosen by xOf (ok false leaves the trial out).
func valuePoints(s *Study, xOf func(t *Trial) (float64, bool)) (complete, pruned plotter.XYs) {
	for i := range s.Trials {
		t := &s.Trials[i]
		if !finite(t.Value) || (t.State != TrialComplete && t.State != TrialPruned) {
			continue
		}
		x, ok := xOf(t)
		if !ok || !finite(x) {
			continue
		}
		p := plotter.XY{X: x, Y: t.Value}
		if t.State == TrialComplete {
			complete = append(complete, p)
		} else {
			pruned = append(pruned, p)
		}
	}
	return complete, pruned
}

// addValuePoints adds the complete and pruned point sets with a legend.
func addValuePoints(p *plot.Plot, complete, pruned plotter.XYs) error {
	if len(complete) > 0 {
		sc, err := scatter(complete, colBlue, draw.CircleGlyph{})
		if err != nil {
			return err
		}
		p.Add(sc)
		p.Legend.Add("complete", sc)
	}
	if len(pruned) > 0 {
		sc, err := scatter(pruned, colRed, draw.CrossGlyph{})
		if err != nil {
			return err
		}
		p.Add(sc)
		p.Legend.Add("pruned", sc)
	}
	return nil
}

func noValues(s *Study) string {
	if len(s.Trials) == 0 {
		return "the study has no trial yet"
	}
	return "no complete or pruned trial with a finite value"
}

func historyFigure(dir string, f *Figure, s *Study) (string, error) {
	complete, pruned := valuePoints(s, func(t *Trial) (float64, bool) { return float64(t.Number), true })
	if len(complete)+len(pruned) == 0 {
		return noValues(s), nil
	}
	p := newPlot("Optimization history", "trial", "value")
	p.X.Tick.Marker = integerTicks
	if err := addValuePoints(p, complete, pruned); err != nil {
		return "", err
	}
	// Best so far over the complete trials, in trial-number order.
	var best plotter.XYs
	pts := append(plotter.XYs{}, complete...)
	sortXY(pts)
	for _, q := range pts {
		if len(best) == 0 || s.better(q.Y, best[len(best)-1].Y) {
			if len(best) > 0 {
				best = append(best, plotter.XY{X: q.X, Y: best[len(best)-1].Y})
			}
			best = append(best, q)
		}
	}
	if len(best) > 0 {
		if last := pts[len(pts)-1].X; last > best[len(best)-1].X {
			best = append(best, plotter.XY{X: last, Y: best[len(best)-1].Y})
		}
		l, err := line(best, colOrange, false)
		if err != nil {
			return "", err
		}
		p.Add(l)
		p.Legend.Add("best so far", l)
	}
	if s.DefaultValue != nil && finite(*s.DefaultValue) {
		x0, x1 := 0.0, 1.0
		for _, t := range s.Trials {
			x1 = max(x1, float64(t.Number))
		}
		l, err := hline(*s.DefaultValue, x0, x1, colGrey)
		if err != nil {
			return "", err
		}
		p.Add(l)
		p.Legend.Add("default", l)
	}
	entries := 1 // best so far
	if len(complete) > 0 && len(pruned) > 0 {
		entries++
	}
	if s.DefaultValue != nil && finite(*s.DefaultValue) {
		entries++
	}
	legendOnTop(p, entries+1)
	return "", saveFigure(dir, f, p, plotW, plotH)
}

func sortXY(xys plotter.XYs) {
	for i := 1; i < len(xys); i++ {
		for j := i; j > 0 && xys[j].X < xys[j-1].X; j-- {
			xys[j], xys[j-1] = xys[j-1], xys[j]
		}
	}
}

func sliceFigure(dir string, f *Figure, s *Study, param string) (string, error) {
	complete, pruned := valuePoints(s, func(t *Trial) (float64, bool) {
		v, ok := t.Params[param]
		return v, ok
	})
	if len(complete)+len(pruned) == 0 {
		return noValues(s), nil
	}
	p := newPlot("Slice: "+param, param, "value")
	if err := addValuePoints(p, complete, pruned); err != nil {
		return "", err
	}
	if ch := s.Choices[param]; len(ch) > 0 {
		labels := make([]string, len(ch))
		for i, c := range ch {
			labels[i] = shortLabel(c)
		}
		p.NominalX(labels...)
		p.X.Label.Text = param
	} else if s.Log[param] && allPositiveX(complete, pruned) {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
		p.X.Label.Text = param + " (log scale)"
	}
	legendOnTop(p, boolCount(len(complete) > 0, len(pruned) > 0))
	return "", saveFigure(dir, f, p, plotW, plotH)
}

func allPositiveX(sets ...plotter.XYs) bool {
	for _, xys := range sets {
		for _, q := range xys {
			if q.X <= 0 {
				return false
			}
		}
	}
	return true
}

func importanceFigure(dir string, f *Figure, imp []Importance) (string, error) {
	imp = slices.Clone(imp)
	slices.SortStableFunc(imp, func(a, b Importance) int { return cmp.Compare(b.Share, a.Share) })
	vs := make(plotter.Values, len(imp))
	names := make([]string, len(imp))
	for i, im := range imp {
		vs[i] = im.Share
		names[i] = shortLabel(im.Param)
	}
	p := newPlot("Parameter importance", "", "share of η² (variance explained)")
	bars, err := plotter.NewBarChart(vs, vg.Points(20))
	if err != nil {
		return "", err
	}
	bars.Color = colBlue
	bars.LineStyle.Width = 0
	p.Add(bars)
	p.NominalX(names...)
	p.Y.Min = 0
	rotateXLabels(p)
	return "", saveFigure(dir, f, p, boxWidth(len(imp)), plotH)
}

func intermediateFigure(dir string, f *Figure, s *Study) (string, error) {
	p := newPlot("Intermediate values", "cases played", "running mean")
	var haveC, haveP bool
	for i := range s.Trials {
		t := &s.Trials[i]
		if t.State != TrialComplete && t.State != TrialPruned {
			continue
		}
		xys := make(plotter.XYs, len(t.Intermediate))
		for j, st := range t.Intermediate {
			xys[j] = plotter.XY{X: float64(st.Step), Y: st.Value}
		}
		xys = finiteXYs(xys)
		if len(xys) == 0 {
			continue
		}
		c := colBlue
		if t.State == TrialPruned {
			c = colRed
		}
		l, err := line(xys, c, false)
		if err != nil {
			return "", err
		}
		l.Width = vg.Points(1)
		p.Add(l)
		if len(xys) == 1 {
			sc, err := scatter(xys, c, nil)
			if err != nil {
				return "", err
			}
			p.Add(sc)
		}
		if t.State == TrialComplete && !haveC {
			haveC = true
			p.Legend.Add("complete", l)
		}
		if t.State == TrialPruned && !haveP {
			haveP = true
			p.Legend.Add("pruned", l)
		}
	}
	if !haveC && !haveP {
		if len(s.Trials) == 0 {
			return "the study has no trial yet", nil
		}
		return "no trial reported a finite intermediate value", nil
	}
	legendOnTop(p, boolCount(haveC, haveP))
	return "", saveFigure(dir, f, p, plotW, plotH)
}

func caseFigure(dir string, f *Figure, s *Study) (string, error) {
	trials := s.complete()
	if len(trials) == 0 {
		if len(s.Trials) == 0 {
			return "the study has no trial yet", nil
		}
		return "no complete trial", nil
	}
	n := 0
	for _, t := range trials {
		n = max(n, len(t.Scores))
	}
	if n == 0 {
		return "the complete trials recorded no per-case score", nil
	}
	shown := min(n, maxCaseBoxes)
	names := make([]string, shown)
	groups := make([][]float64, shown)
	for u := 0; u < shown; u++ {
		names[u] = fmt.Sprintf("%d", u+1)
		if u < len(s.Units) && s.Units[u] != "" {
			names[u] = s.Units[u]
		}
		for _, t := range trials {
			if u < len(t.Scores) {
				groups[u] = append(groups[u], t.Scores[u])
			}
		}
	}
	title := "Score per case"
	if shown < n {
		title = fmt.Sprintf("Score per case (first %d of %d)", shown, n)
	}
	p := newPlot(title, "", "score")
	k, err := boxPlots(p, names, groups, colBlue)
	if err != nil {
		return "", err
	}
	if k == 0 {
		return "no finite per-case score", nil
	}
	rotateXLabels(p)
	return "", saveFigure(dir, f, p, boxWidth(k), plotH)
}

// rotateXLabels slants the tick labels of a nominal X axis so that long
// names do not overlap.
func rotateXLabels(p *plot.Plot) {
	p.X.Tick.Label.Rotation = 0.8
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
}

// boolCount counts the true values.
func boolCount(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}
