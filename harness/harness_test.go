package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gauntlet/strategies/param"
)

// duel is a toy game for the harness tests: every seat scores its bot's
// skill plus seeded noise; an optional delay makes games slow.
type duel struct {
	seats   int
	delay   time.Duration
	played  atomic.Int64
	groupOf func(i int) string
}

type duelBot struct{ skill float64 }

func (d *duel) Info() GameInfo {
	return GameInfo{Name: "duel", MinSeats: 1, MaxSeats: d.seats, HigherIsBetter: true,
		CaseSets: []CaseSetInfo{{Name: "seeds:N", Doc: "seeds 1..N"}}}
}

func (d *duel) Cases(set string) ([]Case, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(set, "seeds:"))
	if err != nil || !strings.HasPrefix(set, "seeds:") {
		return nil, fmt.Errorf("unknown case set %q (known: seeds:N)", set)
	}
	out := make([]Case, n)
	for i := range out {
		out[i] = Case{ID: "seed:" + strconv.Itoa(i+1), Seed: uint64(i + 1)}
		if d.groupOf != nil {
			out[i].Group = d.groupOf(i)
		}
	}
	return out, nil
}

func (d *duel) Play(ctx context.Context, c Case, players []Player, opt PlayOptions) (Outcome, error) {
	d.played.Add(1)
	if d.delay > 0 {
		select {
		case <-time.After(d.delay):
		case <-ctx.Done():
			return Outcome{}, ctx.Err()
		}
	}
	out := Outcome{Turns: int(c.Seed % 7)}
	for _, p := range players {
		b := p.Bot
		r := rand.New(rand.NewPCG(p.Seed, c.Seed))
		out.Seats = append(out.Seats, SeatResult{Score: b.(*duelBot).skill + r.Float64()*4})
	}
	RanksByScore(out.Seats)
	return out, nil
}

func duelRegistry(d *duel) *Registry {
	r := NewRegistry()
	r.RegisterGame(d)
	specs := param.Specs{{Name: "skill", Kind: param.Float, Min: 0, Max: 10, Default: 5, Help: "how good"}}
	r.RegisterStrategy(&Strategy{Game: "duel", Name: "fixed", Params: specs,
		New: func(v param.Values, seed uint64) (any, error) { return &duelBot{skill: v["skill"]}, nil }})
	return r
}

