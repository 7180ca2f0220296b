package league_test

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"gauntlet/league"
)

// cyclePool are four versions of brew's greedy whose pairwise results,
// measured with `gauntlet ab` (600 games a pair, seeds 1-300), are not
// transitive: greedy beats pw3 (+18 Elo), pw3 beats pw03 (+18), and pw03
// beats greedy (+73); sw0 loses to all three (-260 to -340).
var cyclePool = map[string]string{
	"greedy": "greedy",
	"pw3":    "greedy:price_weight=3,stock_weight=1",
	"pw03":   "greedy:price_weight=0.3",
	"sw0":    "greedy:stock_weight=0",
}

// jsonBoard is what `league show --json` prints, read back as a user
// would: the per-pair results and the ratings.
type jsonBoard struct {
	Prior    float64 `json:"prior_draws"`
	Versions []struct {
		Rank    int      `json:"rank"`
		Version string   `json:"version"`
		Rating  *float64 `json:"rating"`
	} `json:"versions"`
	Pairs []struct {
		A, B                string
		Wins, Draws, Losses int
		LOS                 *float64 `json:"los"`
	} `json:"pairs"`
}

// zermelo fits Bradley–Terry strengths to a table of points (a draw half
// a point to each side) by Zermelo's iteration (Hunter's MM algorithm):
// π_i ← W_i / Σ_j n_ij / (π_i + π_j), and returns each version's Elo
// (400·log10 π) relative to their mean.
func zermelo(points, games [][]float64) []float64 {
	n := len(points)
	pi := make([]float64, n)
	for i := range pi {
		pi[i] = 1
	}
	for range 200000 {
		moved := 0.0
		next := make([]float64, n)
		for i := range n {
			w, d := 0.0, 0.0
			for j := range n {
				if j != i && games[i][j] > 0 {
					w += points[i][j]
					d += games[i][j] / (pi[i] + pi[j])
				}
			}
			next[i] = w / d
		}
		// Scale to a geometric mean of 1.
		g := 0.0
		for _, p := range next {
			g += math.Log(p)
		}
		g = math.Exp(g / float64(n))
		for i := range next {
			next[i] /= g
			moved = math.Max(moved, math.Abs(math.Log(next[i]/pi[i])))
		}
		pi = next
		if moved < 1e-12 {
			break
		}
	}
	out := make([]float64, n)
	for i, p := range pi {
		out[i] = 400 * math.Log10(p)
	}
	return out
}

// TestLeagueMatchesPairwise plays a brew league of four greedy versions
// whose pairwise results are not transitive, and checks that (a) its
// ratings are the Bradley–Terry maximum-likelihood fit of the per-pair
// results its --json reports, fitted here independently by Zermelo's
// iteration, to 0.5 Elo, and (b) wherever the ladder tells a pair apart
// (the pair's LOS at least 0.95), the pair's own head-to-head games do not
// decisively say the opposite.
func TestLeagueMatchesPairwise(t *testing.T) {
	st, _ := openStore(t)
	ctx := context.Background()
	d := league.Def{Name: "cycle", Game: "brew", Cases: "seeds:1000", Size: 2}
	addAll(t, st, d, cyclePool)
	total := int64(2400)
	if testing.Short() {
		total = 800
	}
	if _, err := league.Run(ctx, st, league.Config{League: "cycle", Jobs: 2, Target: league.Target{Total: total}}); err != nil {
		t.Fatal(err)
	}
	b, err := league.Load(ctx, st, "cycle", nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(b) // what league show --json prints
	if err != nil {
		t.Fatal(err)
	}
	var jb jsonBoard
	if err := json.Unmarshal(raw, &jb); err != nil {
		t.Fatal(err)
	}
	idx := map[string]int{}
	for i, v := range jb.Versions {
		idx[v.Version] = i
	}
	n := len(jb.Versions)
	points, games := make([][]float64, n), make([][]float64, n)
	for i := range n {
		points[i], games[i] = make([]float64, n), make([]float64, n)
	}
	for _, p := range jb.Pairs {
		a, c := idx[p.A], idx[p.B]
		g := float64(p.Wins + p.Draws + p.Losses)
		// The board's prior: one virtual draw for each pair that met.
		g += jb.Prior
		pa := float64(p.Wins) + float64(p.Draws)/2 + jb.Prior/2
		points[a][c], points[c][a] = pa, g-pa
		games[a][c], games[c][a] = g, g
	}
	want := zermelo(points, games)
	mean := 0.0
	for _, x := range want {
		mean += x
	}
	mean /= float64(n)
	for i, v := range jb.Versions {
		if v.Rating == nil || math.Abs(*v.Rating-(want[i]-mean)) > 0.5 {
			t.Errorf("%s: league rating %v, Zermelo's fit of the pairs %.2f", v.Version, v.Rating, want[i]-mean)
		}
	}
	separated, against := 0, 0
	for _, p := range jb.Pairs {
		// The head-to-head score, against the ladder: a pool that is not
		// transitive has pairs whose winner ranks below its loser, but
		// never where the ratings tell the pair apart.
		score := (float64(p.Wins) + float64(p.Draws)/2) / float64(p.Wins+p.Draws+p.Losses)
		aAbove := jb.Versions[idx[p.A]].Rank < jb.Versions[idx[p.B]].Rank
		agrees := score == 0.5 || (score > 0.5) == aAbove
		if !agrees {
			against++
			t.Logf("%s–%s: head to head +%d =%d -%d, against the ladder (LOS %.3f)", p.A, p.B, p.Wins, p.Draws, p.Losses, *p.LOS)
		}
		if p.LOS == nil || (*p.LOS < 0.95 && *p.LOS > 0.05) {
			continue
		}
		separated++
		// The pair's own games contradict the ladder only where they are
		// decisive themselves (their LOS beyond 0.05..0.95 the other way):
		// a pair even head to head (+214 =18 -218) may be told apart by
		// the games each played against the others.
		if own := headToHeadLOS(p.Wins, p.Losses); !agrees && (own < 0.05 || own > 0.95) {
			t.Errorf("%s–%s: the ladder tells them apart (LOS %.3f), yet the pair's own games say the opposite (score %.3f, +%d =%d -%d, LOS %.3f)",
				p.A, p.B, *p.LOS, score, p.Wins, p.Draws, p.Losses, own)
		}
	}
	t.Logf("%d games; %d of %d pairs told apart by the ratings; %d pairs' scores against the ladder; prior %v", b.Games, separated, len(jb.Pairs), against, jb.Prior)
	for _, p := range b.Pairs {
		t.Logf("  %-6s %-6s +%d =%d -%d", p.A, p.B, p.Wins, p.Draws, p.Losses)
	}
	for i, v := range jb.Versions {
		t.Logf("  %d %-6s %8.2f (Zermelo %8.2f)", v.Rank, v.Version, *v.Rating, want[i]-mean)
	}
}

// headToHeadLOS is the likelihood of superiority of the first of a pair
// from its own wins and losses (draws say nothing): Φ((w−l)/√(w+l)).
func headToHeadLOS(w, l int) float64 {
	if w+l == 0 {
		return 0.5
	}
	return 0.5 * math.Erfc(-float64(w-l)/math.Sqrt(2*float64(w+l)))
}
