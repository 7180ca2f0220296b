package results

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gauntlet/harness/contract"
	"gauntlet/harness/runner"
	"gauntlet/harness/stats"
)

// ABSummary is the answer of `gauntlet ab`. For games of two or more seats
// the games come in pairs on one case with the seats swapped; for
// single-player games both entrants play every case and the per-case score
// differences are compared.
type ABSummary struct {
	Game    string `json:"game"`
	A       string `json:"a"`
	B       string `json:"b"`
	CaseSet string `json:"case_set"`
	Run     string `json:"run"`
	// Games are the games the summary counts: after an early stop, those
	// up to the stop point in plan order, on which the verdict is
	// reproducible.
	Games int `json:"games"`
	// Planned is the number of games of the run's plan. StoredGames, with a
	// store, is the number stored for the run (CountStored): Games of them
	// are counted, Uncounted are kept but not counted, and after an early
	// stop the Abandoned rest of the plan was never played.
	Planned     int  `json:"planned"`
	StoredGames *int `json:"stored,omitempty"`
	Uncounted   int  `json:"stored_uncounted,omitempty"`
	Abandoned   int  `json:"abandoned,omitempty"`

	// Two or more seats.
	Wins        int        `json:"wins"`
	Draws       int        `json:"draws"`
	Losses      int        `json:"losses"`
	Pentanomial [5]int     `json:"pentanomial"`
	Score       float64    `json:"score"`
	Elo         float64    `json:"elo"`
	EloCI95     [2]float64 `json:"elo_ci95"`
	LOS         float64    `json:"los"`
	LLR         float64    `json:"llr"`
	SPRT        string     `json:"sprt"` // "H0", "H1" or "continue"
	SPRTConfig  *SPRTSpec  `json:"sprt_config,omitempty"`
	Stopped     bool       `json:"stopped_early"`
	ForfeitsA   int        `json:"forfeits_a"`
	ForfeitsB   int        `json:"forfeits_b"`
	// ConductA and ConductB are A's and B's forfeits by reason (with the
	// first example of each), ignored answers and answer times, over the
	// games the summary counts.
	ConductA Conduct `json:"conduct_a"`
	ConductB Conduct `json:"conduct_b"`

	// Direction is Lower for games whose scores are costs (towers): a win
	// is the lower score, and a negative A − B means A did better (JSON:
	// lower_is_better, a boolean, as before).
	Direction contract.Direction `json:"lower_is_better,omitempty"`

	// Single-player games. MeanDiff is the mean of A − B, as the scores come
	// (positive: A better when higher is better, B better when lower is);
	// BetterA and BetterB count the cases each did better on.
	MeanDiff  *float64    `json:"mean_diff,omitempty"`
	CI95      *[2]float64 `json:"ci95,omitempty"`
	WilcoxonP *float64    `json:"wilcoxon_p,omitempty"`
	MeanA     *float64    `json:"mean_a,omitempty"`
	MeanB     *float64    `json:"mean_b,omitempty"`
	BetterA   *int        `json:"cases_a_better,omitempty"`
	BetterB   *int        `json:"cases_b_better,omitempty"`

	Notes   []string   `json:"notes,omitempty"`
	Cases   []ABCase   `json:"cases"`
	History []ABPoint  `json:"history,omitempty"` // after every pair, or about historyPoints along the run (see abTally)
	Groups  []ABGroups `json:"groups,omitempty"`
	// RefereeErrors are the games whose referee failed in this process
	// (see RefereeError): not in the summary's figures.
	RefereeErrors []contract.RefereeFailure `json:"referee_errors,omitempty"`
}

// Stored is the summary as Store.FinishRun keeps it with its run: without
// the per-case rows, which the run's games hold.
func (s *ABSummary) Stored() *ABSummary {
	c := *s
	c.Cases = nil
	return &c
}

// ABCase is one case: A's and B's scores (two games each in multi-seat
// games: A first, then B first).
type ABCase struct {
	Case   string    `json:"case"`
	Group  string    `json:"group,omitempty"`
	A      []float64 `json:"a"`
	B      []float64 `json:"b"`
	Points float64   `json:"points"` // multi-seat: A's game points of the pair (0..2); single: A − B
}

// ABGroups is the official aggregation per group for single-player games
// (hextris problems): A's and B's group scores.
type ABGroups struct {
	Group string  `json:"group"`
	A     float64 `json:"a"`
	B     float64 `json:"b"`
}

// ABPoint is the state of the comparison after a number of games (for the
// Elo and LLR plots).
type ABPoint struct {
	Games int     `json:"games"`
	Score float64 `json:"score"`
	Elo   float64 `json:"elo"`
	LLR   float64 `json:"llr"`
}

