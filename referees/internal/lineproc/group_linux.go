package lineproc

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"gauntlet/internal/owner"
)

// EnvMark is the environment variable that marks every process of a bot:
// its value is "OWNER:N", OWNER being the token of the gauntlet process that
// started the bot (see package gauntlet/internal/owner) and N the bot's
// number in that process. The bot's children inherit it.
const EnvMark = "GAUNTLET_BOT_PROC"

// Why this and not cgroups: a cgroup would hold every descendant whatever it
// does, but creating one needs a delegated cgroup tree (root, or a systemd
// user slice), which a contest programmer's laptop or a CI container does
// not always give. The subreaper, the children lists of /proc and the
// environment mark need nothing; what they miss is a process that both
// leaves the bot's process group and clears its environment, and is
// orphaned before Close looks (it is then reaped, but not killed, by us).

var (
	treeMu  sync.Mutex
	roots   = map[int]bool{}   // processes started here; their exec.Cmd reaps them
	pending = map[int]string{} // killed descendants still to reap: pid → start time
	started int                // bots started by this process (for the marks)

	setupOnce sync.Once
	spawnCh   chan func()
	reaper    bool // gauntlet is a child subreaper
)

// group is a bot process and every process it started.
type group struct {
	root int
	mark string // EnvMark=VALUE
	gone bool   // the root has been waited for (under treeMu)
}

func setup() {
	// A process that cannot become a subreaper still kills the bot's
	// descendants it finds while the bot lives; only orphans go to init.
	ok := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == nil
	treeMu.Lock()
	reaper = ok
	treeMu.Unlock()
	spawnCh = make(chan func())
	go spawner()
	killOrphansOfDeadOwners()
}

// spawner starts every bot from one OS thread that never exits: Linux sends
// the parent-death signal when the thread that created the child exits, not
// the process, and the Go runtime may end other threads.
func spawner() {
	runtime.LockOSThread() // never unlocked: this thread lives as long as the process
	for f := range spawnCh {
		f()
	}
}

// startGroup starts cmd as the root of a new process group with the
// parent-death signal and the bot's mark in its environment.
func startGroup(cmd *exec.Cmd, env []string) (*group, error) {
	setupOnce.Do(setup)
	treeMu.Lock()
	defer treeMu.Unlock()
	reapLocked()
	started++
	mark := EnvMark + "=" + owner.Token() + ":" + strconv.Itoa(started)
	cmd.Env = append(append(os.Environ(), env...), mark)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	var err error
	done := make(chan struct{})
	spawnCh <- func() {
		err = cmd.Start()
		close(done)
	}
	<-done
	if err != nil {
		return nil, err
	}
	roots[cmd.Process.Pid] = true
	return &group{root: cmd.Process.Pid, mark: mark}, nil
}

// Subreaper reports whether this process has become the child subreaper
// of the bots it started (false before the first Start).
func Subreaper() bool {
	treeMu.Lock()
	defer treeMu.Unlock()
	return reaper
}

// exited records that the root has been waited for.
func (g *group) exited() {
	treeMu.Lock()
	defer treeMu.Unlock()
	delete(roots, g.root)
	g.gone = true
}

// kill ends the root and every descendant: it kills what it finds, then
// looks again (a process may have forked meanwhile; its children, orphaned
// by the kill, come to us), until nothing is left or after a few rounds.
func (g *group) kill() {
	treeMu.Lock()
	self := os.Getpid()
	for range 8 {
		victims, unsure := g.findLocked(self)
		if len(victims) == 0 {
			if !unsure {
				break
			}
			// A child of ours showed an empty environment: it is in the
			// middle of an exec, its mark unreadable for a moment (a bot's
			// child running setsid and then its program was missed this
			// way). Look again shortly; eight rounds bound the wait.
			time.Sleep(time.Millisecond)
			continue
		}
		for _, v := range victims {
			// ESRCH: it died meanwhile; nothing else can fail for our own
			// processes.
			_ = syscall.Kill(v.PID, syscall.SIGKILL)
			if !roots[v.PID] {
				pending[v.PID] = v.Start
			}
		}
	}
	reapLocked()
	left := len(pending)
	treeMu.Unlock()
	// The killed die within moments: reap them now rather than at the next
	// start, so that nothing of the bot is left, not even a zombie. A killed
	// process dies only once it is scheduled, which on a loaded machine took
	// more than the 50 ms this wait once had; past a second (a process in an
	// uninterruptible sleep) it is left to the next start's reaping.
	wait := time.Millisecond
	for deadline := time.Now().Add(time.Second); left > 0 && time.Now().Before(deadline); wait = min(2*wait, 20*time.Millisecond) {
		time.Sleep(wait)
		treeMu.Lock()
		reapLocked()
		left = len(pending)
		treeMu.Unlock()
	}
}

