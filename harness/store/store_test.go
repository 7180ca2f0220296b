package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"gauntlet/harness/contract"
)

// brewLikeGames returns n finished games shaped like brew's: two seats,
// a small detail map.
func brewLikeGames(n int) []GameRecord {
	gs := make([]GameRecord, n)
	for i := range gs {
		gs[i] = GameRecord{Key: fmt.Sprintf("seed:%d", i+1), Index: i, CaseID: fmt.Sprintf("seed:%d", i+1), Seed: uint64(i + 1),
			Seats: []int{0, 1}, Outcome: contract.Outcome{Turns: 40, Seats: []contract.SeatResult{{Score: 50, Rank: 1}, {Score: 12, Rank: 2}},
				Detail: map[string]any{"deliveries": []int{3, 1}}},
			Wall: 40 * time.Microsecond, Worker: "bench:1", Finished: time.Now()}
	}
	return gs
}

// BenchmarkSaveBatch stores batches of 500 brew-like games in SQLite and,
// when GAUNTLET_TEST_POSTGRES names a server, in PostgreSQL; the time per
// game is the store's share of the harness overhead.
func BenchmarkSaveBatch(b *testing.B) {
	for _, url := range storeURLs(b) {
		b.Run(dialectOf(url), func(b *testing.B) {
			st, err := Open(context.Background(), url)
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			gs := brewLikeGames(benchBatch)
			b.ReportAllocs()
			prefix := fmt.Sprintf("bench-%d", time.Now().UnixNano())
			run := 0
			for b.Loop() {
				run++
				if _, err := st.SaveBatch(context.Background(), fmt.Sprintf("%s-%d", prefix, run), gs, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchBatch)/1e3, "µs/game")
		})
	}
}

func TestSeatResultsRoundTrip(t *testing.T) {
	for _, c := range []struct {
		in      []contract.SeatResult
		scanned bool // read without the JSON decoder
	}{
		{[]contract.SeatResult{{Score: 0.1 + 0.2, Rank: 1}, {Score: -3e-300, Rank: 2, Forfeit: "timeout: no answer in 1,000 ms (round 3) é"}}, true},
		{[]contract.SeatResult{{Score: 7, Rank: 1, Forfeit: "crashed: \"exit\" \u00e9\n\x01 <&>"}}, false},
		{nil, true},
	} {
		buf, err := appendSeatResults(nil, c.in)
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid(buf) {
			t.Fatalf("not JSON: %s", buf)
		}
		out := make([]contract.SeatResult, len(c.in))
		if got := scanSeatResults(string(buf), out); got != c.scanned {
			t.Fatalf("%s: scanned %v, want %v", buf, got, c.scanned)
		}
		out = make([]contract.SeatResult, len(c.in))
		if err := parseSeatResults(string(buf), out); err != nil {
			t.Fatalf("%s: %v", buf, err)
		}
		for i := range c.in {
			if c.in[i] != out[i] {
				t.Fatalf("seat %d: %+v came back as %+v (%s)", i, c.in[i], out[i], buf)
			}
		}
	}
	if _, err := appendSeatResults(nil, []contract.SeatResult{{Score: math.NaN()}}); err == nil {
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
			st, err := Open(context.Background(), url)
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
			Outcome: contract.Outcome{Turns: 7, Seats: []contract.SeatResult{{Score: 1.5, Rank: 1}, {Score: -2, Rank: 2, Forfeit: "crashed: \"exit 1\"\n"}},
				Detail: map[string]any{"deaths": []string{"", "ran into a wall é"}, "alive": []bool{true, false}}},
			Wall: 1234567 * time.Nanosecond, Worker: "host:42", Finished: fin},
		{Key: "a", Index: 0, CaseID: "a", Seats: []int{0}, Outcome: contract.Outcome{Turns: 1, Seats: []contract.SeatResult{{Score: 3, Rank: 1}}},
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
		wd, err := appendDetail(nil, w.Outcome.Detail)
		if err != nil {
			t.Fatal(err)
		}
		gd, err := appendDetail(nil, g.Outcome.Detail)
		if err != nil {
			t.Fatal(err)
		}
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
	st, err := Open(context.Background(), "sqlite:"+filepath.Join(dir, "new.db"))
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

// BenchmarkGames reads back a run of 10,000 brew-like games (what a worker
// does at the end of a run that others shared, and a resumed run at its
// start).
func BenchmarkGames(b *testing.B) {
	st, err := Open(context.Background(), "sqlite:"+filepath.Join(b.TempDir(), "b.db"))
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
