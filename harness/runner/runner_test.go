package runner

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"gauntlet/harness/entrant"
	"gauntlet/harness/internal/harnesstest"
	"gauntlet/harness/store"
)

func TestTwoWorkersShareOneRun(t *testing.T) {
	testTwoWorkers(t, "sqlite:"+filepath.Join(t.TempDir(), "g.db"), "shared")
}

func TestTwoWorkersShareOneRunPostgres(t *testing.T) {
	testTwoWorkers(t, harnesstest.PostgresURL(t), fmt.Sprintf("shared-%d", time.Now().UnixNano()))
}

func testTwoWorkers(t *testing.T, url, runName string) {
	d := &harnesstest.Duel{Seats: 2, Delay: 3 * time.Millisecond}
	r := harnesstest.DuelRegistry(d)
	open := func() *store.Store {
		s, err := store.Open(context.Background(), url)
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
			p, err := EvalPlan(d, "seeds:80", mustEntrant(t, r, "fixed"), []*entrant.Entrant{mustEntrant(t, r, "fixed")}, runName)
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
	if err := st.DB().QueryRow(st.Dialect().Rebind(`SELECT COUNT(*), COUNT(DISTINCT match_key) FROM games WHERE run_id = ?`), runIDs[0]).Scan(&rows, &distinct); err != nil {
		t.Fatal(err)
	}
	if rows != 80 || distinct != 80 {
		t.Fatalf("%d rows, %d distinct, want 80", rows, distinct)
	}
	if played[0]+played[1] != 80 || d.Played.Load() != 80 {
		t.Fatalf("workers played %v (game saw %d plays), want 80 in all: some game was played twice", played, d.Played.Load())
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
	for _, url := range harnesstest.StoreURLs(t) {
		t.Run(harnesstest.Dialect(url), func(t *testing.T) {
			d := &harnesstest.Duel{Seats: 2, Delay: 2 * time.Millisecond}
			r := harnesstest.DuelRegistry(d)
			const games = 300
			name := fmt.Sprintf("gather-%d", time.Now().UnixNano())
			plan := func() *Plan {
				p, err := EvalPlan(d, fmt.Sprintf("seeds:%d", games), mustEntrant(t, r, "fixed"), []*entrant.Entrant{mustEntrant(t, r, "fixed:skill=1")}, name)
				if err != nil {
					t.Fatal(err)
				}
				return p
			}
			want, err := (&Runner{Jobs: 4}).Run(context.Background(), plan(), nil)
			if err != nil {
				t.Fatal(err)
			}
			st0, err := store.Open(context.Background(), url)
			if err != nil {
				t.Fatal(err)
			}
			defer st0.Close() // the tables exist before the workers start
			var wg sync.WaitGroup
			var rss [2]*Results
			var errs [2]error
			for w := range 2 {
				st, err := store.Open(context.Background(), url)
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
			st, err := store.Open(context.Background(), url)
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
	d := &harnesstest.Duel{Seats: 2}
	r := harnesstest.DuelRegistry(d)
	st := harnesstest.OpenStore(t, filepath.Join(t.TempDir(), "g.db"))
	p, err := EvalPlan(d, "seeds:3", mustEntrant(t, r, "fixed"), []*entrant.Entrant{mustEntrant(t, r, "fixed")}, "mine")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (&Runner{Store: st}).Run(context.Background(), p, nil); err != nil {
		t.Fatal(err)
	}
	p2, err := EvalPlan(d, "seeds:4", mustEntrant(t, r, "fixed"), []*entrant.Entrant{mustEntrant(t, r, "fixed")}, "mine")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (&Runner{Store: st}).Run(context.Background(), p2, nil); err == nil || !strings.Contains(err.Error(), "different configuration") {
		t.Fatalf("err = %v", err)
	}
}

func TestUnreachableStorage(t *testing.T) {
	_, err := store.Open(context.Background(), "postgres://nobody:secret@127.0.0.1:1/none?connect_timeout=2")
	if err == nil || !strings.Contains(err.Error(), "unreachable") || strings.Contains(err.Error(), "secret") {
		t.Fatalf("err = %v", err)
	}
	if _, err := store.Open(context.Background(), "mysql://x"); err == nil || !strings.Contains(err.Error(), "want sqlite:FILE") {
		t.Fatalf("err = %v", err)
	}
	if _, err := store.Open(context.Background(), "sqlite://g.db"); err == nil || !strings.Contains(err.Error(), "sqlite:g.db") {
		t.Fatalf("err = %v", err)
	}
	if _, err := store.Open(context.Background(), "sqlite:/no/such/dir/g.db"); err == nil || !strings.Contains(err.Error(), "/no/such/dir") {
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

// An interrupt keeps every game that finished: a player whose chunk of
// games is cut short by it (the games before a hung one finished) still
// hands those games over. The chunks grow with the rate of play, so after
// the first hundred quick games a hang falls inside a chunk.
func TestInterruptKeepsTheChunksFinishedGames(t *testing.T) {
	for hang := uint64(250); hang < 260; hang++ {
		d := &harnesstest.Duel{Seats: 2, HangFrom: hang}
		r := harnesstest.DuelRegistry(d)
		p, err := EvalPlan(d, "seeds:400", mustEntrant(t, r, "fixed"), []*entrant.Entrant{mustEntrant(t, r, "fixed")}, "")
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			for d.Played.Load() < int64(hang) { // the hung game has started
				time.Sleep(time.Millisecond)
			}
			cancel()
		}()
		rs, err := (&Runner{Jobs: 1}).Run(ctx, p, nil)
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("hang at seed %d: err = %v, want the interrupt", hang, err)
		}
		got := 0
		for _, r := range rs.Results {
			if r != nil {
				got++
			}
		}
		if want := int(hang) - 1; got != want || rs.Played != want {
			t.Fatalf("hang at seed %d: %d results (%d played), want the %d games that finished", hang, got, rs.Played, want)
		}
	}
}

// A plan with a key twice is refused before a game is played: its two
// games would be one stored game.
func TestPlanWithATwiceKeyIsRefused(t *testing.T) {
	d := &harnesstest.Duel{Seats: 2}
	r := harnesstest.DuelRegistry(d)
	plan, err := EvalPlan(d, "seeds:4", mustEntrant(t, r, "fixed"), []*entrant.Entrant{mustEntrant(t, r, "fixed")}, "twice")
	if err != nil {
		t.Fatal(err)
	}
	if index, err := plan.KeyIndex(); err != nil || len(index) != 4 || index[plan.Matches[2].Key] != 2 {
		t.Fatalf("KeyIndex of 4 distinct keys: %v, %v", index, err)
	}
	plan.Matches[3].Key = plan.Matches[1].Key
	_, err = (&Runner{Jobs: 1}).Run(context.Background(), plan, nil)
	if err == nil || !strings.Contains(err.Error(), "two matches with key "+fmt.Sprintf("%q", plan.Matches[1].Key)) {
		t.Fatalf("a plan with a key twice: %v", err)
	}
}
