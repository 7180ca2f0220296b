package brew

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// TestReplayRefusesInputPastTheGame: actions after the game's last round,
// more rounds than a game has, more lines than players in a round, and a
// line past the line cap are errors naming the line, not silently ignored
// (nor held in memory).
func TestReplayRefusesInputPastTheGame(t *testing.T) {
	g := referenceGames(t)[0]
	line := func(actions any) string {
		b, err := json.Marshal(map[string]any{"name": "g", "seed": g.Seed, "league": g.League, "actions": actions})
		if err != nil {
			t.Fatal(err)
		}
		return string(b) + "\n"
	}
	exact := actionsOf(&g)
	var out bytes.Buffer
	if err := Replay(context.Background(), strings.NewReader(line(exact)), &out, false); err != nil {
		t.Fatalf("the reference game: %v", err)
	}
	wait := "WAIT"
	extra := append(append([][]*string(nil), exact...), []*string{&wait, &wait})
	many := make([][]*string, 5000)
	for i := range many {
		many[i] = []*string{&wait, &wait}
	}
	for _, c := range []struct{ in, want string }{
		{"\n" + line(extra), "input line 2: game \"g\": actions hold " + strconv.Itoa(len(extra)) + " rounds but the game ended after " + strconv.Itoa(len(exact))},
		{line(many), "input line 1: bad JSON: actions: more than 100 rounds; a game lasts at most 100"},
		{line([][]*string{{&wait, &wait, &wait}}), "input line 1: bad JSON: actions[0]: more than 2 entries, want one per player"},
		{`{"actions": "` + strings.Repeat("x", 16<<20) + `"}`, "input line 1: longer than 16 MiB"},
	} {
		err := Replay(context.Background(), strings.NewReader(c.in), &out, false)
		if err == nil || err.Error() != c.want {
			t.Errorf("Replay = %v; want %q", err, c.want)
		}
	}
}

// TestServeLineCap: a bot's input line past the line cap is an error, not
// held whole.
func TestServeLineCap(t *testing.T) {
	in := strings.Repeat("7", 16<<20+1) + "\n"
	var out bytes.Buffer
	err := Serve(context.Background(), strings.NewReader(in), &out, nil)
	if err == nil || err.Error() != "turn 1: an input line: longer than 16 MiB" {
		t.Fatalf("Serve = %v", err)
	}
}
