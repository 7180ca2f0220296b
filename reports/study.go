package reports

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"gauntlet/harness/contract"
	"gauntlet/tuning"
)

// Trial states as a Study carries them (the tuning package's names).
const (
	TrialComplete = "complete"
	TrialPruned   = "pruned"
)

// Study is a tuning study as a report sees it: plain data, no database.
type Study struct {
	Name      string
	Game      string
	Strategy  string
	Cases     string
	Objective string             // what Value means, e.g. "mean score per case"
	Direction contract.Direction // which values are better (default: higher)
	// Params are the searched parameters in display order. Every trial's
	// Params holds a number per name: the value, or for a categorical
	// parameter the index of its choice in Choices[name].
	Params  []string
	Choices map[string][]string
	// Log marks parameters searched on a log scale: their slice plots use a
	// logarithmic axis (when every value is positive).
	Log map[string]bool
	// Units names the scored units (cases) of Trial.Scores, in order.
	Units  []string
	Trials []Trial

	// From the study summary, when known: the default configuration's value
	// and the best configuration's improvement over it (mean paired
	// per-case difference) with its 95% CI and Wilcoxon p-value.
	DefaultValue *float64
	Improvement  *float64
	CI95         *[2]float64
	WilcoxonP    *float64
	Notes        []string
	// Holdouts are the study's finished hold-outs (tune --holdout): the
	// best trial and the default on cases the study did not play.
	Holdouts []*tuning.Holdout
}

// Trial is one trial of a Study.
type Trial struct {
	Number int
	State  string  // "complete", "pruned", "failed", "lost", "running", ...
	Value  float64 // meaningful for complete and pruned trials
	Params map[string]float64
	// Intermediate values: the running mean after Step units.
	Intermediate []Step
	Scores       []float64 // per-unit scores in Study.Units order (a prefix unless complete)
}

// Step is one intermediate value of a trial.
type Step struct {
	Step  int
	Value float64
}

// better reports whether a beats b in the study's direction.
func (s *Study) better(a, b float64) bool {
	if s.Direction == contract.Lower {
		return a < b
	}
	return a > b
}

// Best returns the best complete trial with a finite value, or nil.
func (s *Study) Best() *Trial {
	var best *Trial
	for i := range s.Trials {
		t := &s.Trials[i]
		if t.State != TrialComplete || !finite(t.Value) {
			continue
		}
		if best == nil || s.better(t.Value, best.Value) {
			best = t
		}
	}
	return best
}

// complete returns the complete trials with a finite value.
func (s *Study) complete() []*Trial {
	var out []*Trial
	for i := range s.Trials {
		if t := &s.Trials[i]; t.State == TrialComplete && finite(t.Value) {
			out = append(out, t)
		}
	}
	return out
}

// paramCell formats a parameter value of a trial.
func (s *Study) paramCell(name string, t *Trial) string {
	v, ok := t.Params[name]
	if !ok {
		return ""
	}
	if ch := s.Choices[name]; len(ch) > 0 {
		i := int(v)
		if float64(i) == v && i >= 0 && i < len(ch) {
			return ch[i]
		}
	}
	return Num(v)
}

// StudyTrialTable lists every trial with its state, value, units played and
// parameters; the best trial is marked with "*".
func StudyTrialTable(s *Study) *Table {
	t := &Table{Title: fmt.Sprintf("trials of study %s", s.Name)}
	t.Header = append([]string{"trial", "state", "value", "cases"}, s.Params...)
	best := s.Best()
	for i := range s.Trials {
		tr := &s.Trials[i]
		num := strconv.Itoa(tr.Number)
		if tr == best {
			num += "*"
		}
		val := ""
		if tr.State == TrialComplete || tr.State == TrialPruned {
			val = Num(tr.Value)
		}
		row := []string{num, tr.State, val, strconv.Itoa(len(tr.Scores))}
		for _, p := range s.Params {
			row = append(row, s.paramCell(p, tr))
		}
		t.Rows = append(t.Rows, row)
	}
	t.NumericRight()
	t.Right[0] = true
	t.Right[2] = true
	t.Right[3] = true
	return t
}

// Importance is the importance of one parameter.
type Importance struct {
	Param string
	Bins  int     // groups the trials were split into
	Eta2  float64 // share of the value's variance explained by the groups, in [0, 1]
	Share float64 // Eta2 normalised so that the shares sum to 1
}

