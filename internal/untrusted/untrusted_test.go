package untrusted

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostile is what a bot may write: a terminal title and a screen clear,
// NUL, a byte that is not UTF-8, a line break, a tab, DEL, a C1 CSI and a
// right-to-left override, between text that must stay as it is.
const hostile = "boom\x1b]0;PWNED\a\x1b[2J|x\x00y\xff\nz\tq\x7f\u009b\u202eevil ü ± “ok” \\ \""

func TestLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"plain text, ü ± × … −", "plain text, ü ± × … −"},
		{`already "quoted \x1b" text`, `already "quoted \x1b" text`},
		{"\x1b[2J", `\x1b[2J`},
		{"a\nb\tc\r", `a\nb\tc\r`},
		{"nul\x00", `nul\x00`},
		{"bad\xff\xfe", `bad\xff\xfe`},
		{"cut \xe2\x82", `cut \xe2\x82`},
		{"del\x7f c1\u0085\u009b", `del\x7f c1\u0085\u009b`},
		{"bidi\u202e\u2066\u200f", `bidi\u202e\u2066\u200f`},
		{"sep\u2028nbsp\u00a0", `sep\u2028nbsp\u00a0`},
		{"replacement \ufffd stays", "replacement \ufffd stays"},
		{hostile, `boom\x1b]0;PWNED\a\x1b[2J|x\x00y\xff\nz\tq\x7f\u009b\u202eevil ü ± “ok” \ "`},
	} {
		if got := Line(c.in); got != c.want {
			t.Errorf("Line(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestText(t *testing.T) {
	got := Text("line 1\n\tline 2: \x1b[2J\r\x00\xff\u202e")
	want := "line 1\n\tline 2: \\x1b[2J\\r\\x00\\xff\\u202e"
	if got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
}

// TestNothingRawLeft: whatever the input, the result is valid UTF-8 and
// holds no character that a terminal acts on.
func TestNothingRawLeft(t *testing.T) {
	var all strings.Builder
	for r := rune(0); r < 0x3000; r++ {
		all.WriteRune(r)
	}
	for b := 0x80; b < 0x100; b++ {
		all.WriteByte(byte(b))
	}
	for _, f := range []func(string) string{Line, Text} {
		out := f(all.String())
		if !utf8.ValidString(out) {
			t.Fatalf("result is not UTF-8")
		}
		for _, r := range out {
			if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || 0x80 <= r && r < 0xa0 || r >= 0x2000 && r <= 0x200f || r >= 0x2028 && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
				t.Fatalf("%U left raw", r)
			}
		}
	}
	if strings.ContainsAny(Line(all.String()), "\n\t") {
		t.Errorf("Line left a newline or a tab")
	}
}

func TestSafeTextNotCopied(t *testing.T) {
	s := "nothing to escape: ü ± ×"
	if n := testing.AllocsPerRun(100, func() { _ = Line(s) }); n != 0 {
		t.Errorf("Line of safe text allocated %v times", n)
	}
}

func FuzzLine(f *testing.F) {
	f.Add(hostile)
	f.Fuzz(func(t *testing.T, s string) {
		out := Line(s)
		if !utf8.ValidString(out) || strings.ContainsFunc(out, func(r rune) bool { return !safe(r, false) }) {
			t.Errorf("Line(%q) = %q holds an unsafe character", s, out)
		}
		if Line(out) != out {
			t.Errorf("Line(%q) = %q is not left as it is by a second Line", s, out)
		}
	})
}

func ExampleLine() {
	fmt.Println(Line("crashed; stderr: \x1b]0;PWNED\a\x1b[2Jboom\n\xff"))
	// Output: crashed; stderr: \x1b]0;PWNED\a\x1b[2Jboom\n\xff
}

func TestLastLines(t *testing.T) {
	got := LastLines("one\ntwo\r\n\x1b[2Jthree\nfour", 3)
	if want := `two | \x1b[2Jthree | four`; got != want {
		t.Errorf("LastLines = %q, want %q", got, want)
	}
	if got := LastLines("only", 3); got != "only" {
		t.Errorf("LastLines of one line = %q", got)
	}
}
