package relay

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"gauntlet/internal/bounded"
	"gauntlet/internal/untrusted"
)

// A game's transcript is bounded: past these caps it stops, and says so.
const (
	// TranscriptLines caps the lines a transcript keeps (every line sent,
	// answered or written to stderr, and every message of the referee).
	TranscriptLines = 10_000
	// TranscriptBytes caps the bytes of those lines.
	TranscriptBytes = 256 << 10
	// transcriptLine caps one line; a longer one is cut, saying how long it
	// was.
	transcriptLine = 4096
	// pendingStderr caps what a process's stderr holds between two looks
	// (the rest is counted, not kept).
	pendingStderr = 64 << 10
)

// Transcript is what gauntlet saw of one game, for people to read: in the
// relayed protocol turn by turn, what each player was sent and answered and
// how fast, with its stderr and the referee's messages; in the direct and
// play protocols, which run the players out of gauntlet's sight, the
// referee's output, stderr and log alone. Every line in it went through
// untrusted.Line: it holds no control character and is valid UTF-8.
type Transcript struct {
	// Protocol is "relayed", "direct" or "play".
	Protocol string `json:"protocol"`
	Seed     int64  `json:"seed"`
	Players  int    `json:"players"`
	// Limits are a relayed player's answer limits and margins, in ms (0:
	// no limit).
	Limits *AnswerLimits `json:"limits,omitempty"`
	// Notes are the referee's messages before the first turn (all of them
	// in a protocol without turns).
	Notes []Note `json:"notes,omitempty"`
	// Turns are the relayed game's answers, in the order asked.
	Turns []Turn `json:"turns,omitempty"`
	// End is the referee's verdict line (relayed: "###End 1 0").
	End string `json:"end,omitempty"`
	// Stderr is, per player, what it wrote to stderr after its last answer
	// (or, when it never answered, at all).
	Stderr [][]string `json:"stderr,omitempty"`
	// Output is the standard output of a direct referee or a play command;
	// Log the log file of a direct referee.
	Output []string `json:"output,omitempty"`
	Log    []string `json:"log,omitempty"`
	// Cut says where and why the transcript stopped short of the game's
	// end ("" when it did not).
	Cut string `json:"cut,omitempty"`
}

// AnswerLimits are a relayed player's limits, in milliseconds.
type AnswerLimits struct {
	FirstTurnMS       float64 `json:"first_turn_ms"`
	FirstTurnMarginMS float64 `json:"first_turn_margin_ms"`
	TurnMS            float64 `json:"turn_ms"`
	MarginMS          float64 `json:"margin_ms"`
}

// Turn is one answer of a relayed player: the input it was sent before it,
// the lines it answered, and what it and the referee wrote meanwhile.
type Turn struct {
	Player int `json:"player"`
	// Answer counts the player's answers: 1 for its first.
	Answer   int      `json:"answer"`
	Sent     []string `json:"sent,omitempty"`
	Answered []string `json:"answered,omitempty"`
	// MS is the answer's time (0 when none came).
	MS float64 `json:"ms,omitempty"`
	// Forfeit is why the player forfeited in this turn ("" when it did not).
	Forfeit string `json:"forfeit,omitempty"`
	// Stderr is what the player wrote to stderr for this answer.
	Stderr []string `json:"stderr,omitempty"`
	// Referee holds the referee's messages after this turn began, up to the
	// next turn.
	Referee []Note `json:"referee,omitempty"`
}

// Note is a message of the referee: a line of its standard output that is
// not the protocol's ("stdout"), an ###Error line ("error", with the
// player's index first as the referee wrote it), or lines of its stderr
// ("stderr").
type Note struct {
	From  string   `json:"from"`
	Lines []string `json:"lines"`
}

// evKind is what a recorded event is.
type evKind uint8

const (
	evSent      evKind = iota // lines sent to a player
	evAnswer                  // a player's answer (its lines, its time)
	evStderr                  // a player's stderr
	evStderrEnd               // a player's stderr after the game
	evForfeit                 // a player's forfeit (text)
	evRefOut                  // the referee's own output lines
	evRefError                // ###Error lines
	evRefStderr               // the referee's stderr
)

// event is a run of lines of one kind; the lines are recorder.lines[lo:hi].
type event struct {
	kind   evKind
	player int
	lo, hi int
	took   time.Duration
	text   string
}

// recorder records a game's transcript as it is played: lines in one slice
// and events pointing into it, so that the relay's turn allocates nothing
// past the slices' growth. Its methods run on the game's goroutine; the
// captures of stderr are written by the processes' readers.
type recorder struct {
	t       Transcript
	lines   []string
	events  []event
	size    int
	full    bool
	players []*capture
	referee *capture
	pd      *pdata // the players' [PDATA] lines
}