func mustEntrant(t testing.TB, r *Registry, spec string) *Entrant {
	t.Helper()
	e, err := r.ParseEntrant("duel", spec)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func evalJSON(t *testing.T, rn *Runner, r *Registry, d *duel, n int) string {
	t.Helper()
	p, err := EvalPlan(d, "seeds:"+strconv.Itoa(n), mustEntrant(t, r, "fixed:skill=6"), []*Entrant{mustEntrant(t, r, "fixed")}, "")
	if err != nil {
		t.Fatal(err)
	}
	rs, err := rn.Run(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(SummarizeEval(rs))
	return string(js)
}

func TestEvalDeterministicWhateverJobs(t *testing.T) {
	d := &duel{seats: 2}
	r := duelRegistry(d)
	one := evalJSON(t, &Runner{Jobs: 1}, r, d, 50)
	four := evalJSON(t, &Runner{Jobs: 4}, r, d, 50)
	again := evalJSON(t, &Runner{Jobs: 3}, r, d, 50)
	if one != four || one != again {
		t.Fatalf("results differ with --jobs:\n%s\n%s", one, four)
	}
	var s EvalSummary
	json.Unmarshal([]byte(one), &s)
	if s.Games != 50 || s.FirstRate == nil || *s.FirstRate <= 0.5 {
		t.Fatalf("summary = %+v", s)
	}
}

func TestParseEntrantErrors(t *testing.T) {
	r := duelRegistry(&duel{seats: 2})
	for spec, want := range map[string]string{
		"nosuch":              `unknown strategy "nosuch"`,
		"fixed:skil=3":        `unknown param "skil"`,
		"fixed:skill=11":      `param "skill": 11 is outside [0, 10]`,
		"fixed:skill=abc":     `"abc" is not a number`,
		"fixed:skill":         "want name=value",
		"cmd:./no-such-bot-x": `bot command "./no-such-bot-x" not found`,
		"cmd:sh -c {w}":       "placeholder {w} has no value",
	} {
		_, err := r.ParseEntrant("duel", spec)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseEntrant(%q) = %v, want error containing %q", spec, err, want)
		}
	}
	e, err := r.ParseEntrant("duel", "cmd:sh -c 'echo {w=0.5} {seed}'", "w=0.75")
	if err != nil {
		t.Fatal(err)
	}
	argv, err := e.Argv(42)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(argv, "|"); got != "sh|-c|echo 0.75 42" {
		t.Fatalf("Argv = %q", got)
	}
	if env := e.Environ(42); env[0] != "GAUNTLET_SEED=42" || env[1] != "GAUNTLET_PARAM_W=0.75" {
		t.Fatalf("Environ = %q", env)
	}
}

func TestParseLineup(t *testing.T) {
	r := duelRegistry(&duel{seats: 6})
	l, err := r.ParseLineup("duel", "fixed:skill=2,fixed*3, fixed:skill=7")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range l {
		got = append(got, e.Label())
	}
	if strings.Join(got, " ") != "fixed:skill=2 fixed fixed fixed fixed:skill=7" {
		t.Fatalf("lineup = %v", got)
	}
}

func openTestStore(t *testing.T, path string) *Store {
	t.Helper()
	s, err := OpenStore(context.Background(), "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func countGames(t *testing.T, s *Store, run string) (rows, distinct int) {
	t.Helper()
	if err := s.DB().QueryRow(`SELECT COUNT(*), COUNT(DISTINCT match_key) FROM games WHERE run_id = ?`, run).Scan(&rows, &distinct); err != nil {
		t.Fatal(err)
	}
	return
}

// stopAfter cancels the context once n results were fed in order.
type stopAfter struct {
	n      int
	cancel func()
	seen   int
}

func (s *stopAfter) Add(*Result) bool {
	s.seen++
	if s.seen == s.n {
		s.cancel()
	}
	return false
}

func TestResumeAfterInterruption(t *testing.T) {
	d := &duel{seats: 2, delay: 2 * time.Millisecond}
	r := duelRegistry(d)
	path := filepath.Join(t.TempDir(), "g.db")
	st := openTestStore(t, path)
	plan := func() *Plan {
		p, err := EvalPlan(d, "seeds:60", mustEntrant(t, r, "fixed"), []*Entrant{mustEntrant(t, r, "fixed:skill=1")}, "")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	ctx, cancel := context.WithCancel(context.Background())
	rs, err := (&Runner{Store: st, Jobs: 3}).Run(ctx, plan(), &stopAfter{n: 20, cancel: cancel})
	if err == nil {
		t.Fatal("interrupted run returned no error")
	}
	p1 := d.played.Load()
	rows, _ := countGames(t, st, rs.Plan.Run.ID)
	if rows < 20 || rows >= 60 {
		t.Fatalf("after interruption %d games stored, want 20..59", rows)
	}
	d.played.Store(0)
	rs2, err := (&Runner{Store: st, Jobs: 3}).Run(context.Background(), plan(), nil)
	if err != nil {
		t.Fatal(err)
	}
	rows2, distinct := countGames(t, st, rs.Plan.Run.ID)
	if rows2 != 60 || distinct != 60 {
		t.Fatalf("after resume: %d rows, %d distinct, want 60", rows2, distinct)
	}
	if int(d.played.Load()) != 60-rows || rs2.Resumed != rows {
		t.Fatalf("resume played %d (resumed %d), want %d new games (first run started %d)", d.played.Load(), rs2.Resumed, 60-rows, p1)
	}
	// The resumed summary equals a fresh, storage-free run.
	fresh, _ := (&Runner{Jobs: 2}).Run(context.Background(), plan(), nil)
	a, _ := json.Marshal(SummarizeEval(rs2))
	b, _ := json.Marshal(SummarizeEval(fresh))
	if string(a) != string(b) {
		t.Fatalf("resumed summary differs from a fresh run:\n%s\n%s", a, b)
	}
}

func TestTwoWorkersShareOneRun(t *testing.T) {
	testTwoWorkers(t, "sqlite:"+filepath.Join(t.TempDir(), "g.db"), "shared")
}

// postgresURL is the test server's URL; CI starts one (see .ci/run).
func postgresURL(t *testing.T) string {
	url := os.Getenv("GAUNTLET_TEST_POSTGRES")
	if url == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("GAUNTLET_TEST_POSTGRES is not set: CI must start PostgreSQL (see .ci/run)")
		}
		t.Skip("GAUNTLET_TEST_POSTGRES not set (CI sets it); skipping the PostgreSQL test")
	}
	return url
}

func TestTwoWorkersShareOneRunPostgres(t *testing.T) {
	testTwoWorkers(t, postgresURL(t), fmt.Sprintf("shared-%d", time.Now().UnixNano()))
}

func testTwoWorkers(t *testing.T, url, runName string) {
	d := &duel{seats: 2, delay: 3 * time.Millisecond}
	r := duelRegistry(d)
	open := func() *Store {
		s, err := OpenStore(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	open() // create the tables before the workers race for it
	var wg sync.WaitGroup
	var played [2]int
	var errs [2]error
	var runIDs [2]string
	for w := 0; w < 2; w++ {
		st := open()
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			p, err := EvalPlan(d, "seeds:80", mustEntrant(t, r, "fixed"), []*Entrant{mustEntrant(t, r, "fixed")}, runName)
			if err != nil {
				errs[w] = err
				return
			}
			runIDs[w] = p.Run.ID
			rs, err := (&Runner{Store: st, Jobs: 2, Worker: fmt.Sprint("w", w)}).Run(context.Background(), p, nil)
			errs[w] = err
			if rs != nil {
				played[w] = rs.Played
				if got := len(rs.Decided()); err == nil && got != 80 {
					errs[w] = fmt.Errorf("worker %d sees %d results, want 80", w, got)
				}
			}
		}(w)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	st := open()
	var rows, distinct int
	if err := st.DB().QueryRow(st.rebind(`SELECT COUNT(*), COUNT(DISTINCT match_key) FROM games WHERE run_id = ?`), runIDs[0]).Scan(&rows, &distinct); err != nil {
		t.Fatal(err)
	}
	if rows != 80 || distinct != 80 {
		t.Fatalf("%d rows, %d distinct, want 80", rows, distinct)
	}
	if played[0]+played[1] != 80 || d.played.Load() != 80 {
		t.Fatalf("workers played %v (game saw %d plays), want 80 in all: some game was played twice", played, d.played.Load())
	}
	if played[0] == 0 || played[1] == 0 {
		t.Logf("note: one worker played everything (%v)", played)
	}
}

// TestWorkersReadEachOthersGamesWhilePlaying: two workers share a run
// whose games take 2 ms; each reads most of the other's games while it
// plays (gather), and both end with every game's result, the results a
// run without a store gives.
func TestWorkersReadEachOthersGamesWhilePlaying(t *testing.T) {
	for _, url := range storeURLs(t) {
		t.Run(dialectOf(url), func(t *testing.T) {
			d := &duel{seats: 2, delay: 2 * time.Millisecond}
			r := duelRegistry(d)
			const games = 300
			name := fmt.Sprintf("gather-%d", time.Now().UnixNano())
			plan := func() *Plan {
				p, err := EvalPlan(d, fmt.Sprintf("seeds:%d", games), mustEntrant(t, r, "fixed"), []*Entrant{mustEntrant(t, r, "fixed:skill=1")}, name)
				if err != nil {
					t.Fatal(err)
				}
				return p
			}
			want, err := (&Runner{Jobs: 4}).Run(context.Background(), plan(), nil)
			if err != nil {
				t.Fatal(err)
			}
			st0, err := OpenStore(context.Background(), url)
			if err != nil {
				t.Fatal(err)
			}
			defer st0.Close() // the tables exist before the workers start
			var wg sync.WaitGroup
			var rss [2]*Results
			var errs [2]error
			for w := range 2 {
				st, err := OpenStore(context.Background(), url)
				if err != nil {
					t.Fatal(err)
				}
				defer st.Close()
				p := plan()
				wg.Go(func() {
					rn := &Runner{Store: st, Jobs: 2, Worker: fmt.Sprint("w", w), gatherEvery: 5 * time.Millisecond}
					rss[w], errs[w] = rn.Run(context.Background(), p, nil)
				})
			}
			wg.Wait()
			for w, rs := range rss {
				if errs[w] != nil {
					t.Fatal(errs[w])
				}
				if rs.Played+rs.Resumed != games {
					t.Fatalf("worker %d: %d played + %d resumed, want %d", w, rs.Played, rs.Resumed, games)
				}
				if rs.Played > 0 && rs.Resumed > 0 && rs.gathered == 0 {
					t.Errorf("worker %d read none of the other's %d games while it played", w, rs.Resumed)
				}
				if rs.gathered > rs.Resumed {
					t.Errorf("worker %d read %d games while it played, more than the other's %d", w, rs.gathered, rs.Resumed)
				}
				t.Logf("worker %d: played %d, read %d of the other's %d games while playing", w, rs.Played, rs.gathered, rs.Resumed)
				for i, res := range rs.Results {
					if res == nil || !reflect.DeepEqual(res.Outcome.Seats, want.Results[i].Outcome.Seats) {
						t.Fatalf("worker %d game %d: %+v, want %+v", w, i, res, want.Results[i])
					}
				}
			}
			if rss[0].Played+rss[1].Played != games {
				t.Fatalf("the workers played %d and %d games, want %d in all", rss[0].Played, rss[1].Played, games)
			}
			// A worker alone reads nothing while it plays.
			name = name + "-alone"
			st, err := OpenStore(context.Background(), url)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			rs, err := (&Runner{Store: st, Jobs: 2, gatherEvery: 5 * time.Millisecond}).Run(context.Background(), plan(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if rs.Played != games || rs.gathered != 0 {
				t.Fatalf("a worker alone played %d of %d games and read %d while it played, want none", rs.Played, games, rs.gathered)
			}
		})
	}
}

func TestRunNameWithOtherSpecIsAnError(t *testing.T) {
	d := &duel{seats: 2}
	r := duelRegistry(d)
	st := openTestStore(t, filepath.Join(t.TempDir(), "g.db"))
	p, _ := EvalPlan(d, "seeds:3", mustEntrant(t, r, "fixed"), []*Entrant{mustEntrant(t, r, "fixed")}, "mine")
	if _, err := (&Runner{Store: st}).Run(context.Background(), p, nil); err != nil {
		t.Fatal(err)
	}
	p2, _ := EvalPlan(d, "seeds:4", mustEntrant(t, r, "fixed"), []*Entrant{mustEntrant(t, r, "fixed")}, "mine")
	if _, err := (&Runner{Store: st}).Run(context.Background(), p2, nil); err == nil || !strings.Contains(err.Error(), "different configuration") {
		t.Fatalf("err = %v", err)
	}
}

func TestUnreachableStorage(t *testing.T) {
	_, err := OpenStore(context.Background(), "postgres://nobody:secret@127.0.0.1:1/none?connect_timeout=2")
	if err == nil || !strings.Contains(err.Error(), "unreachable") || strings.Contains(err.Error(), "secret") {
		t.Fatalf("err = %v", err)
	}
	if _, err := OpenStore(context.Background(), "mysql://x"); err == nil || !strings.Contains(err.Error(), "want sqlite:FILE") {
		t.Fatalf("err = %v", err)
	}
	if _, err := OpenStore(context.Background(), "sqlite://g.db"); err == nil || !strings.Contains(err.Error(), "sqlite:g.db") {
		t.Fatalf("err = %v", err)
	}
	if _, err := OpenStore(context.Background(), "sqlite:/no/such/dir/g.db"); err == nil || !strings.Contains(err.Error(), "/no/such/dir") {
		t.Fatalf("err = %v", err)
	}
}

func TestPlayerSeedSpread(t *testing.T) {
	seen := map[uint64]bool{}
	for c := uint64(0); c < 100; c++ {
		for s := 0; s < 6; s++ {
			x := PlayerSeed(c, s)
			if seen[x] {
				t.Fatalf("PlayerSeed collision at case %d seat %d", c, s)
			}
			seen[x] = true
		}
	}
}

// Workers that start together on a new database create its tables and open
// the same run at the same moment: one of them creates the run, the others
// find it, and none fails.
func testConcurrentOpen(t *testing.T, url string) {
	const workers, runs = 6, 5
	for run := 0; run < runs; run++ {
		id := fmt.Sprintf("race-%d", run)
		var wg sync.WaitGroup
		errs := make([]error, workers)
		resumed := make([]bool, workers)
		start := make(chan struct{})
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				<-start
				st, err := OpenStore(context.Background(), url)
				if err != nil {
					errs[w] = err
					return
				}
				defer st.Close()
				rec := &RunRecord{ID: id, Kind: "eval", Game: "duel", CaseSet: "seeds:3", Spec: `{"run":"` + id + `"}`,
					Entrants: []EntrantRecord{{Key: "a", Label: "a", Strategy: "fixed"}, {Key: "b", Label: "b", Strategy: "fixed"}}}
				errs[w] = st.OpenRun(context.Background(), rec)
				resumed[w] = rec.Resumed
			}(w)
		}
		close(start)
		wg.Wait()
		created := 0
		for w := range errs {
			if errs[w] != nil {
				t.Fatalf("run %s, worker %d: %v", id, w, errs[w])
			}
			if !resumed[w] {
				created++
			}
		}
		if created != 1 {
			t.Fatalf("run %s: %d workers created it, want 1", id, created)
		}
		st, err := OpenStore(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		var n int
		err = st.DB().QueryRow(st.rebind(`SELECT COUNT(*) FROM run_entrants WHERE run_id = ?`), id).Scan(&n)
		st.Close()
		if err != nil {
			t.Fatal(err)
		}
		if n != 2 {
			t.Fatalf("run %s: %d entrant rows, want 2", id, n)
		}
	}
}

func TestConcurrentOpenSQLite(t *testing.T) {
	testConcurrentOpen(t, "sqlite:"+filepath.Join(t.TempDir(), "g.db"))
}

func TestConcurrentOpenPostgres(t *testing.T) {
	base := postgresURL(t)
	admin, err := OpenStore(context.Background(), base)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	schema := fmt.Sprintf("race_%d", time.Now().UnixNano())
	if _, err := admin.DB().Exec(`CREATE SCHEMA ` + schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.DB().Exec(`DROP SCHEMA ` + schema + ` CASCADE`) })
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	testConcurrentOpen(t, base+sep+"search_path="+schema)
}
