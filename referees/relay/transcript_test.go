package relay

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The transcript of a relayed race, seed 1 (target 6): player 0 steps 3
// and talks on stderr; player 1 answers markup with a terminal escape at
// its first turn (the referee says so with ###Error) and steps 1 after.
// Both players are sent "6 POS" each round; player 0 arrives in round 2.
func TestRelayedTranscript(t *testing.T) {
	res, err := relayed(t, "--chatty", 1, bots("3 --talk", "1 --html"), cg)
	if err != nil {
		t.Fatal(err)
	}
	tr := res.Transcript
	if tr == nil {
		t.Fatal("no transcript")
	}
	if tr.Protocol != "relayed" || tr.Seed != 1 || tr.Players != 2 || tr.End != "###End 0 1" || tr.Cut != "" {
		t.Errorf("transcript %+v", tr)
	}
	if tr.Limits == nil || tr.Limits.FirstTurnMS != 1000 || tr.Limits.MarginMS != 30 {
		t.Errorf("limits %+v", tr.Limits)
	}
	const html = `<script>alert(1)</script>&amp;\x1b[2J`
	want := []Turn{
		{Player: 0, Answer: 1, Sent: []string{"6 0"}, Answered: []string{"3"}},
		{Player: 1, Answer: 1, Sent: []string{"6 0"}, Answered: []string{html}},
		{Player: 0, Answer: 2, Sent: []string{"6 3"}, Answered: []string{"3"}},
		{Player: 1, Answer: 2, Sent: []string{"6 0"}, Answered: []string{"1"}},
	}
	if len(tr.Turns) != len(want) {
		t.Fatalf("%d turns, want %d: %+v", len(tr.Turns), len(want), tr.Turns)
	}
	for k, w := range want {
		got := tr.Turns[k]
		if got.Player != w.Player || got.Answer != w.Answer || !slices.Equal(got.Sent, w.Sent) || !slices.Equal(got.Answered, w.Answered) {
			t.Errorf("turn %d: player %d answer %d sent %q answered %q; want %+v", k, got.Player, got.Answer, got.Sent, got.Answered, w)
		}
		// An answer that was there when the input's write ended takes 0 ms
		// (a loaded machine can deschedule the relay between the two).
		if got.MS < 0 || got.Forfeit != "" {
			t.Errorf("turn %d: %v ms, forfeit %q", k, got.MS, got.Forfeit)
		}
	}
	// The referee's messages: its line before the first input, then each
	// turn's after the turn that precedes them (its stderr may come before
	// its stdout, which it buffers).
	if len(tr.Notes) == 0 || tr.Notes[0].From != "stdout" || !slices.Equal(tr.Notes[0].Lines, []string{"referee: turn 1"}) {
		t.Errorf("notes before the first turn: %+v", tr.Notes)
	}
	var errs, outs, ref []string
	for _, tn := range tr.Turns {
		for _, n := range tn.Referee {
			switch n.From {
			case "error":
				errs = append(errs, n.Lines...)
			case "stdout":
				outs = append(outs, n.Lines...)
			}
		}
	}
	notes := slices.Clone(tr.Notes)
	for _, tn := range tr.Turns {
		notes = append(notes, tn.Referee...)
	}
	for _, n := range notes {
		if n.From == "stderr" {
			ref = append(ref, n.Lines...)
		}
	}
	if want := []string{`1 bad answer '<script>alert(1)</script>&amp;\x1b[2J'`}; !slices.Equal(errs, want) {
		t.Errorf("###Error notes %q, want %q", errs, want)
	}
	if i := slices.IndexFunc(tr.Turns[1].Referee, func(n Note) bool { return n.From == "error" }); i < 0 || !slices.Equal(tr.Turns[1].Referee[i].Lines, errs) {
		t.Errorf("the ###Error about player 1's first answer is not under it: %+v", tr.Turns[1].Referee)
	}
	if !slices.Equal(outs, []string{"referee: turn 2"}) {
		t.Errorf("the referee's own lines after turn 1: %q", outs)
	}
	if !slices.Contains(ref, "referee debug: turn 1") || !slices.Contains(ref, "referee debug: turn 2") {
		t.Errorf("the referee's stderr: %q", ref)
	}
	// Player 0's stderr: its first turn's under that turn (looked at
	// again before its next input), every line once, in order.
	if !slices.Equal(tr.Turns[0].Stderr, []string{"bot: turn 1 at 0"}) {
		t.Errorf("player 0's first turn's stderr: %q", tr.Turns[0].Stderr)
	}
	all := append(slices.Clone(tr.Turns[0].Stderr), tr.Turns[2].Stderr...)
	if tr.Stderr != nil {
		all = append(all, tr.Stderr[0]...)
	}
	if want := []string{"bot: turn 1 at 0", "bot: turn 2 at 3"}; !slices.Equal(all, want) {
		t.Errorf("player 0's stderr %q, want %q", all, want)
	}
	if len(tr.Turns[1].Stderr)+len(tr.Turns[3].Stderr) != 0 {
		t.Errorf("player 1 wrote no stderr, the transcript has %q %q", tr.Turns[1].Stderr, tr.Turns[3].Stderr)
	}
}