func newRecorder(protocol string, seed int64, players int) *recorder {
	r := &recorder{t: Transcript{Protocol: protocol, Seed: seed, Players: players}, referee: &capture{}, pd: newPData(players)}
	r.players = make([]*capture, players)
	for i := range r.players {
		r.players[i] = &capture{}
	}
	return r
}

// withLimits records a relayed game's answer limits.
func (r *recorder) withLimits(l Limits) {
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	r.t.Limits = &AnswerLimits{FirstTurnMS: ms(l.FirstTurn), FirstTurnMarginMS: ms(l.FirstTurnMargin), TurnMS: ms(l.Turn), MarginMS: ms(l.Margin)}
	if l.FirstTurn == 0 {
		r.t.Limits.FirstTurnMS, r.t.Limits.FirstTurnMarginMS = r.t.Limits.TurnMS, r.t.Limits.MarginMS
	}
}

// stderrTo is the writer of a process's stderr: its capture c, and log.
func stderrTo(c *capture, log io.Writer) io.Writer {
	if log == nil {
		return c
	}
	return io.MultiWriter(c, log)
}

// begin starts an event; merge continues the last one when it is of the
// same kind and player.
func (r *recorder) begin(kind evKind, player int, merge bool) bool {
	if r.full {
		return false
	}
	if n := len(r.events); merge && n > 0 && r.events[n-1].kind == kind && r.events[n-1].player == player && r.events[n-1].hi == len(r.lines) {
		return true
	}
	if !r.room(0) {
		return false
	}
	r.events = append(r.events, event{kind: kind, player: player, lo: len(r.lines), hi: len(r.lines)})
	return true
}

// room reports whether a line of n bytes fits (an event counts as a line);
// the first time one does not, the transcript is full.
func (r *recorder) room(n int) bool {
	if r.full {
		return false
	}
	if len(r.lines)+len(r.events)+1 > TranscriptLines || r.size+n > TranscriptBytes {
		r.full = true
		r.t.Cut = fmt.Sprintf("the transcript stops here, at its cap of %d lines or %s (the game went on: its verdict is the referee's)",
			TranscriptLines, bounded.Size(TranscriptBytes))
		for _, c := range append(r.players, r.referee) {
			c.stop()
		}
		return false
	}
	return true
}

// line adds a line to the current event.
func (r *recorder) line(s string) {
	if r.full || len(r.events) == 0 {
		return
	}
	if len(s) > transcriptLine {
		s = fmt.Sprintf("%s… (a line of %d bytes)", s[:transcriptLine], len(s))
	}
	s = untrusted.Line(s)
	if !r.room(len(s)) {
		return
	}
	r.size += len(s)
	r.lines = append(r.lines, s)
	r.events[len(r.events)-1].hi = len(r.lines)
}

// add records lines as an event of their own (merged with the last one of
// the same kind).
func (r *recorder) add(kind evKind, player int, lines ...string) {
	if len(lines) == 0 || !r.begin(kind, player, true) {
		return
	}
	for _, l := range lines {
		r.line(l)
	}
}

// sent records a line sent to player i.
func (r *recorder) sent(i int, line string) {
	if r.begin(evSent, i, true) {
		r.line(line)
	}
}

// answer starts player i's answer; its lines follow with line.
func (r *recorder) answer(i int) { r.begin(evAnswer, i, false) }

// took records the time of player i's answer being recorded.
func (r *recorder) took(i int, d time.Duration) {
	if n := len(r.events); !r.full && n > 0 && r.events[n-1].kind == evAnswer && r.events[n-1].player == i {
		r.events[n-1].took = d
	}
}

// forfeit records player i's forfeit.
func (r *recorder) forfeit(i int, why string) {
	if r.begin(evForfeit, i, false) {
		r.events[len(r.events)-1].text = untrusted.Line(why)
	}
}

// drain records what player i wrote to stderr since the last look.
func (r *recorder) drain(i int, kind evKind) {
	lines := r.players[i].take(kind == evStderrEnd)
	r.pd.add(i, lines)
	r.add(kind, i, lines...)
}

// drainReferee records what the referee wrote to stderr since the last
// look.
func (r *recorder) drainReferee(final bool) {
	r.add(evRefStderr, -1, r.referee.take(final)...)
}

// end records the referee's verdict line.
func (r *recorder) end(line string) { r.t.End = untrusted.Line(clip(line)) }

// output records the referee's standard output (direct, play).
func (r *recorder) output(out []byte) {
	r.add(evRefOut, -1, splitLines(out)...)
}

