package tuning

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"gauntlet/harness/contract"
)

// Summary is the answer of `gauntlet tune`: the trials, the best
// configuration and how much better than the default configuration it is on
// the same cases, with a 95% confidence interval from the paired per-case
// differences.
type Summary struct {
	Study string `json:"study"`
	Game  string `json:"game"`
	// Source is the --game value of a game made from a referee program.
	Source    string   `json:"source,omitempty"`
	Strategy  string   `json:"strategy"`
	Cases     string   `json:"cases"`
	Units     int      `json:"case_count"` // scored units: cases, or (opponent, case) pairs
	Objective string   `json:"objective"`
	Opponents []string `json:"opponents,omitempty"`
	Fillers   []string `json:"fillers,omitempty"`
	Space     []string `json:"space"`
	// Ranges are the searched ranges narrowed from the declared ones.
	Ranges  map[string][2]float64 `json:"ranges,omitempty"`
	Sampler string                `json:"sampler"`
	Seed    int64                 `json:"seed"`
	Pruner  string                `json:"pruner"`
	Chunk   int                   `json:"chunk"`
	Budget  int                   `json:"budget,omitempty"` // --trials of this run

	Trials   []TrialRow `json:"trials"`
	Complete int        `json:"complete"`
	Pruned   int        `json:"pruned"`
	Failed   int        `json:"failed"`
	Lost     int        `json:"lost"`
	Running  int        `json:"running"`

	// Holdout is the best and the base configuration played on held-out
	// cases (tune --holdout); nil without.
	Holdout *Holdout `json:"holdout,omitempty"`

	BestTrial  *int           `json:"best_trial"`
	BestParams map[string]any `json:"best_params"` // every parameter of the strategy (a --params-file)
	BestValue  *float64       `json:"best_value"`
	// DefaultParams is the base configuration (defaults and --param values).
	DefaultParams map[string]any `json:"default_params"`
	DefaultValue  *float64       `json:"default_value"`
	// DefaultTrial is the trial that evaluated the base configuration (the
	// study's first trial, unless --no-base-trial), whose scores are the
	// default's. DefaultState is "complete" when the default has a value
	// (from that trial, or played for the summary when no trial evaluated
	// it), else "failed" or "pruned" (that trial's state, DefaultReason
	// saying why) or "not evaluated" (stopped by the timeout first); the
	// improvement figures need a complete default.
	DefaultTrial  *int   `json:"default_trial,omitempty"`
	DefaultState  string `json:"default_state"`
	DefaultReason string `json:"default_reason,omitempty"`
	// Direction is Lower when the study minimises its objective (lower is
	// better): the best value is the lowest (JSON: the boolean "minimize").
	Direction contract.Direction `json:"minimize,omitempty"`
	// Improvement is the mean per-unit gain of the best configuration over
	// the default, positive when the best is better: best − default when
	// the study maximises, default − best when it minimises. CI95 is its
	// 95% confidence interval (t-based), WilcoxonP the two-sided
	// signed-rank p-value of the same differences.
	Improvement *float64    `json:"improvement"`
	CI95        *[2]float64 `json:"ci95"`
	WilcoxonP   *float64    `json:"wilcoxon_p,omitempty"`
	// Official aggregated totals (games whose leaderboard aggregates cases,
	// contract.Aggregator) of the best and the default configurations.
	BestTotal    *float64 `json:"best_total,omitempty"`
	DefaultTotal *float64 `json:"default_total,omitempty"`

	// Distinct counts the different configurations among the finished
	// trials (complete, pruned or failed), Repeats the trials that took
	// the scores of an earlier complete trial with the same parameters
	// instead of playing (deterministic studies only).
	Distinct int `json:"distinct_configs"`
	Repeats  int `json:"repeats"`
	// Deterministic is true when every case gives the same score each time
	// a configuration plays it (no entrant has a clock), so that a repeated
	// configuration is not played again; DeterministicNote says why not.
	Deterministic     bool   `json:"deterministic"`
	DeterministicNote string `json:"deterministic_note,omitempty"`

	Reproducible     bool     `json:"reproducible"`
	ReproducibleNote string   `json:"reproducible_note"`
	Workers          []string `json:"workers"`
	TimedOut         bool     `json:"timed_out,omitempty"`
	Notes            []string `json:"notes,omitempty"`
}

