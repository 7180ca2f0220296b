package games

import (
	"fmt"
	"strconv"
	"strings"

	"gauntlet/harness/contract"
)

// seedCases expands the case sets shared by the seeded multi-player games:
// "seeds:N" (referee seeds 1..N), "smoke" (a few
// seeds), "seed:S" (one game with the referee's seed S) and "seed:S1,S2".
// mk turns a referee seed into a case's Data.
func seedCases(game, set string, smoke int, mk func(seed int64) any) ([]contract.Case, error) {
	var seeds []int64
	switch {
	case set == "smoke":
		seeds = seqSeeds(smoke)
	case strings.HasPrefix(set, "seeds:") && strings.Contains(set, "-"):
		lo, hi, ok := strings.Cut(strings.TrimPrefix(set, "seeds:"), "-")
		a, err1 := strconv.ParseInt(lo, 10, 64)
		b, err2 := strconv.ParseInt(hi, 10, 64)
		if !ok || err1 != nil || err2 != nil || a > b || b-a >= 1_000_000 {
			return nil, fmt.Errorf("%s case set %q: want seeds:A-B with A <= B and at most 1000000 seeds", game, set)
		}
		for i := int64(0); i <= b-a; i++ { // s <= b would wrap at the largest seed
			seeds = append(seeds, a+i)
		}
	case strings.HasPrefix(set, "seeds:"):
		n, err := strconv.Atoi(strings.TrimPrefix(set, "seeds:"))
		if err != nil || n < 1 || n > 1_000_000 {
			return nil, fmt.Errorf("%s case set %q: want seeds:N with N in 1..1000000", game, set)
		}
		seeds = seqSeeds(n)
	case strings.HasPrefix(set, "seed:"):
		for _, f := range strings.Split(strings.TrimPrefix(set, "seed:"), ",") {
			s, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%s case set %q: seed %q is not a 64-bit integer", game, set, f)
			}
			seeds = append(seeds, s)
		}
	default:
		return nil, fmt.Errorf("unknown %s case set %q (known: smoke, seeds:N, seeds:A-B, seed:S[,S...])", game, set)
	}
	cs := make([]contract.Case, len(seeds))
	for i, s := range seeds {
		cs[i] = contract.Case{ID: "seed:" + strconv.FormatInt(s, 10), Seed: uint64(s), Data: mk(s)}
	}
	return cs, nil
}

// seqSeeds returns the referee seeds 1..n.
func seqSeeds(n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(i + 1)
	}
	return out
}

func seedCaseSets() []contract.CaseSetInfo {
	return []contract.CaseSetInfo{
		{Name: "seeds:N", Doc: "the games of referee seeds 1..N"},
		{Name: "seeds:A-B", Doc: "the games of referee seeds A..B (e.g. held-out seeds after tuning on seeds:N)"},
		{Name: "smoke", Doc: "a few seeds (quick)"},
		{Name: "seed:S[,S...]", Doc: "the games of the given referee seeds"},
	}
}
