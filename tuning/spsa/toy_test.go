package spsa

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/strategies/param"
)

// duel is a toy game of two or three seats with a known optimum: a bot's
// quality is q = −((x−7)/2)² − ((k−13)/4)² − (ln lr)², best at x = 7,
// k = 13, lr = 1; each seat scores q plus standard normal noise drawn from
// the case seed and its player seed, and the higher score wins.
type duel struct {
	played atomic.Int64
	delay  time.Duration
	// stopAt, when set, calls stop as game number stopAt starts, so that
	// an interruption falls inside a block whatever the machine's speed.
	stopAt int64
	stop   func()
}

type duelBot struct{ q float64 }

func duelQuality(v param.Values) float64 {
	return -math.Pow((v["x"]-7)/2, 2) - math.Pow((v["k"]-13)/4, 2) - math.Pow(math.Log(v["lr"]), 2)
}

func (*duel) Info() contract.GameInfo {
	return contract.GameInfo{Name: "duel", MinSeats: 2, MaxSeats: 3, Direction: contract.Higher,
		CaseSets: []contract.CaseSetInfo{{Name: "seeds:N", Doc: "seeds 1..N"}}}
}

func (*duel) Cases(set string) ([]contract.Case, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(set, "seeds:"))
	if err != nil || !strings.HasPrefix(set, "seeds:") || n < 1 {
		return nil, fmt.Errorf("unknown duel case set %q (known: seeds:N)", set)
	}
	out := make([]contract.Case, n)
	for i := range out {
		out[i] = contract.Case{ID: "seed:" + strconv.Itoa(i+1), Seed: uint64(i + 1)}
	}
	return out, nil
}

func (d *duel) Play(ctx context.Context, c contract.Case, players []contract.Player, opt contract.PlayOptions) (contract.Outcome, error) {
	if n := d.played.Add(1); n == d.stopAt {
		d.stop()
		return contract.Outcome{}, ctx.Err()
	}
	if d.delay > 0 {
		select {
		case <-time.After(d.delay):
		case <-ctx.Done():
			return contract.Outcome{}, ctx.Err()
		}
	}
	out := contract.Outcome{Seats: make([]contract.SeatResult, len(players))}
	for i, p := range players {
		b := p.Bot
		r := rand.New(rand.NewPCG(c.Seed, p.Seed))
		out.Seats[i].Score = b.(*duelBot).q + r.NormFloat64()
	}
	contract.RanksByScore(out.Seats)
	return out, nil
}

// duelRegistry is a private registry with the duel game and its strategy
// "dial" (the parameters of toySpecs).
func duelRegistry(d *duel) *contract.Registry {
	reg := contract.NewRegistry()
	reg.RegisterGame(d)
	reg.RegisterStrategy(&contract.Strategy{Game: "duel", Name: "dial", Params: toySpecs,
		New: func(v param.Values, seed uint64) (any, error) {
			if _, err := toySpecs.Validate(v); err != nil {
				return nil, err
			}
			return &duelBot{q: duelQuality(v)}, nil
		}})
	return reg
}

