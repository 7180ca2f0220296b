package brew

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// The quirks of RULES.md §3, one line each.
func TestParseCommandQuirks(t *testing.T) {
	cast := func(id, times int32) Action { return Action{Kind: Cast, ID: id, Times: times} }
	ok := []struct {
		line   string
		league int
		want   Action
	}{
		{"WAIT", 1, Action{Kind: Wait}},
		{"WAIT\x0bmsg", 3, Action{Kind: Wait}},
		{"wait", 3, Action{Kind: Wait}},
		{"Cast 78", 3, cast(78, 1)},
		{"bReW 42", 1, Action{Kind: Brew, ID: 42}},
		{"REST ", 2, Action{Kind: Rest}},
		{"BREW 42 ", 3, Action{Kind: Brew, ID: 42}},
		{"CAST 79 -1", 3, cast(79, 1)},
		{"CAST 79 2x", 3, cast(79, 1)},
		{"CAST 78 2 3x", 3, cast(78, 2)},
		{"CAST 7 8", 3, cast(7, 8)},
		{"CAST\t7\t8\thello world", 3, cast(7, 8)},
		{"CAST 7 8\n", 3, cast(7, 8)},
		{"BREW 00042", 3, Action{Kind: Brew, ID: 42}},
		{"LEARN 2147483647", 3, Action{Kind: Learn, ID: 2147483647}},
		{"CAST 1 0", 3, cast(1, 0)},
		{"WAIT and a very long message that goes on and on past forty-eight characters", 3, Action{Kind: Wait}},
		{"REST \nnext line", 3, Action{Kind: Rest}},
	}
	for _, c := range ok {
		got, err := ParseCommand(c.line, c.league)
		if err != nil || got != c.want {
			t.Errorf("ParseCommand(%q, %d) = %v, %v; want %v", c.line, c.league, got, err, c.want)
		}
	}
	bad := []struct {
		line   string
		league int
	}{
		{"", 3},
		{" WAIT", 3},
		{"BREW42", 3},
		{"BREW 42abc", 3},
		{"BREW", 3},
		{"RE\u017fT", 3},
		{"WAIT\u0085", 3},
		{"WAIT x\u2028", 3},
		{"BREW 2147483648", 3},
		{"CAST 79 99999999999", 3},
		{"CAST 78", 1},
		{"REST", 1},
		{"LEARN 3", 2},
		{"FOO", 3},
		{"WAITING", 3},
		{"BREW 42 x\ny", 3},
	}
	for _, c := range bad {
		got, err := ParseCommand(c.line, c.league)
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("ParseCommand(%q, %d) = %v, %v; want a *ParseError", c.line, c.league, got, err)
		}
	}
}

func TestActionTextRoundTrip(t *testing.T) {
	for _, a := range []Action{WaitAction(), RestAction(), CastAction(79, 1), CastAction(5, 3), LearnAction(12), BrewAction(42)} {
		got, err := ParseCommand(a.String(), 3)
		if err != nil || got != normalise(a) {
			t.Errorf("%v: parsed back as %v, %v", a, got, err)
		}
	}
}

// normalise gives CAST its explicit count of 1, as the parser does.
func normalise(a Action) Action {
	if a.Kind == Cast && a.Times == 0 {
		a.Times = 1
	}
	return a
}

// FuzzParseCommand: never panics; an accepted line is expressible in its
// league and its canonical text parses back to the same action.
func FuzzParseCommand(f *testing.F) {
	seen := map[string]bool{}
	for _, g := range referenceGamesForFuzz(f) {
		for _, pair := range g.Actions {
			for _, s := range pair {
				if s != nil && !seen[*s] && len(seen) < 500 {
					seen[*s] = true
					f.Add(*s, g.League)
				}
			}
		}
	}
	f.Add("CAST 78 2 3x", 3)
	f.Add("WAIT\x0b", 1)
	f.Fuzz(func(t *testing.T, line string, league int) {
		a, err := ParseCommand(line, league)
		if err != nil {
			return
		}
		lg, lerr := NormalizeLeague(league)
		if lerr != nil {
			lg = MaxLeague
		}
		if !a.Expressible(lg) {
			t.Fatalf("%q (league %d) parsed to %v, which league %d cannot express", line, league, a, lg)
		}
		b, err := ParseCommand(a.String(), league)
		if err != nil || b != a {
			t.Fatalf("%q -> %v -> %q -> %v, %v", line, a, a.String(), b, err)
		}
	})
}

