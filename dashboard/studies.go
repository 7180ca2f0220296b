package dashboard

import (
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/harness/store"
	"gauntlet/tuning"
	"gauntlet/tuning/spsa"
)

// studyModel is a tuning study's page.
type studyModel struct {
	Rec     *tuning.StudyRecord
	Sum     *tuning.Summary
	Beats   []store.TrialBeat
	PerMin  float64 // trials ended per minute over the last ten minutes
	MeanSec float64 // mean time of a finished trial
	// BestFile is the best configuration as --best-json writes it, for
	// --params-file.
	BestFile    string
	History     template.HTML
	Importance  template.HTML
	ImpNote     string
	Slices      []template.HTML
	Parallel    template.HTML
	Recent      []tuning.TrialRow
	TrialsShown int
	// Holdouts are the study's finished hold-outs (tune --holdout).
	Holdouts []*tuning.Holdout
}

const recentTrials = 30

func (s *Server) studyPage(r *http.Request) (*view, error) {
	ctx := r.Context()
	name := r.PathValue("name")
	rec, err := s.tune.Load(ctx, name)
	if err != nil {
		if strings.HasPrefix(err.Error(), "no study ") {
			return nil, notFound{err}
		}
		return nil, err
	}
	m := &studyModel{Rec: rec, Sum: tuning.BuildSummary(rec)}
	if rec.ID != 0 {
		if m.Beats, err = s.store.TrialBeats(ctx, rec.ID); err != nil {
			return nil, err
		}
	}
	if m.Holdouts, err = s.tune.Holdouts(ctx, name); err != nil {
		return nil, err
	}
	m.PerMin, m.MeanSec = trialPace(rec.Trials)
	if sum := m.Sum; sum.BestTrial != nil && sum.BestValue != nil {
		game := rec.Spec.Game
		if rec.Spec.Source != "" {
			game = rec.Spec.Source
		}
		js, err := json.MarshalIndent(map[string]any{"game": game, "strategy": rec.Spec.Strategy, "study": rec.Name,
			"trial": *sum.BestTrial, "params": sum.BestParams, "value": *sum.BestValue}, "", "  ")
		if err != nil {
			return nil, err
		}
		m.BestFile = string(js)
	}
	studyCharts(m)
	n := len(m.Sum.Trials)
	m.Recent = slices.Clone(m.Sum.Trials[max(n-recentTrials, 0):])
	slices.Reverse(m.Recent)
	return &view{Title: "study " + rec.Name, Model: m, Parts: []string{"status", "charts", "best", "holdout", "trials"}}, nil
}

// trialPace is the trials ended per minute over the last ten minutes and
// the mean time of a finished trial.
func trialPace(ts []tuning.TrialRecord) (perMin, meanSec float64) {
	const window = 10 * time.Minute
	now := time.Now()
	var ended int
	var total float64
	var finished int
	for _, t := range ts {
		if t.End.IsZero() {
			continue
		}
		finished++
		total += t.End.Sub(t.Start).Seconds()
		if now.Sub(t.End) <= window {
			ended++
		}
	}
	if finished > 0 {
		meanSec = total / float64(finished)
	} else {
		meanSec = math.NaN()
	}
	return float64(ended) / window.Minutes(), meanSec
}

