package league

import (
	"math"
	"slices"
	"sort"

	"gauntlet/harness/contract"
	"gauntlet/harness/results"
	"gauntlet/harness/store"
)

// Game is one stored game of a league.
type Game struct {
	Block int64 `json:"block"`
	Index int   `json:"index"` // within the block
	Unit  int64 `json:"unit"`  // the unit (case and group) it belongs to
	Case  string
	// Versions is the version of each seat (a single-player game: one).
	Versions []int
	Seats    []SeatResult
	// PlayerData is each seat's player_data of a referee game (nil if none).
	PlayerData []map[string]any
	Wall       float64 // ms
	// referee is the failure of a game whose referee failed (a worker's,
	// not stored with the game).
	referee *RefereeFailure
}

// SeatResult is what a league keeps of a seat's result: the store's
// (store.LeagueSeat), so that a block of games is stored and read without
// copying each game's seats.
type SeatResult = store.LeagueSeat

// VersionTally is one version's figures over its games.
type VersionTally struct {
	Games    int     // games played (a version in several seats of one game: once)
	Seats    int     // seats played: the mean place and score are per seat
	Points   float64 // two-player comparisons: 1 a win, ½ a draw
	Firsts   int     // placements in first place (shared ones included)
	RankSum  int     // sum of places, for the mean place
	ScoreSum float64 // sum of the game's own scores
	Forfeits int
	Reasons  results.ReasonTally // the forfeits by kind
	// Eliminated counts the seats out before their game ended
	// (contract.Eliminator), by kind of cause in Causes.
	Eliminated int
	Causes     results.ReasonTally
	// Data sums each numeric player_data key; DataN counts the games
	// that had it; DataLast is a non-numeric value's last one.
	Data     map[string]float64
	DataN    map[string]int
	DataLast map[string]string
}

// Tally accumulates a league's games: per-version figures, and the counts
// the ratings are fitted to (pairs for two-version comparisons, stages of
// placements otherwise). Two-version comparisons are those of a league of
// Size 2, whatever the game's seats.
type Tally struct {
	Size      int                // versions compared per unit
	Single    bool               // the game is single-player: a unit is a case played by each member alone
	Direction contract.Direction // the game's scores: which way is better
	// Eliminations is true when the game says why a seat was out before
	// the end (contract.Eliminator): boards show each version's count.
	Eliminations bool
	Pairs        Pairs
	Stages       Stages
	V            []VersionTally
	Games        int // games counted
	Units        int
	meet         []float64         // meet[i*n+j]: comparisons between i and j
	wdl          map[[2]int][3]int // pair (i < j) → i's wins, draws, losses
	n            int
}

// NewTally makes an empty tally of a league of size-version units.
func NewTally(size int, info contract.GameInfo) *Tally {
	return &Tally{Size: size, Single: info.MaxSeats == 1, Direction: info.Direction}
}

// Grow makes room for n versions.
func (t *Tally) Grow(n int) {
	if n <= t.n {
		return
	}
	meet := make([]float64, n*n)
	for i := range t.n {
		copy(meet[i*n:i*n+t.n], t.meet[i*t.n:(i+1)*t.n])
	}
	t.meet, t.n = meet, n
	t.Pairs.Grow(n)
	t.Stages.Grow(n)
	for len(t.V) < n {
		t.V = append(t.V, VersionTally{})
	}
}

// N is the number of versions.
func (t *Tally) N() int { return t.n }

// Meet is the number of comparisons between versions i and j.
func (t *Tally) Meet(i, j int) float64 { return t.meet[i*t.n+j] }

// pairwise reports whether ratings are Bradley–Terry over pairs.
func (t *Tally) pairwise() bool { return t.Size == 2 }

