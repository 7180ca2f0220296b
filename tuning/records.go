package tuning

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/c-bata/goptuna"
	"gorm.io/gorm"

	"gauntlet/harness/contract"
)

// StudyInfo is one line of the study list.
type StudyInfo struct {
	Name string `json:"name"`
	Game string `json:"game"`
	// Source is the --game value of a game made from a referee program.
	Source   string    `json:"source,omitempty"`
	Strategy string    `json:"strategy"`
	Cases    string    `json:"cases"`
	Sampler  string    `json:"sampler"`
	Created  time.Time `json:"created"`
	Trials   int       `json:"trials"`
	Complete int       `json:"complete"`
	Pruned   int       `json:"pruned"`
	Failed   int       `json:"failed"` // lost trials included
	Running  int       `json:"running"`
	Best     *float64  `json:"best_value"`
	// BestTrial is the number of the trial of Best.
	BestTrial *int `json:"best_trial,omitempty"`
	// Space are the parameters searched (NAME=LO:HI where the study
	// narrowed the declared range).
	Space []string `json:"space,omitempty"`
	// Updated is when a trial last started or ended (Created without one).
	Updated time.Time `json:"updated"`
}

// Step is one intermediate value: the running mean after Step cases.
type Step struct {
	Step  int     `json:"step"`
	Value float64 `json:"value"`
}

// Trial states as TrialRecord.State spells them.
const (
	StateComplete = "complete"
	StatePruned   = "pruned"
	StateFailed   = "failed"  // the objective returned an error
	StateLost     = "lost"    // its worker died or was interrupted; re-run as another trial
	StateRunning  = "running" // in progress (or its worker died and nobody has noticed yet)
	StateWaiting  = "waiting" // queued (a re-run of a lost trial)
)

// TrialRecord is one stored trial.
type TrialRecord struct {
	ID     int    `json:"id"`
	Number int    `json:"number"`
	Slot   int    `json:"slot"` // budget slot (a re-run shares its lost trial's slot)
	State  string `json:"state"`
	// Value is the mean unit score: over every case when complete, over the
	// cases played when pruned (the last intermediate value); 0 otherwise.
	Value float64 `json:"value"`
	// Params are the searched parameters in Goptuna's external
	// representation: int, float64, or the choice name of a categorical.
	Params       map[string]any `json:"params"`
	Intermediate []Step         `json:"intermediate,omitempty"`
	// Scores are the per-unit scores in the study's unit order (a prefix
	// for pruned, failed, lost or running trials).
	Scores  []float64 `json:"scores,omitempty"`
	Start   time.Time `json:"start"`
	End     time.Time `json:"end,omitzero"`
	Worker  string    `json:"worker,omitempty"`
	RetryOf int       `json:"retry_of"` // number of the lost trial this one re-runs; -1 if none
	Reason  string    `json:"reason,omitempty"`
	// Base is true for a finished trial of the base (default)
	// configuration; Reused counts the units it took from earlier trials
	// instead of playing them (an interrupted trial's, or, in a
	// deterministic study, any with the same parameters); RepeatOf is the
	// number of the complete trial whose scores a repeat took whole (-1:
	// none).
	Base     bool `json:"base,omitempty"`
	Reused   int  `json:"reused,omitempty"`
	RepeatOf int  `json:"repeat_of"`
	// Conduct is how the games went beyond their scores: an external
	// entrant's forfeits with the first reason and answer times (the first
	// answer includes the bot's start-up), and in a game with eliminations
	// the seats eliminated. Nil for built-in strategies in other games.
	Conduct *TrialConduct `json:"conduct,omitempty"`
}

// TrialConduct sums up the games one trial played (not those whose scores
// it took from earlier trials).
type TrialConduct struct {
	Games       int     `json:"games"`
	Forfeits    int     `json:"forfeits"`
	FirstReason string  `json:"first_reason,omitempty"`
	FirstMS     float64 `json:"first_answer_ms"` // mean first answer: the bot's start-up and its first turn
	LaterMS     float64 `json:"later_answer_ms"` // mean later answer
	MaxMS       float64 `json:"max_answer_ms"`
	// Eliminations is true in a game that says why a seat was out before
	// the end (contract.Eliminator): Eliminated counts the tuned entrant's
	// games so, OthersEliminated the other seats out in all the games.
	Eliminations     bool `json:"eliminations,omitempty"`
	Eliminated       int  `json:"eliminated,omitempty"`
	OthersEliminated int  `json:"others_eliminated,omitempty"`
}

