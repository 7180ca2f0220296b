package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"gauntlet/harness/results"
	"gauntlet/reports"
	"gauntlet/tuning"
)

// readCSV reads a report table.
func reportCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return recs
}

// column returns the index of a header name.
func reportColumn(t *testing.T, header []string, name string) int {
	t.Helper()
	for i, h := range header {
		if h == name {
			return i
		}
	}
	t.Fatalf("no column %q in %v", name, header)
	return -1
}

// checkReportDir checks that index.html exists and that every file it
// refers to exists and is not empty, and returns the page.
func checkReportDir(t *testing.T, dir string) string {
	t.Helper()
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	refs := regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllStringSubmatch(string(page), -1)
	if len(refs) == 0 {
		t.Fatalf("%s/index.html refers to no file", dir)
	}
	for _, m := range refs {
		st, err := os.Stat(filepath.Join(dir, m[1]))
		if err != nil || st.Size() == 0 {
			t.Errorf("%s/index.html refers to %s: missing or empty (%v)", dir, m[1], err)
		}
	}
	return string(page)
}

// browser returns the headless Chromium for the render check, "" when there
// is none (a failure under CI).
func reportBrowser(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("GAUNTLET_TEST_CHROMIUM"); p != "" {
		return p
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no Chromium (set GAUNTLET_TEST_CHROMIUM): the report render check cannot run")
	}
	t.Log("no Chromium found: render check skipped")
	return ""
}

