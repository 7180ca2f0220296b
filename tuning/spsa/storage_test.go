package spsa

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gauntlet/harness/store"
	"gauntlet/internal/owner"
	"gauntlet/internal/sqldb"
)

// TestStoreBeforeItsMarkIsRecognised makes a store with every table of the
// SPSA storage, then clears its application_id as versions before it
// left it: the store is still opened, for reading without a write, and
// lists its studies (so every table SPSA makes is declared to the
// harness, which refuses a database with tables it does not know).
func TestStoreBeforeItsMarkIsRecognised(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.db")
	url := "sqlite:" + path
	st, err := OpenStorage(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`PRAGMA application_id = 0`)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	ro, err := OpenStorageReadOnly(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	list, err := ro.Studies(ctx)
	if cerr := ro.Close(); err == nil {
		err = cerr
	}
	if err != nil || len(list) != 0 {
		t.Fatalf("studies of an unmarked store: %v, %v", list, err)
	}
	st, err = OpenStorage(ctx, url)
	if err != nil {
		t.Fatalf("writing open of an unmarked store: %v", err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	hs, err := store.OpenReadOnly(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if err := hs.Close(); err != nil {
		t.Fatal(err)
	}
}

// A block claimed by a worker of this machine whose pid now runs another
// process (the token's start time is not that process's) is taken over at
// once as dead, without waiting for its lease: its worker was killed and
// its pid reused. Workers name themselves with their owner token.
func TestClaimTakesOverReusedPid(t *testing.T) {
	host, err := os.Hostname()
	if err != nil {
		t.Skip("no host name:", err)
	}
	if !strings.Contains(owner.Token(), ".") {
		t.Skip("no process start times on this system")
	}
	ctx := context.Background()
	st := openStorage(t, sqliteURL(t))
	if err := st.ensureStudy(ctx, "s", Spec{}, []float64{0}); err != nil {
		t.Fatal(err)
	}
	dead := fmt.Sprintf("%s:%d.1/0", host, os.Getpid()) // this pid, another start time
	c, err := st.claim(ctx, "s", dead, 10, 2, time.Hour)
	if err != nil || c.blk == nil || c.blk.first != 1 {
		t.Fatalf("first claim: %+v, %v", c, err)
	}
	live := sqldb.WorkerName() + "/0"
	c, err = st.claim(ctx, "s", live, 10, 2, time.Hour)
	if err != nil || c.blk == nil {
		t.Fatalf("second claim: %+v, %v", c, err)
	}
	if c.blk.first != 1 || c.blk.attempt != 2 {
		t.Fatalf("the block of %s, whose pid runs another process, was not taken over: claimed block %d, attempt %d", dead, c.blk.first, c.blk.attempt)
	}
	// The live worker's block is not taken by the next worker.
	c, err = st.claim(ctx, "s", "elsewhere:1/0", 10, 2, time.Hour)
	if err != nil || c.blk == nil || c.blk.first == 1 {
		t.Fatalf("a live worker's block was taken: %+v, %v", c, err)
	}
}
