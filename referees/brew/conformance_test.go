package brew

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"gauntlet/internal/testdata"
)

// conformanceDir holds the reference data made with the organisers'
// referee (see testdata/README.md).
const conformanceDir = "testdata"

// referenceGames reads games.jsonl.gz; a missing file fails the test.
func referenceGames(t testing.TB) []GameRecord {
	path := filepath.Join(conformanceDir, "games.jsonl.gz")
	data, err := testdata.Read(path)
	if err != nil {
		t.Fatalf("brew conformance data missing: %v", err)
	}
	var games []GameRecord
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var g GameRecord
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatalf("%s line %d: %v", path, len(games)+1, err)
		}
		games = append(games, g)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(games) == 0 {
		t.Fatalf("%s: no games", path)
	}
	return games
}

func name(g *GameRecord) string {
	if g.Name == nil {
		return "(unnamed)"
	}
	return *g.Name
}

func actionsOf(g *GameRecord) [][]*string {
	out := make([][]*string, len(g.Actions))
	for i := range g.Actions {
		out[i] = g.Actions[i][:]
	}
	return out
}

// TestConformance replays every reference game and compares rounds,
// scores, active flags and every input text.
func TestConformance(t *testing.T) {
	games := referenceGames(t)
	agree := 0
	for i := range games {
		g := &games[i]
		res, err := ReplayGame(g.Seed, g.League, actionsOf(g), true)
		if err != nil {
			t.Errorf("%s: %v", name(g), err)
			continue
		}
		if diff := compareGame(g, &res); diff != "" {
			t.Errorf("%s: %s", name(g), diff)
			continue
		}
		agree++
	}
	msg := fmt.Sprintf("brew conformance: %d/%d agree", agree, len(games))
	t.Log(msg)
	fmt.Println(msg)
}

func compareGame(g *GameRecord, r *ReplayResult) string {
	n := min(len(g.InputsSHA256), len(r.InputsSHA256))
	for i := 0; i < n; i++ {
		for p := 0; p < Players; p++ {
			want, got := g.InputsSHA256[i][p], r.InputsSHA256[i][p]
			if (want == nil) != (got == nil) || (want != nil && *want != *got) {
				detail := ""
				if g.Inputs != nil && r.Inputs != nil {
					detail = fmt.Sprintf("\nwant:\n%s\ngot:\n%s", deref(g.Inputs[i][p]), deref(r.Inputs[i][p]))
				}
				return fmt.Sprintf("round %d player %d: input differs%s", i+1, p, detail)
			}
		}
	}
	switch {
	case g.Rounds != r.Rounds || len(g.InputsSHA256) != len(r.InputsSHA256):
		return fmt.Sprintf("rounds %d, want %d", r.Rounds, g.Rounds)
	case g.Scores != r.Scores:
		return fmt.Sprintf("scores %v, want %v", r.Scores, g.Scores)
	case g.Active != r.Active:
		return fmt.Sprintf("active %v, want %v", r.Active, g.Active)
	}
	return ""
}

func deref(s *string) string {
	if s == nil {
		return "<null>"
	}
	return *s
}