// A player's forfeit is in the turn it happened, with the stderr it wrote.
func TestRelayedTranscriptForfeit(t *testing.T) {
	res, err := relayed(t, "", 6, bots("1", "3 --crash"), cg)
	if err != nil {
		t.Fatal(err)
	}
	tr := res.Transcript
	last := tr.Turns[len(tr.Turns)-1]
	if last.Player != 1 || last.Answer != 2 || !strings.HasPrefix(last.Forfeit, "crashed in turn 2") {
		t.Fatalf("last turn %+v, want player 1's crash in its answer 2", last)
	}
	if !slices.Contains(last.Stderr, "bot: crashing") {
		t.Errorf("the crash's stderr is not in its turn: %+v (after the game: %q)", last, tr.Stderr)
	}
}

// A late answer's forfeit is in the turn it answered, with the answer's
// time.
func TestRelayedTranscriptLateAnswer(t *testing.T) {
	lim := Limits{FirstTurn: time.Second, FirstTurnMargin: 750 * time.Millisecond, Turn: 400 * time.Millisecond, Margin: 100 * time.Millisecond, Game: time.Minute}
	res, err := relayed(t, "", 6, bots("1", "3 --late"), lim)
	if err != nil {
		t.Fatal(err)
	}
	last := res.Transcript.Turns[len(res.Transcript.Turns)-1]
	if last.Player != 1 || last.Answer != 2 || !strings.HasPrefix(last.Forfeit, "timeout in turn 2: ") {
		t.Fatalf("last turn %+v, want player 1's timeout in its answer 2", last)
	}
	// A machine loaded past the late window turns the late answer into none.
	if strings.Contains(last.Forfeit, "answered after") && last.MS <= 500 {
		t.Errorf("the late answer's time is %.0f ms in the transcript, want over 500 (%s)", last.MS, last.Forfeit)
	}
}

