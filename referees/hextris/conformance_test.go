package hextris

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"gauntlet/internal/testdata"
)

// confDir holds the reference data made with the organisers' referee (see
// testdata/README.md).
const confDir = "testdata"

type confCase struct {
	Name      string `json:"name"`
	ProblemID int    `json:"problemId"`
	Seed      uint32 `json:"seed"`
	Solution  string `json:"solution"`
	Phrases   string `json:"phrases"`
	Result
}

// loadCases reads every case of cases.jsonl; a missing file fails the test.
func loadCases(t testing.TB) []confCase {
	t.Helper()
	path := filepath.Join(confDir, "cases.jsonl.gz")
	data, err := testdata.Read(path)
	if err != nil {
		t.Fatalf("hextris conformance data missing: %v", err)
	}
	var cases []confCase
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for line := 1; sc.Scan(); line++ {
		var c confCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s line %d: %v", path, line, err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(cases) == 0 {
		t.Fatalf("%s: no cases", path)
	}
	return cases
}

func diffResult(got, want Result) string {
	s := ""
	add := func(name string, g, w any) {
		if fmt.Sprint(g) != fmt.Sprint(w) {
			s += fmt.Sprintf(" %s=%v want %v;", name, g, w)
		}
	}
	add("score", got.Score, want.Score)
	add("move_score", got.MoveScore, want.MoveScore)
	add("power_score", got.PowerScore, want.PowerScore)
	add("end_state", got.EndState, want.EndState)
	add("error", got.Error, want.Error)
	add("units_locked", got.UnitsLocked, want.UnitsLocked)
	add("moves_executed", got.MovesExecuted, want.MovesExecuted)
	if !slices.Equal(got.Board, want.Board) {
		s += " board differs;"
	}
	return s
}

func TestConformance(t *testing.T) {
	cases := loadCases(t)
	agree := 0
	for _, c := range cases {
		p, err := Official(c.ProblemID)
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		ps, err := OfficialPhrases(c.Phrases)
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		got := Play(p, c.Seed, ps, c.Solution)
		if d := diffResult(got, c.Result); d != "" {
			t.Errorf("%s (problem %d seed %d, %s):%s", c.Name, c.ProblemID, c.Seed, c.Phrases, d)
			continue
		}
		agree++
	}
	t.Logf("hextris conformance: %d/%d agree", agree, len(cases))
	fmt.Printf("hextris conformance: %d/%d agree\n", agree, len(cases))
}
