package refgame

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/internal/testjson"
	"gauntlet/referees/relay"
	"gauntlet/reports"
)

// played plays seed 1 of game (a --game value) with the given cmd: bots,
// its moves recorded as every run of external bots records them.
func played(t *testing.T, game string, bots ...string) (*Game, contract.Outcome, []string) {
	t.Helper()
	g := resolve(t, game)
	reg := contract.NewRegistry()
	reg.RegisterGame(g)
	players := make([]contract.Player, len(bots))
	for i, b := range bots {
		e, err := entrant.Parse(reg, g.Info().Name, b)
		if err != nil {
			t.Fatal(err)
		}
		if players[i], err = e.Player(1, e.Label()); err != nil {
			t.Fatal(err)
		}
	}
	out, err := g.Play(t.Context(), contract.Case{ID: "seed:1", Seed: 1}, players, contract.PlayOptions{RecordMoves: true})
	if err != nil {
		t.Fatal(err)
	}
	return g, out, bots
}

// raceWithHTML is the relayed race of seed 1 (target 6) between a bot
// stepping 3 that talks on stderr and one that answers markup with a
// terminal escape at its first turn, then steps 1.
func raceWithHTML(t *testing.T) (*Game, contract.Outcome, []string) {
	needPython(t)
	return played(t, "referee:python3 "+testdata+"relayed.py --chatty",
		"cmd:sh "+testdata+"bot.sh 3 --talk", "cmd:sh "+testdata+"bot.sh 1 --html")
}

// The page of a relayed game: a frame for the start, one per turn (the
// lines sent and answered, the player's stderr, the referee's messages),
// one for the verdict; the bots' markup and escapes are text in it.
func TestWatchRelayedTranscript(t *testing.T) {
	g, out, seats := raceWithHTML(t)
	r, err := g.Watch(contract.Case{ID: "seed:1", Seed: 1}, out, seats)
	if err != nil {
		t.Fatal(err)
	}
	turns, ok := r.Frames.([]relay.Turn)
	if !ok || len(turns) != 4 || r.Count != 6 {
		t.Fatalf("frames %T, %d frames: want 4 turns and 6 frames", r.Frames, r.Count)
	}
	if !slices.Equal(turns[1].Answered, []string{`<script>alert(1)</script>&amp;\x1b[2J`}) || !slices.Equal(turns[2].Sent, []string{"6 3"}) {
		t.Errorf("turns %+v", turns)
	}
	if !slices.Equal(turns[0].Stderr, []string{"bot: turn 1 at 0"}) {
		t.Errorf("player 0's first stderr %q", turns[0].Stderr)
	}
	setup := r.Setup.(*transcriptSetup)
	if setup.End != "###End 0 1" || len(setup.Verdict) != 2 || setup.Verdict[0].Rank != 1 || setup.Verdict[1].Answers != 2 ||
		!strings.HasPrefix(setup.About, "Relayed protocol") {
		t.Errorf("setup %+v", setup)
	}
	if !slices.Equal(r.Scores, []float64{1, 0}) {
		t.Errorf("scores %v", r.Scores)
	}
	var page bytes.Buffer
	if err := reports.WriteReplay(&page, r, g.Renderer()); err != nil {
		t.Fatal(err)
	}
	html := page.String()
	if strings.Contains(html, "<script>alert") || strings.Contains(html, "\x1b") {
		t.Error("the bot's markup or escape is in the page as it is")
	}
	if !strings.Contains(html, `\u003cscript\u003ealert(1)\u003c/script\u003e\u0026amp;\\x1b[2J`) {
		t.Error("the bot's answer is not in the page's data, escaped")
	}
	if strings.Contains(html, "http://") || strings.Contains(html, "https://") {
		t.Error("the page loads something from the network")
	}
}

