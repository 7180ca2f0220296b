package results

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"gauntlet/harness/contract"
	"gauntlet/harness/stats"
	"gauntlet/harness/store"
)

// Comparison pairs the games of two stored runs of one game by their match
// keys (the same case, the same seats): what changed for the runs' first
// entrant (A of an ab run, the strategy of an eval run) between a base run
// and a later run, typically a new version against the same opponents on
// the same seeds. Where the games repeat exactly (bots budgeted by nodes,
// external bots without a clock), a game changes only where the change of
// version acts, and the changed games carry the whole difference.
type Comparison struct {
	Game      string             `json:"game"`
	Base      ComparedRun        `json:"base"`
	Run       ComparedRun        `json:"run"`
	Seats     int                `json:"seats"`     // seats of the common games (the most of any)
	Common    int                `json:"common"`    // games played in both runs
	OnlyBase  int                `json:"only_base"` // games played in the base run alone
	OnlyRun   int                `json:"only_run"`
	Identical int                `json:"identical"` // common games with the same turns and every seat's score
	Better    int                `json:"better"`    // common games whose result improved (a better rank, or a better score alone)
	Worse     int                `json:"worse"`
	SignP     float64            `json:"sign_p"` // two-sided sign test of Better against Worse
	Margin    stats.Estimate     `json:"margin"` // run − base of the first entrant's margin, 95% CI
	WilcoxonP *float64           `json:"wilcoxon_p,omitempty"`
	Direction contract.Direction `json:"lower_is_better,omitempty"` // the game's (JSON: a boolean, as before)
	// Eliminations is true when the game says why a seat was out before
	// the end (contract.Eliminator): each side counts the first entrant's.
	Eliminations bool           `json:"eliminations,omitempty"`
	Games        []ComparedGame `json:"games"` // the common games in key order
	Notes        []string       `json:"notes,omitempty"`
}

// ComparedRun is one side of a Comparison, over the common games only.
type ComparedRun struct {
	ID       string   `json:"id"`
	Kind     string   `json:"kind"`
	CaseSet  string   `json:"case_set"`
	Entrant  string   `json:"entrant"` // the first entrant's label
	Others   []string `json:"others"`  // the labels of the other entrants
	Points   float64  `json:"points"`  // mean share of the other seats beaten (ties count half): the score of a duel
	MeanRank float64  `json:"mean_rank"`
	Firsts   int      `json:"firsts"` // games ranked first, alone or shared
	Forfeits int      `json:"forfeits"`
	// Eliminated counts the games the first entrant was out of before
	// their end (Comparison.Eliminations).
	Eliminated int     `json:"eliminated,omitempty"`
	Score      float64 `json:"mean_score"`
	Margin     float64 `json:"mean_margin"`
}

// ComparedGame is one common game.
type ComparedGame struct {
	Key       string     `json:"key"`
	Case      string     `json:"case"`
	Base      SeatSample `json:"base"`
	Run       SeatSample `json:"run"`
	Change    int        `json:"change"` // 1 better, −1 worse, 0 the same result
	Identical bool       `json:"identical"`
}

// SeatSample is the first entrant's result in one game.
type SeatSample struct {
	Score   float64 `json:"score"`
	Rank    int     `json:"rank"`
	Margin  float64 `json:"margin"` // score less the best other seat's score; the score itself alone
	Points  float64 `json:"points"` // share of the other seats beaten, ties half (1 alone)
	Forfeit string  `json:"forfeit,omitempty"`
	// Eliminated is why the entrant was out before the game ended, in a
	// game that says so ("" for none).
	Eliminated string `json:"eliminated,omitempty"`
}

// StoredRun is a stored run and its finished games by match key, as they
// are stored: neither its entrants nor its cases are parsed again, so a run
// compares after its strategy's parameters or its bot's files changed.
type StoredRun struct {
	Run   *store.RunRecord
	Games map[string]store.GameRecord
}

