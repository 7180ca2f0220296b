package spsa

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"gauntlet/harness/results"
	"gauntlet/harness/store"
)

// Record is a stored study: its definition, current θ and every applied
// iteration in the order they were applied. A report reads it without a
// registry.
type Record struct {
	Name    string    `json:"name"`
	Spec    Spec      `json:"spec"`
	Theta   []float64 `json:"theta"`   // current θ in SPSA coordinates
	Applied int       `json:"applied"` // iterations applied
	Handed  int       `json:"handed"`  // iterations handed out to workers
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	// Replayed counts blocks played again after their worker died or was
	// interrupted; Pending the blocks handed out and not yet applied.
	Replayed   int          `json:"replayed_blocks"`
	Pending    int          `json:"pending_blocks"`
	Iterations []IterRecord `json:"iterations"`
}

// IterRecord is one applied iteration.
type IterRecord struct {
	Iter   int    `json:"iter"`
	Seq    int    `json:"seq"` // order of application, 1..
	Case   string `json:"case"`
	Flips  string `json:"flips"` // Δ as "+-+..." in parameter order
	Wins   int    `json:"wins"`  // of θ+ against θ− over the pair
	Draws  int    `json:"draws"`
	Losses int    `json:"losses"`
	// Theta is θ after the iteration was applied (SPSA coordinates).
	Theta []float64 `json:"theta"`
	// InOrder is true when the iteration's block was played from the θ of
	// exactly the iterations before it and applied right after them.
	InOrder  bool      `json:"in_order"`
	Worker   string    `json:"worker"`
	Finished time.Time `json:"finished"`
}

// LoadStudy opens the storage at url and loads study name; ErrNoStudy when
// there is none.
func LoadStudy(ctx context.Context, url, name string) (*Record, error) {
	st, err := OpenStorageReadOnly(ctx, url)
	if err != nil {
		return nil, err
	}
	defer func() { _ = st.Close() }() // read only: a failed close loses nothing
	return st.Load(ctx, name)
}

// Load reads a study with its iterations.
func (s *Storage) Load(ctx context.Context, name string) (*Record, error) {
	st, err := s.store.LoadSPSA(ctx, name)
	if err != nil {
		return nil, err
	}
	if st == nil {
		return nil, fmt.Errorf("%w %q in %s", ErrNoStudy, name, store.RedactURL(s.url))
	}
	r := &Record{Name: name, Theta: st.Theta, Applied: st.Applied, Handed: st.Handed, Created: st.Created, Updated: st.Updated,
		Replayed: st.Replayed, Pending: st.Pending}
	if err := json.Unmarshal([]byte(st.Spec), &r.Spec); err != nil {
		return nil, fmt.Errorf("SPSA study %q: spec: %w", name, err)
	}
	for _, it := range st.Iterations {
		r.Iterations = append(r.Iterations, IterRecord{Iter: it.Iter, Seq: it.Seq, Case: it.Case, Flips: it.Flips, Wins: it.Wins,
			Draws: it.Draws, Losses: it.Losses, Theta: it.Theta, InOrder: it.InOrder, Worker: it.Worker, Finished: it.Finished})
	}
	return r, nil
}

// StudyInfo is one line of the study list.
type StudyInfo struct {
	Name string `json:"name"`
	Game string `json:"game"`
	// Source is the --game value of a game made from a referee program.
	Source   string    `json:"source,omitempty"`
	Target   string    `json:"target"`
	Games    int       `json:"games"`
	Applied  int       `json:"applied"`
	Params   int       `json:"params"`
	Created  time.Time `json:"created"`
	Complete bool      `json:"complete"`
	Cases    string    `json:"cases"`
	// Space are the parameters tuned.
	Space []string `json:"space,omitempty"`
	// Updated is when an iteration was last applied (Created before one).
	Updated time.Time `json:"updated"`
}

// Studies lists the stored studies, oldest first.
func (s *Storage) Studies(ctx context.Context) ([]StudyInfo, error) {
	heads, err := s.store.SPSAStudies(ctx)
	if err != nil {
		return nil, err
	}
	var out []StudyInfo
	for _, h := range heads {
		var sp Spec
		if err := json.Unmarshal([]byte(h.Spec), &sp); err != nil {
			return nil, fmt.Errorf("SPSA study %q: spec: %w", h.Name, err)
		}
		in := StudyInfo{Name: h.Name, Game: sp.Game, Source: sp.Source, Target: sp.Target, Games: sp.Games, Cases: sp.Cases,
			Applied: h.Applied, Params: len(sp.Params), Created: h.Created, Updated: h.Updated, Complete: h.Applied >= sp.Iterations()}
		for _, p := range sp.Params {
			in.Space = append(in.Space, p.Name)
		}
		out = append(out, in)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Created.Before(out[j].Created) })
	return out, nil
}