// FuzzParseInput: never panics; an accepted input is within the bounds and
// the bytes consumed lie inside the text.
func FuzzParseInput(f *testing.F) {
	n := 0
	for _, g := range referenceGamesForFuzz(f) {
		for _, pair := range g.Inputs {
			for _, s := range pair {
				if s != nil && n < 200 {
					f.Add([]byte(*s))
					n++
				}
			}
		}
	}
	f.Add([]byte("0\n0 0 0 0 0\n0 0 0 0 0\n"))
	f.Fuzz(func(t *testing.T, text []byte) {
		var v View
		used, err := ParseInput(text, &v)
		if err != nil {
			return
		}
		if used <= 0 || used > len(text) || len(v.Entries) > MaxActionCount {
			t.Fatalf("consumed %d of %d bytes, %d entries", used, len(text), len(v.Entries))
		}
		// Whatever parsed must also be accepted or cleanly refused by the
		// tracker.
		var tr Tracker
		var s State
		if tr.Update(&v, &s) != nil {
			return
		}
		// A state rebuilt from any accepted input is safe to simulate on.
		var buf []Action
		for p := 0; p < Players; p++ {
			buf = s.Legal(p, buf[:0])
			for _, a := range buf {
				c := s
				c.StepOne(p, a)
			}
		}
	})
}

// referenceGamesForFuzz loads the reference games for a seed corpus.
func referenceGamesForFuzz(f *testing.F) []GameRecord {
	return referenceGames(f)
}

// TestParseInputReference parses every reference input and writes it back
// through the tracker: the rebuilt state prints the same text.
func TestParseInputReference(t *testing.T) {
	games := referenceGames(t)
	var v View
	var buf []byte
	checked := 0
	for gi := range games {
		g := &games[gi]
		var tr [Players]Tracker
		for r, pair := range g.Inputs {
			for p, s := range pair {
				if s == nil {
					continue
				}
				used, err := ParseInput([]byte(*s), &v)
				if err != nil {
					t.Fatalf("%s round %d player %d: %v", name(g), r+1, p, err)
				}
				if used != len(*s) {
					t.Fatalf("%s round %d player %d: consumed %d of %d bytes", name(g), r+1, p, used, len(*s))
				}
				var st State
				if err := tr[p].Update(&v, &st); err != nil {
					t.Fatalf("%s round %d player %d: tracker: %v", name(g), r+1, p, err)
				}
				if tr[p].Seat() != p && st.League > 1 {
					t.Fatalf("%s: tracker puts player %d in seat %d", name(g), p, tr[p].Seat())
				}
				buf = st.AppendInput(buf[:0], tr[p].Seat())
				if string(buf) != *s {
					t.Fatalf("%s round %d player %d: rebuilt input differs:\n%s\nwant:\n%s", name(g), r+1, p, buf, *s)
				}
				checked++
			}
		}
	}
	t.Logf("%d reference inputs parsed and rebuilt", checked)
}

func TestParseInputErrors(t *testing.T) {
	good := "1\n42 BREW -2 -2 0 0 9 3 4 0 0\n3 0 0 0 0\n3 0 0 0 0\n"
	var v View
	if _, err := ParseInput([]byte(good), &v); err != nil {
		t.Fatalf("good input: %v", err)
	}
	cases := map[string]string{
		"":                                    "line 1",
		"x\n":                                 "actionCount",
		"101\n":                               "actionCount 101",
		"1\n42 BREW -2 -2 0 0 9 3 4 0\n":      "line 2",
		"1\n42 STIR -2 -2 0 0 9 3 4 0 0\n":    "actionType",
		"1\n42 BREW -2 -2 0 0 9 3 4 0 2\n":    "repeatable",
		strings.TrimSuffix(good, "\n"):        "no newline",
		"0\n3 0 0 0 0\n3 0 0 0 99999999999\n": "score",
	}
	for text, want := range cases {
		_, err := ParseInput([]byte(text), &v)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseInput(%q) = %v; want an error mentioning %q", text, err, want)
		}
	}
}

func TestAppendInputNoAlloc(t *testing.T) {
	s, err := New(5, 3)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 0, 4096)
	allocs := testing.AllocsPerRun(100, func() {
		buf = s.AppendInput(buf[:0], 1)
	})
	if allocs != 0 {
		t.Errorf("AppendInput allocates %.0f times per call", allocs)
	}
	if !bytes.HasSuffix(buf, []byte("\n")) {
		t.Error("input does not end with a newline")
	}
}
