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
