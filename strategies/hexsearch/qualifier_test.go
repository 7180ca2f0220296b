package hexsearch

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"gauntlet/referees/hextris"
	"gauntlet/strategies/param"
)

// TestQualifierTable solves the whole qualifier set (every problem and
// distinct seed) with the strategy named by HEXSEARCH_QUALIFIER
// (hexgreedy or hexlookahead; params from HEXSEARCH_PARAMS) and prints the
// per-problem table with the leaderboard's aggregation. It is skipped
// unless the variable is set: it takes minutes.
func TestQualifierTable(t *testing.T) {
	name := os.Getenv("HEXSEARCH_QUALIFIER")
	if name == "" {
		t.Skip("set HEXSEARCH_QUALIFIER=hexgreedy|hexlookahead to run the qualifier table")
	}
	specs := GreedyParams
	if name == "hexlookahead" {
		specs = LookaheadParams
	}
	var assign []string
	if a := os.Getenv("HEXSEARCH_PARAMS"); a != "" {
		assign = append(assign, a)
	}
	v, err := specs.Parse(assign...)
	if err != nil {
		t.Fatal(err)
	}
	phrases, err := hextris.OfficialPhrases("power")
	if err != nil {
		t.Fatal(err)
	}
	only := map[int]bool{}
	if s := os.Getenv("HEXSEARCH_PROBLEMS"); s != "" {
		for _, f := range strings.Split(s, ",") {
			id, err := strconv.Atoi(f)
			if err != nil {
				t.Fatalf("HEXSEARCH_PROBLEMS: %v", err)
			}
			only[id] = true
		}
	}
	var total, moveTotal int64
	start := time.Now()
	for id := range hextris.QualifierProblems {
		if len(only) > 0 && !only[id] {
			continue
		}
		p, err := hextris.Official(id)
		if err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		var sum, msum int64
		seen := map[uint32]bool{}
		seeds := p.SourceSeeds
		if n, _ := strconv.Atoi(os.Getenv("HEXSEARCH_SEEDS")); n > 0 {
			seeds = seeds[:min(n, len(seeds))]
		}
		for _, seed := range seeds {
			if seen[seed] {
				continue
			}
			seen[seed] = true
			s, err := newByName(name, v)
			if err != nil {
				t.Fatal(err)
			}
			sol, err := s.Solve(context.Background(), p, seed, phrases)
			if err != nil {
				t.Fatalf("problem %d seed %d: %v", id, seed, err)
			}
			r := hextris.Play(p, seed, phrases, sol)
			if r.Error != "" {
				t.Fatalf("problem %d seed %d: %s at %d", id, seed, r.Error, r.ErrorAt)
			}
			sum += r.Score
			msum += r.MoveScore
			if os.Getenv("HEXSEARCH_VERBOSE") != "" {
				nused, downs := 0, 0
				for _, ph := range phrases.Phrases() {
					if strings.Contains(sol, ph) {
						nused++
					}
				}
				for _, ch := range sol {
					if c, _, _ := hextris.DecodeChar(ch); c == hextris.MoveSW || c == hextris.MoveSE {
						downs++
					}
				}
				fmt.Printf("  p%d s%d: score %d move %d power %d locked %d/%d %s len %d phrases %d downs %d (%.2f/down)\n", id, seed, r.Score, r.MoveScore, r.PowerScore, r.UnitsLocked, p.SourceLength, r.EndState, len(sol), nused, downs, float64(r.PowerScore-int64(300*nused))/float64(downs))
			}
		}
		n := int64(len(p.SourceSeeds))
		if len(seeds) < len(p.SourceSeeds) {
			n = int64(len(seeds))
		}
		total += sum / n
		moveTotal += msum / n
		fmt.Printf("| %d | %d | %d | %d | %.1fs |\n", id, n, sum/n, msum/n, time.Since(t0).Seconds())
	}
	fmt.Printf("| total | | %d | %d | %.1fs |\n", total, moveTotal, time.Since(start).Seconds())
}

func newByName(name string, v param.Values) (*Solver, error) {
	if name == "hexlookahead" {
		return NewLookahead(v, 1)
	}
	return NewGreedy(v, 1)
}
