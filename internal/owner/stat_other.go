//go:build !linux

package owner

import (
	"errors"
	"syscall"
)

// Stat is what /proc/PID/stat says of a process (Linux only).
type Stat struct {
	PID   int
	State byte
	PPID  int
	PGID  int
	SID   int
	Start string
}

// ReadStat is not available on this system.
func ReadStat(pid int) (Stat, error) { return Stat{}, errors.ErrUnsupported }

// startTime is unknown here: "" when the process exists.
func startTime(pid int) (string, error) {
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return "", err
	}
	return "", nil
}