// log records a direct referee's log file, as much of it as fits.
func (r *recorder) log(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	data, err := io.ReadAll(io.LimitReader(f, TranscriptBytes+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	more := len(data) > TranscriptBytes
	data = data[:min(len(data), TranscriptBytes)]
	lines := splitLines(data)
	if more {
		lines = append(lines, "… (the log goes on)")
	}
	r.t.Log = make([]string, 0, len(lines))
	for _, l := range lines {
		l = untrusted.Line(clip(l))
		if !r.room(len(l)) {
			break
		}
		r.size += len(l)
		r.t.Log = append(r.t.Log, l)
	}
	return nil
}

func clip(s string) string {
	if len(s) > transcriptLine {
		return fmt.Sprintf("%s… (a line of %d bytes)", s[:transcriptLine], len(s))
	}
	return s
}

// splitLines splits text into lines without their line ends.
func splitLines(b []byte) []string {
	b = bytes.TrimSuffix(b, []byte("\n"))
	if len(b) == 0 {
		return nil
	}
	return strings.Split(string(b), "\n")
}

// transcript groups the recorded events into turns.
func (r *recorder) transcript() *Transcript {
	t := r.t
	n := t.Players
	open := make([]int, n) // per player, its turn awaiting an answer (-1: none)
	last := make([]int, n) // per player, its latest turn (-1: none)
	answers := make([]int, n)
	held := make([][]string, n) // stderr before a player's first turn
	for i := range n {
		open[i], last[i] = -1, -1
	}
	cur := -1 // the latest turn: the referee's messages go there
	turn := func(i int) *Turn {
		if open[i] < 0 {
			t.Turns = append(t.Turns, Turn{Player: i, Answer: answers[i] + 1, Stderr: held[i]})
			held[i] = nil
			open[i], last[i] = len(t.Turns)-1, len(t.Turns)-1
		}
		cur = open[i]
		return &t.Turns[open[i]]
	}
	note := func(from string, lines []string) {
		ns := &t.Notes
		if cur >= 0 {
			ns = &t.Turns[cur].Referee
		}
		if k := len(*ns); k > 0 && (*ns)[k-1].From == from {
			(*ns)[k-1].Lines = append((*ns)[k-1].Lines, lines...)
			return
		}
		*ns = append(*ns, Note{From: from, Lines: lines})
	}
	for _, e := range r.events {
		lines := r.lines[e.lo:e.hi:e.hi]
		switch e.kind {
		case evSent:
			tn := turn(e.player)
			tn.Sent = append(tn.Sent, lines...)
		case evAnswer:
			tn := turn(e.player)
			tn.Answered, tn.MS = lines, float64(e.took)/float64(time.Millisecond)
			open[e.player] = -1
			answers[e.player]++
		case evForfeit:
			if last[e.player] < 0 {
				turn(e.player)
			}
			t.Turns[last[e.player]].Forfeit = e.text
		case evStderr:
			if last[e.player] < 0 {
				held[e.player] = append(held[e.player], lines...)
				continue
			}
			tn := &t.Turns[last[e.player]]
			tn.Stderr = append(tn.Stderr, lines...)
		case evStderrEnd:
			if t.Stderr == nil {
				t.Stderr = make([][]string, n)
			}
			t.Stderr[e.player] = append(append(t.Stderr[e.player], held[e.player]...), lines...)
			held[e.player] = nil
		case evRefOut:
			if t.Protocol == "relayed" {
				note("stdout", lines)
			} else {
				t.Output = append(t.Output, lines...)
			}
		case evRefError:
			note("error", lines)
		case evRefStderr:
			note("stderr", lines)
		}
	}
	if r.full && t.Protocol == "relayed" {
		t.Cut = fmt.Sprintf("after %d turns, %s", len(t.Turns), t.Cut)
	}
	return &t
}

// capture keeps what a process writes to stderr, as lines, until the game
// takes them; at most pendingStderr bytes at a time (the rest counted).
type capture struct {
	mu      sync.Mutex
	partial []byte
	lines   []string
	kept    int
	dropped int
	off     bool
}

// Write keeps p's lines; it never fails.
func (c *capture) Write(p []byte) (int, error) {
	n := len(p)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.off {
		return n, nil
	}
	for len(p) > 0 {
		nl := bytes.IndexByte(p, '\n')
		chunk := p
		if nl >= 0 {
			chunk = p[:nl]
		}
		room := max(0, pendingStderr-c.kept)
		take := min(len(chunk), room)
		c.partial = append(c.partial, chunk[:take]...)
		c.kept += take
		c.dropped += len(chunk) - take
		if nl < 0 {
			break
		}
		c.lines = append(c.lines, string(c.partial))
		c.partial = c.partial[:0]
		p = p[nl+1:]
	}
	return n, nil
}

// take returns the lines written since the last take (final: the last,
// unfinished one too), with a line counting what did not fit.
func (c *capture) take(final bool) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.lines
	if final && len(c.partial) > 0 {
		out = append(out, string(c.partial))
		c.partial = c.partial[:0]
	}
	if c.dropped > 0 {
		out = append(out, fmt.Sprintf("… (%d more bytes of stderr not kept)", c.dropped))
		c.dropped = 0
	}
	c.lines, c.kept = nil, len(c.partial)
	return out
}

// stop keeps nothing more (the transcript is full).
func (c *capture) stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.off, c.lines, c.partial = true, nil, nil
}
