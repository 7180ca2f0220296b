package hextris

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// qualityTotals reads the total row of quality.md: the official totals of
// the Natsubate! and Hack the pool solution sets and their move-only parts.
func qualityTotals(t *testing.T) map[string][2]int64 {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(confDir, "quality.md"))
	if err != nil {
		t.Fatalf("quality.md missing: %v", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "| **total**") {
			continue
		}
		f := strings.Split(line, "|")
		num := func(i int) int64 {
			v, err := strconv.ParseInt(strings.TrimSpace(f[i]), 10, 64)
			if err != nil {
				t.Fatalf("quality.md total row, column %d: %v", i, err)
			}
			return v
		}
		// | total | seeds | (a) | (b) total | (b) move | (c) total | (c) move | ...
		return map[string][2]int64{"natsubate": {num(4), num(5)}, "hackthepool": {num(6), num(7)}}
	}
	t.Fatal("quality.md: no total row")
	return nil
}

// TestScoreSolutionsMatchesTheLeaderboard scores the two teams' published
// solution sets (in cases.jsonl) with the official aggregation and checks
// the totals recorded in quality.md.
func TestScoreSolutionsMatchesTheLeaderboard(t *testing.T) {
	want := qualityTotals(t)
	cases := loadCases(t)
	power := mustPhrases(t, "power")
	for team, w := range want {
		var sols []Solution
		for _, c := range cases {
			if strings.HasPrefix(c.Name, team+"/") {
				sols = append(sols, Solution{ProblemID: c.ProblemID, Seed: c.Seed, Tag: team, Solution: c.Solution})
			}
		}
		scores, err := ScoreSolutions(sols, power, Official)
		if err != nil {
			t.Fatal(err)
		}
		var total, move int64
		for _, ps := range scores {
			total += ps.Score
			move += ps.MoveScore
		}
		if total != w[0] || move != w[1] {
			t.Errorf("%s: total %d, move-only %d; quality.md says %d and %d", team, total, move, w[0], w[1])
		}
	}
}

func TestScoreSolutionsLatestMissingAndForeignSeeds(t *testing.T) {
	power := mustPhrases(t, "power")
	p := mustOfficial(t, 2)
	sols := []Solution{
		{ProblemID: 2, Seed: p.SourceSeeds[0], Solution: "ei!"},
		{ProblemID: 2, Seed: p.SourceSeeds[0], Solution: "Ei!ei!"}, // the latest counts
		{ProblemID: 2, Seed: 123456789, Solution: "ei!"},           // not a source seed
		{ProblemID: 2, Seed: p.SourceSeeds[1], Solution: "x"},      // invalid command
	}
	scores, err := ScoreSolutions(sols, power, Official)
	if err != nil {
		t.Fatal(err)
	}
	ps := scores[0]
	first := Play(p, p.SourceSeeds[0], power, "Ei!ei!")
	if ps.Seeds[0].Result.Score != first.Score || ps.Solved != 2 || ps.Errors != 1 || ps.NumSeeds != len(p.SourceSeeds) {
		t.Fatalf("problem 2: %+v", ps)
	}
	if want := first.Score / int64(len(p.SourceSeeds)); ps.Score != want {
		t.Fatalf("aggregate %d, want %d", ps.Score, want)
	}
	last := ps.Seeds[len(ps.Seeds)-1]
	if last.Seed != 123456789 || !strings.Contains(last.Reason, "not a source seed") {
		t.Fatalf("foreign seed: %+v", last)
	}
	if ps.Seeds[2].Missing != true || ps.Seeds[2].Reason == "" {
		t.Fatalf("missing seed: %+v", ps.Seeds[2])
	}
	if _, err := ScoreSolutions([]Solution{{ProblemID: 99}}, power, Official); err == nil || !strings.Contains(err.Error(), "solutions[0]") {
		t.Fatalf("unknown problem: %v", err)
	}
}