// SPRTSpec configures the sequential test of `ab`.
type SPRTSpec struct {
	Elo0  float64 `json:"elo0"`
	Elo1  float64 `json:"elo1"`
	Alpha float64 `json:"alpha"`
	Beta  float64 `json:"beta"`
	// Model is the scale of the bounds: "normalized" (nElo, fishtest's
	// default) or "logistic"; empty means logistic (runs stored before the
	// choice existed).
	Model string `json:"model,omitempty"`
	// Early is true when the run stops as soon as the test decides.
	Early bool `json:"early"`
}

// EloModel returns the scale of the bounds.
func (sp SPRTSpec) EloModel() stats.EloModel {
	if sp.Model == "" {
		return stats.Logistic
	}
	m, err := stats.ParseEloModel(sp.Model)
	if err != nil {
		return stats.Logistic
	}
	return m
}

// String is the test as the text reports write it: "nElo [0, 10]" or
// "Elo [0, 10]" (logistic).
func (sp SPRTSpec) String() string {
	unit := "Elo"
	if sp.EloModel() == stats.Normalized {
		unit = "nElo"
	}
	return fmt.Sprintf("%s [%g, %g]", unit, sp.Elo0, sp.Elo1)
}

// DefaultSPRT is the test reported when none is asked for: normalized Elo
// H0: 0 against H1: 10 at 5% error rates, evaluated on all games. With no
// draws, nElo is close to logistic Elo; unlike logistic bounds it does not
// cap the evidence a lopsided match can give (fishtest's GSPRT with logistic
// bounds gains at most about 0.028 per pair at [0, 10], so even 100 won
// pairs stay short of the 2.94 bound).
var DefaultSPRT = SPRTSpec{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: "normalized"}

// ParseSPRT reads "[model:]elo0,elo1[,alpha,beta]", model being
// "normalized" (or "nelo", the default) or "logistic".
func ParseSPRT(s string) (SPRTSpec, error) {
	sp := SPRTSpec{Alpha: 0.05, Beta: 0.05, Early: true, Model: "normalized"}
	orig := s
	if m, rest, ok := strings.Cut(s, ":"); ok {
		if strings.EqualFold(strings.TrimSpace(m), "nelo") {
			m = "normalized"
		}
		em, err := stats.ParseEloModel(m)
		if err != nil {
			return sp, fmt.Errorf("--sprt %q: %w", orig, err)
		}
		sp.Model, s = em.String(), rest
	}
	if err := parseSPRTBounds(&sp, s); err != nil {
		return sp, fmt.Errorf("--sprt %q: %w", orig, err)
	}
	for _, x := range []struct {
		name string
		v    float64
	}{{"elo0", sp.Elo0}, {"elo1", sp.Elo1}, {"alpha", sp.Alpha}, {"beta", sp.Beta}} {
		if math.IsNaN(x.v) || math.IsInf(x.v, 0) {
			return sp, fmt.Errorf("--sprt %q: %s %v is not a finite number", orig, x.name, x.v)
		}
	}
	if !(sp.Elo1 > sp.Elo0) {
		return sp, fmt.Errorf("--sprt %q: elo1 must be greater than elo0", orig)
	}
	if !(sp.Alpha > 0 && sp.Alpha < 0.5 && sp.Beta > 0 && sp.Beta < 0.5) {
		return sp, fmt.Errorf("--sprt %q: alpha and beta must be in (0, 0.5)", orig)
	}
	// Bounds the test cannot compute are refused here, not after a game.
	if _, err := stats.NewSPRT(sp.Elo0, sp.Elo1, sp.Alpha, sp.Beta, sp.EloModel()); err != nil {
		return sp, fmt.Errorf("--sprt %q: %s", orig, strings.TrimPrefix(err.Error(), "sprt: "))
	}
	return sp, nil
}

// parseSPRTBounds reads "elo0,elo1[,alpha,beta]" into sp: each field a
// whole number, spaces around it allowed; a value too large for a float
// is left infinite for ParseSPRT to refuse by name.
func parseSPRTBounds(sp *SPRTSpec, s string) error {
	fields := strings.Split(s, ",")
	if len(fields) != 2 && len(fields) != 4 {
		return fmt.Errorf("want elo0,elo1[,alpha,beta]")
	}
	names := [...]string{"elo0", "elo1", "alpha", "beta"}
	dst := [...]*float64{&sp.Elo0, &sp.Elo1, &sp.Alpha, &sp.Beta}
	for i, f := range fields {
		x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return fmt.Errorf("%s %q is not a number; want elo0,elo1[,alpha,beta]", names[i], f)
		}
		*dst[i] = x
	}
	return nil
}

// gamePoints is A's result in one game: 1 win, ½ draw, 0 loss, comparing
// A's and B's scores in the game's direction.
func gamePoints(info contract.GameInfo, m *runner.Match, o *contract.Outcome) float64 {
	a, b := o.Seats[runner.SeatOf(m, 0)].Score, o.Seats[runner.SeatOf(m, 1)].Score
	switch {
	case info.Better(a, b):
		return 1
	case info.Better(b, a):
		return 0
	}
	return 0.5
}