// ImportanceMethod describes how ParamImportance measures importance.
const ImportanceMethod = "Parameter importance (a binned, first-order fANOVA): over the complete trials, each parameter " +
	"splits the trials into groups (a categorical parameter by choice; a numeric one into 3 equal-count bins of its ranks, 4 from 12 trials on, " +
	"ties kept together), and its importance is η², the share of the variance of the objective value explained " +
	"by the group means; the η² are normalised to sum to 1. It sees non-monotone effects but not interactions, and " +
	"with few trials it is noisy."

// maxBins bounds the bins of a numeric parameter in ParamImportance.
const maxBins = 4

// ParamImportance computes the importance of each parameter of s (see
// ImportanceMethod). It needs at least 4 complete trials with finite values;
// otherwise, or when no parameter explains any variance, it says why.
func ParamImportance(s *Study) ([]Importance, string) {
	trials := s.complete()
	if len(s.Params) == 0 {
		return nil, "the study searches no parameter"
	}
	if len(trials) < 4 {
		return nil, fmt.Sprintf("%d complete trials with a finite value: at least 4 are needed", len(trials))
	}
	vals := make([]float64, len(trials))
	for i, t := range trials {
		vals[i] = t.Value
	}
	out := make([]Importance, len(s.Params))
	sum := 0.0
	for j, name := range s.Params {
		xs := make([]float64, len(trials))
		for i, t := range trials {
			x, ok := t.Params[name]
			if !ok || !finite(x) {
				x = math.NaN()
			}
			xs[i] = x
		}
		groups := xs
		if len(s.Choices[name]) == 0 {
			groups = rankBins(xs, min(maxBins, max(3, len(trials)/3)))
		}
		e2, bins := eta2(groups, vals)
		out[j] = Importance{Param: name, Bins: bins, Eta2: e2}
		sum += e2
	}
	if sum == 0 {
		return out, "no parameter explains any of the variance of the value"
	}
	for j := range out {
		out[j].Share = out[j].Eta2 / sum
	}
	return out, ""
}

// rankBins maps each x to one of b equal-count bins by its mid-rank (ties
// share a bin; NaN stays NaN).
func rankBins(xs []float64, b int) []float64 {
	r := ranks(xs)
	n := 0
	for _, x := range xs {
		if !math.IsNaN(x) {
			n++
		}
	}
	out := make([]float64, len(xs))
	for i, ri := range r {
		if math.IsNaN(ri) {
			out[i] = math.NaN()
			continue
		}
		out[i] = math.Min(float64(b-1), math.Floor((ri-0.5)/float64(n)*float64(b)))
	}
	return out
}

// eta2 is the correlation ratio η² = between-group / total sum of squares of
// the values v grouped by the codes g (NaN codes left out), and the number
// of groups; 0 with fewer than 2 groups or no variance.
func eta2(g, v []float64) (float64, int) {
	// Scale the values to at most 1 in magnitude: squares of huge values
	// would overflow (η² does not change with the scale).
	scale := 0.0
	for _, x := range v {
		if finite(x) {
			scale = math.Max(scale, math.Abs(x))
		}
	}
	if scale == 0 {
		scale = 1
	}
	v = append([]float64(nil), v...)
	for i := range v {
		v[i] /= scale
	}
	type acc struct{ n, s float64 }
	groups := map[float64]*acc{}
	var n, total float64
	for i, x := range g {
		if math.IsNaN(x) || !finite(v[i]) {
			continue
		}
		a := groups[x]
		if a == nil {
			a = &acc{}
			groups[x] = a
		}
		a.n++
		a.s += v[i]
		n++
		total += v[i]
	}
	if n < 2 || len(groups) < 2 {
		return 0, len(groups)
	}
	mean := total / n
	var ssb, sst float64
	keys := make([]float64, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Float64s(keys) // a fixed order of summation: reproducible to the last bit
	for _, k := range keys {
		a := groups[k]
		d := a.s/a.n - mean
		ssb += a.n * d * d
	}
	for i, x := range g {
		if math.IsNaN(x) || !finite(v[i]) {
			continue
		}
		d := v[i] - mean
		sst += d * d
	}
	if sst == 0 || !finite(ssb/sst) {
		return 0, len(groups)
	}
	return math.Min(1, ssb/sst), len(groups)
}

// ranks returns the mid-ranks of xs (1-based; ties share their mean rank;
// NaN ranks as NaN).
func ranks(xs []float64) []float64 {
	idx := make([]int, 0, len(xs))
	for i, x := range xs {
		if !math.IsNaN(x) {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return xs[idx[a]] < xs[idx[b]] })
	r := make([]float64, len(xs))
	for i := range r {
		r[i] = math.NaN()
	}
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && xs[idx[j+1]] == xs[idx[i]] {
			j++
		}
		mid := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			r[idx[k]] = mid
		}
		i = j + 1
	}
	return r
}