// LoadStoredRun loads run id and its finished games from st.
func LoadStoredRun(ctx context.Context, st *store.Store, id string) (*StoredRun, error) {
	r, err := st.Run(ctx, id)
	if err != nil {
		return nil, err
	}
	games, err := st.Games(ctx, id)
	if err != nil {
		return nil, err
	}
	return &StoredRun{Run: r, Games: games}, nil
}

// Compare pairs the finished games of base and run by match key. The runs
// must be of one game, known to reg, and share at least one game.
func Compare(reg *contract.Registry, base, run *StoredRun) (*Comparison, error) {
	if base.Run.Game != run.Run.Game {
		return nil, fmt.Errorf("run %s is a %s run and run %s a %s run: only runs of one game compare",
			base.Run.ID, base.Run.Game, run.Run.ID, run.Run.Game)
	}
	g, err := reg.Game(base.Run.Game)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", base.Run.ID, err)
	}
	info := g.Info()
	c := &Comparison{Game: info.Name, Base: side(base.Run), Run: side(run.Run), Direction: info.Direction}
	c.Eliminations = contract.Eliminates(g)
	var bm, rm []float64
	for key, b := range base.Games {
		r, ok := run.Games[key]
		if !ok {
			c.OnlyBase++
			continue
		}
		bs, rs := sample(g, info, &b), sample(g, info, &r)
		if bs == nil || rs == nil {
			return nil, fmt.Errorf("game %s: the first entrant has no seat (base seats %v, run seats %v)", key, b.Seats, r.Seats)
		}
		cg := ComparedGame{Key: key, Case: b.CaseID, Base: *bs, Run: *rs,
			Identical: identical(&b.Outcome, &r.Outcome), Change: change(info, len(b.Seats), *bs, *rs)}
		c.Seats = max(c.Seats, len(b.Seats))
		c.Games = append(c.Games, cg)
	}
	c.OnlyRun = len(run.Games) - len(c.Games)
	if len(c.Games) == 0 {
		return nil, fmt.Errorf("runs %s and %s have no finished game in common (games are paired by key: %s)",
			base.Run.ID, run.Run.ID, keyExamples(base, run))
	}
	slices.SortFunc(c.Games, func(a, b ComparedGame) int { return strings.Compare(a.Key, b.Key) })
	c.Common = len(c.Games)
	for _, g := range c.Games {
		switch g.Change {
		case 1:
			c.Better++
		case -1:
			c.Worse++
		}
		if g.Identical {
			c.Identical++
		}
		c.Base.add(g.Base)
		c.Run.add(g.Run)
		bm, rm = append(bm, g.Base.Margin), append(rm, g.Run.Margin)
	}
	c.Base.average(c.Common)
	c.Run.average(c.Common)
	c.SignP = stats.SignTest(c.Better, c.Worse)
	if c.Margin, err = stats.PairedMeanCI95(rm, bm); err != nil {
		return nil, err
	}
	if c.Identical < c.Common {
		w, err := stats.WilcoxonPaired(rm, bm, stats.TwoSided)
		if err != nil {
			return nil, err
		}
		c.WilcoxonP = &w.P
	}
	c.Notes = compareNotes(c, base, run)
	return c, nil
}

func side(rec *store.RunRecord) ComparedRun {
	r := ComparedRun{ID: rec.ID, Kind: rec.Kind, CaseSet: rec.CaseSet}
	for i, e := range rec.Entrants {
		if i == 0 {
			r.Entrant = e.Label
		} else {
			r.Others = append(r.Others, e.Label)
		}
	}
	return r
}

func (r *ComparedRun) add(s SeatSample) {
	r.Points += s.Points
	r.MeanRank += float64(s.Rank)
	r.Score += s.Score
	r.Margin += s.Margin
	if s.Rank == 1 {
		r.Firsts++
	}
	if s.Forfeit != "" {
		r.Forfeits++
	}
	if s.Eliminated != "" {
		r.Eliminated++
	}
}

