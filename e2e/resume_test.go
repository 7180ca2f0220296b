package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	"gauntlet/harness/store"
)

// TestKill9MidEvalResumesExactly kills a long SQLite eval of the fastest
// game with -9 once some of its batches are stored, runs the same command
// again, and checks that the run ends with exactly the full set of games,
// none stored twice, and that the second run says it played exactly the
// games the first did not store.
func TestKill9MidEvalResumesExactly(t *testing.T) {
	if testing.Short() {
		t.Skip("a long eval, killed and resumed")
	}
	const n = 20000
	dir := t.TempDir()
	db := filepath.Join(dir, "g.db")
	args := []string{"eval", "--game", "brew", "--strategy", "greedy", "--opponents", "random", "--cases", fmt.Sprintf("seeds:%d", n),
		"--jobs", "2", "--storage", "sqlite:" + db, "--run", "long", "--quiet"}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	count := func() (rows, distinct int) {
		st, err := store.Open(ctx, "sqlite:"+db)
		if err != nil {
			return 0, 0
		}
		defer st.Close()
		st.DB().QueryRowContext(ctx, `SELECT COUNT(*), COUNT(DISTINCT match_key) FROM games WHERE run_id = 'long'`).Scan(&rows, &distinct)
		return rows, distinct
	}
	deadline := time.Now().Add(2 * time.Minute)
	for r, _ := count(); r < 1000 && time.Now().Before(deadline); r, _ = count() {
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	before, _ := count()
	if before == 0 || before >= n {
		t.Fatalf("%d games stored before the kill; want some but not all", before)
	}
	again := exec.Command(bin, args...)
	again.Dir = dir
	var out, errb bytes.Buffer
	again.Stdout, again.Stderr = &out, &errb
	if err := again.Run(); err != nil {
		t.Fatalf("resume: %v: %s", err, errb.String())
	}
	m := regexp.MustCompile(`run long: (\d+) played, (\d+) resumed`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no counts in the resumed run's output:\n%.2000s", out.String())
	}
	played, _ := strconv.Atoi(m[1])
	resumed, _ := strconv.Atoi(m[2])
	rows, distinct := count()
	if rows != n || distinct != n {
		t.Fatalf("after resume: %d rows, %d distinct games; want %d", rows, distinct, n)
	}
	if resumed != before || played != n-before {
		t.Fatalf("resume says %d played, %d resumed; want %d and %d", played, resumed, n-before, before)
	}
	fmt.Printf("killed after %d of %d games stored; resumed with %d played, to %d distinct games\n", before, n, played, n)
}
