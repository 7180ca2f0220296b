package games

import (
	"strconv"
	"strings"
	"testing"
)

// FuzzSeedCases feeds the case sets of the seeded games (brew, paperio):
// it never panics; what it accepts is 1 to 1,000,000 cases, each ID
// "seed:S" for its case's seed S, and "seed:" with those seeds reads back
// as the same cases; what it refuses is an error that quotes the input.
func FuzzSeedCases(f *testing.F) {
	for _, s := range []string{"smoke", "seeds:10", "seeds:1-10", "seeds:5-5", "seed:1,2", "seed:-3", "seed: 7 , 8",
		"seeds:0", "seeds:10-1", "seeds:1-1000001", "seeds:9223372036854775807-9223372036854775807", "seeds:x", "seed:", "seed:1,,2", "seed:18446744073709551616", "seed:1e3", "bogus"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, set string) {
		cs, err := seedCases("g", set, 3, func(s int64) any { return s })
		if err != nil {
			if !strings.Contains(err.Error(), strconv.Quote(set)) {
				t.Fatalf("seedCases(%q): error %q does not quote the input", set, err)
			}
			return
		}
		if len(cs) == 0 || len(cs) > 1_000_000 {
			t.Fatalf("seedCases(%q): %d cases", set, len(cs))
		}
		if len(cs) > 1000 {
			return // the listing written back would be long; the count is checked
		}
		seeds := make([]string, len(cs))
		for i, c := range cs {
			s := c.Data.(int64)
			if c.ID != "seed:"+strconv.FormatInt(s, 10) || c.Seed != uint64(s) {
				t.Fatalf("seedCases(%q): case %d is %q with seed %d for referee seed %d", set, i, c.ID, c.Seed, s)
			}
			seeds[i] = strconv.FormatInt(s, 10)
		}
		again := "seed:" + strings.Join(seeds, ",")
		back, err := seedCases("g", again, 3, func(s int64) any { return s })
		if err != nil || len(back) != len(cs) {
			t.Fatalf("seedCases(%q) written back as %q: %d cases, %v", set, again, len(back), err)
		}
		for i := range back {
			if back[i].ID != cs[i].ID {
				t.Fatalf("seedCases(%q) written back as %q: case %d is %q, not %q", set, again, i, back[i].ID, cs[i].ID)
			}
		}
	})
}