func (r *ComparedRun) average(n int) {
	f := float64(n)
	r.Points /= f
	r.MeanRank /= f
	r.Score /= f
	r.Margin /= f
}

// sample is the first entrant's result in a game of game (info is its
// Info); nil when it has no seat.
func sample(game contract.Game, info contract.GameInfo, g *store.GameRecord) *SeatSample {
	seat := slices.Index(g.Seats, 0)
	o := &g.Outcome
	if seat < 0 || seat >= len(o.Seats) {
		return nil
	}
	me := o.Seats[seat]
	s := &SeatSample{Score: me.Score, Rank: me.Rank, Margin: me.Score, Points: 1, Forfeit: me.Forfeit,
		Eliminated: contract.EliminatedOf(game, o, seat)}
	if len(o.Seats) == 1 {
		return s
	}
	var beaten, best float64
	found := false
	for i, x := range o.Seats {
		if i == seat {
			continue
		}
		if !found || info.Better(x.Score, best) {
			best, found = x.Score, true
		}
		switch {
		case x.Rank > me.Rank:
			beaten++
		case x.Rank == me.Rank:
			beaten += 0.5
		}
	}
	s.Margin = me.Score - best
	s.Points = beaten / float64(len(o.Seats)-1)
	return s
}

// change is 1 where the run's result is better than the base's, −1 where
// it is worse: the rank decides in a game of several seats, the score in
// a game of one.
func change(info contract.GameInfo, seats int, b, r SeatSample) int {
	if seats > 1 {
		switch {
		case r.Rank < b.Rank:
			return 1
		case r.Rank > b.Rank:
			return -1
		}
		return 0
	}
	switch {
	case info.Better(r.Score, b.Score):
		return 1
	case info.Better(b.Score, r.Score):
		return -1
	}
	return 0
}

func identical(a, b *contract.Outcome) bool {
	if a.Turns != b.Turns || len(a.Seats) != len(b.Seats) {
		return false
	}
	for i := range a.Seats {
		if a.Seats[i].Score != b.Seats[i].Score || a.Seats[i].Forfeit != b.Seats[i].Forfeit {
			return false
		}
	}
	return true
}

// keyExamples names a stored key of each run, for the error of runs with
// no game in common.
func keyExamples(base, run *StoredRun) string {
	first := func(r *StoredRun) string {
		if len(r.Games) == 0 {
			return r.Run.ID + " has none"
		}
		return fmt.Sprintf("%s has %q", r.Run.ID, slices.Min(slices.Collect(maps.Keys(r.Games))))
	}
	return first(base) + ", " + first(run)
}

func compareNotes(c *Comparison, base, run *StoredRun) []string {
	var notes []string
	if c.Base.Entrant == c.Run.Entrant {
		notes = append(notes, fmt.Sprintf("the first entrant is %s in both runs: what differs comes from the other seats or the machine (clocks)", c.Base.Entrant))
	}
	if !slices.Equal(c.Base.Others, c.Run.Others) {
		notes = append(notes, fmt.Sprintf("the other entrants differ: %s in %s, %s in %s",
			listOrNone(c.Base.Others), c.Base.ID, listOrNone(c.Run.Others), c.Run.ID))
	}
	for _, r := range []*StoredRun{base, run} {
		if r.Run.Status == "running" {
			notes = append(notes, fmt.Sprintf("run %s is not complete (interrupted, or still playing): %d games stored", r.Run.ID, len(r.Games)))
		}
	}
	if c.OnlyBase+c.OnlyRun > 0 {
		notes = append(notes, fmt.Sprintf("%d games of %s and %d of %s have no partner and are left out",
			c.OnlyBase, c.Base.ID, c.OnlyRun, c.Run.ID))
	}
	return notes
}

// listOrNone lists names for a message, or says there are none.
func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
