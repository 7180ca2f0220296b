package dashboard

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "gauntlet/games" // the games
	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/results"
	"gauntlet/harness/runner"
	"gauntlet/harness/store"
	"gauntlet/internal/testjson"
	"gauntlet/tuning"
)

// abRun plays a short real ab run with an early-stopping SPRT (brew:
// greedy against random) into the store at url, as `gauntlet ab --sprt`
// does, and returns its summary and whether finish stored it.
func abRun(t testing.TB, url string, games int, finish bool) (*results.ABSummary, string) {
	t.Helper()
	return abRunOf(t, url, "brew", "greedy", "random", games, finish)
}

// abRunOf is abRun of strategies a and b of game.
func abRunOf(t testing.TB, url, game, sa, sb string, games int, finish bool) (*results.ABSummary, string) {
	t.Helper()
	ctx := context.Background()
	g, ents := gameEntrants(t, game, sa, sb)
	a, b := ents[0], ents[1]
	sp, err := results.ParseSPRT("0,10")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := runner.ABPlan(g, "seeds:"+strconv.Itoa(games/2), a, b, nil, games, "", map[string]any{"sprt": sp})
	if err != nil {
		t.Fatal(err)
	}
	stop, err := results.NewSPRTStopper(plan, sp)
	if err != nil {
		t.Fatal(err)
	}
	st := openStore(t, url)
	defer st.Close()
	rs, err := (&runner.Runner{Jobs: 2, Store: st}).Run(ctx, plan, stop)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := results.SummarizeAB(rs, sp)
	if err != nil {
		t.Fatal(err)
	}
	if finish {
		rec, err := st.Run(ctx, plan.Run.ID)
		if err != nil {
			t.Fatal(err)
		}
		sum.CountStored(rec.GameCount)
		if err := st.FinishRun(ctx, plan.Run.ID, "stopped", sum.Stored()); err != nil {
			t.Fatal(err)
		}
	}
	return sum, plan.Run.ID
}