// A stored game's transcript is read back whole; what is not one is an
// error, and a transcript that inflates past its bound is refused.
func TestTranscriptMoves(t *testing.T) {
	tr := &relay.Transcript{Protocol: "relayed", Seed: 3, Players: 2, Turns: []relay.Turn{{Player: 1, Answer: 1, Sent: []string{"a"}, Answered: []string{"b"}, MS: 2}}}
	moves, err := encodeTranscript(tr)
	if err != nil {
		t.Fatal(err)
	}
	back, err := decodeTranscript(moves)
	if err != nil {
		t.Fatal(err)
	}
	if back.Seed != 3 || len(back.Turns) != 1 || back.Turns[0].Answered[0] != "b" {
		t.Errorf("read back %+v", back)
	}
	for _, bad := range []string{`[1, 2]`, `{"transcript_gz": "%%%"}`, `{"transcript_gz": "aGVsbG8="}`, `{}`} {
		if _, err := decodeTranscript(json.RawMessage(bad)); err == nil {
			t.Errorf("moves %s read as a transcript", bad)
		}
	}
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(bytes.Repeat([]byte(" "), maxTranscriptJSON+10)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	bomb := testjson.Marshal(t, storedTranscript{GZ: base64.StdEncoding.EncodeToString(b.Bytes())})
	if _, err := decodeTranscript(bomb); err == nil || !strings.Contains(err.Error(), "larger than 16 MiB") {
		t.Errorf("a transcript inflating past its bound: %v", err)
	}
}

// A stored transcript is untrusted too: its text is escaped again and a
// turn of a player the game does not have is dropped.
func TestWatchCleansAStoredTranscript(t *testing.T) {
	g := resolve(t, "referee:sh -c true")
	tr := &relay.Transcript{Protocol: "relayed", Players: 2, End: "###End 0 1\x1b", Cut: "after 1 turns, at its cap",
		Turns: []relay.Turn{{Player: 0, Answer: 1, Answered: []string{"\x1b]0;x\a"}}, {Player: 7, Answer: 1}}}
	moves, err := encodeTranscript(tr)
	if err != nil {
		t.Fatal(err)
	}
	out := contract.Outcome{Seats: []contract.SeatResult{{Rank: 1, Score: 1}, {Rank: 2, Forfeit: "late\x00"}}, Moves: moves}
	r, err := g.Watch(contract.Case{ID: "seed:1"}, out, []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	turns := r.Frames.([]relay.Turn)
	setup := r.Setup.(*transcriptSetup)
	if len(turns) != 1 || turns[0].Answered[0] != `\x1b]0;x\a` || setup.End != `###End 0 1\x1b` || setup.Verdict[1].Forfeit != `late\x00` ||
		setup.Cut != tr.Cut {
		t.Errorf("turns %+v, end %q, verdict %+v", turns, setup.End, setup.Verdict)
	}
	out.Moves = nil
	if _, err := g.Watch(contract.Case{ID: "seed:1"}, out, []string{"a", "b"}); err == nil || !strings.Contains(err.Error(), "no transcript") {
		t.Errorf("a game without moves: %v", err)
	}
}

// A play command's page says that gauntlet saw no turns, and shows what it
// knows: the command's output, stderr and data.
func TestWatchPlayTranscript(t *testing.T) {
	path := writeFile(t, `{"name": "pl", "protocol": "play", "referee": "sh judge.sh"}`)
	script := `echo "judging <i>" >&2; echo '{"ranks": [1, 0], "test_data": {"len": 4}}'`
	if err := os.WriteFile(filepath.Join(filepath.Dir(path), "judge.sh"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Dir(path))
	g, out, seats := played(t, path, "cmd:true", "cmd:true")
	r, err := g.Watch(contract.Case{ID: "seed:1"}, out, seats)
	if err != nil {
		t.Fatal(err)
	}
	setup := r.Setup.(*transcriptSetup)
	if r.Count != 1 || !strings.Contains(setup.About, "gauntlet saw no turns") || len(setup.Output) != 1 ||
		len(setup.Notes) != 1 || setup.Notes[0].Lines[0] != "judging <i>" || !slices.Equal(setup.Data, []string{`test.len = 4`}) {
		t.Errorf("%d frames, setup %+v", r.Count, setup)
	}
}

// The page in headless Chromium: every turn's lines are shown as text, the
// bot's markup included (it makes no element), and #frame=last shows the
// verdict with the final scores.
func TestTranscriptInChromium(t *testing.T) {
	browser := reports.FindChromium()
	if browser == "" {
		t.Skip("no Chromium found (set GAUNTLET_TEST_CHROMIUM)")
	}
	g, out, seats := raceWithHTML(t)
	r, err := g.Watch(contract.Case{ID: "seed:1", Seed: 1}, out, seats)
	if err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(t.TempDir(), "race.html")
	if err := reports.WriteReplayFile(page, r, g.Renderer()); err != nil {
		t.Fatal(err)
	}
	dom, err := reports.DumpDOM(context.Background(), browser, page, "frame=last")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(dom, `data-viewer-ready="1"`) || !strings.Contains(dom, `data-frame="5"`) {
		if len(dom) > 3000 {
			dom = dom[:3000]
		}
		t.Fatalf("the page did not show its last frame:\n%s", dom)
	}
	for _, want := range []string{
		"turn 2 · player 1 (cmd:sh " + testdata + "bot.sh 1 --html) · answer 1",
		"&lt;script&gt;alert(1)&lt;/script&gt;&amp;amp;\\x1b[2J",
		"bot: turn 1 at 0", "referee: turn 2", "referee debug: turn 1", "###End 0 1",
		`class="tx-entry tx-verdict tx-current"`,
	} {
		if !strings.Contains(dom, want) {
			t.Errorf("the page does not show %q", want)
		}
	}
	if strings.Count(dom, "<script") != 3 {
		t.Errorf("%d script elements, want the page's 3", strings.Count(dom, "<script"))
	}
	if os.Getenv("GAUNTLET_KEEP_PAGE") != "" {
		t.Logf("page: %s", page)
	}
}

// FuzzWatchMoves: whatever a store holds as a referee game's moves, Watch
// returns a page's data or an error, never panics.
func FuzzWatchMoves(f *testing.F) {
	good, err := encodeTranscript(&relay.Transcript{Protocol: "relayed", Players: 2, Turns: []relay.Turn{{Player: 1, Answer: 1}}})
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(good))
	f.Add([]byte(`{"transcript_gz": ""}`))
	f.Add([]byte(`null`))
	g, _, err := Resolve("referee:sh -c true")
	if err != nil {
		f.Fatal(err)
	}
	out := contract.Outcome{Seats: []contract.SeatResult{{Rank: 1}, {Rank: 2}}}
	f.Fuzz(func(t *testing.T, moves []byte) {
		out.Moves = moves
		if r, err := g.(*Game).Watch(contract.Case{ID: "seed:1"}, out, []string{"a", "b"}); err == nil && r.Count < 1 {
			t.Errorf("%d frames", r.Count)
		}
	})
}
