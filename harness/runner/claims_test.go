package runner

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/internal/harnesstest"
	"gauntlet/harness/store"
	"gauntlet/internal/owner"
)

// BenchmarkWorkers plays one run of 24,000 games with one worker and with
// three, each with its own connections and 16 players, in SQLite and, when
// GAUNTLET_TEST_POSTGRES names a server, in PostgreSQL. The games wait 2 ms
// and use little CPU, so that a 2-core machine shows what its cores cannot:
// whether the claims and commits of several workers hold each other up.
// Three workers' games/s over one worker's is the claim protocol's
// scaling where each worker has the cores for its games.
func BenchmarkWorkers(b *testing.B) {
	const games = 24000
	for _, url := range harnesstest.StoreURLs(b) {
		for _, workers := range []int{1, 3} {
			b.Run(fmt.Sprintf("%s/workers=%d", harnesstest.Dialect(url), workers), func(b *testing.B) {
				d := &harnesstest.Duel{Seats: 2, Delay: 2 * time.Millisecond}
				r := harnesstest.DuelRegistry(d)
				a, o := mustEntrant(b, r, "fixed"), mustEntrant(b, r, "fixed:skill=1")
				stores := make([]*store.Store, workers)
				for w := range stores {
					st, err := store.Open(context.Background(), url)
					if err != nil {
						b.Fatal(err)
					}
					defer st.Close()
					stores[w] = st
				}
				played := 0
				for b.Loop() {
					name := fmt.Sprintf("workers-%d", time.Now().UnixNano())
					var g errgroup.Group
					for w, st := range stores {
						g.Go(func() error {
							p, err := EvalPlan(d, fmt.Sprintf("seeds:%d", games), a, []*entrant.Entrant{o}, name)
							if err != nil {
								return err
							}
							_, err = (&Runner{Store: st, Jobs: 16, Worker: fmt.Sprintf("w%d", w)}).Run(context.Background(), p, nil)
							return err
						})
					}
					if err := g.Wait(); err != nil {
						b.Fatal(err)
					}
					played += games
				}
				b.ReportMetric(float64(played)/b.Elapsed().Seconds(), "games/s")
			})
		}
	}
}