// studyCharts draws a study's history, importances, slices and parallel
// coordinates from its complete trials.
func studyCharts(m *studyModel) {
	rec := m.Rec
	var done, pruned, best []point
	var cur float64
	have := false
	var complete []tuning.TrialRecord
	for _, t := range rec.Trials {
		x := float64(t.Number)
		switch t.State {
		case tuning.StateComplete:
			done = append(done, point{x, t.Value})
			complete = append(complete, t)
			if !have || (rec.Spec.Direction == contract.Lower && t.Value < cur) || (rec.Spec.Direction == contract.Higher && t.Value > cur) {
				cur, have = t.Value, true
			}
		case tuning.StatePruned:
			pruned = append(pruned, point{x, t.Value})
		}
		if have {
			best = append(best, point{x, cur})
		}
	}
	h := chart{W: 560, H: 280, Title: "trial values", XLabel: "trial", YLabel: "value", Series: []series{
		{Name: "pruned (value when stopped)", Points: pruned, Class: "faint", Dots: true},
		{Name: "complete", Points: done, Class: "s0", Dots: true},
		{Name: "best so far", Points: best, Class: "best", Step: true},
	}}
	m.History = h.SVG()
	params := paramColumns(rec, complete)
	if len(params) == 0 || len(complete) < 2 {
		return
	}
	labels := make([]string, len(params))
	imps := make([]float64, len(params))
	for i, p := range params {
		labels[i] = p.name
		imps[i] = etaSquared(p.values, complete)
	}
	total := 0.0
	for _, v := range imps {
		total += v
	}
	if total > 0 {
		for i := range imps {
			imps[i] /= total
		}
	}
	m.Importance = bars("parameter importance (share of explained variance)", labels, imps)
	m.ImpNote = fmt.Sprintf("over %d complete trials: each parameter's correlation ratio η² (the share of the values' variance explained by the parameter's value, in up to 8 bins of equal counts), the parameters' η² scaled to sum to 1. Goptuna has no fANOVA; η² looks at one parameter at a time and misses interactions.", len(complete))
	for _, p := range params {
		pts := make([]point, len(complete))
		for i, t := range complete {
			pts[i] = point{p.values[i], t.Value}
		}
		c := chart{W: 300, H: 220, Title: p.name, XLabel: p.name, YLabel: "value", XTicks: p.names,
			Series: []series{{Points: pts, Class: "s0", Dots: true}}}
		m.Slices = append(m.Slices, c.SVG())
	}
	axes := make([]axis, 0, len(params)+1)
	for _, p := range params {
		lo, hi := minMax(p.values)
		if len(p.names) > 0 {
			lo, hi = 0, float64(len(p.names)-1)
		}
		axes = append(axes, axis{Name: p.name, Lo: lo, Hi: hi, Names: p.names})
	}
	vals := make([]float64, len(complete))
	for i, t := range complete {
		vals[i] = t.Value
	}
	lo, hi := minMax(vals)
	axes = append(axes, axis{Name: "value", Lo: lo, Hi: hi})
	rows := make([][]float64, len(complete))
	class := make([]string, len(complete))
	for i, t := range complete {
		row := make([]float64, 0, len(axes))
		for _, p := range params {
			row = append(row, p.values[i])
		}
		rows[i] = append(row, t.Value)
		// Colour by value: the best quarter stands out.
		q := 0.0
		if hi > lo {
			q = (t.Value - lo) / (hi - lo)
		}
		if rec.Spec.Direction == contract.Lower {
			q = 1 - q
		}
		class[i] = fmt.Sprintf("q%d", min(int(q*4), 3))
	}
	m.Parallel = parallel("parallel coordinates (complete trials; brighter: better)", axes, rows, class)
}

// paramColumn is one searched parameter's values over the complete
// trials: numbers, or for a categorical one the index of its choice in
// names.
type paramColumn struct {
	name   string
	values []float64
	names  []string
}

// paramColumns returns the searched parameters' columns, in name order.
func paramColumns(rec *tuning.StudyRecord, ts []tuning.TrialRecord) []paramColumn {
	seen := map[string]bool{}
	for _, t := range ts {
		for k := range t.Params {
			seen[k] = true
		}
	}
	names := make([]string, 0, len(seen))
	for k := range seen {
		names = append(names, k)
	}
	sort.Strings(names)
	var out []paramColumn
	for _, name := range names {
		c := paramColumn{name: name, values: make([]float64, len(ts))}
		choices := map[string]bool{}
		for _, t := range ts {
			if s, ok := t.Params[name].(string); ok {
				choices[s] = true
			}
		}
		if len(choices) > 0 {
			for k := range choices {
				c.names = append(c.names, k)
			}
			sort.Strings(c.names)
		}
		for i, t := range ts {
			c.values[i] = math.NaN()
			switch v := t.Params[name].(type) {
			case string:
				c.values[i] = float64(slices.Index(c.names, v))
			case float64:
				c.values[i] = v
			case int:
				c.values[i] = float64(v)
			case int64:
				c.values[i] = float64(v)
			}
		}
		out = append(out, c)
	}
	return out
}

