package reports

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"gauntlet/tuning/spsa"
)

// SPSAStudy is an SPSA study as a report sees it: plain data, no database.
type SPSAStudy struct {
	Name     string
	Game     string
	Strategy string
	Cases    string
	Games    int // the budget
	Applied  int // iterations (game pairs) applied
	// Wins, Draws, Losses of θ+ against θ− over all pairs.
	Wins, Draws, Losses int
	Params              []SPSAParam
	// Points are θ after each applied iteration, in order, in the
	// parameters' units (Values in Params order).
	Points       []SPSAPoint
	Reproducible string // whether the same command gives the same θ, and why
	Notes        []string
	// Holdouts are the study's hold-outs (spsa --holdout), finished or
	// being played.
	Holdouts []spsa.Holdout
}

// SPSAParam is one tuned parameter.
type SPSAParam struct {
	Name       string
	Kind       string // "int", "float" or "log-float"
	Min, Max   float64
	Start      float64
	Final      float64 // the value written as the result (rounded for int)
	Theta      float64 // θ at the end, unrounded
	CEnd, REnd float64
}

// SPSAPoint is θ after a number of games.
type SPSAPoint struct {
	Games  int
	Values []float64
}

// maxTrajectoryPoints bounds the points drawn per line: a study of 20,000
// iterations is drawn from 1,000 evenly spaced ones (and the last).
const maxTrajectoryPoints = 1000

// SPSAParamTable lists each parameter's start, final value and the distance
// moved, absolute and as a share of its declared range.
func SPSAParamTable(s *SPSAStudy) *Table {
	t := &Table{Title: fmt.Sprintf("parameters of SPSA study %s", s.Name),
		Header: []string{"param", "kind", "min", "max", "start", "final", "moved", "moved % of range", "c_end", "r_end"}}
	for _, p := range s.Params {
		moved := p.Theta - p.Start
		share := 0.0
		if p.Max > p.Min {
			share = moved / (p.Max - p.Min)
		}
		t.Rows = append(t.Rows, []string{p.Name, p.Kind, Num(p.Min), Num(p.Max), Num(p.Start), Num(p.Final),
			fmt.Sprintf("%+.4g", moved), fmt.Sprintf("%+.1f%%", 100*share), Num(p.CEnd), Num(p.REnd)})
	}
	t.NumericRight()
	return t
}

// SPSAHoldoutTable lists the study's hold-outs: the A/B of the final
// values against the start on cases the study never played. It has a
// column of eliminations where a hold-out counted one (a game with
// eliminations, contract.Eliminator).
func SPSAHoldoutTable(s *SPSAStudy) *Table {
	t := &Table{Title: fmt.Sprintf("held out, SPSA study %s (the final values (A) against the start (B))", s.Name),
		Header: []string{"cases", "games", "W/D/L", "score", "Elo", "95% CI", "LOS", "SPRT", "forfeits A/B"}}
	deaths := slices.ContainsFunc(s.Holdouts, func(h spsa.Holdout) bool {
		return h.Summary != nil && h.Summary.ConductA.Eliminated+h.Summary.ConductB.Eliminated > 0
	})
	if deaths {
		t.Header = append(t.Header, "eliminated A/B")
	}
	t.Header = append(t.Header, "run")
	for _, h := range s.Holdouts {
		a := h.Summary
		var row []string
		if a == nil {
			row = []string{h.Cases, strconv.Itoa(h.Stored), h.Status, "", "", "", "", "", ""}
			if deaths {
				row = append(row, "")
			}
		} else {
			sprt := a.SPRT
			if a.Stopped {
				sprt += " (stopped early)"
			}
			row = []string{h.Cases, strconv.Itoa(a.Games), fmt.Sprintf("+%d =%d -%d", a.Wins, a.Draws, a.Losses),
				fmt.Sprintf("%.3f", a.Score), fmt.Sprintf("%+.1f", a.Elo), fmt.Sprintf("[%+.1f, %+.1f]", a.EloCI95[0], a.EloCI95[1]),
				pct(a.LOS), sprt, fmt.Sprintf("%d/%d", a.ForfeitsA, a.ForfeitsB)}
			if deaths {
				row = append(row, fmt.Sprintf("%d/%d", a.ConductA.Eliminated, a.ConductB.Eliminated))
			}
		}
		t.Rows = append(t.Rows, append(row, h.Run))
	}
	t.NumericRight()
	return t
}

