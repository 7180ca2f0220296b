package harness

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"gauntlet/internal/owner"
)

// brewLikeGames returns n finished games shaped like brew's: two seats,
// a small detail map.
func brewLikeGames(n int) []GameRecord {
	gs := make([]GameRecord, n)
	for i := range gs {
		gs[i] = GameRecord{Key: fmt.Sprintf("seed:%d", i+1), Index: i, CaseID: fmt.Sprintf("seed:%d", i+1), Seed: uint64(i + 1),
			Seats: []int{0, 1}, Outcome: Outcome{Turns: 40, Seats: []SeatResult{{Score: 50, Rank: 1}, {Score: 12, Rank: 2}},
				Detail: map[string]any{"deliveries": []int{3, 1}}},
			Wall: 40 * time.Microsecond, Worker: "bench:1", Finished: time.Now()}
	}
	return gs
}

// storeURLs is a new SQLite file and, when GAUNTLET_TEST_POSTGRES names a
// server, that server: the stores a benchmark or test runs on.
func storeURLs(tb testing.TB) []string {
	urls := []string{"sqlite:" + filepath.Join(tb.TempDir(), "g.db")}
	if pg := os.Getenv("GAUNTLET_TEST_POSTGRES"); pg != "" {
		urls = append(urls, pg)
	}
	return urls
}

// dialectOf names the store of url for a sub-test: "sqlite" or "postgres".
func dialectOf(url string) string { return strings.SplitN(url, ":", 2)[0] }

// BenchmarkSaveBatch stores batches of 500 brew-like games in SQLite and,
// when GAUNTLET_TEST_POSTGRES names a server, in PostgreSQL; the time per
// game is the store's share of the harness overhead.
func BenchmarkSaveBatch(b *testing.B) {
	for _, url := range storeURLs(b) {
		b.Run(dialectOf(url), func(b *testing.B) {
			st, err := OpenStore(context.Background(), url)
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			gs := brewLikeGames(batchGames)
			b.ReportAllocs()
			prefix := fmt.Sprintf("bench-%d", time.Now().UnixNano())
			run := 0
			for b.Loop() {
				run++
				if _, err := st.SaveBatch(context.Background(), fmt.Sprintf("%s-%d", prefix, run), gs, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*batchGames)/1e3, "µs/game")
		})
	}
}

