package tuning

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"gauntlet/internal/testjson"
)

// worker is a worker subprocess: the test binary re-executed with
// envWorker set (see TestMain).
type workerProc struct {
	cmd    *exec.Cmd
	name   string // "host:pid"; the worker names itself "host:pid.start" (sqldb.WorkerName)
	out    string
	stderr *strings.Builder
	done   chan error
}

// is reports whether a trial's worker name is w's.
func (w *workerProc) is(worker string) bool {
	return worker == w.name || strings.HasPrefix(worker, w.name+".")
}

func startWorker(t *testing.T, wc workerConfig) *workerProc {
	t.Helper()
	js, err := json.Marshal(wc)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "summary.json")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envWorker+"="+string(js), envWorkerOut+"="+out)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	w := &workerProc{cmd: cmd, name: fmt.Sprintf("%s:%d", host, cmd.Process.Pid), out: out, stderr: &stderr, done: make(chan error, 1)}
	go func() { w.done <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			<-w.done
		}
	})
	return w
}

// wait waits for the worker to exit and fails the test unless it exited 0.
func (w *workerProc) wait(t *testing.T, limit time.Duration) {
	t.Helper()
	select {
	case err := <-w.done:
		if err != nil {
			t.Fatalf("worker %s: %v\n%s", w.name, err, w.stderr.String())
		}
	case <-time.After(limit):
		w.cmd.Process.Kill()
		t.Fatalf("worker %s still running after %v\n%s", w.name, limit, w.stderr.String())
	}
}

// checkExactBudget checks that the study holds exactly n complete trials,
// one per budget slot, with distinct numbers, and that every lost trial was
// re-run once with the same parameters in its own slot.
func checkExactBudget(t *testing.T, rec *StudyRecord, n int) (lost int) {
	t.Helper()
	slots := map[int]int{}
	numbers := map[int]bool{}
	byNumber := map[int]*TrialRecord{}
	for i := range rec.Trials {
		tr := &rec.Trials[i]
		byNumber[tr.Number] = tr
		if numbers[tr.Number] {
			t.Fatalf("trial number %d twice", tr.Number)
		}
		numbers[tr.Number] = true
		switch tr.State {
		case StateComplete:
			slots[tr.Slot]++
		case StateLost:
			lost++
		default:
			t.Fatalf("trial %d is %s (%s)", tr.Number, tr.State, tr.Reason)
		}
	}
	if len(slots) != n {
		t.Fatalf("%d slots complete, want %d: %v", len(slots), n, slots)
	}
	for s := 0; s < n; s++ {
		if slots[s] != 1 {
			t.Fatalf("slot %d has %d complete trials, want 1", s, slots[s])
		}
	}
	for _, tr := range rec.Trials {
		if tr.RetryOf < 0 {
			continue
		}
		orig := byNumber[tr.RetryOf]
		if orig == nil || orig.State != StateLost {
			t.Fatalf("trial %d re-runs trial %d, which is not a lost trial", tr.Number, tr.RetryOf)
		}
		a := testjson.Marshal(t, orig.Params)
		b := testjson.Marshal(t, tr.Params)
		if string(a) != string(b) || orig.Slot != tr.Slot {
			t.Fatalf("re-run %d of trial %d: params %s slot %d, want %s slot %d", tr.Number, orig.Number, b, tr.Slot, a, orig.Slot)
		}
	}
	return lost
}

func TestTwoProcessesShareSQLiteStudy(t *testing.T) {
	testTwoProcesses(t, sqliteURL(t))
}

func TestTwoProcessesSharePostgresStudy(t *testing.T) {
	url := postgresURL(t)
	st := openStorage(t, url)
	name := fmt.Sprintf("test-two-%d", time.Now().UnixNano())
	t.Cleanup(func() { st.DeleteStudy(context.Background(), name) })
	testTwoProcessesNamed(t, url, name)
}

// postgresURL is the test server (GAUNTLET_TEST_POSTGRES); without it the
// test is skipped, unless CI is set, where it fails.
func postgresURL(t *testing.T) string {
	url := os.Getenv("GAUNTLET_TEST_POSTGRES")
	if url == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("GAUNTLET_TEST_POSTGRES is not set: CI must provide a PostgreSQL server")
		}
		t.Skip("GAUNTLET_TEST_POSTGRES is not set (e.g. postgres://gauntlet:gauntlet@127.0.0.1:5432/gauntlet_test)")
	}
	return url
}

func testTwoProcesses(t *testing.T, url string) { testTwoProcessesNamed(t, url, "shared") }