// TrialRow is one trial in the summary.
type TrialRow struct {
	Number   int            `json:"number"`
	State    string         `json:"state"`
	Value    *float64       `json:"value"` // nil unless complete or pruned
	Params   map[string]any `json:"params"`
	Cases    int            `json:"cases"`               // units played
	PrunedAt *int           `json:"pruned_at,omitempty"` // units played when pruned
	RetryOf  *int           `json:"retry_of,omitempty"`
	RepeatOf *int           `json:"repeat_of,omitempty"` // the complete trial whose scores this repeat took
	Reused   int            `json:"reused,omitempty"`    // units taken from earlier trials, not played
	Base     bool           `json:"base,omitempty"`      // the trial of the base configuration
	Worker   string         `json:"worker,omitempty"`
	Reason   string         `json:"reason,omitempty"`
	Seconds  float64        `json:"-"`
	// Conduct: an external entrant's forfeits and answer times, and the
	// seats eliminated in a game with eliminations.
	Conduct *TrialConduct `json:"conduct,omitempty"`
}

// Summarize reads the study back and summarises it. The default
// configuration's scores are those of the trial that played it (the base
// trial); when no trial did (--no-base-trial), they are played now (jobs
// games in parallel) and stored.
func (t *Tuner) Summarize(ctx context.Context, st *Storage, name string, jobs int, play contract.PlayOptions) (*Summary, error) {
	return t.summarize(ctx, st, name, jobs, play, true)
}

// summarize is Summarize; mayPlay false leaves a default configuration no
// trial evaluated unknown instead of playing it.
func (t *Tuner) summarize(ctx context.Context, st *Storage, name string, jobs int, play contract.PlayOptions, mayPlay bool) (*Summary, error) {
	rec, err := st.Load(ctx, name)
	if err != nil {
		return nil, err
	}
	if base, _ := rec.baseTrial(); base == nil && len(rec.DefaultScores) != len(t.units) && mayPlay {
		scores, err := t.Play(ctx, t.space.Base, 0, len(t.units), jobs, play)
		if err != nil {
			return nil, fmt.Errorf("default configuration: %w", err)
		}
		if err := st.saveDefaultScores(ctx, name, scores); err != nil {
			return nil, err
		}
		rec.DefaultScores = scores
	}
	s := BuildSummary(rec)
	if s.DefaultState == "" {
		s.DefaultState, s.DefaultReason = "not evaluated", "stopped by --timeout before a trial of the base configuration finished"
	}
	if len(t.opps) == 0 {
		if agg, ok := t.game.(contract.Aggregator); ok {
			if ds := rec.defaultScores(); ds != nil {
				s.DefaultTotal = t.total(agg, ds)
			}
			if b := rec.Best(); b != nil && len(b.Scores) == len(t.units) {
				s.BestTotal = t.total(agg, b.Scores)
			}
			verb := "maximises"
			if t.spec.Direction == contract.Lower {
				verb = "minimises"
			}
			s.Notes = append(s.Notes, "the study "+verb+" the mean per-case score; best_total and default_total are the game's official aggregated totals")
		}
	}
	s.Deterministic, s.DeterministicNote = t.deterministic(t.space.Base, play)
	if s.Deterministic {
		s.DeterministicNote = "deterministic: a configuration plays every case the same way each time, so a trial repeating an earlier configuration takes its stored scores instead of playing"
	} else {
		s.DeterministicNote = "not deterministic (" + s.DeterministicNote + "): a repeated configuration is played again"
	}
	return s, nil
}

// baseTrial is the finished trial of the base configuration whose scores
// are the default's: the first complete one, else the first that failed
// or was pruned (then the default has no value), else nil. complete says
// whether it holds a score for every unit.
func (r *StudyRecord) baseTrial() (t *TrialRecord, complete bool) {
	var other *TrialRecord
	for i := range r.Trials {
		tr := &r.Trials[i]
		if !tr.Base {
			continue
		}
		switch tr.State {
		case StateComplete:
			if len(tr.Scores) == len(r.Units) {
				return tr, true
			}
		case StateFailed, StatePruned:
			if other == nil {
				other = tr
			}
		}
	}
	return other, false
}

// defaultScores are the default configuration's per-unit scores: its
// trial's, else those played for a summary, else nil.
func (r *StudyRecord) defaultScores() []float64 {
	if base, ok := r.baseTrial(); ok {
		return base.Scores
	} else if base != nil {
		return nil
	}
	if len(r.DefaultScores) == len(r.Units) && len(r.Units) > 0 {
		return r.DefaultScores
	}
	return nil
}