// findLocked lists the live processes of the group: the root while it runs,
// its descendants, and our own children (orphans reparented to us) that
// carry the group's mark or process group, with their descendants. unsure
// reports a child of ours whose environment could not be told (see hasMark).
func (g *group) findLocked(self int) (out []owner.Stat, unsure bool) {
	seen := map[int]bool{}
	var queue []int
	add := func(st owner.Stat) {
		if seen[st.PID] {
			return
		}
		seen[st.PID] = true
		if st.State == 'Z' || st.State == 'X' {
			if st.PPID == self && !roots[st.PID] {
				pending[st.PID] = st.Start
			}
			return
		}
		queue = append(queue, st.PID)
		out = append(out, st)
	}
	if !g.gone {
		if st, err := owner.ReadStat(g.root); err == nil && st.PPID == self {
			add(st)
		}
	}
	for _, c := range childrenOf(self) {
		if seen[c] || roots[c] {
			continue
		}
		st, err := owner.ReadStat(c)
		if err != nil {
			continue
		}
		if st.PGID == g.root {
			add(st)
			continue
		}
		switch has, known := hasMark(c, g.mark); {
		case has:
			add(st)
		case !known && st.State != 'Z' && st.State != 'X':
			// A zombie's environment reads empty too, for good.
			unsure = true
		}
	}
	for i := 0; i < len(queue); i++ {
		for _, c := range childrenOf(queue[i]) {
			if st, err := owner.ReadStat(c); err == nil {
				add(st)
			}
		}
	}
	return out, unsure
}

// reapLocked waits for the killed descendants that have died as our
// children; the others are left for a later call. It also reaps any zombie
// child outside our own process group that we did not start: an orphan of
// some bot's tree that died by itself (every bot runs in a group of its own;
// a child that another part of the program starts with os/exec stays in
// ours and is left to its exec.Cmd).
func reapLocked() {
	self := os.Getpid()
	if reaper {
		pgid := syscall.Getpgrp()
		for _, c := range childrenOf(self) {
			if roots[c] {
				continue
			}
			if st, err := owner.ReadStat(c); err == nil && st.State == 'Z' && st.PGID != pgid {
				pending[c] = st.Start
			}
		}
	}
	for pid, start := range pending {
		st, err := owner.ReadStat(pid)
		if err != nil || st.Start != start || st.PPID == 1 {
			// Gone (its parent reaped it), the pid reused, or init's.
			delete(pending, pid)
			continue
		}
		if st.PPID != self || st.State != 'Z' {
			continue
		}
		var ws unix.WaitStatus
		wpid, err := unix.Wait4(pid, &ws, unix.WNOHANG, nil)
		if wpid == pid || errors.Is(err, unix.ECHILD) {
			delete(pending, pid)
		}
	}
}

// childrenOf lists the children of every thread of pid (empty when pid is
// gone or the kernel lacks /proc/PID/task/TID/children).
func childrenOf(pid int) []int {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []int
	for _, t := range tasks {
		data, err := os.ReadFile(dir + "/" + t.Name() + "/children")
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(data)) {
			if c, err := strconv.Atoi(f); err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// hasMark reports whether pid's environment holds mark ("KEY=VALUE"). known
// is false when the environment cannot be read or is empty, as it is while
// the process execs a new program.
func hasMark(pid int, mark string) (has, known bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil || len(data) == 0 {
		return false, false
	}
	v, ok := markIn(data)
	return ok && EnvMark+"="+v == mark, true
}

// markOf returns the value of EnvMark in pid's environment.
func markOf(pid int) (string, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return "", false
	}
	return markIn(data)
}

// markIn returns the value of EnvMark in an environment as /proc shows it.
func markIn(data []byte) (string, bool) {
	key := []byte(EnvMark + "=")
	for kv := range bytes.SplitSeq(data, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, key); ok {
			return string(v), true
		}
	}
	return "", false
}

// killOrphansOfDeadOwners kills the processes whose mark names a gauntlet
// process that is no longer running: bots' children that outlived a
// gauntlet killed with -9 (the bots themselves die with it).
func killOrphansOfDeadOwners() {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	self := os.Getpid()
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		v, ok := markOf(pid)
		if !ok {
			continue
		}
		tok, _, _ := strings.Cut(v, ":")
		if tok != owner.Token() && !owner.Alive(tok) {
			// ESRCH or EPERM: gone, or not ours to kill.
			if syscall.Kill(pid, syscall.SIGKILL) == nil {
				if st, err := owner.ReadStat(pid); err == nil {
					treeMu.Lock()
					pending[pid] = st.Start
					treeMu.Unlock()
				}
			}
		}
	}
}