// renders opens dir/index.html in Chromium: every image loads and the
// headline is shown.
func reportRenders(t *testing.T, chromium, dir string, headline []string) {
	t.Helper()
	if chromium == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	chk, err := reports.CheckInBrowser(ctx, chromium, filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !chk.OK() || chk.ImagesTotal == 0 {
		t.Errorf("%s: ready %v, %d of %d images loaded, broken %v", dir, chk.Ready, chk.ImagesLoaded, chk.ImagesTotal, chk.Broken)
	}
	text := chk.Text()
	for _, h := range headline {
		if !strings.Contains(text, h) {
			t.Errorf("%s: headline %q not shown", dir, h)
		}
	}
}

// report runs 'gauntlet report' and returns its --json answer.
func runReportJSON(t *testing.T, dir string, args ...string) (files []string, headline []string) {
	t.Helper()
	out, stderr, code := gauntlet(t, dir, append([]string{"report", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("report %v: exit %d: %s", args, code, stderr)
	}
	var doc struct {
		Files    []string       `json:"files"`
		Headline []reports.Fact `json:"headline"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("report --json: %v\n%s", err, out)
	}
	for _, h := range doc.Headline {
		headline = append(headline, h.Value)
	}
	return doc.Files, headline
}

// TestReportEndToEnd runs a short eval, ab and tune into one database and
// reports each: index.html exists, every referenced file exists and is not
// empty, the tables hold the run's numbers, and the page renders in Chromium
// with every image loaded.
func TestReportEndToEnd(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "r.db")
	chromium := reportBrowser(t)

	// eval
	out, stderr, code := gauntlet(t, dir, "eval", "--game", "tunetoy", "--strategy", "dial", "--param", "x=4",
		"--cases", "seeds:6", "--storage", db, "--run", "ev", "--json", "--quiet")
	if code != 0 {
		t.Fatalf("eval: exit %d: %s", code, stderr)
	}
	var ev results.EvalSummary
	if err := json.Unmarshal([]byte(out), &ev); err != nil {
		t.Fatal(err)
	}
	evDir := filepath.Join(dir, "ev")
	_, head := runReportJSON(t, dir, "--run", "ev", "--out", evDir, "--storage", db)
	checkReportDir(t, evDir)
	recs := reportCSV(t, filepath.Join(evDir, "cases.csv"))
	score := reportColumn(t, recs[0], "score")
	if len(recs) != 1+len(ev.Cases)+1 { // header, cases, mean
		t.Fatalf("cases.csv has %d records for %d cases", len(recs), len(ev.Cases))
	}
	for i, c := range ev.Cases {
		if recs[1+i][0] != c.Case || recs[1+i][score] != reports.Num(c.Score) {
			t.Errorf("cases.csv row %d: %v, want %s %s", i+1, recs[1+i], c.Case, reports.Num(c.Score))
		}
	}
	if !strings.Contains(strings.Join(head, " "), reports.PlusMinus(ev.Mean, ev.CI95[0], ev.CI95[1])) {
		t.Errorf("eval headline %v lacks the mean ± CI", head)
	}
	reportRenders(t, chromium, evDir, head)

	// ab (two players: Elo and LLR plots)
	out, stderr, code = gauntlet(t, dir, "ab", "--game", "pips", "--a", "skill:skill=7", "--b", "skill", "--games", "12",
		"--storage", db, "--run", "ab", "--json", "--quiet")
	if code != 0 {
		t.Fatalf("ab: exit %d: %s", code, stderr)
	}
	var ab results.ABSummary
	if err := json.Unmarshal([]byte(out), &ab); err != nil {
		t.Fatal(err)
	}
	abDir := filepath.Join(dir, "ab")
	files, head := runReportJSON(t, dir, "--ab", "ab", "--out", abDir, "--storage", db)
	checkReportDir(t, abDir)
	// --run takes an ab run as well and writes the same report.
	if files2, head2 := runReportJSON(t, dir, "--run", "ab", "--out", filepath.Join(dir, "ab2"), "--storage", db); strings.Join(files2, " ") != strings.Join(files, " ") || strings.Join(head2, " ") != strings.Join(head, " ") {
		t.Errorf("report --run of an ab run: %v %v, want %v %v", files2, head2, files, head)
	}
	for _, want := range []string{"elo.svg", "elo.png", "llr.svg", "llr.png", "diff.png", "cases.csv"} {
		if !strings.Contains(" "+strings.Join(files, " ")+" ", " "+want+" ") {
			t.Errorf("ab report lacks %s: %v", want, files)
		}
	}
	recs = reportCSV(t, filepath.Join(abDir, "cases.csv"))
	pts := reportColumn(t, recs[0], "A points")
	if len(recs) != 1+len(ab.Cases) {
		t.Fatalf("ab cases.csv has %d records for %d cases", len(recs), len(ab.Cases))
	}
	for i, c := range ab.Cases {
		if recs[1+i][0] != c.Case || recs[1+i][pts] != reports.Num(c.Points) {
			t.Errorf("ab cases.csv row %d: %v, want %s %s", i+1, recs[1+i], c.Case, reports.Num(c.Points))
		}
	}
	reportRenders(t, chromium, abDir, head)

	// tune (a categorical parameter, pruned trials)
	out, stderr, code = gauntlet(t, dir, "tune", "--game", "tunetoy", "--strategy", "dial", "--cases", "seeds:8",
		"--trials", "10", "--seed", "5", "--pruner", "median", "--chunk", "2", "--storage", db, "--study", "st", "--json", "--quiet")
	if code != 0 {
		t.Fatalf("tune: exit %d: %s", code, stderr)
	}
	var sum tuning.Summary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	stDir := filepath.Join(dir, "st")
	files, head = runReportJSON(t, dir, "--study", "st", "--out", stDir, "--storage", db)
	checkReportDir(t, stDir)
	for _, want := range []string{"history.png", "importance.png", "intermediate.png", "cases.png",
		"slice-x.png", "slice-k.png", "slice-mode.png", "trials.csv", "importance.csv"} {
		if !strings.Contains(" "+strings.Join(files, " ")+" ", " "+want+" ") {
			t.Errorf("study report lacks %s: %v", want, files)
		}
	}
	recs = reportCSV(t, filepath.Join(stDir, "trials.csv"))
	val, mode := reportColumn(t, recs[0], "value"), reportColumn(t, recs[0], "mode")
	if len(recs) != 1+len(sum.Trials) {
		t.Fatalf("trials.csv has %d records for %d trials", len(recs), len(sum.Trials))
	}
	for i, tr := range sum.Trials {
		want := ""
		if tr.Value != nil {
			want = reports.Num(*tr.Value)
		}
		if recs[1+i][val] != want || recs[1+i][mode] != tr.Params["mode"] {
			t.Errorf("trials.csv row %d: %v, want value %s mode %v", i+1, recs[1+i], want, tr.Params["mode"])
		}
	}
	if sum.BestValue != nil && !strings.Contains(strings.Join(head, " "), reports.Num(*sum.BestValue)) {
		t.Errorf("study headline %v lacks the best value %s", head, reports.Num(*sum.BestValue))
	}
	reportRenders(t, chromium, stDir, head)
}

func TestReportBadInvocations(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"report", "--out", "x"}, 2, "exactly one of"},
		{[]string{"report", "--run", "a", "--ab", "b", "--out", "x"}, 2, "exactly one of"},
		{[]string{"report", "--run", "a"}, 2, "--out"},
		{[]string{"report", "--run", "a", "--out", "x", "--storage", "sqlite:" + filepath.Join(dir, "none.db")}, 1, "no database"},
		{[]string{"report", "--run", "a", "--out", "x", "--storage", "none"}, 2, "stored"},
	}
	for _, c := range cases {
		_, stderr, code := gauntlet(t, dir, c.args...)
		if code != c.code || !strings.Contains(stderr, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", c.args, code, stderr, c.code, c.msg)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "none.db")); err == nil {
		t.Error("report created a database")
	}
}

func TestReportUnknownRunOrStudy(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "r.db")
	if _, stderr, code := gauntlet(t, dir, "eval", "--game", "tunetoy", "--strategy", "dial", "--cases", "seeds:2",
		"--storage", db, "--run", "ev", "--quiet"); code != 0 {
		t.Fatalf("eval: %s", stderr)
	}
	for _, args := range [][]string{
		{"--run", "nosuch"}, {"--ab", "ev"}, {"--study", "nosuch"},
	} {
		_, stderr, code := gauntlet(t, dir, append(append([]string{"report"}, args...), "--out", filepath.Join(dir, "o"), "--storage", db)...)
		if code != 1 || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("report %v: exit %d, stderr %q: want exit 1 and one line", args, code, stderr)
		}
	}
}
