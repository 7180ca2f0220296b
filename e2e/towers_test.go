package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gauntlet/internal/testjson"
)

type towersRef struct {
	ID         string   `json:"id"`
	Columns    []string `json:"columns"`
	Optimal    *int     `json:"optimal"`
	Unsolvable bool     `json:"unsolvable"`
}

// TestTowersSolveReplay runs `gauntlet towers solve --optimal` on every
// reference layout, compares each optimum and unsolvable verdict with the
// independent solver's, and replays every solution through `gauntlet
// replay towers`: each must end solved after exactly its length of moves.
func TestTowersSolveReplay(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "referees", "towers", "testdata", "layouts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var refs []towersRef
	var input bytes.Buffer
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var r towersRef
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		refs = append(refs, r)
		input.Write(append(line, '\n'))
	}
	dir := t.TempDir()
	out, stderr, code := gauntletIn(t, dir, input.Bytes(), "towers", "solve", "--optimal")
	if code != 0 {
		t.Fatalf("towers solve: exit %d: %s", code, stderr)
	}
	type answer struct {
		ID         string   `json:"id"`
		Moves      [][2]int `json:"moves"`
		Length     *int     `json:"length"`
		Optimal    *bool    `json:"optimal"`
		Unsolvable bool     `json:"unsolvable"`
		Nodes      int      `json:"nodes"`
	}
	var answers []answer
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var a answer
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatalf("solve output %q: %v", sc.Text(), err)
		}
		answers = append(answers, a)
	}
	if len(answers) != len(refs) {
		t.Fatalf("%d answers for %d layouts", len(answers), len(refs))
	}
	var replayIn bytes.Buffer
	var solved []int
	agree := 0
	for i, r := range refs {
		a := answers[i]
		switch {
		case a.ID != r.ID:
			t.Errorf("answer %d is for %q, want %q", i, a.ID, r.ID)
		case a.Nodes <= 0:
			t.Errorf("%s: nodes %d", r.ID, a.Nodes)
		case r.Unsolvable != a.Unsolvable:
			t.Errorf("%s: unsolvable %v, the reference says %v", r.ID, a.Unsolvable, r.Unsolvable)
		case r.Unsolvable:
			agree++
		case a.Length == nil || a.Optimal == nil || !*a.Optimal || *a.Length != *r.Optimal || len(a.Moves) != *a.Length:
			t.Errorf("%s: %d moves, length %v, optimal %v; the reference's optimum is %d", r.ID, len(a.Moves), a.Length, a.Optimal, *r.Optimal)
		default:
			agree++
			line := testjson.Marshal(t, map[string]any{"columns": r.Columns, "moves": a.Moves})
			replayIn.Write(append(line, '\n'))
			solved = append(solved, len(a.Moves))
		}
	}
	t.Logf("gauntlet towers solve --optimal: %d/%d agree", agree, len(refs))
	out, stderr, code = gauntletIn(t, dir, replayIn.Bytes(), "replay", "towers")
	if code != 0 {
		t.Fatalf("replay towers: exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(solved) {
		t.Fatalf("replay: %d lines for %d solutions", len(lines), len(solved))
	}
	replayed := 0
	for i, l := range lines {
		var r struct {
			Moves   int      `json:"moves"`
			Solved  bool     `json:"solved"`
			Error   string   `json:"error"`
			At      int      `json:"at"`
			Columns []string `json:"columns"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if !r.Solved || r.Error != "" || r.At != -1 || r.Moves != solved[i] {
			t.Errorf("solution %d replays as %s", i, l)
			continue
		}
		replayed++
	}
	t.Logf("gauntlet replay towers: %d/%d solutions replay as solved", replayed, len(solved))
}

// TestTowersReplayBadInput: a bad layout and an illegal move are results;
// a line that is not JSON stops the replay with exit status 1 after the
// results of the lines before it.
func TestTowersReplayBadInput(t *testing.T) {
	t.Parallel()
	in := `{"columns": ["a1 b0 a0", "b6 b5 b4 b3 b2 b1", "a6 a5 a4 a3 a2", ""], "moves": [[0,3],[0,3]]}
{"columns": ["a1 b0 a9", "b6 b5 b4 b3 b2 b1", "a6 a5 a4 a3 a2", ""], "moves": []}
not json
`
	out, stderr, code := gauntletIn(t, t.TempDir(), []byte(in), "replay", "towers")
	if code != 1 || !strings.Contains(stderr, "line 3") {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"error":"illegal-move","at":1`) || !strings.Contains(lines[1], `"error":"bad-layout"`) {
		t.Fatalf("output:\n%s", out)
	}
	if _, stderr, code := gauntletIn(t, t.TempDir(), nil, "towers", "solve", "--nodes", "0"); code != 2 {
		t.Fatalf("towers solve --nodes 0: exit %d (%s), want 2", code, stderr)
	}
}

// TestTowersEval: eval of towersbest on hanoi deals completes with every
// case solved, and the optimum and the mean gap are reported (hanoi:50;
// hanoi:3 under -short).
func TestTowersEval(t *testing.T) {
	t.Parallel()
	n := 50
	if testing.Short() {
		n = 3
	}
	set := fmt.Sprintf("hanoi:%d", n)
	out, stderr, code := gauntlet(t, t.TempDir(), "eval", "--game", "towers", "--strategy", "towersbest", "--cases", set,
		"--json", "--quiet", "--storage", "none")
	if code != 0 {
		t.Fatalf("eval: exit %d: %s", code, stderr)
	}
	var s struct {
		Games         int      `json:"games"`
		Forfeits      int      `json:"forfeits"`
		Mean          float64  `json:"mean"`
		LowerIsBetter bool     `json:"lower_is_better"`
		OptimumKnown  *int     `json:"optimum_known"`
		AtOptimum     *int     `json:"at_optimum"`
		MeanGap       *float64 `json:"mean_gap"`
		Cases         []struct {
			Case    string   `json:"case"`
			Score   float64  `json:"score"`
			Forfeit string   `json:"forfeit"`
			Optimum *float64 `json:"optimum"`
			Gap     *float64 `json:"gap"`
		} `json:"cases"`
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if s.Games != n || s.Forfeits != 0 || !s.LowerIsBetter || s.OptimumKnown == nil || *s.OptimumKnown != n || s.MeanGap == nil || *s.MeanGap < 0 {
		t.Fatalf("eval %s: %d games, %d forfeits, lower %v, optimum known %v, mean gap %v", set, s.Games, s.Forfeits, s.LowerIsBetter, s.OptimumKnown, s.MeanGap)
	}
	for _, c := range s.Cases {
		if c.Forfeit != "" || c.Optimum == nil || c.Gap == nil || c.Score != *c.Optimum+*c.Gap || *c.Gap < 0 {
			t.Errorf("case %s: score %v, optimum %v, gap %v, forfeit %q", c.Case, c.Score, c.Optimum, c.Gap, c.Forfeit)
		}
	}
	t.Logf("towersbest on %s: mean %.2f moves, %d of %d at the optimum, mean gap %.2f", set, s.Mean, *s.AtOptimum, n, *s.MeanGap)
}

// TestTowersTune: a short study of towersbest minimises the mean length:
// on its default cases (eight-colour deals) the best trial beats the
// default configuration. Under -short, two trials on two small deals only
// check that the study runs and minimises.
func TestTowersTune(t *testing.T) {
	t.Parallel()
	args := []string{"tune", "--game", "towers", "--strategy", "towersbest", "--seed", "1", "--json", "--quiet", "--storage", "none"}
	if testing.Short() {
		args = append(args, "--cases", "african:2", "--trials", "2")
	} else {
		args = append(args, "--trials", "4")
	}
	out, stderr, code := gauntlet(t, t.TempDir(), args...)
	if code != 0 {
		t.Fatalf("tune: exit %d: %s", code, stderr)
	}
	var s struct {
		Cases        string  `json:"cases"`
		Minimize     bool    `json:"minimize"`
		Complete     int     `json:"complete"`
		BestValue    float64 `json:"best_value"`
		DefaultValue float64 `json:"default_value"`
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if !s.Minimize || s.Complete == 0 || s.BestValue > s.DefaultValue {
		t.Fatalf("tune: minimize %v, %d complete, best %v, default %v", s.Minimize, s.Complete, s.BestValue, s.DefaultValue)
	}
	t.Logf("tune on %s: default mean length %.2f, best %.2f", s.Cases, s.DefaultValue, s.BestValue)
	if !testing.Short() && !(s.BestValue < s.DefaultValue) {
		t.Fatalf("tune did not lower the mean length (default %v, best %v)", s.DefaultValue, s.BestValue)
	}
}