// etaSquared is the correlation ratio of the trials' values on a
// parameter: the share of the values' variance between the groups of
// trials with the same (categorical) value, or in the same of up to 8
// bins of about equal counts (numbers). 0 when the values do not vary.
func etaSquared(xs []float64, ts []tuning.TrialRecord) float64 {
	type pair struct{ x, y float64 }
	ps := make([]pair, 0, len(ts))
	for i, t := range ts {
		if finite(xs[i]) && finite(t.Value) {
			ps = append(ps, pair{xs[i], t.Value})
		}
	}
	if len(ps) < 2 {
		return 0
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].x < ps[j].x })
	mean := 0.0
	for _, p := range ps {
		mean += p.y
	}
	mean /= float64(len(ps))
	total := 0.0
	for _, p := range ps {
		total += (p.y - mean) * (p.y - mean)
	}
	if total == 0 {
		return 0
	}
	bins := min(8, len(ps)/2)
	between := 0.0
	for lo := 0; lo < len(ps); {
		hi := min(lo+max(len(ps)/max(bins, 1), 1), len(ps))
		for hi < len(ps) && ps[hi].x == ps[hi-1].x {
			hi++ // equal values stay in one bin
		}
		m := 0.0
		for _, p := range ps[lo:hi] {
			m += p.y
		}
		m /= float64(hi - lo)
		between += float64(hi-lo) * (m - mean) * (m - mean)
		lo = hi
	}
	return between / total
}

// minMax is the range of the finite xs (0, 1 when none).
func minMax(xs []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		if finite(x) {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
	}
	if lo > hi {
		return 0, 1
	}
	return lo, hi
}

// spsaModel is an SPSA study's page.
type spsaModel struct {
	Rec      *spsa.Record
	Sum      *spsa.Summary
	Workers  []store.SPSAWorker
	PerMin   float64 // iterations applied per minute over the last ten minutes
	ETA      float64 // seconds, NaN when unknown
	Done     float64
	BestFile string
	Paths    []template.HTML
	Recent   []spsa.IterRecord
	// Holdouts are the study's hold-outs (spsa --holdout), finished or
	// being played.
	Holdouts []spsa.Holdout
}

// trajectoryPoints is at most how many points a trajectory chart draws.
const trajectoryPoints = 400

func (s *Server) spsaPage(r *http.Request) (*view, error) {
	ctx := r.Context()
	name := r.PathValue("name")
	rec, err := s.spsa.Load(ctx, name)
	if errors.Is(err, spsa.ErrNoStudy) {
		return nil, notFound{err}
	} else if err != nil {
		return nil, err
	}
	sum, err := spsa.BuildSummary(rec)
	if err != nil {
		return nil, err
	}
	m := &spsaModel{Rec: rec, Sum: sum, ETA: math.NaN()}
	if m.Workers, err = s.store.SPSAWorkers(ctx, name); err != nil {
		return nil, err
	}
	if m.Holdouts, err = s.spsa.Holdouts(ctx, name); err != nil {
		return nil, err
	}
	if sum.Iterations > 0 {
		m.Done = min(float64(sum.Applied)/float64(sum.Iterations), 1)
	}
	const window = 10 * time.Minute
	n := 0
	for _, it := range rec.Iterations {
		if time.Since(it.Finished) <= window {
			n++
		}
	}
	m.PerMin = float64(n) / window.Minutes()
	if m.PerMin > 0 && !sum.Complete {
		m.ETA = float64(sum.Iterations-sum.Applied) / m.PerMin * 60
	}
	game := sum.Game
	if sum.Source != "" {
		game = sum.Source
	}
	js, err := json.MarshalIndent(map[string]any{"game": game, "strategy": sum.Target, "study": sum.Study, "iterations": sum.Applied, "params": sum.Final}, "", "  ")
	if err != nil {
		return nil, err
	}
	m.BestFile = string(js)
	its := rec.Iterations
	step := max(len(its)/trajectoryPoints, 1)
	for i, p := range rec.Spec.Params {
		var pts []point
		pts = append(pts, point{0, p.Start})
		for j := step - 1; j < len(its); j += step {
			if i < len(its[j].Theta) {
				pts = append(pts, point{float64(its[j].Seq), p.Value(its[j].Theta[i])})
			}
		}
		if n := len(its); n > 0 && (n-1)%step != step-1 && i < len(its[n-1].Theta) {
			pts = append(pts, point{float64(its[n-1].Seq), p.Value(its[n-1].Theta[i])})
		}
		c := chart{W: 360, H: 220, Title: p.Name, XLabel: "iteration", YLabel: p.Name,
			Series: []series{{Points: pts, Class: "s0"}}, Rules: []rule{{p.Start, "start"}}}
		m.Paths = append(m.Paths, c.SVG())
	}
	n = len(its)
	m.Recent = slices.Clone(its[max(n-recentTrials, 0):])
	slices.Reverse(m.Recent)
	return &view{Title: "SPSA " + rec.Name, Model: m, Parts: []string{"status", "holdout", "paths", "iterations"}}, nil
}
