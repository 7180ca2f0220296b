package e2e

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	"gauntlet/league"
)

// TestLeagueKill9ResumesExactly kills a league run of the fastest game
// with -9 once some of its blocks are stored, runs the same command
// again, and checks that the league ends with exactly its total of games,
// each unit's two games stored once, no block left unfinished, and that
// the block the killed worker held was taken over.
func TestLeagueKill9ResumesExactly(t *testing.T) {
	if testing.Short() {
		t.Skip("a long league run, killed and resumed")
	}
	const total = 30000
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "l.db")
	for _, v := range []string{"greedy", "greedy:price_weight=0,dist_weight=3", "random"} {
		out, err := exec.Command(bin, "league", "add", "--storage", db, "--league", "k", "--game", "brew", v).CombinedOutput()
		if err != nil {
			t.Fatalf("league add %s: %v: %s", v, err, out)
		}
	}
	args := []string{"league", "run", "--storage", db, "--league", "k", "--total", strconv.Itoa(total), "--jobs", "2", "--quiet"}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	q := func(query string) int {
		st, err := league.OpenStoreReadOnly(ctx, db)
		if err != nil {
			return 0
		}
		defer st.Close()
		var n int
		if err := st.DB().QueryRowContext(ctx, query).Scan(&n); err != nil {
			t.Logf("%s: %v", query, err)
			return 0
		}
		return n
	}
	deadline := time.Now().Add(2 * time.Minute)
	for q(`SELECT COUNT(*) FROM league_games`) < 1000 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	before := q(`SELECT COUNT(*) FROM league_games`)
	open := q(`SELECT COUNT(*) FROM league_blocks WHERE done = 0`)
	if before == 0 || before >= total {
		t.Fatalf("%d games stored before the kill; want some but not all", before)
	}
	again := exec.Command(bin, args...)
	again.Dir = dir
	var out, errb bytes.Buffer
	again.Stdout, again.Stderr = &out, &errb
	if err := again.Run(); err != nil {
		t.Fatalf("resume: %v: %s", err, errb.String())
	}
	m := regexp.MustCompile(`played (\d+) games \(\d+ blocks, (\d+) taken over\)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no counts in the resumed run's output:\n%.2000s", out.String())
	}
	played, _ := strconv.Atoi(m[1])
	taken, _ := strconv.Atoi(m[2])
	rows := q(`SELECT COUNT(*) FROM league_games`)
	distinct := q(`SELECT COUNT(*) FROM (SELECT DISTINCT blk, idx FROM league_games) x`)
	badUnits := q(`SELECT COUNT(*) FROM (SELECT unit FROM league_games GROUP BY unit HAVING COUNT(*) <> 2) x`)
	leftOpen := q(`SELECT COUNT(*) FROM league_blocks WHERE done = 0`)
	counted := q(`SELECT games FROM leagues WHERE name = 'k'`)
	if rows != total || distinct != total || counted != total {
		t.Fatalf("after resume: %d rows, %d distinct games, league counts %d; want %d", rows, distinct, counted, total)
	}
	if badUnits != 0 || leftOpen != 0 {
		t.Fatalf("after resume: %d units without both games, %d blocks unfinished", badUnits, leftOpen)
	}
	if played != total-before {
		t.Fatalf("resume played %d games; want the %d the first run did not store", played, total-before)
	}
	if taken != open {
		t.Fatalf("resume took over %d blocks; the killed run left %d", taken, open)
	}
	t.Logf("killed after %d of %d games stored (%d blocks open); resumed with %d played, %d blocks taken over", before, total, open, played, taken)
}