func TestParseSolutionsErrorsNameTheField(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{}`, "want a JSON array"},
		{`[1]`, "solutions[0]"},
		{`[{"seed":1,"solution":""}]`, "problemId"},
		{`[{"problemId":1,"seed":-1,"solution":""}]`, "solutions[0].seed"},
		{`[{"problemId":1,"seed":1,"solution":5}]`, "solutions[0].solution"},
		{`[{"problemId":1,"seed":1,"solution":"","tag":3}]`, "solutions[0].tag"},
		{`[{"problemId":1,"seed":1,"solution":"a"},{"problemId":"x","seed":1,"solution":"b"}]`, "solutions[1].problemId"},
	} {
		_, err := ParseSolutions([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseSolutions(%s) = %v; want an error naming %q", c.in, err, c.want)
		}
	}
	got, err := ParseSolutions([]byte(`[{"problemId":3,"seed":7,"tag":"t","solution":"ei!"}]`))
	if err != nil || len(got) != 1 || got[0] != (Solution{3, 7, "t", "ei!"}) {
		t.Fatalf("ParseSolutions = %+v, %v", got, err)
	}
}

// TestNotJSONIsSaid: input that is not JSON is reported as such, with the
// parser's message and the offset, not as the kind its first byte suggests.
func TestNotJSONIsSaid(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`xyz`, "not JSON: invalid character 'x' looking for beginning of value at offset 0"},
		{`7x`, "not JSON: invalid character 'x' after top-level value at offset 1"},
		{`nul`, "not JSON: "},
		{`[{"problemId":1,`, "not JSON: unexpected end of JSON input at offset 16"},
	} {
		for name, parse := range map[string]func([]byte) error{
			"ParseSolutions": func(b []byte) error { _, err := ParseSolutions(b); return err },
			"ParseProblem":   func(b []byte) error { _, err := ParseProblem(b); return err },
		} {
			err := parse([]byte(c.in))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s(%s) = %v; want an error with %q", name, c.in, err, c.want)
			}
		}
	}
	var out bytes.Buffer
	if err := Replay(context.Background(), strings.NewReader("\n7up\n"), &out); err == nil ||
		!strings.Contains(err.Error(), "line 2: case: not JSON: invalid character 'u' after top-level value at offset 1") {
		t.Errorf("Replay(7up) = %v", err)
	}
	p := mustOfficial(t, 1)
	_, err := RunExternal(context.Background(), []string{"sh", "-c", "echo 12 apples"}, ExternalOptions{}, p, p.SourceSeeds[0])
	if err == nil || !strings.Contains(err.Error(), "output: solutions: not JSON: invalid character 'a' after top-level value at offset 3") {
		t.Errorf("a solver printing 12 apples: %v", err)
	}
}

func TestReplayStopsAtAMalformedLine(t *testing.T) {
	in := `{"problemId":1,"seed":0,"solution":"ei!","phrases":"power"}` + "\n\n" +
		`{"problemId":1,"seed":0,"solution":"ei!","phrases":"nope"}` + "\n"
	var out bytes.Buffer
	err := Replay(context.Background(), strings.NewReader(in), &out)
	if err == nil || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("Replay error = %v; want one naming line 3 and the phrase set", err)
	}
	var r Result
	if err := json.Unmarshal(bytes.TrimSpace(out.Bytes()), &r); err != nil || r.PowerScore == 0 {
		t.Fatalf("first line's result: %q, %v", out.String(), err)
	}
	for _, bad := range []string{`{"problemId":77,"seed":0,"solution":""}`, `not json`, `{"problemId":1,"seed":0}`} {
		if err := Replay(context.Background(), strings.NewReader(bad), &out); err == nil || !strings.Contains(err.Error(), "line 1") {
			t.Errorf("Replay(%s) = %v", bad, err)
		}
	}
}

// TestRunExternal runs contest-style solvers written as shell scripts: one
// that echoes a solution for the problem file it is given, one that fails,
// one that prints garbage.
func TestRunExternal(t *testing.T) {
	p := mustOfficial(t, 1)
	seed := p.SourceSeeds[0]
	good := []string{"sh", "-c", `f=$2; id=$(sed 's/.*"id":\([0-9]*\).*/\1/' "$f"); seed=$(sed 's/.*"sourceSeeds":\[\([0-9]*\)\].*/\1/' "$f"); printf '[{"problemId":%s,"seed":%s,"tag":"sh","solution":"ei!"}]' "$id" "$seed"`, "solver"}
	power := mustPhrases(t, "power")
	res, err := RunExternal(context.Background(), good, ExternalOptions{Phrases: power}, p, seed)
	if err != nil || res.Solution != "ei!" || res.Ignored != 0 || res.Took <= 0 {
		t.Fatalf("good solver: %+v, %v", res, err)
	}
	for _, c := range []struct {
		argv []string
		want string
	}{
		{[]string{"sh", "-c", "echo oops >&2; exit 3"}, "exit status 3"},
		{[]string{"sh", "-c", "echo not json"}, "output"},
		{[]string{"sh", "-c", `echo '[{"problemId":0,"seed":0,"solution":"a"}]'`}, "no solution for problem 1"},
	} {
		if _, err := RunExternal(context.Background(), c.argv, ExternalOptions{}, p, seed); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v; want an error with %q", c.argv, err, c.want)
		}
	}
}

func FuzzParseSolutions(f *testing.F) {
	f.Add([]byte(`[{"problemId":3,"seed":7,"tag":"t","solution":"ei!"}]`))
	f.Add([]byte(`[{"problemId":1e2,"seed":7.0,"solution":""}]`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sols, err := ParseSolutions(data)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		power := mustPhrases(t, "power")
		ScoreSolutions(sols, power, Official)
	})
}

func FuzzParseProblem(f *testing.F) {
	for _, id := range []int{0, 6, 21} {
		js, err := mustOfficial(f, id).JSON()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(js)
	}
	f.Add([]byte(`{"id":1,"width":0}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParseProblem(data)
		if err != nil {
			return
		}
		if len(p.SourceSeeds) > 0 && p.Width*p.Height <= 1<<16 {
			Play(p, p.SourceSeeds[0], PhraseSet{}, "ei!palk")
		}
	})
}