// SPSATrajectoryTable samples θ at every twentieth of the games applied
// (and at the start and the end).
func SPSATrajectoryTable(s *SPSAStudy) *Table {
	t := &Table{Title: fmt.Sprintf("trajectory of SPSA study %s", s.Name), Header: []string{"games"}}
	start := []string{"0"}
	for _, p := range s.Params {
		t.Header = append(t.Header, p.Name)
		start = append(start, Num(p.Start))
	}
	t.Rows = append(t.Rows, start)
	n := len(s.Points)
	last := -1
	for j := 1; j <= 20 && n > 0; j++ {
		i := int(math.Ceil(float64(j)*float64(n)/20)) - 1
		if i <= last {
			continue
		}
		last = i
		row := []string{strconv.Itoa(s.Points[i].Games)}
		for _, v := range s.Points[i].Values {
			row = append(row, strconv.FormatFloat(v, 'g', 5, 64))
		}
		t.Rows = append(t.Rows, row)
	}
	t.NumericRight()
	return t
}

func spsaFacts(s *SPSAStudy) []Fact {
	total := s.Wins + s.Draws + s.Losses
	f := []Fact{
		{"iterations", fmt.Sprintf("%d of %d", s.Applied, s.Games/2)},
		{"games played", strconv.Itoa(2 * s.Applied)},
		{"parameters", strconv.Itoa(len(s.Params))},
	}
	if total > 0 {
		f = append(f, Fact{"θ+ vs θ− (W/D/L)", fmt.Sprintf("%d/%d/%d", s.Wins, s.Draws, s.Losses)})
	}
	best, bestShare := "", 0.0
	for _, p := range s.Params {
		if p.Max > p.Min {
			if sh := math.Abs(p.Theta-p.Start) / (p.Max - p.Min); sh > bestShare || best == "" {
				best, bestShare = p.Name, sh
			}
		}
	}
	if best != "" {
		f = append(f, Fact{"largest move", fmt.Sprintf("%s, %.1f%% of its range", best, 100*bestShare)})
	}
	return f
}

// WriteSPSAReport writes the report of an SPSA study into dir: the
// parameter table (params.*: start, final, distance moved), the trajectory
// sampled at every twentieth of the games (trajectory.*), one plot of every
// parameter normalised to its range over the games (trajectory.svg/png), one
// plot per parameter in its own units (param-NAME.*), and index.html.
func WriteSPSAReport(dir string, s *SPSAStudy) (*Report, error) {
	if s == nil {
		return nil, fmt.Errorf("SPSA report: no study")
	}
	if err := prepare(dir); err != nil {
		return nil, err
	}
	r := &Report{Kind: "spsa", Title: fmt.Sprintf("SPSA study %s: %s %s on %s", s.Name, s.Game, s.Strategy, s.Cases)}
	r.Headline = spsaFacts(s)
	r.Notes = append(r.Notes, s.Notes...)
	if len(s.Points) == 0 {
		r.Notes = append(r.Notes, "the study has no applied iteration yet")
	}
	r.method = "SPSA as fishtest runs it: each iteration plays one seat-swapped game pair between θ + c_k·Δ and θ − c_k·Δ " +
		"(Δ a random ±1 vector) and moves θ by a_k·(wins − losses)·Δ/c_k, with c_k = c/k^γ and a_k = a/(A+k)^α. " + s.Reproducible
	r.Tables = append(r.Tables, TableFile{Name: "params", Table: SPSAParamTable(s)},
		TableFile{Name: "trajectory", Table: SPSATrajectoryTable(s)})
	if len(s.Holdouts) > 0 {
		r.Tables = append(r.Tables, TableFile{Name: "holdout", Table: SPSAHoldoutTable(s)})
	}
	if err := r.figure(dir, "trajectory", "Trajectory of every parameter",
		"Each parameter's θ over the games applied, as a share of its declared range (0 = min, 1 = max); the legend gives each parameter's range.",
		func(f *Figure) (string, error) { return spsaNormalisedFigure(dir, f, s) }); err != nil {
		return nil, err
	}
	if len(s.Points) > 0 {
		for i, p := range s.Params {
			f := Figure{Name: "param-" + fileSafe(p.Name), Title: "θ of " + p.Name, Small: true,
				Caption: fmt.Sprintf("%s over the games applied (line), its start (dashed grey) and its final value %s.", p.Name, Num(p.Final))}
			if err := r.addFigure(dir, f, func(f *Figure) (string, error) { return spsaParamFigure(dir, f, s, i) }); err != nil {
				return nil, err
			}
		}
	}
	if err := r.finish(dir); err != nil {
		return nil, err
	}
	return r, nil
}