// TestDeadWorkersBlockIsTakenOver leaves a block claimed by a worker of this
// machine that is gone (a pid that does not exist) with some of its games
// stored, and one claimed by a worker elsewhere whose lease ran out: a new
// worker plays exactly the games of those blocks that are not stored, and
// every game is stored once.
func TestDeadWorkersBlockIsTakenOver(t *testing.T) {
	d := &harnesstest.Duel{Seats: 2}
	r := harnesstest.DuelRegistry(d)
	st := harnesstest.OpenStore(t, filepath.Join(t.TempDir(), "g.db"))
	plan, err := EvalPlan(d, "seeds:40", mustEntrant(t, r, "fixed"), []*entrant.Entrant{mustEntrant(t, r, "fixed")}, "dead")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := st.OpenRun(ctx, &plan.Run); err != nil {
		t.Fatal(err)
	}
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	never := func(int) bool { return false }
	dead := host + ":999999999.1" // no such pid
	b1, ok, _, err := st.ClaimBlock(ctx, plan.Run.ID, "elsewhere:1.1", 40, 10, time.Hour, never)
	if err != nil || !ok || b1.Lo != 0 || b1.Hi != 10 {
		t.Fatalf("first claim: %+v %v %v", b1, ok, err)
	}
	b2, ok, _, err := st.ClaimBlock(ctx, plan.Run.ID, dead, 40, 10, time.Hour, never)
	if err != nil || !ok || b2.Lo != 10 || b2.Hi < 14 {
		t.Fatalf("second claim: %+v %v %v", b2, ok, err)
	}
	if b, ok, others, err := st.ClaimBlock(ctx, plan.Run.ID, host+":"+owner.Token(), 20, 10, time.Hour, never); err != nil || !ok || b != (store.Block{Lo: 10, Hi: b2.Hi, Takeover: true}) || others != 1 {
		t.Fatalf("a claim past the end: %+v %v, %d others (%v); want the dead worker's block taken over", b, ok, others, err)
	}
	if err := st.Release(ctx, plan.Run.ID, host+":"+owner.Token()); err != nil {
		t.Fatal(err)
	}
	// The lease of the first block runs out; the dead worker stored 4
	// games of its block before it died.
	if _, err := st.DB().Exec(`UPDATE claim_blocks SET expires_at = 0 WHERE owner = 'elsewhere:1.1'`); err != nil {
		t.Fatal(err)
	}
	var stored []store.GameRecord
	for i := 10; i < 14; i++ {
		m := plan.Matches[i]
		out, wall, err := PlayMatch(ctx, plan, &m, contract.PlayOptions{})
		if err != nil {
			t.Fatal(err)
		}
		stored = append(stored, store.GameRecord{Key: m.Key, Index: i, CaseID: m.Case.ID, Seed: m.Case.Seed, Seats: m.Seats, Outcome: out, Wall: wall, Worker: dead, Finished: time.Now()})
	}
	if _, err := st.SaveBatch(ctx, plan.Run.ID, stored, nil); err != nil {
		t.Fatal(err)
	}
	d.Played.Store(0)
	rs, err := (&Runner{Store: st, Jobs: 2, Lease: time.Minute}).Run(ctx, plan, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Played != 36 || d.Played.Load() != 36 || rs.Resumed != 4 {
		t.Fatalf("played %d (game saw %d plays), resumed %d; want 36, 36, 4", rs.Played, d.Played.Load(), rs.Resumed)
	}
	if rows, distinct := harnesstest.CountGames(t, st, plan.Run.ID); rows != 40 || distinct != 40 {
		t.Fatalf("%d rows, %d distinct; want 40", rows, distinct)
	}
	var open int
	if err := st.DB().QueryRow(`SELECT COUNT(*) FROM claim_blocks WHERE run_id = ? AND done = 0`, plan.Run.ID).Scan(&open); err != nil || open != 0 {
		t.Fatalf("%d blocks left unfinished (%v)", open, err)
	}
}

// TestLeasesRenewedWhilePlayed runs two workers whose blocks take several
// leases to play: renewed while their games are played and stored, no
// block is taken over and no game is played twice. A block of 16 games,
// two at a time, takes 800 ms, about 2.7 leases of 300 ms, renewed every
// 100 ms: a lease runs out only if three renewals in a row are late (at
// 30 ms a game and 90 ms a lease, a loaded machine running the race
// detector has let one run out).
func TestLeasesRenewedWhilePlayed(t *testing.T) {
	d := &harnesstest.Duel{Seats: 2, Delay: 100 * time.Millisecond}
	r := harnesstest.DuelRegistry(d)
	st := harnesstest.OpenStore(t, filepath.Join(t.TempDir(), "g.db"))
	var wg sync.WaitGroup
	var rss [2]*Results
	var errs [2]error
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := EvalPlan(d, "seeds:40", mustEntrant(t, r, "fixed"), []*entrant.Entrant{mustEntrant(t, r, "fixed")}, "leases")
			if err != nil {
				errs[w] = err
				return
			}
			rss[w], errs[w] = (&Runner{Store: st, Jobs: 2, Lease: 300 * time.Millisecond, Worker: fmt.Sprint("w", w)}).Run(context.Background(), p, nil)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := d.Played.Load(); n != 40 || rss[0].Played+rss[1].Played != 40 || rss[0].Duplicates+rss[1].Duplicates != 0 {
		t.Fatalf("game saw %d plays; workers played %d and %d (%d and %d already stored); want 40 in all, once each",
			n, rss[0].Played, rss[1].Played, rss[0].Duplicates, rss[1].Duplicates)
	}
}

// TestRemovedGamesArePlayedAgain removes stored games of a finished run by
// hand: running it again plays exactly those, although their blocks were
// done.
func TestRemovedGamesArePlayedAgain(t *testing.T) {
	d := &harnesstest.Duel{Seats: 2}
	r := harnesstest.DuelRegistry(d)
	st := harnesstest.OpenStore(t, filepath.Join(t.TempDir(), "g.db"))
	plan := func() *Plan {
		p, err := EvalPlan(d, "seeds:30", mustEntrant(t, r, "fixed"), []*entrant.Entrant{mustEntrant(t, r, "fixed")}, "removed")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if _, err := (&Runner{Store: st, Jobs: 2}).Run(context.Background(), plan(), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := st.DB().Exec(`DELETE FROM games WHERE run_id = 'removed' AND idx % 6 = 0`); err != nil {
		t.Fatal(err)
	}
	d.Played.Store(0)
	rs, err := (&Runner{Store: st, Jobs: 2}).Run(context.Background(), plan(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Played != 5 || rs.Resumed != 25 || d.Played.Load() != 5 {
		t.Fatalf("played %d, resumed %d (game saw %d plays); want 5 and 25", rs.Played, rs.Resumed, d.Played.Load())
	}
	if rows, distinct := harnesstest.CountGames(t, st, "removed"); rows != 30 || distinct != 30 {
		t.Fatalf("%d rows, %d distinct; want 30", rows, distinct)
	}
}

// TestPreviousStoreOpens makes a store as the previous version did (seat
// results in outcomes, no seat_results column, no claim_blocks), opens it,
// reads its game back and resumes its run; the new games are stored the
// new way and both read back alike.
func TestPreviousStoreOpens(t *testing.T) {
	d := &harnesstest.Duel{Seats: 2}
	r := harnesstest.DuelRegistry(d)
	path := filepath.Join(t.TempDir(), "old.db")
	plan, err := EvalPlan(d, "seeds:5", mustEntrant(t, r, "fixed"), []*entrant.Entrant{mustEntrant(t, r, "fixed:skill=1")}, "old")
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := (&Runner{Jobs: 1}).Run(context.Background(), plan, nil)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range store.Schema() {
		if strings.Contains(q, "claim_blocks") {
			continue
		}
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	// Game seed:2 as the previous version stored it.
	o := fresh.Results[1].Outcome
	now := time.Now().UTC().Format(time.RFC3339Nano)
	mustExec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatal(err)
		}
	}
	mustExec(`INSERT INTO runs (id, kind, game, case_set, spec, version, created_at, updated_at, status) VALUES (?,?,?,?,?,?,?,?,?)`,
		"old", "eval", "duel", "seeds:5", plan.Run.Spec, "old", now, now, "running")
	mustExec(`INSERT INTO games (run_id, match_key, idx, case_id, grp, seed, seats, turns, detail, wall_ms, worker, finished_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`,
		"old", "seed:2", 1, "seed:2", "", "2", "[0,1]", o.Turns, "{}", 1.0, "old:1", now)
	for seat, so := range o.Seats {
		mustExec(`INSERT INTO outcomes (run_id, match_key, seat, entrant_idx, score, rank, forfeit) VALUES (?,?,?,?,?,?,?)`,
			"old", "seed:2", seat, seat, so.Score, so.Rank, so.Forfeit)
	}
	db.Close()

	st := harnesstest.OpenStore(t, path)
	rs, err := (&Runner{Store: st, Jobs: 2}).Run(context.Background(), plan, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Resumed != 1 || rs.Played != 4 || d.Played.Load() != 5+4 {
		t.Fatalf("resumed %d, played %d (game saw %d plays); want 1 and 4", rs.Resumed, rs.Played, d.Played.Load()-5)
	}
	games, err := st.Games(context.Background(), "old")
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range plan.Matches {
		got, want := games[m.Key].Outcome.Seats, fresh.Results[i].Outcome.Seats
		if len(got) != len(want) {
			t.Fatalf("%s: %d seats stored, want %d", m.Key, len(got), len(want))
		}
		for s := range got {
			if got[s].Score != want[s].Score || got[s].Rank != want[s].Rank || got[s].Forfeit != want[s].Forfeit {
				t.Fatalf("%s seat %d: stored %+v, played %+v", m.Key, s, got[s], want[s])
			}
		}
	}
}
