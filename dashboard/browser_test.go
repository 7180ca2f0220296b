package dashboard

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/results"
	"gauntlet/harness/runner"
	"gauntlet/harness/store"
	"gauntlet/reports"
)

// chromium runs headless Chromium on url: with shot set, it writes a
// screenshot there; else it returns the DOM after the page's scripts ran
// for a few seconds of virtual time (its polls included).
func chromium(ctx context.Context, browser, url, shot string) (string, error) {
	profile, err := os.MkdirTemp("", "gauntlet-dashboard-chromium-")
	if err != nil {
		return "", err
	}
	defer func() { _ = os.RemoveAll(profile) }() // a left profile costs disk space only
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run",
		"--disable-sync", "--disable-component-update", "--user-data-dir=" + profile, "--window-size=1280,900", "--hide-scrollbars"}
	if shot != "" {
		args = append(args, "--virtual-time-budget=3000", "--screenshot="+shot)
	} else {
		args = append(args, "--virtual-time-budget=6000", "--dump-dom")
	}
	var out, errb bytes.Buffer
	for try := 0; ; try++ {
		out.Reset()
		errb.Reset()
		cmd := exec.CommandContext(ctx, browser, append(args, url)...)
		cmd.Stdout, cmd.Stderr = &out, &errb
		err = cmd.Run()
		// Headless Chromium now and then dies of a signal while it
		// starts on a busy machine: one more try.
		var ee *exec.ExitError
		if err == nil || try > 0 || !errors.As(err, &ee) || ee.Exited() {
			break
		}
	}
	if err != nil {
		return "", errors.New(browser + ": " + err.Error() + ": " + errb.String())
	}
	return out.String(), nil
}

var (
	countRE = regexp.MustCompile(`class="count" data-count="(\d+)"`)
	pollsRE = regexp.MustCompile(`data-polls="(\d+)"`)
)

// TestDashboardInChromium drives the dashboard in headless Chromium while
// an ab run plays: the run page's script polls and the stored count on the
// page grows; once the run ends the page shows its verdict and the W/D/L
// the ab command computed. With $GAUNTLET_DASHBOARD_SHOTS set to a
// directory it also writes screenshots of the pages there (docs/img).
func TestDashboardInChromium(t *testing.T) {
	browser := reports.FindChromium()
	if browser == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("no Chromium (set GAUNTLET_TEST_CHROMIUM): the dashboard's browser test cannot run")
		}
		t.Skip("no Chromium found (install chromium or set GAUNTLET_TEST_CHROMIUM): the dashboard's browser test is skipped")
	}
	shots := os.Getenv("GAUNTLET_DASHBOARD_SHOTS")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := t.TempDir()
	url := "sqlite:" + filepath.Join(dir, "live.db")
	tuneStudy(t, url, "hexgreedy-demo")
	st, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	g, err := contract.Default.Game("brew")
	if err != nil {
		t.Fatal(err)
	}
	a, err := entrant.Parse(contract.Default, "brew", "greedy")
	if err != nil {
		t.Fatal(err)
	}
	b, err := entrant.Parse(contract.Default, "brew", "greedy:price_weight=0.97")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := results.ParseSPRT("0,10")
	if err != nil {
		t.Fatal(err)
	}
	// No early stop: the run plays all its games, long enough to be
	// watched; its summary still has the test's verdict.
	sp.Early = false
	games := 20000
	if testing.Short() {
		games = 6000
	}
	plan, err := runner.ABPlan(g, "seeds:"+strconv.Itoa(games/2), a, b, nil, games, "", map[string]any{"sprt": sp})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.OpenRun(ctx, &plan.Run); err != nil {
		t.Fatal(err)
	}
	type result struct {
		rs  *runner.Results
		err error
	}
	done := make(chan result, 1)
	go func() {
		rs, err := (&runner.Runner{Jobs: 1, Store: st}).Run(ctx, plan, nil)
		done <- result{rs, err}
	}()
	_, ts := open(t, url)
	page := ts.URL + "/run/" + plan.Run.ID
	if shots != "" {
		time.Sleep(300 * time.Millisecond)
		if _, err := chromium(ctx, browser, page, filepath.Join(shots, "dashboard-ab.png")); err != nil {
			t.Fatal(err)
		}
	}
	dom, err := chromium(ctx, browser, page, "")
	if err != nil {
		t.Fatal(err)
	}
	first := countOf(t, dom)
	if m := pollsRE.FindStringSubmatch(dom); m == nil || m[1] == "0" {
		t.Errorf("the page's script did not poll its parts (data-polls %v)", m)
	}
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	sum, err := results.SummarizeAB(r.rs, sp)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := st.Run(ctx, plan.Run.ID)
	if err != nil {
		t.Fatal(err)
	}
	sum.CountStored(rec.GameCount)
	status := "complete"
	if sum.Stopped {
		status = "stopped"
	}
	if err := st.FinishRun(ctx, plan.Run.ID, status, sum.Stored()); err != nil {
		t.Fatal(err)
	}
	dom, err = chromium(ctx, browser, page, "")
	if err != nil {
		t.Fatal(err)
	}
	last := countOf(t, dom)
	switch {
	case first < rec.GameCount && last <= first:
		t.Errorf("the stored count on the page did not grow: %d while the run played, %d after", first, last)
	case first >= rec.GameCount:
		t.Logf("the run had ended before the first look (%d games): the growth was not seen", first)
	}
	w, d, l, llr, verdict := abFigures(t, dom)
	if w != sum.Wins || d != sum.Draws || l != sum.Losses || llr != sum.LLR || verdict != sum.SPRT {
		t.Errorf("browser shows +%d =%d -%d LLR %v %s; ab computed +%d =%d -%d LLR %v %s", w, d, l, llr, verdict,
			sum.Wins, sum.Draws, sum.Losses, sum.LLR, sum.SPRT)
	}
	if !strings.Contains(dom, "accept H1") {
		t.Error("no LLR chart with its bounds in the browser")
	}
	t.Logf("browser saw %d then %d games; +%d =%d -%d, LLR %.3f, SPRT %s", first, last, w, d, l, llr, verdict)
	if shots != "" {
		if _, err := chromium(ctx, browser, ts.URL+"/study/hexgreedy-demo", filepath.Join(shots, "dashboard-study.png")); err != nil {
			t.Fatal(err)
		}
	}
}

// countOf reads the stored count from a run page's DOM.
func countOf(t *testing.T, dom string) int {
	t.Helper()
	m := countRE.FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("no stored count on the page: %.1500s", dom)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}
