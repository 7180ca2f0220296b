package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// minimalBot is the Paper.io bot of docs/protocol-paperio.md.
const minimalBot = "../examples/paperio-minimal/bot.py"

// TestPaperioMinimalBotPlays: the minimal bot written from the protocol
// page alone plays whole games against built-in strategies, at the runner's
// time limits, without a forfeit and without an ignored answer, and scores
// (its commands take effect).
func TestPaperioMinimalBotPlays(t *testing.T) {
	if !havePython(t) {
		t.Skip("no python3")
	}
	script, err := filepath.Abs(minimalBot)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ cas, entrants string }{
		{"seed:1", "simple"},
		{"seed:2", "simple*3"},
	} {
		out, stderr, code := gauntlet(t, t.TempDir(), "play", "--game", "paperio", "--case", tc.cas,
			"--entrants", tc.entrants, "--entrant", "cmd:python3 "+script, "--json", "--quiet")
		if code != 0 {
			t.Fatalf("%s against %s: exit %d: %s", tc.cas, tc.entrants, code, stderr)
		}
		var res struct {
			Entrants []string `json:"entrants"`
			Outcome  struct {
				Seats []struct {
					Score   float64 `json:"score"`
					Forfeit string  `json:"forfeit"`
					Ignored int     `json:"ignored"`
				} `json:"seats"`
			} `json:"outcome"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%s: %v: %.500s", tc.cas, err, out)
		}
		if len(res.Entrants) != len(res.Outcome.Seats) {
			t.Fatalf("%s: %d entrants, %d seats", tc.cas, len(res.Entrants), len(res.Outcome.Seats))
		}
		found := false
		for i, e := range res.Entrants {
			if !strings.HasPrefix(e, "cmd:") {
				continue
			}
			found = true
			s := res.Outcome.Seats[i]
			if s.Forfeit != "" || s.Ignored != 0 || s.Score <= 0 {
				t.Errorf("%s against %s: the minimal bot forfeited %q, had %d answers ignored, scored %v", tc.cas, tc.entrants, s.Forfeit, s.Ignored, s.Score)
			}
		}
		if !found {
			t.Fatalf("%s: no external seat among %v", tc.cas, res.Entrants)
		}
	}
}

// TestPaperioMinimalBotIsTheDocs: the bot of the protocol page is the
// example file's code, line for line.
func TestPaperioMinimalBotIsTheDocs(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "docs", "protocol-paperio.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(page), "## A minimal bot")
	if !ok {
		t.Fatal("docs/protocol-paperio.md: no section \"A minimal bot\"")
	}
	_, rest, ok = strings.Cut(rest, "```python\n")
	if !ok {
		t.Fatal("docs/protocol-paperio.md: no python block in \"A minimal bot\"")
	}
	code, _, ok := strings.Cut(rest, "```")
	if !ok || len(code) < 200 {
		t.Fatalf("docs/protocol-paperio.md: the python block is not closed or too short (%d bytes)", len(code))
	}
	file, err := os.ReadFile(minimalBot)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(file), code) {
		t.Errorf("docs/protocol-paperio.md's minimal bot differs from %s: keep them the same", minimalBot)
	}
}