// total is the official total of per-unit scores.
func (t *Tuner) total(agg contract.Aggregator, scores []float64) *float64 {
	groups := map[string]map[string]float64{}
	var order []string
	total := 0.0
	for i, u := range t.units {
		if u.Group == "" {
			total += scores[i]
			continue
		}
		if groups[u.Group] == nil {
			groups[u.Group] = map[string]float64{}
			order = append(order, u.Group)
		}
		groups[u.Group][u.Case] = scores[i]
	}
	for _, g := range order {
		total += agg.Aggregate(g, groups[g])
	}
	return &total
}

// BuildSummary summarises a loaded study (improvement figures only when its
// default scores are stored).
func BuildSummary(rec *StudyRecord) *Summary {
	sp := rec.Spec
	s := &Summary{Study: rec.Name, Game: sp.Game, Source: sp.Source, Strategy: sp.Strategy, Cases: sp.Cases, Units: len(rec.Units),
		Opponents: sp.Opponents, Fillers: sp.Fillers, Space: sp.Space, Ranges: sp.Ranges, Sampler: sp.Sampler, Seed: sp.Seed, Pruner: sp.Pruner, Chunk: sp.Chunk,
		Trials: []TrialRow{}, DefaultParams: sp.Base, Workers: []string{}, Direction: sp.Direction, Objective: sp.Objective()}
	workers := map[string]bool{}
	configs := map[string]bool{}
	for i := range rec.Trials {
		t := &rec.Trials[i]
		row := TrialRow{Number: t.Number, State: t.State, Params: t.Params, Cases: len(t.Scores), Worker: t.Worker, Reason: t.Reason,
			Conduct: t.Conduct}
		if t.State == StateComplete || t.State == StatePruned {
			v := t.Value
			row.Value = &v
		}
		if t.State == StatePruned {
			p := t.PrunedAt()
			row.PrunedAt = &p
		}
		if t.RetryOf >= 0 {
			r := t.RetryOf
			row.RetryOf = &r
		}
		if t.RepeatOf >= 0 {
			r := t.RepeatOf
			row.RepeatOf = &r
			s.Repeats++
		}
		row.Reused, row.Base = t.Reused, t.Base
		switch t.State {
		case StateComplete, StatePruned, StateFailed:
			p, _ := json.Marshal(t.Params) // map keys sorted: the configuration's text
			configs[string(p)] = true
		}
		if !t.End.IsZero() {
			row.Seconds = t.End.Sub(t.Start).Seconds()
		}
		switch t.State {
		case StateComplete:
			s.Complete++
		case StatePruned:
			s.Pruned++
		case StateFailed:
			s.Failed++
		case StateLost:
			s.Lost++
		case StateRunning:
			s.Running++
		}
		if t.Worker != "" && !workers[t.Worker] {
			workers[t.Worker] = true
			s.Workers = append(s.Workers, t.Worker)
		}
		s.Trials = append(s.Trials, row)
	}
	sort.Strings(s.Workers)
	s.Distinct = len(configs)
	best := rec.Best()
	if best != nil {
		n, v := best.Number, best.Value
		s.BestTrial, s.BestValue = &n, &v
		s.BestParams = map[string]any{}
		for k, x := range sp.Base {
			s.BestParams[k] = x
		}
		for k, x := range best.Params {
			s.BestParams[k] = x
		}
	}
	if base, _ := rec.baseTrial(); base != nil {
		n := base.Number
		s.DefaultTrial = &n
		switch base.State {
		case StateFailed:
			s.DefaultState, s.DefaultReason = StateFailed, base.Reason
		case StatePruned:
			s.DefaultState, s.DefaultReason = StatePruned, fmt.Sprintf("pruned after %d of %d cases", base.PrunedAt(), len(rec.Units))
		}
	}
	if ds := rec.defaultScores(); ds != nil {
		s.DefaultState = StateComplete
		dv := mean(ds)
		s.DefaultValue = &dv
		if best != nil && len(best.Scores) == len(ds) {
			d := make([]float64, len(best.Scores))
			for i := range d {
				d[i] = best.Scores[i] - ds[i]
				if sp.Direction == contract.Lower {
					d[i] = -d[i]
				}
			}
			m, lo, hi := pairedCI(d)
			s.Improvement, s.CI95 = &m, &[2]float64{lo, hi}
			if p, ok := wilcoxonP(d); ok {
				s.WilcoxonP = &p
			}
		}
	}
	s.Reproducible, s.ReproducibleNote = reproducibility(rec)
	if sp.Sampler == "cmaes" {
		s.Notes = append(s.Notes, "cmaes: CMA-ES keeps its state in the worker process; workers sharing the study each run their own CMA-ES, and a restarted worker starts a new one (from the base values); categorical parameters, and all parameters when fewer than two are numeric, are sampled at random")
	}
	return s
}

