package league

import (
	"context"
	"math"
	"sort"

	"gauntlet/harness/contract"
	"gauntlet/harness/results"
)

// Board is a league's leaderboard: every version's rating and figures,
// the results of each pair (two-version leagues), and the ratings over
// the league's history.
type Board struct {
	League string `json:"league"`
	Game   string `json:"game"`
	Cases  string `json:"cases"`
	Size   int    `json:"size"`
	// Model is "Bradley–Terry" (two versions a game) or "Plackett–Luce".
	Model string `json:"model"`
	// Prior is the virtual draws added to each pair that met (0: the
	// plain maximum-likelihood fit).
	Prior   float64  `json:"prior_draws"`
	Games   int      `json:"games"`
	Units   int      `json:"units"`
	Rows    []Row    `json:"versions"`
	Pairs   []Pair   `json:"pairs,omitempty"`
	History []Moment `json:"history,omitempty"`
	Data    []string `json:"data_columns,omitempty"` // player_data keys, in order
	Notes   []string `json:"notes,omitempty"`
	// RefereeErrors is the games whose referee failed: their units are
	// not stored and not in the ratings. FirstRefereeError is the first.
	RefereeErrors     int                `json:"referee_errors,omitempty"`
	FirstRefereeError *RefereeFailure    `json:"first_referee_error,omitempty"`
	Direction         contract.Direction `json:"lower_is_better,omitempty"` // the game's scores: which way is better
	// Eliminations is true when the game says why a seat was out before
	// the end (contract.Eliminator): each row counts its version's.
	Eliminations bool `json:"eliminations,omitempty"`
}

// Row is one version on the board.
type Row struct {
	Rank    int      `json:"rank"` // 0 for a version without games
	ID      int      `json:"id"`
	Version string   `json:"version"`
	Entrant string   `json:"entrant"`
	Active  bool     `json:"active"`
	Rating  *float64 `json:"rating,omitempty"` // Elo relative to the mean of the rated versions
	Lo      *float64 `json:"rating_lo,omitempty"`
	Hi      *float64 `json:"rating_hi,omitempty"`
	// LOSNext is the likelihood that this version is stronger than the
	// next one on the board.
	LOSNext   *float64 `json:"los_next,omitempty"`
	Games     int      `json:"games"`
	Score     *float64 `json:"score,omitempty"` // points per game (two-version leagues): 1 a win, ½ a draw
	Firsts    int      `json:"firsts"`
	MeanRank  *float64 `json:"mean_rank,omitempty"`
	MeanScore *float64 `json:"mean_game_score,omitempty"`
	Forfeits  int      `json:"forfeits"`
	// ForfeitKinds counts forfeits by kind (results.ReasonKind), with the
	// first reason of each.
	ForfeitKinds []results.ReasonCount `json:"forfeit_kinds,omitempty"`
	// Eliminated counts the seats the version was out of before the game
	// ended, by kind of cause in EliminationKinds (games that say so).
	Eliminated       int                   `json:"eliminated,omitempty"`
	EliminationKinds []results.ReasonCount `json:"elimination_kinds,omitempty"`
	// Data is the mean per game of each numeric player_data key, and the
	// last value of a non-numeric one.
	Data     map[string]float64 `json:"data,omitempty"`
	DataText map[string]string  `json:"data_text,omitempty"`
}

// Pair is the results of two versions against each other (two-version
// leagues): A's wins, draws and losses.
type Pair struct {
	A      string   `json:"a"`
	B      string   `json:"b"`
	AID    int      `json:"a_id"`
	BID    int      `json:"b_id"`
	Wins   int      `json:"wins"`
	Draws  int      `json:"draws"`
	Losses int      `json:"losses"`
	Score  float64  `json:"score"` // A's points per game
	LOS    *float64 `json:"los,omitempty"`
}

// Moment is the ratings after a number of the league's games (NaN-free:
// versions not rated yet are absent).
type Moment struct {
	Games   int                `json:"games"`
	Ratings map[string]float64 `json:"ratings"`
}

