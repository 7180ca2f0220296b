package tuning

import "testing"

func TestSharedCases(t *testing.T) {
	for _, c := range []struct {
		studied, held []string
		n             int
		first         string
	}{
		{[]string{"seed:1", "seed:2", "seed:3"}, []string{"seed:3", "seed:4", "seed:3", "seed:1"}, 2, "seed:3"},
		{[]string{"seed:1", "seed:1"}, []string{"seed:2"}, 0, ""},
		{nil, []string{"seed:2"}, 0, ""},
	} {
		if n, first := SharedCases(c.studied, c.held); n != c.n || first != c.first {
			t.Errorf("SharedCases(%v, %v) = %d, %q; want %d, %q", c.studied, c.held, n, first, c.n, c.first)
		}
	}
}

// TestParseHoldout: HoldoutName's names, with a leaf (tune's) and without
// (spsa's), are read back; a hold-out of a hold-out keeps the rest of its
// name as its leaf, and other names are not the study's.
func TestParseHoldout(t *testing.T) {
	for _, c := range []struct {
		study, name string
		cases, leaf string
		ok          bool
	}{
		{"s", "s/holdout[seeds:1-9]", "seeds:1-9", "", true},
		{"s", "s/holdout[seeds:1-9]/base", "seeds:1-9", "base", true},
		{"s", "s/holdout[a]/holdout[b]", "a", "holdout[b]", true},
		{"s/holdout[a]", "s/holdout[a]/holdout[b]", "b", "", true},
		{"s", "s/holdout[]", "", "", false},
		{"s", "s/holdout[]/base", "", "", false},
		{"s", "s/holdout[a", "", "", false},
		{"s", "s2/holdout[a]", "", "", false},
		{"s", "s", "", "", false},
	} {
		cases, leaf, ok := ParseHoldout(c.study, c.name)
		if ok != c.ok || cases != c.cases || leaf != c.leaf {
			t.Errorf("ParseHoldout(%q, %q) = %q, %q, %v; want %q, %q, %v", c.study, c.name, cases, leaf, ok, c.cases, c.leaf, c.ok)
		}
		if c.ok {
			if name := HoldoutName(c.study, c.cases, c.leaf); name != c.name {
				t.Errorf("HoldoutName(%q, %q, %q) = %q; ParseHoldout read %q", c.study, c.cases, c.leaf, name, c.name)
			}
		}
	}
}

// TestHoldoutOf: the names tune --holdout gives its two studies
// (holdoutName) are read back as the study's hold-out; other studies, and
// the hold-outs of a hold-out study, are not.
func TestHoldoutOf(t *testing.T) {
	for _, c := range []struct {
		study, name string
		cases       string
		trial       int
		ok          bool
	}{
		{"s", "s/holdout[seeds:1-9]/base", "seeds:1-9", -1, true},
		{"s", "s/holdout[seeds:1-9]/trial-12", "seeds:1-9", 12, true},
		{"a/b", "a/b/holdout[p1/s0]/trial-0", "p1/s0", 0, true},
		{"s", "s", "", 0, false},
		{"s", "s2/holdout[x]/base", "", 0, false},
		{"s", "s/holdout[x]/best", "", 0, false},
		{"s", "s/holdout[x]/trial-", "", 0, false},
		{"s", "s/holdout[x]/trial--1", "", 0, false},
		{"s", "s/holdout[x]/trial-07", "", 0, false},
		{"s", "s/holdout[x", "", 0, false},
		{"s", "s/holdout[x]/base/holdout[y]/base", "", 0, false},
		{"s", "s/holdout[x]/trial-3/holdout[y]/trial-4", "", 0, false},
		{"s/holdout[x]/base", "s/holdout[x]/base/holdout[y]/trial-4", "y", 4, true},
	} {
		cases, trial, ok := holdoutOf(c.study, c.name)
		if ok != c.ok || cases != c.cases || (ok && trial != c.trial) {
			t.Errorf("holdoutOf(%q, %q) = %q, %d, %v; want %q, %d, %v", c.study, c.name, cases, trial, ok, c.cases, c.trial, c.ok)
		}
		if c.ok {
			if name := holdoutName(c.study, c.cases, c.trial); name != c.name {
				t.Errorf("holdoutName(%q, %q, %d) = %q; holdoutOf read %q", c.study, c.cases, c.trial, name, c.name)
			}
		}
	}
}