// ImportanceTable lists the parameter importances, most important first.
func ImportanceTable(s *Study, imp []Importance) *Table {
	t := &Table{Title: fmt.Sprintf("parameter importance, study %s", s.Name), Header: []string{"parameter", "kind", "groups", "η²", "share"}}
	sorted := append([]Importance{}, imp...)
	sort.SliceStable(sorted, func(a, b int) bool { return sorted[a].Share > sorted[b].Share })
	for _, im := range sorted {
		kind := "numeric (rank bins)"
		if len(s.Choices[im.Param]) > 0 {
			kind = "categorical (choices)"
		}
		t.Rows = append(t.Rows, []string{im.Param, kind, strconv.Itoa(im.Bins), strconv.FormatFloat(im.Eta2, 'f', 3, 64), strconv.FormatFloat(im.Share, 'f', 3, 64)})
	}
	t.NumericRight()
	return t
}

// HoldoutTable is a study's hold-outs, one row each: the best trial and the
// default on the held-out cases, and their paired difference.
func HoldoutTable(s *Study) *Table {
	t := &Table{Title: fmt.Sprintf("held out, study %s (best trial - default, paired per case)", s.Name),
		Header: []string{"cases", "scored", "best trial", "best", "default", "difference", "95% CI", "better", "worse", "equal", "sign p", "Wilcoxon p"}}
	for _, h := range s.Holdouts {
		wp := "-"
		if h.WilcoxonP != nil {
			wp = fmt.Sprintf("%.3g", *h.WilcoxonP)
		}
		t.Rows = append(t.Rows, []string{h.Cases, strconv.Itoa(h.Units), strconv.Itoa(h.BestTrial), Num(h.BestValue), Num(h.BaseValue),
			Num(h.Diff), "[" + Num(h.DiffLo) + ", " + Num(h.DiffHi) + "]", strconv.Itoa(h.Better), strconv.Itoa(h.Worse), strconv.Itoa(h.Equal),
			fmt.Sprintf("%.3g", h.SignP), wp})
	}
	t.NumericRight()
	return t
}

// studyFacts are the headline numbers of a study.
func studyFacts(s *Study) []Fact {
	counts := map[string]int{}
	for _, t := range s.Trials {
		counts[t.State]++
	}
	f := []Fact{}
	if s.Direction == contract.Lower {
		f = append(f, Fact{"direction", "minimised (lower is better)"})
	}
	if b := s.Best(); b != nil {
		f = append(f, Fact{"best value", Num(b.Value)}, Fact{"best trial", strconv.Itoa(b.Number)})
	} else {
		f = append(f, Fact{"best value", "- (no complete trial)"})
	}
	if s.DefaultValue != nil {
		f = append(f, Fact{"default value", Num(*s.DefaultValue)})
	}
	if s.Improvement != nil {
		v := Num(*s.Improvement)
		if s.CI95 != nil {
			v = PlusMinus(*s.Improvement, s.CI95[0], s.CI95[1])
		}
		f = append(f, Fact{"improvement ± 95% CI", v})
	}
	if s.WilcoxonP != nil {
		f = append(f, Fact{"Wilcoxon p", fmt.Sprintf("%.4g", *s.WilcoxonP)})
	}
	states := make([]string, 0, len(counts))
	for st := range counts {
		states = append(states, st)
	}
	sort.Strings(states)
	parts := make([]string, 0, len(states))
	for _, st := range states {
		parts = append(parts, fmt.Sprintf("%d %s", counts[st], st))
	}
	tr := strconv.Itoa(len(s.Trials))
	if len(parts) > 0 {
		tr += " (" + strings.Join(parts, ", ") + ")"
	}
	return append(f, Fact{"trials", tr})
}