// trialConduct condenses the tally.
func (t *trialTally) trialConduct() *TrialConduct {
	c := t.cand.Conduct()
	tc := &TrialConduct{Games: c.Games, Forfeits: c.Forfeits}
	if contract.Eliminates(t.cand.Game) {
		tc.Eliminations, tc.Eliminated, tc.OthersEliminated = true, c.Eliminated, t.others
	}
	if len(c.Reasons) > 0 {
		tc.FirstReason = c.Reasons[0].First
	}
	if t := c.Times; t != nil {
		if t.First != nil {
			tc.FirstMS, tc.MaxMS = t.First.MeanMS, t.First.MaxMS
		}
		if t.Later != nil {
			tc.LaterMS, tc.MaxMS = t.Later.MeanMS, max(tc.MaxMS, t.Later.MaxMS)
		}
	}
	return tc
}

// PrunedAt is the number of cases a pruned trial played (its last step), or
// 0.
func (t *TrialRecord) PrunedAt() int {
	if t.State != StatePruned || len(t.Intermediate) == 0 {
		return 0
	}
	return t.Intermediate[len(t.Intermediate)-1].Step
}

// StudyRecord is a stored study with all its trials, for summaries and
// reports.
type StudyRecord struct {
	Name    string     `json:"name"`
	ID      int        `json:"id"`
	Spec    Spec       `json:"spec"`
	Units   []UnitInfo `json:"units"`
	Created time.Time  `json:"created"`
	// DefaultScores are the base configuration's per-unit scores; nil until
	// a summary computed them.
	DefaultScores []float64     `json:"default_scores,omitempty"`
	Trials        []TrialRecord `json:"trials"`
}

// Best returns the complete trial with the best value in the study's
// direction (the highest, or the lowest when it minimises; the earliest on a
// tie), or nil.
func (r *StudyRecord) Best() *TrialRecord {
	var best *TrialRecord
	for i := range r.Trials {
		t := &r.Trials[i]
		if t.State == StateComplete && (best == nil || r.Spec.better(t.Value, best.Value)) {
			best = t
		}
	}
	return best
}

// ListStudies lists the studies stored at url.
func ListStudies(ctx context.Context, url string) ([]StudyInfo, error) {
	st, err := OpenStorageReadOnly(ctx, url)
	if err != nil {
		return nil, err
	}
	defer func() { _ = st.Close() }() // read only: a failed close loses nothing
	return st.Studies(ctx)
}

// LoadStudy reads one study stored at url with all its trials.
func LoadStudy(ctx context.Context, url, name string) (*StudyRecord, error) {
	st, err := OpenStorageReadOnly(ctx, url)
	if err != nil {
		return nil, err
	}
	defer func() { _ = st.Close() }() // read only: a failed close loses nothing
	return st.Load(ctx, name)
}

// Studies lists the gauntlet studies of the database, oldest first.
func (s *Storage) Studies(ctx context.Context) ([]StudyInfo, error) {
	names, err := s.hs.Studies().StudyNames(ctx, true)
	if err != nil {
		return nil, err
	}
	out := make([]StudyInfo, 0, len(names))
	for _, name := range names {
		rec, err := s.Load(ctx, name)
		if err != nil {
			return nil, err
		}
		info := StudyInfo{Name: rec.Name, Game: rec.Spec.Game, Source: rec.Spec.Source, Strategy: rec.Spec.Strategy, Cases: rec.Spec.Cases,
			Sampler: rec.Spec.Sampler, Created: rec.Created, Trials: len(rec.Trials), Space: SpaceItems(rec.Spec.Space, rec.Spec.Ranges), Updated: rec.Created}
		for _, t := range rec.Trials {
			for _, at := range []time.Time{t.Start, t.End} {
				if at.After(info.Updated) {
					info.Updated = at
				}
			}
			switch t.State {
			case StateComplete:
				info.Complete++
			case StatePruned:
				info.Pruned++
			case StateFailed, StateLost:
				info.Failed++
			case StateRunning:
				info.Running++
			}
		}
		if b := rec.Best(); b != nil {
			v, n := b.Value, b.Number
			info.Best, info.BestTrial = &v, &n
		}
		out = append(out, info)
	}
	return out, nil
}

