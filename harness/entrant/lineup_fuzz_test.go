package entrant

import (
	"strconv"
	"strings"
	"testing"

	"gauntlet/harness/internal/harnesstest"
)

// FuzzParseLineup feeds ParseLineup line-up text (external commands, whose
// parsing has a target of its own and which would look for programs, left
// out): it never panics; what it accepts is 1 to 64 seats per item, and
// the entrants' labels joined read back as the same line-up; what it
// refuses is an error that quotes a name or an item of the input.
func FuzzParseLineup(f *testing.F) {
	for _, s := range []string{"fixed:skill=2,fixed*3, fixed:skill=7", "fixed", "fixed*64", "fixed*65", "fixed*0",
		"fixed:skill=11", "fixed:skill=x", "fixed:bias=1", "nope", "", ",,", "fixed:skill=2,skill=3", "skill=2",
		"fixed*", "*3", ":0", ":skill=2", "fixed:skill=1*2", " fixed : skill = 4 "} {
		f.Add(s)
	}
	r := harnesstest.DuelRegistry(&harnesstest.Duel{Seats: 6})
	f.Fuzz(func(t *testing.T, spec string) {
		if strings.Contains(spec, "cmd:") {
			return
		}
		l, err := ParseLineup(r, "duel", spec)
		if err != nil {
			if !quotesInput(err.Error(), spec) && !strings.Contains(err.Error(), strconv.Quote(spec)) {
				t.Fatalf("ParseLineup(%q): error %q quotes nothing of the input", spec, err)
			}
			return
		}
		if len(l) == 0 || len(l) > 64*(strings.Count(spec, ",")+1) {
			t.Fatalf("ParseLineup(%q): %d seats", spec, len(l))
		}
		labels := make([]string, len(l))
		for i, e := range l {
			if e == nil || e.Strategy == nil {
				t.Fatalf("ParseLineup(%q): seat %d has no strategy", spec, i)
			}
			labels[i] = e.Label()
		}
		joined := strings.Join(labels, ",")
		back, err := ParseLineup(r, "duel", joined)
		if err != nil {
			t.Fatalf("ParseLineup(%q) = %q, which does not read back: %v", spec, joined, err)
		}
		for i, e := range back {
			if i >= len(labels) || e.Label() != labels[i] {
				t.Fatalf("ParseLineup(%q) = %q, read back as %d seats, seat %d %s", spec, joined, len(back), i, e.Label())
			}
		}
		if len(back) != len(labels) {
			t.Fatalf("ParseLineup(%q) = %q, read back as %d seats", spec, joined, len(back))
		}
	})
}

// quotesInput reports whether msg holds a Go-quoted string made of the
// input (see inInput): the name or item an error is about.
func quotesInput(msg, input string) bool {
	for i := 0; i < len(msg); i++ {
		if msg[i] != '"' {
			continue
		}
		q, err := strconv.QuotedPrefix(msg[i:])
		if err != nil {
			continue
		}
		if s, _ := strconv.Unquote(q); inInput(s, input) {
			return true
		}
		i += len(q) - 1
	}
	return false
}

// inInput reports whether s, an item of a line-up as ParseLineup rebuilds
// it (its comma-separated parts trimmed), is made of parts of input, one
// at least not empty.
func inInput(s, input string) bool {
	some := false
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if !strings.Contains(input, part) {
			return false
		}
		some = true
	}
	return some
}
