package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The store's tests cannot use harness/internal/harnesstest (it imports
// this package): these are its helpers' twins.

// benchBatch is the runner's batch of stored games (runner.batchGames).
const benchBatch = 500

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

// storedRun opens the store of url (closed when the test ends) and stores n
// brew-like games in a new run whose name starts with prefix.
func storedRun(tb testing.TB, url, prefix string, n int) (*Store, string) {
	tb.Helper()
	ctx := context.Background()
	st, err := Open(ctx, url)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := st.Close(); err != nil {
			tb.Error(err)
		}
	})
	run := fmt.Sprintf("%s-%d", prefix, time.Now().UnixNano())
	if _, err := st.SaveBatch(ctx, run, brewLikeGames(n), nil); err != nil {
		tb.Fatal(err)
	}
	return st, run
}