// trajectory returns parameter i's points (games, value), at most
// maxTrajectoryPoints of them plus the start and the last, with norm
// mapping a value to the plotted one.
func trajectory(s *SPSAStudy, i int, norm func(float64) float64) plotter.XYs {
	n := len(s.Points)
	step := max(1, (n+maxTrajectoryPoints-1)/maxTrajectoryPoints)
	out := plotter.XYs{{X: 0, Y: norm(s.Params[i].Start)}}
	for j := step - 1; j < n; j += step {
		out = append(out, plotter.XY{X: float64(s.Points[j].Games), Y: norm(s.Points[j].Values[i])})
	}
	if (n-1)%step != step-1 && n > 0 {
		out = append(out, plotter.XY{X: float64(s.Points[n-1].Games), Y: norm(s.Points[n-1].Values[i])})
	}
	return finiteXYs(out)
}

func spsaNormalisedFigure(dir string, f *Figure, s *SPSAStudy) (string, error) {
	if len(s.Points) == 0 {
		return "the study has no applied iteration yet", nil
	}
	p := newPlot("Trajectory (share of each range)", "games", "(θ − min) / (max − min)")
	for i, sp := range s.Params {
		span := sp.Max - sp.Min
		if span <= 0 {
			continue
		}
		l, err := line(trajectory(s, i, func(v float64) float64 { return (v - sp.Min) / span }), plotutil.Color(i), false)
		if err != nil {
			return "", err
		}
		l.Dashes = plotutil.Dashes(i / 7)
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("%s [%s, %s]", shortLabel(sp.Name), Num(sp.Min), Num(sp.Max)), l)
	}
	p.Y.Min, p.Y.Max = 0, 1
	// The legend goes below the plot: inside, it would hide the lines
	// that end near 0 or 1.
	leg := p.Legend
	leg.Top, leg.Left = true, true
	p.Legend = plot.NewLegend()
	legendH := vg.Length(len(s.Params))*0.4*vg.Centimeter + 0.4*vg.Centimeter
	h := plotH + legendH
	for _, ext := range []string{"svg", "png"} {
		c, err := draw.NewFormattedCanvas(plotW, h, ext)
		if err != nil {
			return "", err
		}
		dc := draw.New(c)
		p.Draw(draw.Crop(dc, 0, 0, legendH, 0))
		leg.Draw(draw.Crop(draw.Crop(dc, 0.5*vg.Centimeter, 0, 0, -plotH), 0, 0, 0, -0.2*vg.Centimeter))
		file := f.Name + "." + ext
		if err := writeCanvas(filepath.Join(dir, file), c); err != nil {
			return "", fmt.Errorf("plot %s: %w", file, err)
		}
		if ext == "svg" {
			f.SVG = file
		} else {
			f.PNG = file
		}
	}
	return "", nil
}

// writeCanvas writes a drawn canvas to path.
func writeCanvas(path string, c io.WriterTo) error {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := c.WriteTo(out); err != nil {
		_ = out.Close() // the write's error is the one to report
		return err
	}
	return out.Close()
}

func spsaParamFigure(dir string, f *Figure, s *SPSAStudy, i int) (string, error) {
	sp := s.Params[i]
	pts := trajectory(s, i, func(v float64) float64 { return v })
	if len(pts) < 2 {
		return "no finite value of " + sp.Name, nil
	}
	p := newPlot(sp.Name, "games", sp.Name)
	l, err := line(pts, colBlue, false)
	if err != nil {
		return "", err
	}
	p.Add(l)
	st, err := hline(sp.Start, 0, pts[len(pts)-1].X, colGrey)
	if err != nil {
		return "", err
	}
	p.Add(st)
	if sp.Kind == "log-float" && sp.Min > 0 {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	return "", saveFigure(dir, f, p, plotW/2, plotH/2)
}