// openStore opens the store at url.
func openStore(t testing.TB, url string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// gameEntrants returns game and its entrants of specs.
func gameEntrants(t testing.TB, game string, specs ...string) (contract.Game, []*entrant.Entrant) {
	t.Helper()
	g, err := contract.Default.Game(game)
	if err != nil {
		t.Fatal(err)
	}
	ents := make([]*entrant.Entrant, len(specs))
	for i, s := range specs {
		if ents[i], err = entrant.Parse(contract.Default, game, s); err != nil {
			t.Fatal(err)
		}
	}
	return g, ents
}

// tuneStudy runs a short real tuning study (hextris hexgreedy on one
// case) into the store at url and returns its summary.
func tuneStudy(t testing.TB, url, name string) *tuning.Summary {
	t.Helper()
	sum, _ := runStudy(t, url, name, tuning.Config{Game: "hextris", Strategy: "hexgreedy", Cases: "p1/s0",
		Space: []string{"w_holes", "w_height", "w_bump"}, Seed: 3}, 8, "")
	return sum
}

// runStudy runs trials trials of the study name of c into the store at
// url and returns its summary; with holdout, it then plays the study's
// hold-out on that case set (tune --holdout) and returns it too.
func runStudy(t testing.TB, url, name string, c tuning.Config, trials int, holdout string) (*tuning.Summary, *tuning.Holdout) {
	t.Helper()
	ctx := context.Background()
	tu, err := tuning.New(contract.Default, c)
	if err != nil {
		t.Fatal(err)
	}
	st, err := tuning.OpenStorage(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	opt := tuning.RunOptions{Study: name, Trials: trials, Jobs: 1, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	sum, err := tu.Run(ctx, st, opt)
	if err != nil {
		t.Fatal(err)
	}
	if holdout == "" {
		return sum, nil
	}
	if sum.BestTrial == nil {
		t.Fatal("the study has no best trial")
	}
	plan, err := tuning.NewHoldout(contract.Default, c, tu, holdout)
	if err != nil {
		t.Fatal(err)
	}
	ho, err := plan.Run(ctx, st, name, *sum.BestTrial, sum.BestParams, opt)
	if err != nil {
		t.Fatal(err)
	}
	return sum, ho
}

// open starts a dashboard over url behind an httptest server.
func open(t testing.TB, url string) (*Server, *httptest.Server) {
	t.Helper()
	s, err := Open(context.Background(), Config{Storage: url, Registry: contract.Default})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		ts.Close()
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s, ts
}

// get fetches path and returns the body; the status must be want.
func get(t testing.TB, ts *httptest.Server, path string, want int) string {
	t.Helper()
	resp, err := http.Get(ts.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != want {
		t.Fatalf("GET %s: %d, want %d: %.300s", path, resp.StatusCode, want, body)
	}
	return string(body)
}

// parts fetches a page's parts endpoint.
func parts(t testing.TB, ts *httptest.Server, path string) map[string]string {
	t.Helper()
	var out struct{ Parts map[string]string }
	if err := json.Unmarshal([]byte(get(t, ts, path, 200)), &out); err != nil {
		t.Fatal(err)
	}
	return out.Parts
}

var (
	wdlRE  = regexp.MustCompile(`data-wdl="(\d+) (\d+) (\d+)"`)
	llrRE  = regexp.MustCompile(`data-llr="([^"]+)"`)
	verdRE = regexp.MustCompile(`data-verdict="([^"]*)"`)
	bestRE = regexp.MustCompile(`data-best="([^"]+)"`)
)

// abFigures reads W/D/L, LLR and verdict from a run page's result part.
func abFigures(t *testing.T, html string) (w, d, l int, llr float64, verdict string) {
	t.Helper()
	m := wdlRE.FindStringSubmatch(html)
	n := llrRE.FindStringSubmatch(html)
	v := verdRE.FindStringSubmatch(html)
	if m == nil || n == nil || v == nil {
		t.Fatalf("no W/D/L, LLR or verdict in %.2000s", html)
	}
	w, _ = strconv.Atoi(m[1])
	d, _ = strconv.Atoi(m[2])
	l, _ = strconv.Atoi(m[3])
	llr, err := strconv.ParseFloat(n[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return w, d, l, llr, v[1]
}

// TestRunPageShowsTheABResult: while an ab run is unfinished (no summary
// stored yet) the run page computes its statistics from the stored games,
// and they are the ab command's: W/D/L, LLR and verdict; once the run's
// summary is stored the page shows the same figures from it.
func TestRunPageShowsTheABResult(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "ab.db")
	sum, id := abRun(t, url, 300, false)
	if sum.SPRT != "H1" || !sum.Stopped {
		t.Fatalf("the run did not stop on H1: %s stopped %v", sum.SPRT, sum.Stopped)
	}
	_, ts := open(t, url)
	check := func(when string) {
		// The figures of an unfinished run are computed in the
		// background: a loaded machine may take more than a page's wait.
		p := parts(t, ts, "/parts/run/"+id)
		for deadline := time.Now().Add(time.Minute); !strings.Contains(p["result"], "data-wdl") && time.Now().Before(deadline); {
			time.Sleep(50 * time.Millisecond)
			p = parts(t, ts, "/parts/run/"+id)
		}
		w, d, l, llr, verdict := abFigures(t, p["result"])
		if w != sum.Wins || d != sum.Draws || l != sum.Losses || llr != sum.LLR || verdict != sum.SPRT {
			t.Errorf("%s: page +%d =%d -%d LLR %v %s; ab computed +%d =%d -%d LLR %v %s", when, w, d, l, llr, verdict,
				sum.Wins, sum.Draws, sum.Losses, sum.LLR, sum.SPRT)
		}
		if !strings.Contains(p["charts"], "<svg") || !strings.Contains(p["charts"], "accept H1") {
			t.Errorf("%s: no LLR chart with its bounds", when)
		}
	}
	check("unfinished")
	if p := parts(t, ts, "/parts/run/"+id); !strings.Contains(p["result"], "computed from the stored games") {
		t.Error("the live figures are not marked as computed from the games")
	}
	if err := func() error {
		st, err := store.Open(context.Background(), url)
		if err != nil {
			return err
		}
		defer st.Close()
		rec, err := st.Run(context.Background(), id)
		if err != nil {
			return err
		}
		sum.CountStored(rec.GameCount)
		return st.FinishRun(context.Background(), id, "stopped", sum.Stored())
	}(); err != nil {
		t.Fatal(err)
	}
	check("finished")
	page := get(t, ts, "/run/"+id, 200)
	if !strings.Contains(page, `data-part="games"`) || !strings.Contains(page, "/replay/"+id+"/seed:1%2Fab") {
		t.Errorf("the run page has no games with replay links")
	}
	// The second page of games starts where the first ended.
	if p := get(t, ts, "/run/"+id+"?offset=50", 200); !strings.Contains(p, "games 51–100 of") {
		t.Errorf("the second page of games is not games 51-100")
	}
	// A game's replay is made on demand by the game's viewer.
	if r := get(t, ts, "/replay/"+id+"/seed:1%2Fab", 200); !strings.Contains(r, "<script") || !strings.Contains(r, "greedy") {
		t.Errorf("the replay page is not a viewer page: %.300s", r)
	}
	get(t, ts, "/replay/"+id+"/nope", 404)
	get(t, ts, "/run/no-such-run", 404)
	idx := get(t, ts, "/", 200)
	if !strings.Contains(idx, id) || !strings.Contains(idx, "SPRT H1") {
		t.Errorf("the index does not list the run with its verdict")
	}
}

// TestLiveFiguresFollowTheGames: an unfinished run's figures follow its
// games as they are stored, and are the figures of the games stored then.
func TestLiveFiguresFollowTheGames(t *testing.T) {
	ctx := context.Background()
	url := "sqlite:" + filepath.Join(t.TempDir(), "ab.db")
	sum, id := abRun(t, url, 300, false)
	st, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	all, err := st.Games(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	// The run as it was halfway to its test's decision (the games played
	// after it count for nothing): its later games not stored yet.
	cut := sum.Games / 2
	var later []store.GameRecord
	for _, g := range all {
		if g.Index >= cut {
			later = append(later, g)
		}
	}
	if _, err := st.DB().Exec(`DELETE FROM games WHERE run_id = ? AND idx >= ?`, id, cut); err != nil {
		t.Fatal(err)
	}
	half, err := results.LoadABSummary(ctx, st, contract.Default, id)
	if err != nil {
		t.Fatal(err)
	}
	if half.Wins == sum.Wins && half.Losses == sum.Losses {
		t.Fatalf("the first %d games score as the %d the test counted: +%d -%d", cut, sum.Games, half.Wins, half.Losses)
	}
	_, ts := open(t, url)
	// waitFor polls the run's figures until they are want's or a minute
	// has passed (they are computed in the background).
	waitFor := func(when string, want *results.ABSummary) {
		t.Helper()
		var w, d, l int
		for deadline := time.Now().Add(time.Minute); ; {
			if p := parts(t, ts, "/parts/run/"+id); wdlRE.MatchString(p["result"]) {
				w, d, l, _, _ = abFigures(t, p["result"])
				if w == want.Wins && d == want.Draws && l == want.Losses {
					return
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: the page shows +%d =%d -%d, want +%d =%d -%d", when, w, d, l, want.Wins, want.Draws, want.Losses)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	waitFor("halfway", half)
	if err := st.SaveGames(ctx, id, later); err != nil {
		t.Fatal(err)
	}
	waitFor("all stored", sum)
}

// TestStudyPageShowsTheBest: a study's page shows the best value and
// parameters that the tuning computed, in --params-file form.
func TestStudyPageShowsTheBest(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "tune.db")
	sum := tuneStudy(t, url, "hx")
	if sum.BestValue == nil {
		t.Fatal("the study has no best trial")
	}
	_, ts := open(t, url)
	p := parts(t, ts, "/parts/study/hx")
	m := bestRE.FindStringSubmatch(p["best"])
	if m == nil {
		t.Fatalf("no best value on the page: %.1000s", p["best"])
	}
	if v, err := strconv.ParseFloat(m[1], 64); err != nil || v != *sum.BestValue {
		t.Errorf("page best %s, tune's best %v", m[1], *sum.BestValue)
	}
	pre := regexp.MustCompile(`(?s)<pre id="best-file" class="params-file">(.*?)</pre>`).FindStringSubmatch(p["best"])
	if pre == nil {
		t.Fatal("no params file on the page")
	}
	var file struct {
		Params map[string]any `json:"params"`
		Trial  int            `json:"trial"`
	}
	if err := json.Unmarshal([]byte(htmlUnescape(pre[1])), &file); err != nil {
		t.Fatalf("the params file is not JSON: %v\n%s", err, pre[1])
	}
	want := testjson.Marshal(t, sum.BestParams)
	got := testjson.Marshal(t, file.Params)
	if string(got) != string(want) || file.Trial != *sum.BestTrial {
		t.Errorf("params file trial %d %s, tune's best trial %d %s", file.Trial, got, *sum.BestTrial, want)
	}
	for _, part := range []string{"trial values", "parameter importance", "parallel coordinates"} {
		if !strings.Contains(p["charts"], part) {
			t.Errorf("no %q chart", part)
		}
	}
	get(t, ts, "/study/nope", 404)
	if page := get(t, ts, "/study/hx", 200); !strings.Contains(page, html.EscapeString(sum.Objective)) {
		t.Errorf("the study page does not say its objective %q", sum.Objective)
	}
	if idx := get(t, ts, "/", 200); !strings.Contains(idx, `href="/study/hx"`) {
		t.Error("the index does not list the study")
	}
	// A name that is not one path segment (tune --holdout's studies are
	// STUDY/holdout[SET]/...) is linked as one.
	slash := "hx/holdout[p1/s0]/base"
	tuneStudy(t, url, slash)
	_, ts = open(t, url)
	link := "/study/" + pathEscape(slash)
	if idx := get(t, ts, "/", 200); !strings.Contains(idx, `href="`+link+`"`) {
		t.Errorf("the index does not link %q as %s", slash, link)
	}
	if page := get(t, ts, link, 200); !strings.Contains(page, html.EscapeString(slash)) {
		t.Errorf("the page of %q does not name it", slash)
	}
}

// TestStudyPageShowsItsHoldout: a study's page shows the hold-out stored
// beside it (tune --holdout) with the figures the hold-out computed, and
// links the two studies that played it; a study without one shows none.
func TestStudyPageShowsItsHoldout(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "tune.db")
	_, ho := runStudy(t, url, "hx", tuning.Config{Game: "hextris", Strategy: "hexgreedy", Cases: "p1/s0",
		Space: []string{"w_holes", "w_low"}, Seed: 5}, 6, "problem:0,17")
	_, ts := open(t, url)
	held := parts(t, ts, "/parts/study/hx")["holdout"]
	for _, want := range []string{
		"<td>problem:0,17</td>", fmt.Sprintf(`class="num">%d</td>`, ho.Units),
		fmt.Sprintf(`%d: <span class="held-best" data-value="%v">`, ho.BestTrial, ho.BestValue),
		fmt.Sprintf(`class="num held-base" data-value="%v"`, ho.BaseValue),
		fmt.Sprintf(`class="num held-diff" data-value="%v"`, ho.Diff),
		fmt.Sprintf(`class="num held-better">%d<`, ho.Better), fmt.Sprintf(`class="num held-worse">%d<`, ho.Worse),
		`href="/study/` + pathEscape(ho.Studies[0]) + `"`, `href="/study/` + pathEscape(ho.Studies[1]) + `"`,
	} {
		if !strings.Contains(held, html.EscapeString(want)) && !strings.Contains(held, want) {
			t.Errorf("the hold-out part lacks %q:\n%s", want, held)
		}
	}
	if other := parts(t, ts, "/parts/study/"+pathEscape(ho.Studies[0]))["holdout"]; strings.Contains(other, "<table") {
		t.Errorf("a hold-out study shows a hold-out of its own:\n%s", other)
	}
}

// htmlUnescape undoes html/template's escaping of a <pre>'s text.
func htmlUnescape(s string) string {
	return strings.NewReplacer("&#34;", `"`, "&quot;", `"`, "&#39;", "'", "&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(s)
}

// TestHostileNamesAreEscaped: an entrant label, parameter and worker name
// made of markup and terminal controls are shown as text on every page.
func TestHostileNamesAreEscaped(t *testing.T) {
	ctx := context.Background()
	url := "sqlite:" + filepath.Join(t.TempDir(), "hostile.db")
	st, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	evil := `<script>alert(1)</script><img src=x onerror=alert(2)>"'` + "\x1b[31m\u202e"
	rec := &store.RunRecord{ID: "r<em>x", Kind: "ab", Game: "brew", CaseSet: evil, Spec: `{}`, Version: "t",
		Entrants: []store.EntrantRecord{
			{Key: "a", Label: evil, Strategy: "cmd", Params: map[string]any{evil: evil}},
			{Key: "b", Label: "b", Strategy: "greedy", Params: map[string]any{}},
		}}
	if err := st.OpenRun(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := st.SaveGames(ctx, rec.ID, []store.GameRecord{{Key: "c/ab", CaseID: evil, Seats: []int{0, 1}, Worker: evil,
		Outcome: contract.Outcome{Seats: []contract.SeatResult{{Score: 1, Forfeit: evil}, {Score: 0}}}}}); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	_, ts := open(t, url)
	for _, path := range []string{"/", "/run/r%3Cem%3Ex", "/parts/run/r%3Cem%3Ex", "/parts/index"} {
		body := get(t, ts, path, 200)
		if strings.HasPrefix(path, "/parts") {
			var p struct{ Parts map[string]string }
			if err := json.Unmarshal([]byte(body), &p); err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for _, h := range p.Parts {
				b.WriteString(h)
			}
			body = b.String()
		}
		for _, bad := range []string{"<script>alert", "<img src=x", "\x1b", "\u202e", "<em>x"} {
			if strings.Contains(body, bad) {
				t.Errorf("%s: %q appears unescaped", path, bad)
			}
		}
		if !strings.Contains(body, "&lt;script&gt;alert(1)") {
			t.Errorf("%s: the hostile label is not shown escaped", path)
		}
	}
}

// TestCheckAddr: loopback addresses only, unless public.
func TestCheckAddr(t *testing.T) {
	for _, c := range []struct {
		addr   string
		public bool
		ok     bool
	}{
		{"127.0.0.1:8080", false, true},
		{"[::1]:0", false, true},
		{"localhost:80", false, true},
		{"127.0.0.2:80", false, true},
		{"0.0.0.0:8080", false, false},
		{":8080", false, false},
		{"[::]:8080", false, false},
		{"192.0.2.1:80", false, false},
		{"example.com:80", false, false},
		{"0.0.0.0:8080", true, true},
		{":8080", true, true},
		{"8080", true, false},
		{"127.0.0.1:99999", false, false},
	} {
		err := CheckAddr(c.addr, c.public)
		if (err == nil) != c.ok {
			t.Errorf("CheckAddr(%q, %v) = %v, want ok %v", c.addr, c.public, err, c.ok)
		}
	}
}
