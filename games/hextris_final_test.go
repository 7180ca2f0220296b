package games

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/referees/hextris"
)

// TestHextrisFinalCaseSets: `final` is the final board's problems (every
// distinct source seed of each, as many cases as its Doc says), with the
// variant suffix choosing the phrase set; `final-new` is problems 25-32.
func TestHextrisFinalCaseSets(t *testing.T) {
	g, err := contract.Default.Game("hextris")
	if err != nil {
		t.Fatal(err)
	}
	board, err := hextris.OfficialFinalBoard()
	if err != nil {
		t.Fatal(err)
	}
	want := []int{8, 9, 10, 12, 13, 14, 15, 16, 18, 20, 24, 25, 26, 28, 29, 30, 31, 32} // issue 22: 27 was not judged
	if !slices.Equal(board.Problems, want) {
		t.Fatalf("board problems %v, want %v", board.Problems, want)
	}
	seeds := 0
	for _, id := range want {
		p, err := hextris.Official(id)
		if err != nil {
			t.Fatal(err)
		}
		seeds += len(distinctSeeds(p.SourceSeeds))
	}
	var doc string
	for _, cs := range g.Info().CaseSets {
		if cs.Name == "final" {
			doc = cs.Doc
		}
	}
	if !strings.Contains(doc, fmt.Sprintf("(%d cases", seeds)) || !strings.Contains(doc, "8-10, 12-16, 18, 20, 24-26, 28-32") {
		t.Errorf("final's Doc %q: want the problems and (%d cases", doc, seeds)
	}
	for _, v := range hextris.FinalVariants {
		set := "final@" + v.Phrases
		cs, err := g.Cases(set)
		if err != nil || len(cs) != seeds {
			t.Fatalf("%s: %d cases, %v; want %d", set, len(cs), err, seeds)
		}
		per := map[int]int{}
		for _, c := range cs {
			d, err := hexTypes.data(c)
			if err != nil {
				t.Fatal(err)
			}
			if d.Phrases.Name() != v.Phrases || (v.Phrases != "power") != strings.HasSuffix(c.ID, "@"+v.Phrases) {
				t.Errorf("%s: case %s plays phrases %q", set, c.ID, d.Phrases.Name())
			}
			per[d.Problem.ID]++
		}
		for _, id := range want {
			p, err := hextris.Official(id)
			if err != nil {
				t.Fatal(err)
			}
			if per[id] != len(distinctSeeds(p.SourceSeeds)) {
				t.Errorf("%s: problem %d has %d cases, want %d", set, id, per[id], len(distinctSeeds(p.SourceSeeds)))
			}
		}
		if len(per) != len(want) {
			t.Errorf("%s: %d problems, want %d", set, len(per), len(want))
		}
	}
	plain, err := g.Cases("final")
	if err != nil || len(plain) != seeds {
		t.Fatalf("final: %d cases, %v", len(plain), err)
	}
	fresh, err := g.Cases("final-new")
	if err != nil {
		t.Fatal(err)
	}
	var ids []int
	for _, c := range fresh {
		id, _ := strconv.Atoi(c.Group)
		if len(ids) == 0 || ids[len(ids)-1] != id {
			ids = append(ids, id)
		}
	}
	if !slices.Equal(ids, []int{25, 26, 27, 28, 29, 30, 31, 32}) {
		t.Errorf("final-new: problems %v, want 25-32", ids)
	}
	for _, v := range hextris.FinalVariants {
		a, errA := g.Cases("final@" + v.Name)
		b, errB := g.Cases("final@" + v.Phrases)
		if errA != nil || errB != nil || len(a) != len(b) || a[0].ID != b[0].ID {
			t.Errorf("final@%s and final@%s differ: %v %v", v.Name, v.Phrases, errA, errB)
		}
	}
	if _, err := g.Cases("final@superpower"); err == nil || !strings.Contains(err.Error(), `"superpower"`) {
		t.Errorf("final@superpower: %v; want an error naming the phrase set", err)
	}
}

