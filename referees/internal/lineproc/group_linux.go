package lineproc

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"slices"
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
// environment mark need nothing. A process that both leaves the bot's
// process group and clears its environment (env -i setsid ...), and is
// orphaned before anyone looks, comes to us with nothing of the bot on it
// but, often, the bot's pipes as its stdin, stdout or stderr: those name
// its bot. One that closed them too is ended with the last bot that may
// have started it (see orphanOf), so that nothing outlives its game's
// neighbours, and nothing at all outlives the last bot.

var (
	treeMu  sync.Mutex
	roots   = map[int]bool{}      // processes started here; their exec.Cmd reaps them
	pending = map[int]string{}    // killed descendants still to reap: pid → start time
	started int                   // bots started by this process (for the marks)
	live    = map[string]*group{} // bots not released yet, by mark

	setupOnce sync.Once
	spawnCh   chan func()
	reaper    bool // gauntlet is a child subreaper
)

// group is a bot process and every process it started.
type group struct {
	root  int
	mark  string    // EnvMark=VALUE
	start uint64    // the root's start time (clock ticks since boot)
	pipes [3]uint64 // inodes of the bot's stdin, stdout and stderr pipes
	gone  bool      // the root has been waited for (under treeMu)
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
	pid := cmd.Process.Pid
	roots[pid] = true
	g := &group{root: pid, mark: mark}
	if st, err := owner.ReadStat(pid); err == nil {
		g.start, _ = strconv.ParseUint(st.Start, 10, 64)
	}
	live[mark] = g
	return g, nil
}

// setPipes records the inodes of the bot's pipes (our ends of them), by
// which a process that kept one is known as the bot's.
func (g *group) setPipes(files ...*os.File) {
	treeMu.Lock()
	defer treeMu.Unlock()
	for i, f := range files {
		if i == len(g.pipes) {
			break
		}
		if f == nil {
			continue
		}
		// Stat, not Fd: Fd would put the pipe in blocking mode, and
		// deadlines would no longer hold on it.
		if fi, err := f.Stat(); err == nil {
			if st, ok := fi.Sys().(*syscall.Stat_t); ok {
				g.pipes[i] = st.Ino
			}
		}
	}
}

// release ends the bot and every process it started, and forgets it: the
// orphans that could only have been its are ended too (see orphanOf).
func (g *group) release() {
	g.kill()
	treeMu.Lock()
	delete(live, g.mark)
	treeMu.Unlock()
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
// are the group's (see orphanOf), with their descendants. unsure reports a
// child of ours whose environment could not be told (see hasMark) and that
// was not found to be the group's otherwise.
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
	pgid := syscall.Getpgrp()
	for _, c := range childrenOf(self) {
		if seen[c] || roots[c] {
			continue
		}
		st, err := owner.ReadStat(c)
		if err != nil {
			continue
		}
		switch ours, known := g.orphanOf(st, pgid); {
		case ours:
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

// orphanOf reports whether st, a child of ours that is no bot, belongs to
// the group: it is in the bot's process group, carries its mark, or holds
// one of its pipes as stdin, stdout or stderr. A child that carries the
// mark of another live bot is that bot's; one in gauntlet's own process
// group (ownPGID) was started by another part of gauntlet (os/exec
// children stay in it; every bot has a group of its own). One with nothing
// of any live bot on it (its environment cleared, its pipes closed, or it
// is left from a bot released already) is counted as the group's when no
// other live bot started at or before it did: then only this bot, or one
// gone already, can have started it. known is false when its environment
// could not be read and nothing else told: it may be in the middle of an
// exec.
func (g *group) orphanOf(st owner.Stat, ownPGID int) (ours, known bool) {
	if st.PGID == g.root {
		return true, true
	}
	v, marked, readable := envMark(st.PID)
	if marked {
		if EnvMark+"="+v == g.mark {
			return true, true
		}
		if _, other := live[EnvMark+"="+v]; other {
			return false, true
		}
	}
	if g.holdsPipe(st.PID) {
		return true, true
	}
	if st.PGID == ownPGID {
		return false, true
	}
	start, err := strconv.ParseUint(st.Start, 10, 64)
	if err != nil {
		return false, readable
	}
	for m, h := range live {
		if m != g.mark && h.start <= start {
			return false, readable
		}
	}
	return true, true
}

// holdsPipe reports whether pid's stdin, stdout or stderr is one of the
// group's pipes.
func (g *group) holdsPipe(pid int) bool {
	if g.pipes == [3]uint64{} {
		return false
	}
	dir := "/proc/" + strconv.Itoa(pid) + "/fd/"
	for fd := range 3 {
		link, err := os.Readlink(dir + strconv.Itoa(fd))
		if err != nil {
			continue
		}
		ino, ok := strings.CutPrefix(link, "pipe:[")
		if !ok {
			continue
		}
		n, err := strconv.ParseUint(strings.TrimSuffix(ino, "]"), 10, 64)
		if err == nil && n != 0 && slices.Contains(g.pipes[:], n) {
			return true
		}
	}
	return false
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

// envMark returns the value of EnvMark in pid's environment, whether it
// has one, and whether the environment could be read at all (an empty
// one, as while the process execs, cannot).
func envMark(pid int) (v string, marked, readable bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil || len(data) == 0 {
		return "", false, false
	}
	v, marked = markIn(data)
	return v, marked, true
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

// usage is what the processes of a bot hold.
type usage struct {
	procs int
	rss   int64         // resident memory, bytes
	cpu   time.Duration // CPU time, their reaped children's included
}

// userHZ is the unit of the CPU times of /proc/PID/stat: USER_HZ, which is
// 100 on every architecture Linux runs on (sysconf(_SC_CLK_TCK)).
const userHZ = 100

var pageSize = int64(os.Getpagesize())

// usage adds up what the live processes of the group hold (see findLocked).
func (g *group) usage() (usage, bool) {
	treeMu.Lock()
	procs, _ := g.findLocked(os.Getpid())
	treeMu.Unlock()
	var u usage
	for _, st := range procs {
		cpu, rss, ok := readUsage(st.PID)
		if !ok {
			continue
		}
		u.procs++
		u.rss += rss
		u.cpu += cpu
	}
	return u, true
}

// cpuTime is the CPU time of the bot's process and its descendants: what
// they spent, and what their children that they have waited for spent.
// It reads the bot's own tree only, not orphans reparented to gauntlet, so
// that an answer's timing stays cheap.
func (g *group) cpuTime() time.Duration {
	var total time.Duration
	queue := []int{g.root}
	for i := 0; i < len(queue) && i < 4096; i++ {
		cpu, _, ok := readUsage(queue[i])
		if !ok {
			continue
		}
		total += cpu
		queue = append(queue, childrenOf(queue[i])...)
	}
	return total
}

// readUsage reads the CPU time (utime + stime + cutime + cstime) and the
// resident memory of a process from /proc/PID/stat.
func readUsage(pid int) (cpu time.Duration, rss int64, ok bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, 0, false
	}
	// Fields after the command: [0] state (field 3), [11..14] utime,
	// stime, cutime, cstime (14-17), [21] rss in pages (24).
	f := bytes.Fields(data[i+1:])
	if len(f) < 22 {
		return 0, 0, false
	}
	var ticks int64
	for _, s := range f[11:15] {
		n, err := strconv.ParseInt(string(s), 10, 64)
		if err != nil {
			return 0, 0, false
		}
		ticks += n
	}
	pages, err := strconv.ParseInt(string(f[21]), 10, 64)
	if err != nil {
		return 0, 0, false
	}
	return time.Duration(ticks) * time.Second / userHZ, pages * pageSize, true
}