func testTwoProcessesNamed(t *testing.T, url, study string) {
	const n = 12
	wc := workerConfig{Storage: url, Study: study, Trials: n, Heartbeat: time.Second, Delay: 15 * time.Millisecond, Jobs: 1,
		Config: Config{Game: "knob", Strategy: "dial", Cases: "seeds:3", Seed: 9, Pruner: "median"}}
	a, b := startWorker(t, wc), startWorker(t, wc)
	a.wait(t, time.Minute)
	b.wait(t, time.Minute)
	rec, err := LoadStudy(context.Background(), url, study)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Trials) != n {
		t.Fatalf("%d trials, want %d", len(rec.Trials), n)
	}
	checkExactBudget(t, rec, n)
	per := map[string]int{}
	for _, tr := range rec.Trials {
		switch {
		case a.is(tr.Worker):
			per[a.name]++
		case b.is(tr.Worker):
			per[b.name]++
		}
	}
	if per[a.name] == 0 || per[b.name] == 0 {
		t.Fatalf("trials per worker %v: want both workers %s and %s to have run trials", per, a.name, b.name)
	}
	// Both workers report the same study.
	var sa, sb Summary
	for _, x := range []struct {
		w *workerProc
		s *Summary
	}{{a, &sa}, {b, &sb}} {
		data, err := os.ReadFile(x.w.out)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, x.s); err != nil {
			t.Fatal(err)
		}
	}
	if *sa.BestValue != *sb.BestValue || *sa.DefaultValue != *sb.DefaultValue || sa.Complete != n || sb.Complete != n {
		t.Fatalf("summaries differ: best %v/%v default %v/%v complete %d/%d", *sa.BestValue, *sb.BestValue, *sa.DefaultValue, *sb.DefaultValue, sa.Complete, sb.Complete)
	}
	if sa.Reproducible {
		t.Fatalf("two concurrent workers, yet reproducible: %s", sa.ReproducibleNote)
	}
	t.Logf("%d trials, per worker %v; %s", n, per, sa.ReproducibleNote)
}

// A worker killed with SIGKILL in the middle of a trial leaves it running;
// a surviving worker on the same machine sees at once that its process is
// gone, marks the trial lost and re-runs its parameters, and a restarted
// worker does the same.
func TestKilledWorkerTrialIsRecovered(t *testing.T) {
	for _, mode := range []string{"survivor", "restart", "remote"} {
		t.Run(mode, func(t *testing.T) { testKilledWorker(t, sqliteURL(t), "kill", mode) })
	}
}

func TestKilledWorkerTrialIsRecoveredPostgres(t *testing.T) {
	url := postgresURL(t)
	st := openStorage(t, url)
	name := fmt.Sprintf("test-kill-%d", time.Now().UnixNano())
	t.Cleanup(func() { st.DeleteStudy(context.Background(), name) })
	testKilledWorker(t, url, name, "survivor")
}

