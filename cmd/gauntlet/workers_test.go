package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gauntlet/harness/store"
)

func TestKilledWorkerGamesPlayedOnceSQLite(t *testing.T) {
	testKilledWorker(t, "sqlite:"+filepath.Join(t.TempDir(), "g.db"), "three")
}

func TestKilledWorkerGamesPlayedOncePostgres(t *testing.T) {
	url := os.Getenv("GAUNTLET_TEST_POSTGRES")
	if url == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("GAUNTLET_TEST_POSTGRES is not set: CI must start PostgreSQL (see .ci/run)")
		}
		t.Skip("GAUNTLET_TEST_POSTGRES not set (CI sets it); skipping the PostgreSQL test")
	}
	testKilledWorker(t, url, fmt.Sprintf("three-%d", time.Now().UnixNano()))
}

// testKilledWorker starts three workers on one 300-game run whose opponent
// is an external bot that counts its starts, kills one worker with -9 once
// it has stored games of its own, and checks that the survivors finish the
// run with every game stored exactly once, that the bots were started at
// most 300 + 2 times (the killed worker's two games in flight are played
// again, nothing else), and that the counts the survivors print add up.
func testKilledWorker(t *testing.T, storage, run string) {
	if testing.Short() {
		t.Skip("three workers with a kill take several seconds")
	}
	const games, jobs = 300, 2
	dir := t.TempDir()
	starts := filepath.Join(dir, "starts")
	bot := filepath.Join(dir, "bot.sh")
	script := fmt.Sprintf("#!/bin/sh\necho $PPID >> %s\nexec %s bot pips skill:skill=2\n", starts, os.Args[0])
	if err := os.WriteFile(bot, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{"eval", "--game", "pips", "--strategy", "skill", "--cases", fmt.Sprintf("seeds:%d", games),
		"--jobs", strconv.Itoa(jobs), "--opponent", "cmd:" + bot, "--no-time-limit", "--storage", storage, "--run", run, "--quiet"}
	type worker struct {
		cmd *exec.Cmd
		out bytes.Buffer
		err bytes.Buffer
	}
	var ws [3]*worker
	ctx := context.Background()
	for i := range ws {
		w := &worker{cmd: exec.Command(os.Args[0], args...)}
		w.cmd.Dir = dir
		w.cmd.Env = append(os.Environ(), "GAUNTLET_CLI_MAIN=1")
		w.cmd.Stdout, w.cmd.Stderr = &w.out, &w.err
		w.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := w.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		ws[i] = w
		if i == 0 {
			// The victim starts first, so that it holds games of its own
			// when the others come.
			time.Sleep(300 * time.Millisecond)
		}
	}
	count := func(where string) int {
		st, err := store.Open(ctx, storage)
		if err != nil {
			return 0
		}
		defer st.Close()
		var n int
		if err := st.DB().QueryRowContext(ctx, `SELECT COUNT(*) FROM games WHERE run_id = '`+run+`'`+where).Scan(&n); err != nil {
			return 0
		}
		return n
	}
	victim := ws[0]
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("%s:%d", host, victim.cmd.Process.Pid) // "host:pid" or "host:pid.start"
	mine := fmt.Sprintf(" AND (worker = '%s' OR worker LIKE '%s.%%')", name, name)
	deadline := time.Now().Add(2 * time.Minute)
	for count(mine) < 15 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	syscall.Kill(-victim.cmd.Process.Pid, syscall.SIGKILL) // the worker and its bots
	victim.cmd.Wait()
	byVictim, before := count(mine), count("")
	if byVictim == 0 || before >= games {
		t.Fatalf("the killed worker had stored %d games, %d in all; want some but not all", byVictim, before)
	}
	re := regexp.MustCompile(`run \S+: (\d+) played, (\d+) resumed`)
	played := byVictim
	for i, w := range ws[1:] {
		if err := w.cmd.Wait(); err != nil {
			t.Fatalf("worker %d: %v\n%s", i+1, err, w.err.String())
		}
		m := re.FindStringSubmatch(w.out.String())
		if m == nil {
			t.Fatalf("worker %d printed no counts:\n%s", i+1, w.out.String())
		}
		p, _ := strconv.Atoi(m[1])
		r, _ := strconv.Atoi(m[2])
		if p+r != games {
			t.Errorf("worker %d: %d played + %d resumed, want %d in all", i+1, p, r, games)
		}
		played += p
	}
	st, err := store.Open(ctx, storage)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var rows, distinct int
	if err := st.DB().QueryRowContext(ctx, `SELECT COUNT(*), COUNT(DISTINCT match_key) FROM games WHERE run_id = '`+run+`'`).Scan(&rows, &distinct); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(starts)
	if err != nil {
		t.Fatal(err)
	}
	// Each start wrote its worker's pid.
	all := strings.Fields(string(data))
	n, byVictimStarts := len(all), 0
	for _, pid := range all {
		if pid == strconv.Itoa(victim.cmd.Process.Pid) {
			byVictimStarts++
		}
	}
	if rows != games || distinct != games {
		t.Fatalf("%d rows, %d distinct games; want %d", rows, distinct, games)
	}
	if played != games {
		t.Errorf("the killed worker stored %d games and the survivors say they played %d more: %d, want %d", byVictim, played-byVictim, played, games)
	}
	// The survivors play exactly the games the killed worker did not
	// store: none of its stored games again.
	if got := n - byVictimStarts; got != games-byVictim {
		t.Fatalf("the survivors started the bot %d times; want %d (the %d games the killed worker did not store)", got, games-byVictim, games-byVictim)
	}
	// The killed worker's unstored games: those in flight, and those that
	// ended during its last commit (about none when a commit is quick; a
	// loaded machine has commits of tens of milliseconds now and then).
	if lost := byVictimStarts - byVictim; lost > 10*jobs {
		t.Fatalf("the killed worker started %d games and stored %d: %d lost, want at most about its %d in flight", byVictimStarts, byVictim, lost, jobs)
	}
	fmt.Printf("%s: killed a worker after it stored %d games (%d in all, %d of its games lost); %d bot starts for %d games, each stored once\n",
		strings.SplitN(storage, ":", 2)[0], byVictim, before, byVictimStarts-byVictim, n, games)
}