// A game longer than the transcript's caps is played to its end; its
// transcript stops at the cap and says so.
func TestRelayedTranscriptCap(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	rounds := TranscriptLines / 2
	referee := []string{"env", "RELAY_TEST_ROLE=referee", "RELAY_TEST_ROUNDS=" + strconv.Itoa(rounds), self, "-test.run=^$"}
	bot := Player{Argv: []string{self, "-test.run=^$"}, Env: []string{"RELAY_TEST_ROLE=bot"}}
	res, err := Relayed(context.Background(), referee, 1, []Player{bot, bot}, Limits{Game: time.Minute}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := res.Transcript
	if res.Turns != rounds || res.Forfeit[0] != "" {
		t.Fatalf("%d turns, forfeits %q: want the whole game", res.Turns, res.Forfeit)
	}
	if !strings.Contains(tr.Cut, "at its cap of 10000 lines or 256 KiB") || len(tr.Turns) >= 2*rounds || len(tr.Turns) == 0 {
		t.Errorf("%d turns kept of %d, cut %q", len(tr.Turns), 2*rounds, tr.Cut)
	}
	if !strings.HasPrefix(tr.Cut, "after "+strconv.Itoa(len(tr.Turns))+" turns") {
		t.Errorf("cut %q does not say where", tr.Cut)
	}
	if tr.End == "" {
		t.Error("the verdict is not kept past the cap")
	}
}

// The byte cap and the cap on a line hold whatever the lines; what is kept
// is valid UTF-8 without control characters.
func TestRecorderCaps(t *testing.T) {
	r := newRecorder("relayed", 1, 1)
	long := strings.Repeat("x", 3*transcriptLine) + "\x00\xff"
	for range TranscriptBytes / transcriptLine * 2 {
		r.sent(0, long)
		r.answer(0)
		r.line("ok\x1b[2J")
	}
	tr := r.transcript()
	if tr.Cut == "" || r.size > TranscriptBytes {
		t.Fatalf("cut %q, %d bytes kept", tr.Cut, r.size)
	}
	first := tr.Turns[0]
	if !strings.HasSuffix(first.Sent[0], "… (a line of 12290 bytes)") || len(first.Sent[0]) > transcriptLine+40 {
		t.Errorf("a long line is kept as %d bytes ending %q", len(first.Sent[0]), first.Sent[0][len(first.Sent[0])-30:])
	}
	if first.Answered[0] != `ok\x1b[2J` {
		t.Errorf("answer %q, want its escape shown", first.Answered[0])
	}
}

// A process's stderr is kept in lines, bounded between two looks.
func TestCaptureBounds(t *testing.T) {
	var c capture
	if n, err := c.Write([]byte("a\nb")); n != 3 || err != nil {
		t.Fatalf("Write: %d, %v", n, err)
	}
	if got := c.take(false); !slices.Equal(got, []string{"a"}) {
		t.Errorf("take %q", got)
	}
	if _, err := c.Write([]byte("c\n" + strings.Repeat("y", 2*pendingStderr) + "\n")); err != nil {
		t.Fatal(err)
	}
	got := c.take(true)
	if len(got) != 3 || got[0] != "bc" || len(got[1]) > pendingStderr || !strings.Contains(got[2], "more bytes of stderr not kept") {
		t.Errorf("take: %d lines, %q ... %q", len(got), got[0], got[len(got)-1])
	}
}

// Direct and play transcripts hold the referee's output, stderr and log.
func TestDirectAndPlayTranscripts(t *testing.T) {
	need(t, "python3", "sh")
	res, err := Direct(context.Background(), []string{"python3", "testdata/direct.py"}, DirectArgs(2), 4, bots("3", "2"), cg, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := res.Transcript
	if tr.Protocol != "direct" || !slices.Equal(tr.Output, []string{"3", "2", "a summary line the protocol ignores"}) ||
		!slices.Equal(tr.Log, []string{`{"seed": 4}`}) || len(tr.Turns) != 0 {
		t.Errorf("direct transcript %+v", tr)
	}
	res, err = Play(context.Background(), []string{"sh", "-c", `echo "playing <b>" >&2; echo '{"ranks": [1, 0]}'`, "sh"}, nil, 3, bots("1", "1"), cg, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr = res.Transcript
	if tr.Protocol != "play" || !slices.Equal(tr.Output, []string{`{"ranks": [1, 0]}`}) || len(tr.Notes) != 1 ||
		!slices.Equal(tr.Notes[0].Lines, []string{"playing <b>"}) || tr.Notes[0].From != "stderr" {
		t.Errorf("play transcript %+v", tr)
	}
}
