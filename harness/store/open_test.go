package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

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
				st, err := Open(context.Background(), url)
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
		st, err := Open(context.Background(), url)
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
	admin, err := Open(context.Background(), base)
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

// A layer that cannot be made on a store leaves it closed, and its error
// is the one returned; one that can is handed the open store.
func TestOpenLayer(t *testing.T) {
	ctx := context.Background()
	url := "sqlite:" + filepath.Join(t.TempDir(), "g.db")
	refuse := errors.New("no such layer")
	var seen *Store
	_, err := OpenLayer(ctx, url, false, func(_ context.Context, hs *Store) (int, error) {
		seen = hs
		return 0, refuse
	})
	if !errors.Is(err, refuse) {
		t.Fatalf("OpenLayer: %v; want the layer's error", err)
	}
	if err := seen.DB().PingContext(ctx); err == nil {
		t.Error("the store is open after its layer failed")
	}
	for _, readOnly := range []bool{false, true} {
		got, err := OpenLayer(ctx, url, readOnly, func(_ context.Context, hs *Store) (*Store, error) { return hs, nil })
		if err != nil {
			t.Fatalf("read-only %v: %v", readOnly, err)
		}
		if got.ReadOnly() != readOnly {
			t.Errorf("read-only %v: the layer's store is read-only %v", readOnly, got.ReadOnly())
		}
		if err := got.Close(); err != nil {
			t.Error(err)
		}
	}
	if _, err := OpenLayer(ctx, "nosuch:x", false, func(context.Context, *Store) (int, error) {
		t.Error("a layer was made on a store that did not open")
		return 0, nil
	}); err == nil {
		t.Error("OpenLayer opened an unknown storage")
	}
}