// writeSolutions writes a contest solution file into dir and returns its
// path.
func writeSolutions(t *testing.T, dir, name string, sols []hextris.Solution) string {
	t.Helper()
	data, err := json.Marshal(sols)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// greedySolutions solves problems with hexgreedy under phrases (the
// strategy's text), through the contest command line.
func greedySolutions(t *testing.T, dir, phrases string, problems ...int) string {
	t.Helper()
	args := []string{"--strategy", "hexgreedy", "--phrases", phrases}
	for _, id := range problems {
		args = append(args, "-f", filepath.Join("..", "referees", "hextris", "data", "problems", fmt.Sprintf("problem_%d.json", id)))
	}
	out, errb, err := runTool(t, "hextris", "solve", args...)
	if err != nil {
		t.Fatalf("solve: %v: %s", err, errb)
	}
	path := filepath.Join(dir, phrases+".json")
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestHextrisFinalScoresTheOfficialWay: each cell's ours is the problem
// score `hextris score` gives the same file under the variant's phrases,
// its points round(100·(ours/best)²); a variant without files counts 0
// points, and the final score is the mean over every cell of the board.
// On a board whose bests are computed from the solutions themselves, the
// points are 100 at the best, 400 at half the best (not capped) and 25 at
// twice it.
func TestHextrisFinalScoresTheOfficialWay(t *testing.T) {
	dir := t.TempDir()
	none := greedySolutions(t, dir, "none", 29, 30, 10)
	custom := greedySolutions(t, dir, "custom", 29, 30)

	js, errb, err := runTool(t, "hextris", "final", "nopower="+none, "--json", "custom="+custom)
	if err != nil {
		t.Fatalf("final: %v: %s", err, errb)
	}
	var doc hexFinalJSON
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	board, err := hextris.OfficialFinalBoard()
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Cells) != len(board.Problems)*len(board.Variants) {
		t.Fatalf("%d cells, want %d", len(doc.Cells), len(board.Problems)*len(board.Variants))
	}
	scored := map[string]map[int]int64{}
	for _, c := range []struct{ file, phrases string }{{none, "none"}, {custom, "custom"}} {
		out, errb, err := runTool(t, "hextris", "score", "--json", "--phrases", c.phrases, c.file)
		if err != nil {
			t.Fatalf("score: %v: %s", err, errb)
		}
		var sd hexScoreJSON
		if err := json.Unmarshal([]byte(out), &sd); err != nil {
			t.Fatal(err)
		}
		scored[c.phrases] = map[int]int64{}
		for _, p := range sd.Problems {
			scored[c.phrases][p.Problem] = p.Score
		}
	}
	var sum float64
	positive := 0
	for _, c := range doc.Cells {
		v, err := hextris.FinalVariantOf(c.Variant)
		if err != nil {
			t.Fatal(err)
		}
		best, _ := board.Best(c.Problem, c.Variant)
		if c.Ours != scored[v.Phrases][c.Problem] || c.Best != best.Score || c.Points != hextris.FinalPoints(c.Ours, c.Best) {
			t.Errorf("%s problem %d: ours %d best %d points %d; want ours %d (hextris score) best %d", c.Variant, c.Problem,
				c.Ours, c.Best, c.Points, scored[v.Phrases][c.Problem], best.Score)
		}
		if c.Ours > 0 {
			positive++
		}
		if c.IfEntered != min(c.Points, 100) {
			t.Errorf("%s problem %d: %d points, %d if entered", c.Variant, c.Problem, c.Points, c.IfEntered)
		}
		sum += float64(c.Points)
	}
	if positive != 5 {
		t.Errorf("%d cells with a positive score, want the 5 solved", positive)
	}
	if mean := sum / float64(len(doc.Cells)); doc.Mean != mean {
		t.Errorf("final score %v, want the mean %v of the cells", doc.Mean, mean)
	}
	for _, v := range doc.Variants {
		if (v.Variant == "power" || v.Variant == "illegalpower") && (v.Mean != 0 || len(v.Files) != 0) {
			t.Errorf("variant %s without files: %+v; want 0", v.Variant, v)
		}
	}
	ours := slices.IndexFunc(doc.Ranking, func(x hexFinalTeam) bool { return x.Ours && !x.IfEntered })
	if ours < 0 || doc.Ranking[ours].Points != doc.Mean || len(doc.Ranking) != len(board.Ranking)+2 ||
		!slices.IsSortedFunc(doc.Ranking, func(a, b hexFinalTeam) int { return int(b.Points*10 - a.Points*10) }) {
		t.Errorf("ranking %+v: want the teams and ours (%v) by points", doc.Ranking, doc.Mean)
	}

	// A board made from the solutions' own problem scores.
	s10, s29, s30 := scored["none"][10], scored["none"][29], scored["none"][30]
	if s10 < 4 || s29 <= 0 || s30 <= 0 {
		t.Fatalf("problems 10, 29, 30 scored %d, %d, %d: want positive scores", s10, s29, s30)
	}
	md := fmt.Sprintf("## Final round\nFinal ranking: A 50.\n\n| problem | power | nopower |\n|---|---|---|\n"+
		"| 10 | 1 (A) | %d (A) |\n| 29 | 1 (A) | %d (A) |\n| 30 | 1 (A) | %d (A) |\n", s10/2, s29, 2*s30)
	own, err := hextris.ParseFinalBoard([]byte(md))
	if err != nil {
		t.Fatal(err)
	}
	d2, err := finalDoc(context.Background(), own, map[string][]string{"nopower": {none}})
	if err != nil {
		t.Fatal(err)
	}
	got, entered := map[int]int64{}, map[int]int64{}
	for _, c := range d2.Cells {
		if c.Variant == "nopower" {
			got[c.Problem], entered[c.Problem] = c.Points, c.IfEntered
		}
	}
	b := s10 / 2
	above := (200*s10*s10 + b*b) / (2 * b * b) // round(100·(s10/b)²), halves up, in integers
	if got[29] != 100 || got[30] != 25 || got[10] != above || above < 400 {
		t.Errorf("points on the board made from the solutions: %v; want 10: %d (about 400: not capped), 29: 100, 30: 25", got, above)
	}
	if want := float64(100+25+above) / 6; d2.Mean != want {
		t.Errorf("mean %v, want %v (3 of 6 cells)", d2.Mean, want)
	}
	// Had they been entered, the best of problem 10 would be ours: 100.
	if entered[10] != 100 || entered[29] != 100 || entered[30] != 25 || d2.MeanIfEntered != float64(100+100+25)/6 {
		t.Errorf("if entered: %v, mean %v; want 10: 100, 29: 100, 30: 25, mean %v", entered, d2.MeanIfEntered, float64(225)/6)
	}
	in := slices.IndexFunc(d2.Ranking, func(x hexFinalTeam) bool { return x.IfEntered })
	if in < 0 || d2.Ranking[in].Points != d2.MeanIfEntered {
		t.Errorf("ranking %+v: want a row for the mean if entered %v", d2.Ranking, d2.MeanIfEntered)
	}
}

// TestHextrisFinalRefusesBadInput: an unknown variant, an argument that is
// not VARIANT=FILE and no argument are usage errors naming the argument; a
// solution for a problem not on the board (27 was not judged) is an error
// naming the file, the entry and the judged problems.
func TestHextrisFinalRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	ok := writeSolutions(t, dir, "ok.json", []hextris.Solution{{ProblemID: 29, Seed: firstSeed(t, 29), Solution: "ei!"}})
	off := writeSolutions(t, dir, "off.json", []hextris.Solution{
		{ProblemID: 29, Seed: firstSeed(t, 29), Solution: "ei!"}, {ProblemID: 27, Seed: firstSeed(t, 27), Solution: "ei!"}})
	for _, c := range []struct {
		args  []string
		usage bool
		want  string
	}{
		{nil, true, "no solution file given"},
		{[]string{ok}, true, `"` + ok + `": want VARIANT=SOLUTIONS.json`},
		{[]string{"power="}, true, `"power=": want VARIANT=SOLUTIONS.json`},
		{[]string{"superpower=" + ok}, true, `unknown final-round variant "superpower"`},
		{[]string{"--md", dir, "power=" + ok}, true, "is a directory"},
		{[]string{"power=" + ok, "illegal=" + off}, false, "illegalpower: " + off + ": solutions[1]: problem 27 is not on the final board (judged: 8-10, 12-16, 18, 20, 24-26, 28-32)"},
		{[]string{"power=" + filepath.Join(dir, "missing.json")}, false, "missing.json"},
	} {
		_, _, err := runTool(t, "hextris", "final", c.args...)
		if err == nil || cli.IsUsage(err) != c.usage || !strings.Contains(err.Error(), c.want) {
			t.Errorf("final %q: %v (usage %v); want an error with %q (usage %v)", c.args, err, cli.IsUsage(err), c.want, c.usage)
		}
	}
	out, errb, err := runTool(t, "hextris", "final", "power="+ok, "custompower="+ok)
	if err != nil || !strings.Contains(out, "Unagi") || !strings.Contains(out, "these solutions") {
		t.Errorf("final on a valid file: %v %s\n%s", err, errb, out)
	}
}

// firstSeed is the first source seed of official problem id.
func firstSeed(t *testing.T, id int) uint32 {
	t.Helper()
	p, err := hextris.Official(id)
	if err != nil {
		t.Fatal(err)
	}
	return p.SourceSeeds[0]
}