// Load reads one study with all its trials.
func (s *Storage) Load(ctx context.Context, name string) (*StudyRecord, error) {
	row, err := s.study(ctx, name)
	if err != nil {
		return nil, err
	}
	if row == nil {
		names, err := s.hs.Studies().StudyNames(ctx, false)
		if err != nil {
			return nil, fmt.Errorf("no study %q in %s (listing the stored ones: %w)", name, redact(s.url), err)
		}
		if len(names) > 8 {
			names = append(names[:8], "...")
		}
		list := "none"
		if len(names) > 0 {
			list = strings.Join(names, ", ")
		}
		return nil, fmt.Errorf("no study %q in %s (stored: %s)", name, redact(s.url), list)
	}
	rec := &StudyRecord{Name: name, Spec: row.Spec, Units: row.Units, Created: row.Created, DefaultScores: row.DefaultScores}
	id, err := s.rdb.GetStudyIDFromName(name)
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return rec, nil
	} else if err != nil {
		return nil, err
	}
	rec.ID = id
	trials, err := s.rdb.GetAllTrials(id)
	if err != nil {
		return nil, err
	}
	scores, err := s.hs.Studies().StudyScores(ctx, id)
	if err != nil {
		return nil, err
	}
	for _, ft := range trials {
		rec.Trials = append(rec.Trials, toRecord(ft, scores[ft.ID]))
	}
	sort.SliceStable(rec.Trials, func(i, j int) bool { return rec.Trials[i].Number < rec.Trials[j].Number })
	return rec, nil
}

func toRecord(ft goptuna.FrozenTrial, scores []float64) TrialRecord {
	t := TrialRecord{ID: ft.ID, Number: ft.Number, Slot: trialSlot(ft), Value: ft.Value, Params: map[string]any{},
		Scores: scores, Start: ft.DatetimeStart, End: ft.DatetimeComplete, Worker: ft.SystemAttrs[attrWorker], RetryOf: -1,
		RepeatOf: -1, Base: ft.SystemAttrs[attrBase] == "1"}
	for k, v := range ft.Params {
		t.Params[k] = v
	}
	switch ft.State {
	case goptuna.TrialStateComplete:
		t.State = StateComplete
	case goptuna.TrialStatePruned:
		t.State = StatePruned
	case goptuna.TrialStateRunning:
		t.State = StateRunning
	case goptuna.TrialStateWaiting:
		t.State = StateWaiting
	default:
		t.State = StateFailed
		t.Reason = ft.SystemAttrs[attrError]
		if why, ok := ft.SystemAttrs[attrLost]; ok {
			t.State, t.Reason = StateLost, why
		}
	}
	if t.State != StateComplete && t.State != StatePruned {
		t.Value = 0
	}
	if raw, ok := ft.SystemAttrs[attrConduct]; ok {
		var c TrialConduct
		if err := json.Unmarshal([]byte(raw), &c); err == nil {
			t.Conduct = &c
		}
	}
	if r, ok := ft.SystemAttrs[attrRetryOf]; ok {
		if n, err := strconv.Atoi(r); err == nil {
			t.RetryOf = n
		}
	}
	if r, ok := ft.SystemAttrs[attrRepeatOf]; ok {
		if n, err := strconv.Atoi(r); err == nil {
			t.RepeatOf = n
		}
	}
	if r, ok := ft.SystemAttrs[attrReused]; ok {
		if n, err := strconv.Atoi(r); err == nil {
			t.Reused = n
		}
	}
	for step, v := range ft.IntermediateValues {
		t.Intermediate = append(t.Intermediate, Step{Step: step, Value: v})
	}
	sort.Slice(t.Intermediate, func(i, j int) bool { return t.Intermediate[i].Step < t.Intermediate[j].Step })
	return t
}