// testKilledWorker kills a worker in the middle of a trial. Modes: a
// survivor on the same machine goes on; the study is run again on the same
// machine ("restart"); the study is run again with the killed worker named
// as one of another machine, whose trial is noticed only when its heartbeat
// goes stale ("remote"). The TPE study then says it is reproducible exactly
// when its trials, slot by slot, are those of an uninterrupted run.
func testKilledWorker(t *testing.T, url, study, mode string) {
	const n = 5
	c := Config{Game: "knob", Strategy: "dial", Cases: "seeds:4", Seed: 4, Sampler: "tpe"}
	// Heartbeats an hour apart: only seeing that the victim's process is
	// gone lets the others go on.
	slow := workerConfig{Storage: url, Study: study, Trials: n, Heartbeat: time.Hour, Delay: 400 * time.Millisecond, Jobs: 1, Config: c}
	fast := slow
	fast.Delay = 2 * time.Millisecond
	fast.Heartbeat = 200 * time.Millisecond // polls often; the victim's trial is judged by its own hour
	if mode == "remote" {
		slow.Worker = "elsewhere:1"
		slow.Heartbeat = 100 * time.Millisecond
		fast.Heartbeat = 100 * time.Millisecond
	}
	victim := startWorker(t, slow)
	if mode == "remote" {
		victim.name = slow.Worker
	}
	// Wait until the victim runs a trial with every parameter drawn (the
	// kill is to land in its games: killed between two draws on a loaded
	// machine, its re-run keeps the values drawn and draws the rest
	// anew); then (survivor mode) start the survivor, which could
	// otherwise run every trial while the victim's process starts on a
	// loaded machine, and kill the victim.
	st := openStorage(t, url)
	deadline := time.Now().Add(30 * time.Second)
	for {
		rec, err := st.Load(context.Background(), study)
		held := false
		if err == nil {
			for _, tr := range rec.Trials {
				held = held || (tr.State == StateRunning && victim.is(tr.Worker) && len(tr.Params) == len(dialSpecs))
			}
		}
		if held {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the victim never ran a trial\n%s", victim.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	var survivor *workerProc
	if mode == "survivor" {
		survivor = startWorker(t, fast)
	}
	time.Sleep(100 * time.Millisecond)
	if err := victim.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := <-victim.done; err == nil {
		t.Fatal("the victim exited normally before it was killed")
	}
	if survivor == nil {
		survivor = startWorker(t, fast)
	}
	survivor.wait(t, time.Minute)
	rec, err := st.Load(context.Background(), study)
	if err != nil {
		t.Fatal(err)
	}
	lost := checkExactBudget(t, rec, n)
	if lost != 1 {
		t.Fatalf("%d lost trials, want 1 (the victim's)", lost)
	}
	var lines []string
	for _, tr := range rec.Trials {
		if tr.State == StateLost {
			// A worker of this machine: noticed at once, not after its
			// heartbeat went stale.
			want := "its process is gone"
			if mode == "remote" {
				want = "no heartbeat"
			}
			if !victim.is(tr.Worker) || !strings.Contains(tr.Reason, want) {
				t.Fatalf("lost trial %d: worker %s reason %q", tr.Number, tr.Worker, tr.Reason)
			}
		}
		lines = append(lines, fmt.Sprintf("%d:%s(slot %d, retry of %d)", tr.Number, tr.State, tr.Slot, tr.RetryOf))
	}
	sort.Strings(lines)
	repro, note := reproducibility(rec)
	t.Logf("%s: %s; %s", mode, strings.Join(lines, " "), note)
	refURL := sqliteURL(t)
	runStudy(t, toyRegistry(0), refURL, "ref", c, n)
	refRec := rec2(t, openStorage(t, refURL), "ref")
	same := bySlot(t, rec) == bySlot(t, refRec)
	if repro != same {
		t.Fatalf("%s: the study says %q, but its trials are those of an uninterrupted run: %v\n%s\nvs\n%s", mode, note, same, bySlot(t, rec), bySlot(t, refRec))
	}
	if mode == "restart" && !same {
		t.Fatalf("restarted on the same machine, the lost trial should be re-run first:\n%s\nvs\n%s", bySlot(t, rec), bySlot(t, refRec))
	}
}

// bySlot is the final trial of each slot: parameters and value.
func bySlot(t testing.TB, rec *StudyRecord) string {
	t.Helper()
	final := map[int]string{}
	for _, tr := range rec.Trials {
		if tr.State != StateLost {
			p := testjson.Marshal(t, tr.Params)
			final[tr.Slot] = fmt.Sprintf("slot %d %s %.12g %s", tr.Slot, tr.State, tr.Value, p)
		}
	}
	var out []string
	for _, l := range final {
		out = append(out, l)
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// Every pruner stops a clearly bad trial and keeps a better one. The study
// starts with five copies of a good configuration (the median rule waits
// for five complete trials), then a bad one, then the best.
func TestPrunersStopBadKeepGood(t *testing.T) {
	good := map[string]float64{"x": 6, "k": 5, "mode": 2, "lr": 0.1}  // quality 102
	bad := map[string]float64{"x": 0, "k": 0, "mode": 0, "lr": 0.001} // quality far below
	best := map[string]float64{"x": 7, "k": 5, "mode": 2, "lr": 0.1}  // quality 105
	for _, run := range []struct{ game, pruner string }{
		{"knob", "median"}, {"knob", "sha"}, {"knob", "wilcoxon"},
		// The same configurations in the lower-is-better mirror: the bad
		// one now has the highest costs.
		{"cost", "median"}, {"cost", "sha"}, {"cost", "wilcoxon"},
	} {
		pruner := run.pruner
		t.Run(run.game+"/"+pruner, func(t *testing.T) {
			reg := toyRegistry(0)
			c := Config{Game: run.game, Strategy: "dial", Cases: "seeds:24", Seed: 1, Sampler: "random", Pruner: pruner, Chunk: 4}
			tu, err := New(reg, c)
			if err != nil {
				t.Fatal(err)
			}
			url := sqliteURL(t)
			st := openStorage(t, url)
			ctx := context.Background()
			for _, v := range []map[string]float64{good, good, good, good, good, bad, best} {
				if err := tu.Enqueue(ctx, st, "p", v); err != nil {
					t.Fatal(err)
				}
			}
			sum := runStudy(t, reg, url, "p", c, 7)
			for i, tr := range sum.Trials {
				want := StateComplete
				if i == 5 {
					want = StatePruned
				}
				if tr.State != want {
					t.Fatalf("trial %d (%v) is %s, want %s", i, tr.Params, tr.State, want)
				}
			}
			at := *sum.Trials[5].PrunedAt
			if at >= 24 {
				t.Fatalf("bad trial pruned at %d of 24 cases", at)
			}
			if *sum.BestTrial != 6 {
				t.Fatalf("best trial %d, want 6", *sum.BestTrial)
			}
			t.Logf("%s: bad trial pruned after %d of 24 cases", pruner, at)
		})
	}
}

// The Wilcoxon pruner needs its minimum of paired cases and a p-value
// below its threshold.
func TestWilcoxonPrunerThresholds(t *testing.T) {
	reg := toyRegistry(0)
	// A trial only slightly worse on every case is still "significantly
	// worse" once enough cases agree; with a minimum above the case count
	// it never stops.
	best := map[string]float64{"x": 7, "k": 5, "mode": 2, "lr": 0.1}
	near := map[string]float64{"x": 6.9, "k": 5, "mode": 2, "lr": 0.1}
	for _, tc := range []struct {
		min    int
		pruned bool
	}{{6, true}, {30, false}} {
		c := Config{Game: "knob", Strategy: "dial", Cases: "seeds:24", Seed: 1, Sampler: "random", Pruner: "wilcoxon", PruneMin: tc.min, Chunk: 4}
		tu, err := New(reg, c)
		if err != nil {
			t.Fatal(err)
		}
		url := sqliteURL(t)
		st := openStorage(t, url)
		for _, v := range []map[string]float64{best, near} {
			if err := tu.Enqueue(context.Background(), st, "w", v); err != nil {
				t.Fatal(err)
			}
		}
		sum := runStudy(t, reg, url, "w", c, 2)
		if got := sum.Trials[1].State == StatePruned; got != tc.pruned {
			t.Fatalf("min %d: near-best trial state %s, want pruned=%v", tc.min, sum.Trials[1].State, tc.pruned)
		}
		if tc.pruned && *sum.Trials[1].PrunedAt < tc.min {
			t.Fatalf("min %d: pruned after %d cases", tc.min, *sum.Trials[1].PrunedAt)
		}
	}
}

// An interrupted worker (Ctrl-C: its context ends) hands its running trial
// back at once, marked lost and queued again, and the next run of the same
// study re-runs it: no waiting for a stale heartbeat.
func TestInterruptedTrialIsHandedBack(t *testing.T) {
	reg := toyRegistry(40 * time.Millisecond)
	c := Config{Game: "knob", Strategy: "dial", Cases: "seeds:4", Seed: 2, Sampler: "random"}
	tu, err := New(reg, c)
	if err != nil {
		t.Fatal(err)
	}
	url := sqliteURL(t)
	st := openStorage(t, url)
	// The run is interrupted as soon as the store shows a trial running
	// (each plays 4 cases of 40 ms): a deadline could fall between two
	// trials on a loaded machine.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			rec, err := st.Load(ctx, "int")
			if err == nil && slices.ContainsFunc(rec.Trials, func(tr TrialRecord) bool { return tr.State == StateRunning }) {
				cancel()
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	opt := RunOptions{Study: "int", Trials: 3, Jobs: 1, Heartbeat: time.Hour}
	if _, err := tu.Run(ctx, st, opt); err == nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: err = %v", err)
	}
	rec, err := st.Load(context.Background(), "int")
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]int{}
	for _, tr := range rec.Trials {
		states[tr.State]++
	}
	if states[StateLost] != 1 || states[StateWaiting] != 1 || states[StateRunning] != 0 {
		t.Fatalf("after the interrupt: %v; want one lost trial queued again", states)
	}
	// The heartbeat interval is an hour: only the hand-back lets this finish.
	sum, err := tu.Run(context.Background(), st, opt)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Complete != 3 || sum.Lost != 1 {
		t.Fatalf("resumed: %d complete, %d lost; want 3 and 1", sum.Complete, sum.Lost)
	}
	checkExactBudget(t, rec2(t, st, "int"), 3)
}

func rec2(t *testing.T, st *Storage, name string) *StudyRecord {
	t.Helper()
	rec, err := st.Load(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}