// Summary is the answer of `gauntlet spsa`: where θ started and ended.
type Summary struct {
	Study string `json:"study"`
	Game  string `json:"game"`
	// Source is the --game value of a game made from a referee program.
	Source     string  `json:"source,omitempty"`
	Target     string  `json:"target"`
	Cases      string  `json:"cases"`
	Seats      int     `json:"seats"`
	Seed       uint64  `json:"seed"`
	Games      int     `json:"games"`      // the budget
	Iterations int     `json:"iterations"` // the budget in game pairs
	Applied    int     `json:"applied"`    // iterations applied
	Played     int     `json:"games_played"`
	Complete   bool    `json:"complete"`
	A          float64 `json:"A"`
	Alpha      float64 `json:"alpha"`
	Gamma      float64 `json:"gamma"`
	// Wins, Draws, Losses of θ+ against θ− over all pairs.
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
	// Params are the tuned parameters: start, final and the distance moved.
	Params []ParamSummary `json:"params"`
	// Final holds every parameter's final value (tuned ones rounded as
	// Param.Final rounds them; the others at their start values), as
	// --best-json writes it.
	Final map[string]any `json:"final_params"`
	// Start holds every parameter's start value.
	Start map[string]any `json:"start_params"`
	// Holdout is the A/B of the final values against the start on
	// held-out cases (spsa --holdout); nil without.
	Holdout          *results.ABSummary `json:"holdout,omitempty"`
	Replayed         int                `json:"replayed_blocks"`
	Workers          []string           `json:"workers"`
	Reproducible     bool               `json:"reproducible"`
	ReproducibleNote string             `json:"reproducible_note"`
}

// ParamSummary is one tuned parameter's outcome.
type ParamSummary struct {
	Name  string  `json:"name"`
	Kind  string  `json:"kind"`
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
	Start float64 `json:"start"`
	Theta float64 `json:"theta"` // final θ in the parameter's units, unrounded
	Final float64 `json:"final"` // the value --best-json writes
	// Moved is Theta − Start; MovedRange the same as a share of the range.
	Moved      float64 `json:"moved"`
	MovedRange float64 `json:"moved_range"`
	CEnd       float64 `json:"c_end"`
	REnd       float64 `json:"r_end"`
	C          float64 `json:"c"` // c = c_end · N^γ
	AGain      float64 `json:"a"` // a = r_end · c_end² · (A + N)^α
}

// BuildSummary summarises a stored study.
func BuildSummary(rec *Record) (*Summary, error) {
	sp := rec.Spec
	sched, err := sp.Schedule()
	if err != nil {
		return nil, err
	}
	s := &Summary{Study: rec.Name, Game: sp.Game, Source: sp.Source, Target: sp.Target, Cases: sp.Cases, Seats: sp.Seats, Seed: sp.Seed,
		Games: sp.Games, Iterations: sp.Iterations(), Applied: rec.Applied, Played: 2 * rec.Applied,
		Complete: rec.Applied >= sp.Iterations(), A: sched.A, Alpha: sched.Alpha, Gamma: sched.Gamma,
		Replayed: rec.Replayed, Start: sp.Start, Final: map[string]any{}}
	if len(rec.Theta) != len(sp.Params) {
		return nil, fmt.Errorf("SPSA study %q: theta has %d coordinates for %d parameters", rec.Name, len(rec.Theta), len(sp.Params))
	}
	for k, v := range sp.Start {
		s.Final[k] = v
	}
	for i, p := range sp.Params {
		g := sched.Gains(p.CEnd, p.REnd)
		theta := p.Value(rec.Theta[i])
		ps := ParamSummary{Name: p.Name, Kind: p.Kind, Min: p.Min, Max: p.Max, Start: p.Start, Theta: theta,
			Final: p.Final(rec.Theta[i]), Moved: theta - p.Start, CEnd: p.CEnd, REnd: p.REnd, C: g.C, AGain: g.A}
		if r := p.Max - p.Min; r > 0 {
			ps.MovedRange = ps.Moved / r
		}
		s.Params = append(s.Params, ps)
		if p.isInt() {
			s.Final[p.Name] = int64(ps.Final)
		} else {
			s.Final[p.Name] = ps.Final
		}
	}
	workers := map[string]bool{}
	inOrder := true
	for _, it := range rec.Iterations {
		s.Wins += it.Wins
		s.Draws += it.Draws
		s.Losses += it.Losses
		workers[it.Worker] = true
		inOrder = inOrder && it.InOrder
	}
	for w := range workers {
		s.Workers = append(s.Workers, w)
	}
	sort.Strings(s.Workers)
	s.Reproducible = inOrder
	if inOrder {
		s.ReproducibleNote = "reproducible: every iteration was played from the θ of all the iterations before it, as one worker plays them; the same command gives the same θ"
	} else {
		s.ReproducibleNote = "not reproducible: several workers or lanes moved θ concurrently (asynchronous SPSA, as fishtest); the same command gives a similar θ, not the same"
	}
	return s, nil
}
