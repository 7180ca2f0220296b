//go:build !linux

package lineproc

import (
	"os"
	"os/exec"
	"syscall"
	"time"
)

// EnvMark is the environment variable that marks every process of a bot
// (on Linux; elsewhere the bot's process group is all there is).
const EnvMark = "GAUNTLET_BOT_PROC"

// group is a bot process and its process group. Without /proc and the
// subreaper, a process that leaves the group is not found.
type group struct{ root int }

// Subreaper is false: only Linux has child subreapers.
func Subreaper() bool { return false }

func startGroup(cmd *exec.Cmd, env []string) (*group, error) {
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &group{root: cmd.Process.Pid}, nil
}

func (g *group) exited() {}

// setPipes does nothing: without /proc, pipes name no process.
func (g *group) setPipes(...*os.File) {}

// release ends the process group.
func (g *group) release() { g.kill() }

// kill ends the process group (ESRCH when it is gone already).
func (g *group) kill() { _ = syscall.Kill(-g.root, syscall.SIGKILL) }

// usage is what the processes of a bot hold.
type usage struct {
	procs int
	rss   int64
	cpu   time.Duration
}

// usage is unknown without /proc: no cap is watched.
func (g *group) usage() (usage, bool) { return usage{}, false }

// cpuTime is unknown without /proc (the CPU clock reads 0).
func (g *group) cpuTime() time.Duration { return 0 }
