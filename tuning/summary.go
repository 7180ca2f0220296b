package tuning

import (
	"context"
	"fmt"

	"sort"
	"strings"
	"time"

	"gauntlet/harness"
)

// Summary is the answer of `gauntlet tune`: the trials, the best
// configuration and how much better than the default configuration it is on
// the same cases, with a 95% confidence interval from the paired per-case
// differences.
type Summary struct {
	Study     string   `json:"study"`
	Game      string   `json:"game"`
	Strategy  string   `json:"strategy"`
	Cases     string   `json:"cases"`
	Units     int      `json:"case_count"` // scored units: cases, or (opponent, case) pairs
	Objective string   `json:"objective"`
	Opponents []string `json:"opponents,omitempty"`
	Fillers   []string `json:"fillers,omitempty"`
	Space     []string `json:"space"`
	Sampler   string   `json:"sampler"`
	Seed      int64    `json:"seed"`
	Pruner    string   `json:"pruner"`
	Chunk     int      `json:"chunk"`
	Budget    int      `json:"budget,omitempty"` // --trials of this run

	Trials   []TrialRow `json:"trials"`
	Complete int        `json:"complete"`
	Pruned   int        `json:"pruned"`
	Failed   int        `json:"failed"`
	Lost     int        `json:"lost"`
	Running  int        `json:"running"`

	BestTrial  *int           `json:"best_trial"`
	BestParams map[string]any `json:"best_params"` // every parameter of the strategy (a --params-file)
	BestValue  *float64       `json:"best_value"`
	// DefaultParams is the base configuration (defaults and --param values).
	DefaultParams map[string]any `json:"default_params"`
	DefaultValue  *float64       `json:"default_value"`
	// Minimize is true when the study minimises its objective (lower is
	// better): the best value is the lowest.
	Minimize bool `json:"minimize,omitempty"`
	// Improvement is the mean per-unit gain of the best configuration over
	// the default, positive when the best is better: best − default when
	// the study maximises, default − best when it minimises. CI95 is its
	// 95% confidence interval (t-based), WilcoxonP the two-sided
	// signed-rank p-value of the same differences.
	Improvement *float64    `json:"improvement"`
	CI95        *[2]float64 `json:"ci95"`
	WilcoxonP   *float64    `json:"wilcoxon_p,omitempty"`
	// Official aggregated totals (games whose leaderboard aggregates cases,
	// harness.Aggregator) of the best and the default configurations.
	BestTotal    *float64 `json:"best_total,omitempty"`
	DefaultTotal *float64 `json:"default_total,omitempty"`

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
	Worker   string         `json:"worker,omitempty"`
	Reason   string         `json:"reason,omitempty"`
	Seconds  float64        `json:"-"`
	// Conduct: an external entrant's forfeits and answer times.
	Conduct *TrialConduct `json:"conduct,omitempty"`
}

// Summarize reads the study back and summarises it, first computing the
// default configuration's scores on the study's cases if no worker has yet
// (jobs games in parallel).
func (t *Tuner) Summarize(ctx context.Context, st *Storage, name string, jobs int, play harness.PlayOptions) (*Summary, error) {
	rec, err := st.Load(ctx, name)
	if err != nil {
		return nil, err
	}
	if len(rec.DefaultScores) != len(t.units) {
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
	if len(t.opps) == 0 {
		if agg, ok := t.game.(harness.Aggregator); ok {
			s.DefaultTotal = t.total(agg, rec.DefaultScores)
			if b := rec.Best(); b != nil && len(b.Scores) == len(t.units) {
				s.BestTotal = t.total(agg, b.Scores)
			}
			verb := "maximises"
			if t.spec.Minimize {
				verb = "minimises"
			}
			s.Notes = append(s.Notes, "the study "+verb+" the mean per-case score; best_total and default_total are the game's official aggregated totals")
		}
	}
	s.Objective = t.Objective()
	return s, nil
}

// total is the official total of per-unit scores.
func (t *Tuner) total(agg harness.Aggregator, scores []float64) *float64 {
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
	s := &Summary{Study: rec.Name, Game: sp.Game, Strategy: sp.Strategy, Cases: sp.Cases, Units: len(rec.Units),
		Opponents: sp.Opponents, Fillers: sp.Fillers, Space: sp.Space, Sampler: sp.Sampler, Seed: sp.Seed, Pruner: sp.Pruner, Chunk: sp.Chunk,
		Trials: []TrialRow{}, DefaultParams: sp.Base, Workers: []string{}, Minimize: sp.Minimize}
	workers := map[string]bool{}
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
	if len(rec.DefaultScores) == len(rec.Units) && len(rec.Units) > 0 {
		dv := mean(rec.DefaultScores)
		s.DefaultValue = &dv
		if best != nil && len(best.Scores) == len(rec.DefaultScores) {
			d := make([]float64, len(best.Scores))
			for i := range d {
				d[i] = best.Scores[i] - rec.DefaultScores[i]
				if sp.Minimize {
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
