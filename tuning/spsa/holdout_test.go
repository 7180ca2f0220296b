package spsa

import "testing"

func TestHoldoutOf(t *testing.T) {
	for _, c := range []struct {
		study, run, cases string
		ok                bool
	}{
		{"s", HoldoutRun("s", "seeds:101-200"), "seeds:101-200", true},
		{"s", HoldoutRun("s", "seed:3,5"), "seed:3,5", true},
		{"s/holdout[a]", HoldoutRun("s/holdout[a]", "b"), "b", true},
		{"s", HoldoutRun("s/holdout[a]", "b"), "", false}, // a hold-out of another study
		{"s", "s/holdout[]", "", false},
		{"s", "s/holdout[a", "", false},
		{"s", "t/holdout[a]", "", false},
		{"s", "s2/holdout[a]", "", false},
		{"s", "ab-brew-0123456789ab", "", false},
		{"s", "s/holdout[a]/base", "", false}, // one of tune's hold-out studies
	} {
		cases, ok := holdoutOf(c.study, c.run)
		if ok != c.ok || cases != c.cases {
			t.Errorf("holdoutOf(%q, %q) = %q, %v; want %q, %v", c.study, c.run, cases, ok, c.cases, c.ok)
		}
	}
}