// BenchmarkWorkers plays one run of 24,000 games with one worker and with
// three, each with its own connections and 16 players, in SQLite and, when
// GAUNTLET_TEST_POSTGRES names a server, in PostgreSQL. The games wait 2 ms
// and use little CPU, so that a 2-core machine shows what its cores cannot:
// whether the claims and commits of several workers hold each other up.
// Three workers' games/s over one worker's is the claim protocol's
// scaling where each worker has the cores for its games.
func BenchmarkWorkers(b *testing.B) {
	const games = 24000
	for _, url := range storeURLs(b) {
		for _, workers := range []int{1, 3} {
			b.Run(fmt.Sprintf("%s/workers=%d", dialectOf(url), workers), func(b *testing.B) {
				d := &duel{seats: 2, delay: 2 * time.Millisecond}
				r := duelRegistry(d)
				a, o := mustEntrant(b, r, "fixed"), mustEntrant(b, r, "fixed:skill=1")
				stores := make([]*Store, workers)
				for w := range stores {
					st, err := OpenStore(context.Background(), url)
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
							p, err := EvalPlan(d, fmt.Sprintf("seeds:%d", games), a, []*Entrant{o}, name)
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

// TestPreviousStoreOpens makes a store as the previous version did (seat
// results in outcomes, no seat_results column, no claim_blocks), opens it,
// reads its game back and resumes its run; the new games are stored the
// new way and both read back alike.
func TestPreviousStoreOpens(t *testing.T) {
	d := &duel{seats: 2}
	r := duelRegistry(d)
	path := filepath.Join(t.TempDir(), "old.db")
	plan, err := EvalPlan(d, "seeds:5", mustEntrant(t, r, "fixed"), []*Entrant{mustEntrant(t, r, "fixed:skill=1")}, "old")
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
	for _, q := range schema {
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

	st := openTestStore(t, path)
	rs, err := (&Runner{Store: st, Jobs: 2}).Run(context.Background(), plan, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Resumed != 1 || rs.Played != 4 || d.played.Load() != 5+4 {
		t.Fatalf("resumed %d, played %d (game saw %d plays); want 1 and 4", rs.Resumed, rs.Played, d.played.Load()-5)
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

func TestSeatResultsRoundTrip(t *testing.T) {
	for _, c := range []struct {
		in      []SeatResult
		scanned bool // read without the JSON decoder
	}{
		{[]SeatResult{{Score: 0.1 + 0.2, Rank: 1}, {Score: -3e-300, Rank: 2, Forfeit: "timeout: no answer in 1,000 ms (round 3) é"}}, true},
		{[]SeatResult{{Score: 7, Rank: 1, Forfeit: "crashed: \"exit\" \u00e9\n\x01 <&>"}}, false},
		{nil, true},
	} {
		buf, err := appendSeatResults(nil, c.in)
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid(buf) {
			t.Fatalf("not JSON: %s", buf)
		}
		out := make([]SeatResult, len(c.in))
		if got := scanSeatResults(string(buf), out); got != c.scanned {
			t.Fatalf("%s: scanned %v, want %v", buf, got, c.scanned)
		}
		out = make([]SeatResult, len(c.in))
		if err := parseSeatResults(string(buf), out); err != nil {
			t.Fatalf("%s: %v", buf, err)
		}
		for i := range c.in {
			if c.in[i] != out[i] {
				t.Fatalf("seat %d: %+v came back as %+v (%s)", i, c.in[i], out[i], buf)
			}
		}
	}
	if _, err := appendSeatResults(nil, []SeatResult{{Score: math.NaN()}}); err == nil {
		t.Fatal("a NaN score was stored")
	}
}

// TestAppendDetailIsJSON checks that the store's own writer of a game's
// detail writes what encoding/json writes, for the values it writes itself
// and for those it hands to json.Marshal.
func TestAppendDetailIsJSON(t *testing.T) {
	for _, d := range []map[string]any{
		nil,
		{},
		{"deliveries": []int{6, -2}},
		{"alive": []bool{true, false}, "deaths": []string{"", "crossed its own trail", "say \"hi\" <&>\n"}},
		{"move_score": 120, "error": "", "end_state": "locked", "solution": "iiiiiiimimiiiiiimmiiiiiimimmiiiimim é"},
		{"empty": []int{}, "nil": []int(nil)},
		{"nil": []bool(nil)},
		{"none": []string(nil)},
		{"float": 0.1 + 0.2, "big": 1e21, "map": map[string]int{"b": 2, "a": 1}, "nested": []any{1, "x", nil}},
		{"k1": 1, "k2": 2, "k3": 3, "k4": 4, "k5": 5, "k6": 6, "k7": 7, "k8": 8, "k9": 9},
		{"odd \"key\"": true, "plain": false},
	} {
		want, err := json.Marshal(d)
		if d == nil {
			want, err = []byte("{}"), nil // a game without detail stores an empty object
		}
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendDetail([]byte("prefix"), d)
		if err != nil {
			t.Fatalf("%v: %v", d, err)
		}
		if string(got) != "prefix"+string(want) {
			t.Errorf("%v: wrote %s, encoding/json writes %s", d, got[len("prefix"):], want)
		}
	}
	if _, err := appendDetail(nil, map[string]any{"f": math.Inf(1)}); err == nil {
		t.Error("an infinite detail value was written")
	}
}

// TestSaveBatchRoundTrip stores games whose every text column needs care
// (quotes, control characters, non-ASCII, a seed beyond int64) and reads
// them back unchanged, once; storing them again inserts nothing.
func TestSaveBatchRoundTrip(t *testing.T) {
	for _, url := range storeURLs(t) {
		t.Run(dialectOf(url), func(t *testing.T) {
			st, err := OpenStore(context.Background(), url)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			saveBatchRoundTrip(t, st, fmt.Sprintf("rt-%d", time.Now().UnixNano()))
		})
	}
}

func saveBatchRoundTrip(t *testing.T, st *Store, run string) {
	fin := time.Date(2026, 11, 25, 18, 0, 0, 123456789, time.UTC)
	games := []GameRecord{
		{Key: `b "quoted" \ key`, Index: 1, CaseID: "case\ttab", Group: "grö<u>p", Seed: math.MaxUint64, Seats: []int{1, 0},
			Outcome: Outcome{Turns: 7, Seats: []SeatResult{{Score: 1.5, Rank: 1}, {Score: -2, Rank: 2, Forfeit: "crashed: \"exit 1\"\n"}},
				Detail: map[string]any{"deaths": []string{"", "ran into a wall é"}, "alive": []bool{true, false}}},
			Wall: 1234567 * time.Nanosecond, Worker: "host:42", Finished: fin},
		{Key: "a", Index: 0, CaseID: "a", Seats: []int{0}, Outcome: Outcome{Turns: 1, Seats: []SeatResult{{Score: 3, Rank: 1}}},
			Wall: time.Millisecond, Worker: "host:42", Finished: fin},
	}
	want := map[string]GameRecord{}
	for _, g := range games {
		want[g.Key] = g
	}
	n, err := st.SaveBatch(context.Background(), run, games, nil)
	if err != nil || n != 2 {
		t.Fatalf("stored %d games (%v), want 2", n, err)
	}
	if n, err := st.SaveBatch(context.Background(), run, games[:1], nil); err != nil || n != 0 {
		t.Fatalf("storing a stored game again inserted %d (%v)", n, err)
	}
	got, err := st.Games(context.Background(), run)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("read back %d games, want %d", len(got), len(want))
	}
	for k, w := range want {
		g := got[k]
		// Maps of strings and bools always encode (TestAppendDetailIsJSON:
		// as encoding/json does); no detail is an empty one.
		wd, _ := appendDetail(nil, w.Outcome.Detail)
		gd, _ := appendDetail(nil, g.Outcome.Detail)
		if g.Index != w.Index || g.CaseID != w.CaseID || g.Group != w.Group || g.Seed != w.Seed || !slices.Equal(g.Seats, w.Seats) ||
			g.Outcome.Turns != w.Outcome.Turns || string(gd) != string(wd) || g.Wall != w.Wall || g.Worker != w.Worker || !g.Finished.Equal(w.Finished) {
			t.Errorf("%q: read back %+v, stored %+v", k, g, w)
		}
		for i := range w.Outcome.Seats {
			if g.Outcome.Seats[i] != w.Outcome.Seats[i] {
				t.Errorf("%q seat %d: read back %+v, stored %+v", k, i, g.Outcome.Seats[i], w.Outcome.Seats[i])
			}
		}
	}
}

// TestNewSQLiteFile opens a store on a file that does not exist: it is
// made in WAL mode with its tables, and nothing else is left beside it but
// SQLite's own log and index.
func TestNewSQLiteFile(t *testing.T) {
	dir := t.TempDir()
	st, err := OpenStore(context.Background(), "sqlite:"+filepath.Join(dir, "new.db"))
	if err != nil {
		t.Fatal(err)
	}
	var mode string
	var tables int
	err = errors.Join(st.DB().QueryRow(`PRAGMA journal_mode`).Scan(&mode),
		st.DB().QueryRow(`SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN ('runs', 'games', 'claim_blocks')`).Scan(&tables),
		st.Close())
	if err != nil || mode != "wal" || tables != 3 {
		t.Fatalf("journal mode %q, %d of 3 tables (%v)", mode, tables, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if n := e.Name(); n != "new.db" && n != "new.db-wal" && n != "new.db-shm" {
			t.Errorf("left beside the store: %s", n)
		}
	}
}

// TestDeadWorkersBlockIsTakenOver leaves a block claimed by a worker of this
// machine that is gone (a pid that does not exist) with some of its games
// stored, and one claimed by a worker elsewhere whose lease ran out: a new
// worker plays exactly the games of those blocks that are not stored, and
// every game is stored once.
func TestDeadWorkersBlockIsTakenOver(t *testing.T) {
	d := &duel{seats: 2}
	r := duelRegistry(d)
	st := openTestStore(t, filepath.Join(t.TempDir(), "g.db"))
	plan, err := EvalPlan(d, "seeds:40", mustEntrant(t, r, "fixed"), []*Entrant{mustEntrant(t, r, "fixed")}, "dead")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := st.OpenRun(ctx, &plan.Run); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
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
	if b, ok, others, err := st.ClaimBlock(ctx, plan.Run.ID, host+":"+owner.Token(), 20, 10, time.Hour, never); err != nil || !ok || b != (Block{Lo: 10, Hi: b2.Hi, Takeover: true}) || others != 1 {
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
	var stored []GameRecord
	for i := 10; i < 14; i++ {
		m := plan.Matches[i]
		out, wall, err := PlayMatch(ctx, plan, &m, PlayOptions{})
		if err != nil {
			t.Fatal(err)
		}
		stored = append(stored, GameRecord{Key: m.Key, Index: i, CaseID: m.Case.ID, Seed: m.Case.Seed, Seats: m.Seats, Outcome: out, Wall: wall, Worker: dead, Finished: time.Now()})
	}
	if _, err := st.SaveBatch(ctx, plan.Run.ID, stored, nil); err != nil {
		t.Fatal(err)
	}
	d.played.Store(0)
	rs, err := (&Runner{Store: st, Jobs: 2, Lease: time.Minute}).Run(ctx, plan, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Played != 36 || d.played.Load() != 36 || rs.Resumed != 4 {
		t.Fatalf("played %d (game saw %d plays), resumed %d; want 36, 36, 4", rs.Played, d.played.Load(), rs.Resumed)
	}
	if rows, distinct := countGames(t, st, plan.Run.ID); rows != 40 || distinct != 40 {
		t.Fatalf("%d rows, %d distinct; want 40", rows, distinct)
	}
	var open int
	if err := st.DB().QueryRow(`SELECT COUNT(*) FROM claim_blocks WHERE run_id = ? AND done = 0`, plan.Run.ID).Scan(&open); err != nil || open != 0 {
		t.Fatalf("%d blocks left unfinished (%v)", open, err)
	}
}

// TestLeasesRenewedWhilePlayed runs two workers whose blocks take several
// leases to play: renewed while their games are played and stored, no
// block is taken over and no game is played twice.
func TestLeasesRenewedWhilePlayed(t *testing.T) {
	d := &duel{seats: 2, delay: 30 * time.Millisecond}
	r := duelRegistry(d)
	st := openTestStore(t, filepath.Join(t.TempDir(), "g.db"))
	var wg sync.WaitGroup
	var rss [2]*Results
	var errs [2]error
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := EvalPlan(d, "seeds:40", mustEntrant(t, r, "fixed"), []*Entrant{mustEntrant(t, r, "fixed")}, "leases")
			if err != nil {
				errs[w] = err
				return
			}
			rss[w], errs[w] = (&Runner{Store: st, Jobs: 2, Lease: 90 * time.Millisecond, Worker: fmt.Sprint("w", w)}).Run(context.Background(), p, nil)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := d.played.Load(); n != 40 || rss[0].Played+rss[1].Played != 40 || rss[0].Duplicates+rss[1].Duplicates != 0 {
		t.Fatalf("game saw %d plays; workers played %d and %d (%d and %d already stored); want 40 in all, once each",
			n, rss[0].Played, rss[1].Played, rss[0].Duplicates, rss[1].Duplicates)
	}
}

// TestRemovedGamesArePlayedAgain removes stored games of a finished run by
// hand: running it again plays exactly those, although their blocks were
// done.
func TestRemovedGamesArePlayedAgain(t *testing.T) {
	d := &duel{seats: 2}
	r := duelRegistry(d)
	st := openTestStore(t, filepath.Join(t.TempDir(), "g.db"))
	plan := func() *Plan {
		p, err := EvalPlan(d, "seeds:30", mustEntrant(t, r, "fixed"), []*Entrant{mustEntrant(t, r, "fixed")}, "removed")
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
	d.played.Store(0)
	rs, err := (&Runner{Store: st, Jobs: 2}).Run(context.Background(), plan(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Played != 5 || rs.Resumed != 25 || d.played.Load() != 5 {
		t.Fatalf("played %d, resumed %d (game saw %d plays); want 5 and 25", rs.Played, rs.Resumed, d.played.Load())
	}
	if rows, distinct := countGames(t, st, "removed"); rows != 30 || distinct != 30 {
		t.Fatalf("%d rows, %d distinct; want 30", rows, distinct)
	}
}

// BenchmarkGames reads back a run of 10,000 brew-like games (what a worker
// does at the end of a run that others shared, and a resumed run at its
// start).
func BenchmarkGames(b *testing.B) {
	st, err := OpenStore(context.Background(), "sqlite:"+filepath.Join(b.TempDir(), "b.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	const n = 10000
	if _, err := st.SaveBatch(context.Background(), "read", brewLikeGames(n), nil); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		gs, err := st.Games(context.Background(), "read")
		if err != nil || len(gs) != n {
			b.Fatalf("%d games, %v", len(gs), err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n)/1e3, "µs/game")
}
