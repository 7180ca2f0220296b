package store

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"
)

// TestRunsWithPrefix: the runs whose names begin with the prefix come back
// with their entrants, and no other, though names around them share all
// but a character of it or hold LIKE's wildcards.
func TestRunsWithPrefix(t *testing.T) {
	ctx := context.Background()
	for _, url := range storeURLs(t) {
		t.Run(dialectOf(url), func(t *testing.T) {
			st, err := Open(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			// A PostgreSQL server outlives the test: the names are this run's own.
			study := fmt.Sprintf("é%d_%%", time.Now().UnixNano())
			prefix := study + "/holdout["
			names := []string{
				prefix + "seeds:1-9]",
				prefix + "a_b%]",
				study + "/holdout",
				study + "x/holdout[a]",
				study[:len(study)-1] + "/holdout[a]",
				"other",
			}
			for i, name := range names {
				r := &RunRecord{ID: name, Kind: "ab", Game: "g", CaseSet: "c", Spec: fmt.Sprintf(`{"n":%d}`, i),
					Entrants: []EntrantRecord{{Key: "a", Strategy: "s"}, {Key: "b", Strategy: "t"}}}
				if err := st.OpenRun(ctx, r); err != nil {
					t.Fatal(err)
				}
			}
			runs, err := st.RunsWithPrefix(ctx, prefix)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range runs {
				got = append(got, r.ID)
				if len(r.Entrants) != 2 {
					t.Errorf("run %q: %d entrants, want 2", r.ID, len(r.Entrants))
				}
			}
			slices.Sort(got)
			if want := []string{prefix + "a_b%]", prefix + "seeds:1-9]"}; !slices.Equal(got, want) {
				t.Fatalf("RunsWithPrefix(%q) = %q, want %q", prefix, got, want)
			}
		})
	}
}
