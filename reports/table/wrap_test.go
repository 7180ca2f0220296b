package table

import "testing"

func TestWrapCell(t *testing.T) {
	for _, c := range []struct {
		in    string
		width int
		want  string
	}{
		{"short", 10, "short"},
		{"a,b,c,d,e,f", 4, "a,b,\nc,d,\ne,f"},
		{"abcdefghij", 4, "abcd\nefgh\nij"},
		{"one two three", 7, "one two\nthree"},
		{"héllo wörld", 5, "héllo\nwörld"},
		{"abc,d", 3, "abc\n,d"},
		{"ab,cd ef", 3, "ab,\ncd\nef"},
	} {
		if got := wrapCell(c.in, c.width); got != c.want {
			t.Errorf("wrapCell(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
}