// historyPoints is how many moments a board's history holds at most.
const historyPoints = 20

// Load reads league name from st and builds its board; reg resolves the
// game (nil: contract.Default). It reads every game: a page that shows a
// board again and again follows the league with a Follower instead.
func Load(ctx context.Context, st *Store, name string, reg *contract.Registry) (*Board, error) {
	return NewFollower(st, name, reg).Board(ctx)
}

// fill builds the rows and pairs from a tally and its fit.
func (b *Board) fill(t *Tally, f *Fit, vs []Version) {
	b.Games, b.Units, b.Prior = t.Games, t.Units, f.Prior
	if f.Prior > 0 {
		b.Notes = append(b.Notes, "some version won or lost every comparison with the others, where maximum likelihood has no finite answer: every pair that met counts one virtual draw more")
	}
	keys := map[string]bool{}
	order := make([]int, len(vs))
	for i := range order {
		order[i] = i
	}
	rating := func(i int) float64 {
		if i < len(f.Rating) {
			return f.Rating[i]
		}
		return math.NaN()
	}
	sort.SliceStable(order, func(a, c int) bool {
		ra, rc := rating(order[a]), rating(order[c])
		switch {
		case math.IsNaN(ra) || math.IsNaN(rc):
			return !math.IsNaN(ra) && math.IsNaN(rc)
		}
		return ra > rc
	})
	for pos, i := range order {
		v := vs[i]
		vt := t.V[i]
		r := Row{ID: v.ID, Version: v.Title(), Entrant: v.Label, Active: v.Active, Games: vt.Games, Firsts: vt.Firsts, Forfeits: vt.Forfeits,
			Eliminated: vt.Eliminated}
		if x := rating(i); !math.IsNaN(x) {
			r.Rank = pos + 1
			lo, hi := f.Interval(i)
			r.Rating, r.Lo, r.Hi = num(x), num(lo), num(hi)
			if pos+1 < len(order) {
				if l := f.LOS(i, order[pos+1]); !math.IsNaN(l) {
					r.LOSNext = num(l)
				}
			}
		}
		if vt.Games > 0 {
			if t.pairwise() {
				r.Score = num(vt.Points / float64(vt.Games))
			}
			r.MeanRank = num(float64(vt.RankSum) / float64(vt.Seats))
			r.MeanScore = num(vt.ScoreSum / float64(vt.Seats))
		}
		r.ForfeitKinds, r.EliminationKinds = vt.Reasons.ByKind(), vt.Causes.ByKind()
		for k, s := range vt.Data {
			if r.Data == nil {
				r.Data = map[string]float64{}
			}
			r.Data[k] = s / float64(vt.DataN[k])
			keys[k] = true
		}
		for k, s := range vt.DataLast {
			if r.DataText == nil {
				r.DataText = map[string]string{}
			}
			r.DataText[k] = s
			keys[k] = true
		}
		b.Rows = append(b.Rows, r)
	}
	b.Data = sortedKeys(keys)
	if t.pairwise() {
		for x, i := range order {
			for _, j := range order[x+1:] {
				wdl := t.wdl[[2]int{min(i, j), max(i, j)}]
				if wdl == ([3]int{}) {
					continue
				}
				if i > j {
					wdl[0], wdl[2] = wdl[2], wdl[0]
				}
				n := wdl[0] + wdl[1] + wdl[2]
				p := Pair{A: vs[i].Title(), B: vs[j].Title(), AID: vs[i].ID, BID: vs[j].ID, Wins: wdl[0], Draws: wdl[1], Losses: wdl[2],
					Score: (float64(wdl[0]) + float64(wdl[1])/2) / float64(n)}
				if l := f.LOS(i, j); !math.IsNaN(l) {
					p.LOS = num(l)
				}
				b.Pairs = append(b.Pairs, p)
			}
		}
	}
}

func num(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}
