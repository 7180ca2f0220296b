package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLeagueShowAndReport: after a short brew league, `league show` prints
// the ladder in the order of its --json board, --md and --csv write the
// same ladder, --pairs adds each pair, and `league report` writes the
// ladder, pairs and rating plot with an index.html linking them.
func TestLeagueShowAndReport(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "l.db")
	for _, v := range [][]string{{"--game", "brew", "--name", "beam", "brewbeam:width=10,depth=4,nodes=500"}, {"--name", "greedy", "greedy"}, {"--name", "random", "random"}} {
		if out, errs, code := gauntlet(t, dir, append([]string{"league", "add", "--storage", db, "--league", "L"}, v...)...); code != 0 {
			t.Fatalf("league add %v: %d\n%s%s", v, code, out, errs)
		}
	}
	if out, errs, code := gauntlet(t, dir, "league", "run", "--storage", db, "--league", "L", "--total", "120", "--jobs", "2", "--quiet"); code != 0 {
		t.Fatalf("league run: %d\n%s%s", code, out, errs)
	}
	js, errs, code := gauntlet(t, dir, "league", "show", "--storage", db, "--league", "L", "--json")
	if code != 0 {
		t.Fatalf("league show --json: %d %s", code, errs)
	}
	var b struct {
		Games    int `json:"games"`
		Versions []struct {
			Rank    int    `json:"rank"`
			Version string `json:"version"`
		} `json:"versions"`
		Pairs []struct{ A, B string } `json:"pairs"`
	}
	if err := json.Unmarshal([]byte(js), &b); err != nil {
		t.Fatal(err)
	}
	if b.Games != 120 || len(b.Versions) != 3 || len(b.Pairs) != 3 {
		t.Fatalf("board of %d games, %d versions, %d pairs: %s", b.Games, len(b.Versions), len(b.Pairs), js)
	}
	var order []string
	for k, v := range b.Versions {
		if v.Rank != k+1 {
			t.Fatalf("version %s has rank %d at row %d", v.Version, v.Rank, k)
		}
		order = append(order, v.Version)
	}
	// inOrder reports whether the names appear in text in the ladder's order.
	inOrder := func(text string) bool {
		at := -1
		for _, n := range order {
			i := strings.Index(text, n)
			if i <= at {
				return false
			}
			at = i
		}
		return true
	}
	md, csvFile := filepath.Join(dir, "ladder.md"), filepath.Join(dir, "ladder.csv")
	text, errs, code := gauntlet(t, dir, "league", "show", "--storage", db, "--league", "L", "--md", md, "--csv", csvFile, "--pairs")
	if code != 0 {
		t.Fatalf("league show: %d %s", code, errs)
	}
	ladderText, pairsText, ok := strings.Cut(text, "results of each pair")
	if !ok || !inOrder(ladderText) || !strings.Contains(ladderText, "Bradley–Terry") {
		t.Errorf("league show: want the ladder in the order %v, then the pairs:\n%s", order, text)
	}
	for _, p := range b.Pairs {
		if !strings.Contains(pairsText, p.A) || !strings.Contains(pairsText, p.B) {
			t.Errorf("league show --pairs lacks the pair %s–%s", p.A, p.B)
		}
	}
	mdText, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	if !inOrder(string(mdText)) || !strings.Contains(string(mdText), "| rank") {
		t.Errorf("--md: want a Markdown ladder in the order %v:\n%s", order, mdText)
	}
	f, err := os.Open(csvFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("--csv: %v", err)
	}
	if len(recs) != 4 || recs[0][0] != "rank" || recs[0][1] != "version" {
		t.Fatalf("--csv: want a header and three versions: %v", recs)
	}
	for k, n := range order {
		if recs[k+1][1] != n {
			t.Errorf("--csv row %d: %v, want %s", k+1, recs[k+1], n)
		}
	}
	out := filepath.Join(dir, "report")
	if stdout, errs, code := gauntlet(t, dir, "league", "report", "--storage", db, "--league", "L", "--out", out); code != 0 || !strings.Contains(stdout, "index.html") {
		t.Fatalf("league report: %d\n%s%s", code, stdout, errs)
	}
	index, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"ladder.md", "ladder.csv", "ladder.txt", "pairs.md", "pairs.csv", "ratings.svg"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Errorf("league report: %v", err)
		}
		if !strings.Contains(string(index), `"`+name+`"`) {
			t.Errorf("index.html does not link %s", name)
		}
	}
	if !inOrder(string(index)) {
		t.Errorf("index.html: the ladder is not in the order %v", order)
	}
}
