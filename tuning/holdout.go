package tuning

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/harness/stats"
	"gauntlet/strategies/param"
)

// A study's best trial is the best of many tried on the same cases, so its
// value on them overstates it: only cases it never saw say whether it beats
// the base configuration. A hold-out plays the base and the best
// configuration on such cases, each as a study of one trial (named after
// the study, stored beside it: a killed run resumes them and several
// workers share them), and compares the two unit by unit.

// ErrTimeout is the error of a hold-out that --timeout stopped: what it
// played is stored, and the same command finishes it.
var ErrTimeout = errTimeout

// HoldoutPlan is a checked hold-out case set for a study.
type HoldoutPlan struct {
	reg  *contract.Registry
	c    Config // the study's configuration with the held-out cases
	base *Tuner // c's tuner: the base configuration on the held-out cases
}

// Holdout is the comparison of the best and the base configuration on the
// held-out cases: unit scores paired, differences best − base.
type Holdout struct {
	Cases     string  `json:"cases"`
	Units     int     `json:"case_count"`
	BestTrial int     `json:"best_trial"`
	BestValue float64 `json:"best_value"`
	BaseValue float64 `json:"base_value"`
	// Diff is the mean of the paired differences (best − base) with its
	// 95% Student-t interval.
	Diff   float64 `json:"difference"`
	DiffLo float64 `json:"difference_lo"`
	DiffHi float64 `json:"difference_hi"`
	// Better, Worse and Equal count the units by the study's direction.
	Better int `json:"better"`
	Worse  int `json:"worse"`
	Equal  int `json:"equal"`
	// SignP is the two-sided sign test of Better against Worse; WilcoxonP
	// the two-sided signed-rank test of the differences (nil when
	// undefined: every difference zero).
	SignP     float64  `json:"sign_p"`
	WilcoxonP *float64 `json:"wilcoxon_p,omitempty"`
	Minimize  bool     `json:"minimize,omitempty"`
	// Studies are the two studies of one trial that played them: the
	// base's, the best's.
	Studies [2]string `json:"studies"`
}

// NewHoldout checks cases as a hold-out set for the study of c, whose
// tuner is study: a case set of the game, none of whose cases the study
// plays. Its errors are about the request.
func NewHoldout(reg *contract.Registry, c Config, study *Tuner, cases string) (*HoldoutPlan, error) {
	hc := c
	hc.Cases = cases
	ht, err := New(reg, hc)
	if err != nil {
		return nil, fmt.Errorf("--holdout: %w", err)
	}
	caseIDs := func(us []UnitInfo) []string {
		ids := make([]string, len(us))
		for i, u := range us {
			ids[i] = u.Case
		}
		return ids
	}
	if shared, first := SharedCases(caseIDs(study.Units()), caseIDs(ht.Units())); shared > 0 {
		return nil, fmt.Errorf("--holdout %s shares %d case(s) with --cases %s (%s first): held-out cases must be new to the study", cases, shared, c.Cases, first)
	}
	return &HoldoutPlan{reg: reg, c: hc, base: ht}, nil
}

// SharedCases counts the distinct cases of held that studied holds too,
// and names the first of them.
func SharedCases(studied, held []string) (n int, first string) {
	seen := make(map[string]bool, len(studied))
	for _, c := range studied {
		seen[c] = true
	}
	for _, c := range held {
		if seen[c] {
			if n == 0 {
				first = c
			}
			n++
			seen[c] = false // each case once
		}
	}
	return n, first
}

// Run plays the base configuration and the best one (the parameter values
// best, every parameter of the strategy, from trial bestTrial of study) on
// the held-out cases, resuming what earlier runs stored, and compares
// them. opt's Study and Trials are set here.
func (h *HoldoutPlan) Run(ctx context.Context, st *Storage, study string, bestTrial int, best map[string]any, opt RunOptions) (*Holdout, error) {
	baseName := holdoutName(study, h.c.Cases, -1)
	deadline := time.Now().Add(opt.Timeout)
	base, err := h.play(ctx, st, baseName, nil, opt)
	if err != nil {
		return nil, err
	}
	if opt.Timeout > 0 {
		// One --timeout for both studies.
		if opt.Timeout = time.Until(deadline); opt.Timeout <= 0 {
			return nil, fmt.Errorf("hold-out of study %s: %w", study, errTimeout)
		}
	}
	assign := param.Assignments(best)
	slices.Sort(assign) // a stable spec: the same command resumes the same study
	bestName := holdoutName(study, h.c.Cases, bestTrial)
	top, err := h.play(ctx, st, bestName, assign, opt)
	if err != nil {
		return nil, err
	}
	if len(base) != len(top) {
		return nil, fmt.Errorf("hold-out: %d unit scores of the base against %d of trial %d", len(base), len(top), bestTrial)
	}
	return compareHoldout(h.base.Spec(), h.c.Cases, bestTrial, base, top, [2]string{baseName, bestName}), nil
}

// compareHoldout pairs the held-out unit scores of the base configuration
// and of the best trial (studies names the two studies that played them).
func compareHoldout(spec Spec, cases string, bestTrial int, base, top []float64, studies [2]string) *Holdout {
	ho := &Holdout{Cases: cases, Units: len(base), BestTrial: bestTrial,
		Minimize: spec.Direction == contract.Lower, Studies: studies}
	d := make([]float64, len(base))
	for i := range base {
		d[i] = top[i] - base[i]
		switch {
		case d[i] == 0:
			ho.Equal++
		case spec.better(top[i], base[i]):
			ho.Better++
		default:
			ho.Worse++
		}
	}
	ho.BestValue = stats.MeanCI95(top).Value
	ho.BaseValue = stats.MeanCI95(base).Value
	ho.Diff, ho.DiffLo, ho.DiffHi = pairedCI(d)
	ho.SignP = stats.SignTest(ho.Better, ho.Worse)
	if p, ok := wilcoxonP(d); ok {
		ho.WilcoxonP = &p
	}
	return ho
}