// AddUnit counts the games of one unit (all of them: a single-player
// unit is ranked across its games). Versions are indexes (version ID − 1).
func (t *Tally) AddUnit(games []Game) error {
	for _, g := range games {
		for _, v := range g.Versions {
			t.Grow(v + 1)
		}
	}
	t.Units++
	if t.Single {
		vs := make([]int, 0, len(games))
		scores := make([]contract.SeatResult, 0, len(games))
		for _, g := range games {
			if len(g.Versions) != 1 || len(g.Seats) != 1 {
				continue
			}
			vs = append(vs, g.Versions[0])
			scores = append(scores, contract.SeatResult{Score: g.Seats[0].Score})
		}
		contract.Ranks(scores, t.Direction)
		rank := make([]int, len(scores))
		for k := range scores {
			rank[k] = scores[k].Rank
		}
		for k, g := range games {
			if k < len(rank) {
				t.seat(g, 0, rank[k])
			}
		}
		return t.compare(vs, rank)
	}
	for _, g := range games {
		rank := make([]int, len(g.Seats))
		for s := range g.Seats {
			rank[s] = g.Seats[s].Rank
			t.seat(g, s, rank[s])
			if slices.Index(g.Versions, g.Versions[s]) < s {
				t.V[g.Versions[s]].Games-- // counted at its first seat
			}
		}
		if err := t.compare(g.Versions, rank); err != nil {
			return err
		}
	}
	return nil
}

// seat counts seat s of game g, placed at rank among its unit.
func (t *Tally) seat(g Game, s, rank int) {
	t.Games += boolInt(s == 0)
	v := &t.V[g.Versions[s]]
	v.Games++
	v.Seats++
	v.RankSum += rank
	if rank == 1 {
		v.Firsts++
	}
	r := g.Seats[s]
	v.ScoreSum += r.Score
	if r.Forfeit != "" {
		v.Forfeits++
		v.Reasons.Add(r.Forfeit, g.Case)
	}
	if r.Out != "" {
		v.Eliminated++
		v.Causes.Add(r.Out, g.Case)
	}
	if s < len(g.PlayerData) {
		for k, x := range g.PlayerData[s] {
			if v.Data == nil {
				v.Data, v.DataN, v.DataLast = map[string]float64{}, map[string]int{}, map[string]string{}
			}
			if f, ok := x.(float64); ok && !math.IsNaN(f) && !math.IsInf(f, 0) {
				v.Data[k] += f
				v.DataN[k]++
			} else if sx, ok := x.(string); ok {
				v.DataLast[k] = sx
			}
		}
	}
}

// compare counts a placement of versions at rank.
func (t *Tally) compare(vs, rank []int) error {
	for a := range vs {
		for b := range vs {
			if vs[a] != vs[b] {
				t.meet[vs[a]*t.n+vs[b]]++
			}
		}
	}
	if !t.pairwise() {
		return t.Stages.AddPlacement(vs, rank)
	}
	if len(vs) == 2 && vs[0] != vs[1] {
		s := 0.5
		switch {
		case rank[0] < rank[1]:
			s = 1
		case rank[0] > rank[1]:
			s = 0
		}
		if t.wdl == nil {
			t.wdl = map[[2]int][3]int{}
		}
		a, b, sa := vs[0], vs[1], s
		if a > b {
			a, b, sa = b, a, 1-s
		}
		c := t.wdl[[2]int{a, b}]
		c[2-int(sa*2)]++
		t.wdl[[2]int{a, b}] = c
		t.V[vs[0]].Points += s
		t.V[vs[1]].Points += 1 - s
		t.Pairs.Add(vs[0], vs[1], s)
	}
	return nil
}

// Fit fits the ratings (start: the last fit's ratings, or nil).
func (t *Tally) Fit(start []float64) (*Fit, error) {
	if t.pairwise() {
		return t.Pairs.Fit(start)
	}
	return t.Stages.Fit(start)
}

// Model names the rating model.
func (t *Tally) Model() string {
	if t.pairwise() {
		return "Bradley–Terry"
	}
	return "Plackett–Luce"
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
