package botlog

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestTurns: what is written between two marks is one turn; a line split
// over writes is one line; turn 0 is what came before the first input.
func TestTurns(t *testing.T) {
	l := New(0)
	fmt.Fprint(l, "starting\n")
	l.NextTurn()
	fmt.Fprint(l, "turn 1 a\ntur")
	fmt.Fprint(l, "n 1 b\r\n")
	l.NextTurn()
	l.NextTurn()
	fmt.Fprint(l, "turn 3\n")
	l.NextTurn() // nothing after: not a turn of the record
	r := l.Record()
	want := [][]string{{"starting"}, {"turn 1 a", "turn 1 b"}, nil, {"turn 3"}}
	if len(r.Turns) != len(want) {
		t.Fatalf("turns %q, want %q", r.Turns, want)
	}
	for i := range want {
		if !slices.Equal(r.Turns[i], want[i]) {
			t.Errorf("turn %d: %q, want %q", i, r.Turns[i], want[i])
		}
	}
	if r.Lines() != 4 || l.Empty() {
		t.Errorf("%d lines, empty %v", r.Lines(), l.Empty())
	}
	text := r.Text()
	if !strings.Contains(text, "--- before the first input ---\nstarting\n--- input 1 ---\nturn 1 a\n") || strings.Contains(text, "input 2") {
		t.Errorf("text:\n%s", text)
	}
}

// TestCap: past the cap nothing is kept, and the log says where it was
// cut, with the cap and what was not kept; the turns go on being counted.
func TestCap(t *testing.T) {
	l := New(10)
	l.NextTurn()
	fmt.Fprint(l, "0123456789abc\n")
	l.NextTurn()
	fmt.Fprint(l, "more\n")
	r := l.Record()
	if r.Cap != 10 || r.Over != 9 {
		t.Errorf("cap %d over %d, want 10 and 9", r.Cap, r.Over)
	}
	if len(r.Turns) != 2 || len(r.Turns[1]) != 2 || r.Turns[1][0] != "0123456789" || r.Turns[1][1] != CutNote(10, 9) {
		t.Fatalf("turns %q", r.Turns)
	}
	if !strings.Contains(CutNote(65536, 1234), "cap of 65,536 bytes a game; 1,234 more bytes not kept") {
		t.Errorf("note %q", CutNote(65536, 1234))
	}
}

// TestHostileEscaped: terminal escapes, control characters and bytes that
// are not UTF-8 are escaped in a record; markup stays text (the pages set
// it as text); an overlong line is clipped, saying how long it was.
func TestHostileEscaped(t *testing.T) {
	l := New(0)
	fmt.Fprint(l, "\x1b[2J\x1b]0;pwned\x07<script>alert(1)</script>\xff\u202e\n")
	fmt.Fprint(l, strings.Repeat("x", 5000)+"\n")
	r := l.Record()
	got := r.Turns[0][0]
	if strings.ContainsAny(got, "\x1b\x07\u202e") || !strings.Contains(got, `\x1b[2J`) || !strings.Contains(got, `\xff`) {
		t.Errorf("escaped line %q", got)
	}
	if long := r.Turns[0][1]; len(long) > maxLine+64 || !strings.HasSuffix(long, "(a line of 5,000 bytes)") {
		t.Errorf("long line: %d bytes, ends %q", len(long), long[len(long)-30:])
	}
}

// TestPData: "[PDATA] key = value" lines anywhere, split over writes or
// past the cap, become values (numbers as numbers, the last one standing);
// malformed lines, bad keys and keys past the most a bot keeps do not.
func TestPData(t *testing.T) {
	l := New(16)
	fmt.Fprint(l, "[PDATA] nodes = 12\nnoise [PDATA] x = 1\n[PDA")
	fmt.Fprint(l, "TA] depth=7.5\r\n[PDATA] name =  fast one \n[PDATA] bad key = 1\n[PDATA] nokey\n")
	fmt.Fprint(l, "[PDATA] nodes = 99\n[PDATA] esc = \x1b[31m\n[PDATA] inf = +Inf\n")
	fmt.Fprint(l, "[PDATA] long = "+strings.Repeat("y", maxPLine)+"\n")
	got := l.PData()
	want := map[string]any{"nodes": 99.0, "depth": 7.5, "name": "fast one", "esc": `\x1b[31m`, "inf": "+Inf"}
	if len(got) != len(want) {
		t.Fatalf("pdata %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("pdata %s = %#v, want %#v", k, got[k], v)
		}
	}
	m := New(0)
	for i := range maxKeys + 5 {
		fmt.Fprintf(m, "[PDATA] k%d = %d\n", i, i)
	}
	if n := len(m.PData()); n != maxKeys {
		t.Errorf("%d keys kept, want %d", n, maxKeys)
	}
	if New(0).PData() != nil {
		t.Error("a log without PDATA has values")
	}
	if DetailKey(0, "nodes") != "pdata.nodes" || DetailKey(2, "nodes") != "pdata.s2.nodes" || !IsDetailKey("pdata.s2.nodes") {
		t.Error("detail keys")
	}
}

// TestPolicy reads the flag's values and refuses others, naming them.
func TestPolicy(t *testing.T) {
	var p Policy
	if p.String() != "errors" || !p.Capture() {
		t.Errorf("zero policy %v", p)
	}
	for _, s := range []string{"none", "errors", "all"} {
		if err := p.Set(s); err != nil || p.String() != s {
			t.Errorf("Set(%q): %v, %v", s, p, err)
		}
	}
	if err := p.Set("some"); err == nil || !strings.Contains(err.Error(), `"some": want none, errors or all`) {
		t.Errorf("Set(some): %v", err)
	}
	if None.Capture() {
		t.Error("none captures")
	}
}

func BenchmarkLogWrite(b *testing.B) {
	line := []byte("turn 17: searched 123456 nodes, best move BREW 42, eval +3.25\n")
	b.ReportAllocs()
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		l := New(0)
		for range 100 {
			l.NextTurn()
			if _, err := l.Write(line); err != nil {
				b.Fatal(err)
			}
		}
	}
}