// play runs the study name of one trial, the base configuration of the
// held-out tuner with the assignments more, and returns its unit scores.
func (h *HoldoutPlan) play(ctx context.Context, st *Storage, name string, more []string, opt RunOptions) ([]float64, error) {
	t := h.base
	if len(more) > 0 {
		c := h.c
		c.Params = append(slices.Clip(c.Params), more...)
		var err error
		if t, err = New(h.reg, c); err != nil {
			return nil, err
		}
	}
	if _, err := t.EnqueueBase(ctx, st, name); err != nil {
		return nil, err
	}
	opt.Study, opt.Trials = name, 1
	sum, err := t.Run(ctx, st, opt)
	if err != nil {
		return nil, err
	}
	if sum.TimedOut {
		return nil, fmt.Errorf("hold-out study %s: %w", name, errTimeout)
	}
	rec, err := st.Load(ctx, name)
	if err != nil {
		return nil, err
	}
	if scores := rec.heldScores(); scores != nil {
		return scores, nil
	}
	return nil, fmt.Errorf("hold-out study %s has no complete trial (%d trials)", name, len(rec.Trials))
}

// heldScores is the unit scores of a hold-out study's complete trial (nil
// while it has none).
func (rec *StudyRecord) heldScores() []float64 {
	for _, tr := range rec.Trials {
		if tr.State == StateComplete && len(tr.Scores) == len(rec.Units) {
			return tr.Scores
		}
	}
	return nil
}

// HoldoutName is the name under which study's hold-out on the case set
// cases is stored: STUDY/holdout[CASES], and /LEAF after it where the
// hold-out is several records (tune's two studies, base and trial-N).
// ParseHoldout reads it back.
func HoldoutName(study, cases, leaf string) string {
	name := HoldoutPrefix(study) + cases + "]"
	if leaf != "" {
		name += "/" + leaf
	}
	return name
}

// HoldoutPrefix is what the names of study's hold-outs begin with.
func HoldoutPrefix(study string) string { return study + "/holdout[" }

// ParseHoldout says whether name is one of study's hold-outs as
// HoldoutName names them, and which: its case set, and its leaf ("" for
// none).
func ParseHoldout(study, name string) (cases, leaf string, ok bool) {
	rest, ok := strings.CutPrefix(name, HoldoutPrefix(study))
	if !ok {
		return "", "", false
	}
	// The first "]/" ends the case set: a hold-out of one of study's
	// hold-outs goes on past it, and its leaf is the rest of its name.
	if i := strings.Index(rest, "]/"); i >= 0 {
		cases, leaf = rest[:i], rest[i+2:]
	} else if cases, ok = strings.CutSuffix(rest, "]"); !ok {
		return "", "", false
	}
	if cases == "" {
		return "", "", false
	}
	return cases, leaf, true
}

// holdoutName is the name of study's hold-out study on the case set cases
// that plays trial (-1: the base configuration): STUDY/holdout[CASES]/base
// or STUDY/holdout[CASES]/trial-N. holdoutOf reads it back.
func holdoutName(study, cases string, trial int) string {
	leaf := "base"
	if trial >= 0 {
		leaf = "trial-" + strconv.Itoa(trial)
	}
	return HoldoutName(study, cases, leaf)
}

// holdoutOf says whether name is one of study's hold-out studies, and
// which: its case set, and the trial it plays (-1: the base).
func holdoutOf(study, name string) (cases string, trial int, ok bool) {
	cases, leaf, ok := ParseHoldout(study, name)
	if !ok {
		return "", 0, false
	}
	if leaf == "base" {
		return cases, -1, true
	}
	n, ok := strings.CutPrefix(leaf, "trial-")
	if !ok {
		return "", 0, false
	}
	k, err := strconv.Atoi(n)
	if err != nil || k < 0 || strconv.Itoa(k) != n {
		return "", 0, false
	}
	return cases, k, true
}

// Holdouts reads the hold-outs stored beside study, one for each held-out
// case set and best trial whose two studies have both finished, ordered by
// case set and trial. A hold-out still being played is left out.
func (s *Storage) Holdouts(ctx context.Context, study string) ([]*Holdout, error) {
	names, err := s.hs.Studies().StudyNames(ctx, false)
	if err != nil {
		return nil, err
	}
	type top struct {
		cases, name string
		trial       int
	}
	bases := map[string]string{} // case set -> the base's study
	var tops []top
	for _, name := range names {
		switch cases, trial, ok := holdoutOf(study, name); {
		case !ok:
		case trial < 0:
			bases[cases] = name
		default:
			tops = append(tops, top{cases: cases, name: name, trial: trial})
		}
	}
	slices.SortFunc(tops, func(a, b top) int {
		return cmp.Or(strings.Compare(a.cases, b.cases), cmp.Compare(a.trial, b.trial))
	})
	var out []*Holdout
	for _, t := range tops {
		bn, ok := bases[t.cases]
		if !ok {
			continue
		}
		base, err := s.Load(ctx, bn)
		if err != nil {
			return nil, err
		}
		best, err := s.Load(ctx, t.name)
		if err != nil {
			return nil, err
		}
		bs, ts := base.heldScores(), best.heldScores()
		if bs == nil || ts == nil || len(bs) != len(ts) {
			continue
		}
		out = append(out, compareHoldout(base.Spec, t.cases, t.trial, bs, ts, [2]string{bn, t.name}))
	}
	return out, nil
}
