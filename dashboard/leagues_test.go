package dashboard

import (
	"context"
	"math"
	"os"
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
	"gauntlet/league"
)

// leagueEvil is a version name made of markup and terminal controls.
const leagueEvil = `<script>alert(1)</script><img src=x onerror=alert(2)>"'` + "\x1b[31m\u202e"

// playLeague adds brew versions to league name of the store at url (when
// it has none) and plays it to total games with one worker named worker.
func playLeague(t *testing.T, url, name, worker string, total int64) {
	t.Helper()
	ctx := context.Background()
	st, err := league.OpenStore(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	d := league.Def{Name: name, Game: "brew", Cases: "seeds:1000", Size: 2}
	if vs, err := st.Versions(ctx, name); err != nil {
		t.Fatal(err)
	} else if len(vs) == 0 {
		for _, v := range [][2]string{{"greedy", "greedy"}, {leagueEvil, "random"}, {"beam", "brewbeam:width=10,depth=4,nodes=500"}} {
			e, err := entrant.Parse(contract.Default, "brew", v[1])
			if err != nil {
				t.Fatal(err)
			}
			if _, err := league.Add(ctx, st, d, v[0], e); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := league.Run(ctx, st, league.Config{League: name, Jobs: 2, Worker: worker, Target: league.Target{Total: total}}); err != nil {
		t.Fatal(err)
	}
}

var (
	rowRE  = regexp.MustCompile(`<tr class="version" data-rank="(\d+)" data-version="([^"]*)" data-rating="([^"]*)">`)
	pairRE = regexp.MustCompile(`data-pair="(\d+) (\d+)" data-wdl="(\d+) (\d+) (\d+)"`)
	cntRE  = regexp.MustCompile(`data-count="(\d+)"`)
)

// TestLeaguePage: a league's page shows the board league.Load builds (the
// ladder's order and ratings, each pair's results), the rating chart and
// the worker; the index lists the league; its parts follow the league
// as it plays more games; names are escaped.
func TestLeaguePage(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "league.db")
	name := "pool <em>x"
	playLeague(t, url, name, "w-"+leagueEvil, 120)
	_, ts := open(t, url)
	path := "/league/" + pathEscape(name)
	page := get(t, ts, path, 200)
	for _, want := range []string{`data-part="ladder"`, `data-part="pairs"`, `data-part="charts"`, "rating over games", "/parts/league/pool%20%3Cem%3Ex"} {
		if !strings.Contains(page, want) {
			t.Errorf("the league page lacks %q", want)
		}
	}
	check := func(when string) {
		t.Helper()
		st, err := league.OpenStore(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		want, err := league.Load(context.Background(), st, name, nil)
		if err != nil {
			t.Fatal(err)
		}
		p := parts(t, ts, "/parts"+path)
		// A board is built in the background: a loaded machine may take
		// more than a page's wait.
		for deadline := time.Now().Add(time.Minute); !strings.Contains(p["ladder"], `data-games="`+strconv.Itoa(want.Games)+`"`) && time.Now().Before(deadline); {
			time.Sleep(50 * time.Millisecond)
			p = parts(t, ts, "/parts"+path)
		}
		rows := rowRE.FindAllStringSubmatch(p["ladder"], -1)
		if len(rows) != len(want.Rows) {
			t.Fatalf("%s: %d ladder rows, the board has %d: %.2000s", when, len(rows), len(want.Rows), p["ladder"])
		}
		for k, r := range want.Rows {
			got := rows[k]
			// The page's board is followed game by game, fitted from the
			// last fit: equal to a fit from scratch to far below a point.
			rating, err := strconv.ParseFloat(got[3], 64)
			if err != nil || got[1] != strconv.Itoa(r.Rank) || htmlUnescape(got[2]) != lineOf(r.Version) || math.Abs(rating-*r.Rating) > 1e-6 {
				t.Errorf("%s: ladder row %d: rank %s %q rating %s; the board: %d %q %v", when, k, got[1], got[2], got[3], r.Rank, r.Version, *r.Rating)
			}
		}
		pairs := pairRE.FindAllStringSubmatch(p["pairs"], -1)
		if len(pairs) != len(want.Pairs) {
			t.Fatalf("%s: %d pairs on the page, the board has %d", when, len(pairs), len(want.Pairs))
		}
		for k, pr := range want.Pairs {
			if pairs[k][1] != strconv.Itoa(pr.AID) || pairs[k][3] != strconv.Itoa(pr.Wins) || pairs[k][4] != strconv.Itoa(pr.Draws) || pairs[k][5] != strconv.Itoa(pr.Losses) {
				t.Errorf("%s: pair %d: page %v, board %+v", when, k, pairs[k][1:], pr)
			}
		}
		if c := cntRE.FindStringSubmatch(p["status"]); c == nil || c[1] != strconv.Itoa(want.Games) {
			t.Errorf("%s: the status shows %v games, the league holds %d", when, c, want.Games)
		}
		if !strings.Contains(p["charts"], "<svg") || !strings.Contains(p["charts"], "greedy") {
			t.Errorf("%s: no rating chart with the versions", when)
		}
		if !strings.Contains(p["status"], "w-&lt;script&gt;") {
			t.Errorf("%s: the worker is not listed: %.500s", when, p["status"])
		}
	}
	check("after 120 games")
	if f := os.Getenv("LEAGUE_PAGE_DUMP"); f != "" {
		if err := os.WriteFile(f, []byte(get(t, ts, path, 200)), 0o644); err != nil {
			t.Logf("LEAGUE_PAGE_DUMP: %v", err)
		}
	}
	playLeague(t, url, name, "w2", 240)
	check("after 240 games")
	idx := get(t, ts, "/", 200)
	if !strings.Contains(idx, `href="/league/pool%20%3Cem%3Ex"`) || !strings.Contains(idx, `data-league-games="240"`) {
		t.Errorf("the index does not list the league with its games")
	}
	for _, body := range []string{page, idx, get(t, ts, "/parts"+path, 200), get(t, ts, "/parts/index", 200)} {
		for _, bad := range []string{"<script>alert", "<img src=x", "\x1b", "\u202e", "<em>x", `\u003cscript`} {
			if strings.Contains(body, bad) {
				t.Errorf("%q appears unescaped", bad)
			}
		}
	}
	get(t, ts, "/league/"+pathEscape("no such league"), 404)
}

// TestPagesShowEliminations: in a game that says why a player was out
// (Paper.io), an ab run's page counts each side's eliminations with their
// causes, and a league's ladder has a column of them; a brew league's
// has none.
func TestPagesShowEliminations(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "deaths.db")
	sum, id := abRunOf(t, url, "paperio", "simple", "random", 8, true)
	if sum.ConductB.Eliminated == 0 {
		t.Fatalf("the random walker was never eliminated: %+v", sum.ConductB)
	}
	ctx := context.Background()
	st, err := league.OpenStore(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	d := league.Def{Name: "deaths", Game: "paperio", Cases: "seeds:100", Size: 2}
	for _, v := range [][2]string{{"careful", "simple"}, {"walker", "random"}} {
		e, err := entrant.Parse(contract.Default, "paperio", v[1])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := league.Add(ctx, st, d, v[0], e); err != nil {
			t.Fatal(err)
		}
	}
	_, err = league.Run(ctx, st, league.Config{League: "deaths", Jobs: 2, Target: league.Target{GamesPerVersion: 8}})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	evalID, evalOut := evalRunOf(t, url, "paperio", "random", "simple", 4)
	_, ts := open(t, url)
	result := parts(t, ts, "/parts/run/"+id)["result"]
	want := "<th>eliminated B</th><td title=\"" + strconv.Itoa(sum.ConductB.Causes[0].Count) + " × " + sum.ConductB.Causes[0].First
	if !strings.Contains(result, want) || !strings.Contains(result, ">"+strconv.Itoa(sum.ConductB.Eliminated)+"</td>") {
		t.Errorf("the run's result lacks %q and the count %d:\n%s", want, sum.ConductB.Eliminated, result)
	}
	if r := parts(t, ts, "/parts/run/"+evalID)["result"]; !strings.Contains(r, "<th>eliminated</th><td title=") ||
		!strings.Contains(r, ">"+strconv.Itoa(evalOut)+"</td>") {
		t.Errorf("the eval's result lacks its %d eliminations:\n%s", evalOut, r)
	}
	ladder := parts(t, ts, "/parts/league/deaths")["ladder"]
	if !strings.Contains(ladder, "<th>eliminated</th>") || !strings.Contains(ladder, "line crossed by other player") {
		t.Errorf("the ladder has no eliminations:\n%s", ladder)
	}
	brew := "sqlite:" + filepath.Join(t.TempDir(), "brew.db")
	playLeague(t, brew, "pool", "w", 12)
	_, bs := open(t, brew)
	if l := parts(t, bs, "/parts/league/pool")["ladder"]; strings.Contains(l, "eliminated") {
		t.Errorf("a brew ladder shows eliminations:\n%s", l)
	}
}

// evalRunOf plays an eval of strategy a against b on seeds:n of game into
// the store at url and stores its summary, as `gauntlet eval` does; it
// returns the run's ID and how often a was eliminated.
func evalRunOf(t *testing.T, url, game, a, b string, n int) (string, int) {
	t.Helper()
	ctx := context.Background()
	g, ents := gameEntrants(t, game, a, b)
	plan, err := runner.EvalPlan(g, "seeds:"+strconv.Itoa(n), ents[0], ents[1:], "")
	if err != nil {
		t.Fatal(err)
	}
	st := openStore(t, url)
	defer st.Close()
	rs, err := (&runner.Runner{Jobs: 2, Store: st}).Run(ctx, plan, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum := results.SummarizeEval(rs)
	if err := st.FinishRun(ctx, plan.Run.ID, "done", sum.Stored()); err != nil {
		t.Fatal(err)
	}
	if len(sum.Conduct) == 0 || sum.Conduct[0].Eliminated == 0 {
		t.Fatalf("the eval's entrant %s was never eliminated: %+v", a, sum.Conduct)
	}
	return plan.Run.ID, sum.Conduct[0].Eliminated
}