// reproducibility says whether running the study again with the same seed
// gives the same trials, and why not.
func reproducibility(rec *StudyRecord) (bool, string) {
	type span struct {
		worker     string
		start, end time.Time
	}
	var spans []span
	names := map[string]bool{}
	lost := 0
	for _, t := range rec.Trials {
		if t.Worker != "" {
			names[t.Worker] = true
		}
		if t.State == StateLost {
			lost++
			continue
		}
		if t.Worker == "" || t.Start.IsZero() {
			continue
		}
		end := t.End
		if end.IsZero() {
			end = time.Now()
		}
		spans = append(spans, span{t.Worker, t.Start, end})
	}
	if rec.Spec.Sampler == "cmaes" {
		if len(names) > 1 || lost > 0 {
			return false, fmt.Sprintf("not reproducible: CMA-ES state lives in the worker process and this study was run by %d worker processes", len(names))
		}
		return true, "reproducible: one CMA-ES worker process, seeded"
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start.Before(spans[j].start) })
	concurrent := map[string]bool{}
	for i := range spans {
		for j := i + 1; j < len(spans) && spans[j].start.Before(spans[i].end); j++ {
			if spans[j].worker != spans[i].worker {
				concurrent[spans[i].worker], concurrent[spans[j].worker] = true, true
			}
		}
	}
	if len(concurrent) > 0 {
		var ws []string
		for w := range concurrent {
			ws = append(ws, w)
		}
		sort.Strings(ws)
		return false, fmt.Sprintf("not reproducible: trials ran concurrently on %d workers (%s), so which results each trial's sampler saw depended on timing", len(ws), strings.Join(ws, ", "))
	}
	// One worker at a time is not enough: a TPE trial's draws depend on
	// the trials that had ended when it started. In an uninterrupted run
	// the trial of slot s starts after those of slots 0..s-1 ended; a
	// killed worker's trial noticed only when its heartbeat went stale is
	// re-run after later slots, and the histories differ. They give the
	// same draws all the same while both are shorter than TPE's random
	// start-up trials.
	if rec.Spec.Sampler != "tpe" {
		// Random draws derive from the seed and the slot alone.
		return true, reproducibleNote(rec, lost)
	}
	startup := (&TPESampler{}).startup()
	var final []TrialRecord
	for _, t := range rec.Trials {
		if t.State != StateLost && !t.Start.IsZero() {
			final = append(final, t)
		}
	}
	for _, t := range final {
		before, earlier := 0, 0 // trials ended before t started; those of earlier slots
		for _, u := range final {
			if u.Slot != t.Slot && !u.End.IsZero() && !u.End.After(t.Start) {
				before++
				if u.Slot < t.Slot {
					earlier++
				}
			}
		}
		same := before == t.Slot && earlier == t.Slot
		if !same && !(before < startup && t.Slot < startup) {
			return false, fmt.Sprintf("not reproducible: trial %d (slot %d) was sampled after %d trials had ended where an uninterrupted run has the %d of the earlier slots (a lost trial re-run after later slots were sampled), so its TPE draws saw other results",
				t.Number, t.Slot, before, t.Slot)
		}
	}
	return true, reproducibleNote(rec, lost)
}

func reproducibleNote(rec *StudyRecord, lost int) string {
	note := fmt.Sprintf("reproducible: %s sampler seeded with %d; every draw derives from the seed, the trial's slot and the parameter", rec.Spec.Sampler, rec.Spec.Seed)
	if rec.Spec.Sampler == "tpe" {
		note += ", and each trial saw the results it would in an uninterrupted run"
	}
	if lost > 0 {
		note += fmt.Sprintf(" (%d lost trial(s) re-run in their own slots)", lost)
	}
	return note
}
