// Package botlog keeps what an external bot writes to its standard error
// in one game: the first Cap bytes, split by the bot's inputs (a turn is
// what it wrote from one input to the next), and the metadata lines
// "[PDATA] key = value" (psyleague's convention) of the whole stream, past
// the cap too. A bot's stderr is untrusted: a Record's lines are escaped
// (untrusted.Line) and clipped, so that they are safe to show anywhere.
package botlog

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"gauntlet/internal/untrusted"
)

// DefaultCap is the most of a bot's stderr kept per game: 64 KiB, as much
// as a pipe holds. What comes after is counted, not kept, and the log says
// where it was cut.
const DefaultCap = 64 << 10

// maxLine clips one line of a Record (its escaped form).
const maxLine = 4096

// Log keeps one bot's stderr in one game. It is an io.Writer (the bot's
// stderr reader writes to it) and a turn marker: NextTurn is called when
// the bot is sent an input, once what it wrote before has been written.
// It is safe for concurrent use.
type Log struct {
	mu    sync.Mutex
	buf   []byte
	marks []int32 // len(buf) at each input
	cap   int
	over  int64 // bytes past the cap, not kept
	cut   int   // the turn the cap was reached in
	pdata pdataScanner
}

// New returns a Log that keeps the first cap bytes (cap <= 0: DefaultCap).
func New(cap int) *Log {
	if cap <= 0 {
		cap = DefaultCap
	}
	return &Log{cap: cap}
}

// Write keeps what fits under the cap and reads the PDATA lines of all of
// it; it never fails.
func (l *Log) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pdata.write(p)
	room := l.cap - len(l.buf)
	if len(p) <= room {
		l.buf = append(l.buf, p...)
		return len(p), nil
	}
	if l.over == 0 {
		l.cut = len(l.marks)
	}
	l.buf = append(l.buf, p[:room]...)
	l.over += int64(len(p) - room)
	return len(p), nil
}

// NextTurn marks the start of the bot's next turn: what it writes from now
// on belongs to its next input.
func (l *Log) NextTurn() {
	l.mu.Lock()
	l.marks = append(l.marks, int32(len(l.buf)))
	l.mu.Unlock()
}

// Empty reports whether the bot wrote nothing to stderr.
func (l *Log) Empty() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buf) == 0 && l.over == 0
}

// PData returns the values of the bot's "[PDATA] key = value" lines (the
// last value of a key stands): numbers as float64, other values as
// escaped text. Nil when there were none.
func (l *Log) PData() map[string]any {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.pdata.vals) == 0 {
		return nil
	}
	out := make(map[string]any, len(l.pdata.vals))
	for k, v := range l.pdata.vals {
		out[k] = v
	}
	return out
}

// Record is a kept log in the form it is stored and shown in: escaped
// lines by turn, the cap, and how much was not kept.
type Record struct {
	// Cap is the most bytes kept (DefaultCap).
	Cap int `json:"cap"`
	// Over counts the bytes written past the cap, not kept.
	Over int64 `json:"over,omitempty"`
	// Turns holds the lines by turn: Turns[0] what the bot wrote before
	// its first input, Turns[k] what it wrote from its k-th input to the
	// next. A line cut by the cap ends the turn it was cut in, followed by
	// a line of gauntlet's that says so.
	Turns [][]string `json:"turns"`
}

// Record returns the log as lines by turn, each through untrusted.Line.
func (l *Log) Record() Record {
	l.mu.Lock()
	defer l.mu.Unlock()
	r := Record{Cap: l.cap, Over: l.over, Turns: make([][]string, len(l.marks)+1)}
	lo := 0
	for t := range r.Turns {
		hi := len(l.buf)
		if t < len(l.marks) {
			hi = int(l.marks[t])
		}
		r.Turns[t] = splitLines(l.buf[lo:hi])
		lo = hi
	}
	if l.over > 0 {
		r.Turns[l.cut] = append(r.Turns[l.cut], CutNote(l.cap, l.over))
	}
	// Turns after the last one with lines add nothing.
	n := len(r.Turns)
	for n > 1 && len(r.Turns[n-1]) == 0 {
		n--
	}
	r.Turns = r.Turns[:n]
	return r
}

// CutNote is the line that says where a log was cut: "[gauntlet] stderr
// cut here at its cap of 65,536 bytes a game; 1,234 more bytes not kept".
func CutNote(cap int, over int64) string {
	return fmt.Sprintf("[gauntlet] stderr cut here at its cap of %s bytes a game; %s more bytes not kept", thousands(int64(cap)), thousands(over))
}

// Lines counts the lines of the record.
func (r *Record) Lines() int {
	n := 0
	for _, t := range r.Turns {
		n += len(t)
	}
	return n
}

// Text writes the record as plain text, each turn after a header
// ("--- input 3 ---"; "--- before the first input ---" for turn 0) when
// the log has more than one turn. Its lines are escaped already.
func (r *Record) Text() string {
	var b strings.Builder
	for t, lines := range r.Turns {
		if len(lines) == 0 {
			continue
		}
		if len(r.Turns) > 1 {
			if t == 0 {
				b.WriteString("--- before the first input ---\n")
			} else {
				fmt.Fprintf(&b, "--- input %d ---\n", t)
			}
		}
		for _, l := range lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// splitLines splits b into escaped, clipped lines without their line ends.
func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	s := strings.TrimSuffix(string(b), "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = clip(untrusted.Line(strings.TrimSuffix(l, "\r")))
	}
	return lines
}

// clip cuts an escaped line longer than maxLine, saying how long it was.
func clip(s string) string {
	if len(s) <= maxLine {
		return s
	}
	cut := maxLine
	for cut > 0 && s[cut]&0xc0 == 0x80 { // not inside a character
		cut--
	}
	return fmt.Sprintf("%s… (a line of %s bytes)", s[:cut], thousands(int64(len(s))))
}

// thousands writes n with a comma every three digits.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