func duelStudy(t *testing.T, d *duel, games int, seed uint64) *Study {
	t.Helper()
	reg := duelRegistry(d)
	s, err := reg.Strategy("duel", "dial")
	if err != nil {
		t.Fatal(err)
	}
	st, err := New(reg, Config{Game: "duel", Target: StrategyTarget{s}, Games: games, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func sqliteURL(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "spsa.db") }

func openStorage(t *testing.T, url string) *Storage {
	t.Helper()
	st, err := OpenStorage(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func quiet() RunOptions {
	return RunOptions{Jobs: 1, Log: slogDiscard()}
}

// SPSA finds the toy's optimum from a start far from it with the default
// c_end and r_end.
func TestToyFindsOptimum(t *testing.T) {
	d := &duel{}
	s := duelStudy(t, d, 16000, 1)
	sum, err := s.Run(context.Background(), openStorage(t, sqliteURL(t)), quiet())
	if err != nil {
		t.Fatal(err)
	}
	if !sum.Complete || sum.Applied != 8000 || d.played.Load() != 16000 || sum.Wins+sum.Draws+sum.Losses != 16000 {
		t.Fatalf("applied %d, played %d, W/D/L %d/%d/%d; want 8000 iterations, 16000 games", sum.Applied, d.played.Load(), sum.Wins, sum.Draws, sum.Losses)
	}
	x, k, lr := sum.Final["x"].(float64), sum.Final["k"].(int64), sum.Final["lr"].(float64)
	t.Logf("from x=2 k=2 lr=0.05 (q %.2f) to x=%.3f k=%d lr=%.3f (q %.2f)", duelQuality(param.Values{"x": 2, "k": 2, "lr": 0.05}),
		x, k, lr, duelQuality(param.Values{"x": x, "k": float64(k), "lr": lr}))
	if math.Abs(x-7) > 0.5 || math.Abs(float64(k)-13) > 1 || math.Abs(math.Log(lr)) > 0.2 {
		t.Fatalf("final x=%v k=%v lr=%v; want near 7, 13, 1", x, k, lr)
	}
	if !sum.Reproducible || sum.Params[2].Kind != "log-float" {
		t.Fatalf("summary %+v", sum)
	}
}

// One worker is reproducible: the same study on two databases, with blocks
// of different sizes, gives the same θ after every iteration.
func TestOneWorkerIsReproducible(t *testing.T) {
	run := func(block time.Duration, jobs int) *Record {
		d := &duel{}
		s := duelStudy(t, d, 600, 7)
		st := openStorage(t, sqliteURL(t))
		opt := quiet()
		opt.BlockTime, opt.Jobs = block, jobs
		if _, err := s.Run(context.Background(), st, opt); err != nil {
			t.Fatal(err)
		}
		rec, err := st.Load(context.Background(), s.Spec().DefaultName())
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	a, b := run(time.Nanosecond, 1), run(time.Hour, 3)
	if len(a.Iterations) != 300 || len(b.Iterations) != 300 {
		t.Fatalf("%d and %d iterations, want 300", len(a.Iterations), len(b.Iterations))
	}
	for i := range a.Iterations {
		x, y := a.Iterations[i], b.Iterations[i]
		if x.Iter != i+1 || y.Iter != i+1 || x.Flips != y.Flips || x.Wins != y.Wins || x.Losses != y.Losses || fmt.Sprint(x.Theta) != fmt.Sprint(y.Theta) || !x.InOrder || !y.InOrder {
			t.Fatalf("iteration %d differs: %+v\n%+v", i+1, x, y)
		}
	}
	if fmt.Sprint(a.Theta) == fmt.Sprint(duelStudy(t, &duel{}, 600, 7).space.Theta0()) {
		t.Fatal("θ never moved")
	}
	// Another seed gives another study.
	c := duelStudy(t, &duel{}, 600, 8)
	if c.Spec().DefaultName() == duelStudy(t, &duel{}, 600, 7).Spec().DefaultName() {
		t.Fatal("the seed is not part of the study's name")
	}
}

// An interrupted worker gives its block back; the study resumed ends where
// an uninterrupted one ends.
func TestInterruptedStudyResumesToTheSameTheta(t *testing.T) {
	full := duelStudy(t, &duel{}, 400, 3)
	want, err := full.Run(context.Background(), openStorage(t, sqliteURL(t)), quiet())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d := &duel{delay: time.Millisecond, stopAt: 150, stop: cancel}
	s := duelStudy(t, d, 400, 3)
	st := openStorage(t, sqliteURL(t))
	opt := quiet()
	opt.BlockTime = 20 * time.Millisecond
	if _, err := s.Run(ctx, st, opt); err == nil {
		t.Fatal("the interrupted run returned no error")
	}
	rec, err := st.Load(context.Background(), s.Spec().DefaultName())
	if err != nil {
		t.Fatal(err)
	}
	if rec.Applied == 0 || rec.Applied >= 200 {
		t.Fatalf("%d iterations applied before the interruption; want some, not all", rec.Applied)
	}
	d.delay = 0
	got, err := s.Run(context.Background(), st, quiet())
	if err != nil {
		t.Fatal(err)
	}
	if got.Applied != 200 || fmt.Sprint(got.Params) != fmt.Sprint(want.Params) || !got.Reproducible {
		t.Fatalf("resumed: %d iterations, params %+v\nuninterrupted: %+v", got.Applied, got.Params, want.Params)
	}
	if got.Replayed == 0 {
		t.Fatal("the interrupted block was not recorded as played again")
	}
}

// Two workers on one SQLite study apply exactly the budget: every
// iteration once, none twice, and every game played once.
func TestTwoWorkersShareSQLiteStudy(t *testing.T) {
	testTwoWorkers(t, sqliteURL(t), "two")
}

func TestTwoWorkersSharePostgresStudy(t *testing.T) {
	url := postgresURL(t)
	name := fmt.Sprintf("test-spsa-two-%d", time.Now().UnixNano())
	st := openStorage(t, url)
	t.Cleanup(func() { st.DeleteStudy(context.Background(), name) })
	testTwoWorkers(t, url, name)
}

func testTwoWorkers(t *testing.T, url, name string) {
	d := &duel{delay: 200 * time.Microsecond}
	s := duelStudy(t, d, 1000, 5)
	// Create the database first: two handles switching a new SQLite file
	// to WAL at the same moment may find it locked.
	openStorage(t, url)
	errs := make(chan error, 2)
	sums := make(chan *Summary, 2)
	for w := range 2 {
		go func() {
			st, err := OpenStorage(context.Background(), url)
			if err != nil {
				errs <- err
				return
			}
			defer st.Close()
			opt := quiet()
			opt.Study, opt.Worker, opt.BlockTime = name, fmt.Sprintf("w%d", w), 5*time.Millisecond
			sum, err := s.Run(context.Background(), st, opt)
			sums <- sum
			errs <- err
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	st := openStorage(t, url)
	rec, err := st.Load(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	workers := map[string]int{}
	for i, it := range rec.Iterations {
		if seen[it.Iter] || it.Iter < 1 || it.Iter > 500 || it.Seq != i+1 {
			t.Fatalf("iteration %d (seq %d) twice or out of range", it.Iter, it.Seq)
		}
		seen[it.Iter] = true
		workers[it.Worker]++
	}
	if rec.Applied != 500 || len(seen) != 500 || rec.Pending != 0 || d.played.Load() != 1000 {
		t.Fatalf("applied %d, %d distinct iterations, %d pending blocks, %d games played; want 500, 500, 0, 1000", rec.Applied, len(seen), rec.Pending, d.played.Load())
	}
	if len(workers) != 2 {
		t.Fatalf("iterations by worker %v; want both workers", workers)
	}
	a, b := <-sums, <-sums
	if a.Applied != 500 || b.Applied != 500 {
		t.Fatalf("summaries: %d and %d iterations", a.Applied, b.Applied)
	}
	t.Logf("iterations by worker: %v; reproducible: %v", workers, a.Reproducible)
}

// postgresURL is the test server (GAUNTLET_TEST_POSTGRES); without it the
// test is skipped, unless CI is set, where it fails.
func postgresURL(t *testing.T) string {
	url := os.Getenv("GAUNTLET_TEST_POSTGRES")
	if url == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("GAUNTLET_TEST_POSTGRES is not set: CI must provide a PostgreSQL server")
		}
		t.Skip("GAUNTLET_TEST_POSTGRES is not set (e.g. postgres://gauntlet:gauntlet@127.0.0.1:5432/gauntlet_test)")
	}
	return url
}

func TestStudyDefinitionIsChecked(t *testing.T) {
	reg := duelRegistry(&duel{})
	s, err := reg.Strategy("duel", "dial")
	if err != nil {
		t.Fatal(err)
	}
	tg := StrategyTarget{s}
	for _, c := range []struct {
		c    Config
		want string
	}{
		{Config{Game: "duel", Target: tg, Games: 7}, "--games 7: want an even number"},
		{Config{Game: "duel", Target: tg, Games: 0}, "--games 0"},
		{Config{Game: "duel", Target: tg, Games: 10, Seats: 4}, "--seats 4: game duel takes 2 to 3 players"},
		{Config{Game: "duel", Target: tg, Games: 10, Start: []string{"x=11"}}, `param "x": 11 is outside [0, 10]`},
		{Config{Game: "duel", Target: tg, Games: 10, Cases: "bogus"}, `unknown duel case set "bogus"`},
		{Config{Game: "nope", Target: tg, Games: 10}, `unknown game "nope"`},
		{Config{Game: "duel", Target: tg, Games: 10, Space: []string{"mode"}}, "categorical"},
	} {
		if _, err := New(reg, c.c); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.c, err, c.want)
		}
	}
	// A study name reused with another definition is refused.
	url := sqliteURL(t)
	st := openStorage(t, url)
	a, err := New(reg, Config{Game: "duel", Target: tg, Games: 10, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(reg, Config{Game: "duel", Target: tg, Games: 10, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	opt := quiet()
	opt.Study = "same"
	if _, err := a.Run(context.Background(), st, opt); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Run(context.Background(), st, opt); err == nil || !strings.Contains(err.Error(), "different definition") {
		t.Fatalf("reused name: %v", err)
	}
	// Three seats: the third holds the start values.
	three, err := New(reg, Config{Game: "duel", Target: tg, Games: 20, Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := three.Run(context.Background(), st, quiet()); err != nil {
		t.Fatal(err)
	}
}

func slogDiscard() *slog.Logger { return slog.New(slog.DiscardHandler) }

// Workers starting together on a new PostgreSQL database create the tables
// once (under an advisory lock) and all open it. The test works in a fresh
// schema of the test server.
func TestConcurrentOpenPostgres(t *testing.T) {
	url := postgresURL(t)
	schema := fmt.Sprintf("spsa_open_%d", time.Now().UnixNano())
	admin := openStorage(t, url)
	if _, err := admin.store.DB().Exec(`CREATE SCHEMA ` + schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.store.DB().Exec(`DROP SCHEMA ` + schema + ` CASCADE`) })
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	inSchema := url + sep + "search_path=" + schema
	const n = 6
	errs := make(chan error, n)
	for range n {
		go func() {
			st, err := OpenStorage(context.Background(), inSchema)
			if err == nil {
				err = st.Close()
			}
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	var tables int
	if err := admin.store.DB().QueryRow(`SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = $1 AND table_name LIKE 'spsa_%'`, schema).Scan(&tables); err != nil {
		t.Fatal(err)
	}
	if tables != 3 {
		t.Fatalf("%d SPSA tables in the new schema, want 3", tables)
	}
}
