package league

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"gauntlet/harness/contract"
)

// Follower keeps a league's board up to date while its workers play: each
// Board reads only the games stored since the last one and fits the
// ratings again from the last fit, so that its cost follows the new games
// and not the league's size. Its history keeps at most 2·historyPoints
// moments: every step games, the step doubling (every other moment
// dropped) when they would be more. Safe for concurrent use.
type Follower struct {
	st   *Store
	name string
	reg  *contract.Registry

	mu    sync.Mutex
	def   Def
	tally *Tally
	seq   int64
	fit   *Fit
	fitAt int // tally games at the last fit
	hist  []Moment
	step  int // games between moments; 0 before the first read
	next  int // tally games at the next moment
}

// NewFollower follows league name of st; reg resolves the game (nil:
// contract.Default).
func NewFollower(st *Store, name string, reg *contract.Registry) *Follower {
	if reg == nil {
		reg = contract.Default
	}
	return &Follower{st: st, name: name, reg: reg}
}

// Board reads the league's versions and new games and returns its board.
func (f *Follower) Board(ctx context.Context) (*Board, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.tally == nil {
		d, err := f.st.Def(ctx, f.name)
		if err != nil {
			return nil, err
		}
		g, err := f.reg.Game(d.Game)
		if err != nil {
			return nil, err
		}
		f.def, f.tally = d, NewTally(d.Size, g.Info())
		f.tally.Eliminations = contract.Eliminates(g)
	}
	vs, err := f.st.Versions(ctx, f.name)
	if err != nil {
		return nil, err
	}
	f.tally.Grow(len(vs))
	var units [][]Game
	seq, err := f.st.GamesSince(ctx, f.name, f.seq, func(_ Block, games []Game) error {
		units = appendUnits(units, games)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if f.step == 0 {
		total := 0
		for _, u := range units {
			total += len(u)
		}
		f.step = max(1, total/historyPoints)
		f.next = f.step
	}
	for _, u := range units {
		if err := f.tally.AddUnit(toIndexes(u)); err != nil {
			return nil, err
		}
		if f.tally.Games >= f.next {
			if err := f.refit(); err != nil {
				return nil, err
			}
			f.hist = append(f.hist, moment(f.tally.Games, f.fit, vs))
			f.next += f.step
			if len(f.hist) >= 2*historyPoints {
				f.thin()
			}
		}
	}
	f.seq = seq
	if f.fit == nil || f.fitAt != f.tally.Games {
		if err := f.refit(); err != nil {
			return nil, err
		}
	}
	b := &Board{League: f.name, Game: f.def.Game, Cases: f.def.Cases, Size: f.def.Size, Model: f.tally.Model(),
		Direction: f.tally.Direction, Eliminations: f.tally.Eliminations, History: slices.Clone(f.hist)}
	if n := len(b.History); f.tally.Games > 0 && (n == 0 || b.History[n-1].Games != f.tally.Games) {
		b.History = append(b.History, moment(f.tally.Games, f.fit, vs))
	}
	b.fill(f.tally, f.fit, vs)
	if b.RefereeErrors, b.FirstRefereeError, err = f.st.RefereeErrors(ctx, f.name); err != nil {
		return nil, err
	}
	if e := b.FirstRefereeError; e != nil {
		msg := (&contract.RefereeError{Reason: e.Reason, Stderr: e.Stderr}).Error()
		b.Notes = append(b.Notes, fmt.Sprintf("%d games whose referee failed are not stored (nor their units' other games); the first, in %s: %s", b.RefereeErrors, e.Case, strings.TrimPrefix(msg, "referee error: ")))
	}
	return b, nil
}

// refit fits the ratings from the last fit.
func (f *Follower) refit() error {
	var start []float64
	if f.fit != nil {
		start = f.fit.Rating
	}
	fit, err := f.tally.Fit(start)
	if err != nil {
		return err
	}
	f.fit, f.fitAt = fit, f.tally.Games
	return nil
}

// thin keeps every other moment of the history and doubles the step.
func (f *Follower) thin() {
	kept := f.hist[:0]
	for k := 1; k < len(f.hist); k += 2 {
		kept = append(kept, f.hist[k])
	}
	f.hist = kept
	f.step *= 2
	f.next = f.hist[len(f.hist)-1].Games + f.step
}

// moment is the ratings of fit after games games, by version title.
func moment(games int, fit *Fit, vs []Version) Moment {
	m := Moment{Games: games, Ratings: map[string]float64{}}
	for i, r := range fit.Rating {
		if !math.IsNaN(r) && i < len(vs) {
			m.Ratings[vs[i].Title()] = r
		}
	}
	return m
}