func FuzzPlay(f *testing.F) {
	f.Add(0, "ei!ia! ia!")
	f.Add(6, "PPPP\t\nkkkk!!x")
	f.Add(24, "lllllllllllllllllllllllll")
	power := mustPhrases(f, "power")
	f.Fuzz(func(t *testing.T, id int, sol string) {
		if id < 0 {
			id = -id
		}
		p, err := Official(id % NumOfficial)
		if err != nil {
			t.Fatal(err)
		}
		r := Play(p, p.SourceSeeds[0], power, sol)
		if r.Error == "" && r.Score != r.MoveScore+r.PowerScore {
			t.Fatalf("score %d != %d + %d", r.Score, r.MoveScore, r.PowerScore)
		}
		if r.Error != "" && r.Score != 0 {
			t.Fatalf("error %s but score %d", r.Error, r.Score)
		}
	})
}

// TestReplayLineCap: a line past the line cap is an error naming it.
func TestReplayLineCap(t *testing.T) {
	in := `{"problemId":1,"seed":0,"solution":"ei!"}` + "\n" + `{"problemId":1,"seed":0,"solution":"` + strings.Repeat("p", 16<<20) + `"}`
	var out bytes.Buffer
	if err := Replay(context.Background(), strings.NewReader(in), &out); err == nil || err.Error() != "line 2: longer than 16 MiB" {
		t.Fatalf("Replay = %v", err)
	}
	if !strings.Contains(out.String(), `"power_score"`) {
		t.Fatalf("the first line's result is missing: %q", out.String())
	}
}
