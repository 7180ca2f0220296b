package owner

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
)

// Stat is what /proc/PID/stat says of a process.
type Stat struct {
	PID   int
	State byte // R, S, D, Z (zombie), T, ...
	PPID  int  // parent
	PGID  int  // process group
	SID   int  // session
	Start string
}

// ReadStat reads /proc/PID/stat. A process that is gone gives an error
// satisfying errors.Is(err, fs.ErrNotExist).
func ReadStat(pid int) (Stat, error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Stat{}, err
	}
	return parseStat(pid, data)
}

// parseStat reads the fields after the command name, which is in
// parentheses and may itself hold spaces and parentheses.
func parseStat(pid int, data []byte) (Stat, error) {
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return Stat{}, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	f := bytes.Fields(data[i+1:])
	// f[0] state, f[1] ppid, f[2] pgrp, f[3] session, ..., f[19] starttime.
	if len(f) < 20 || len(f[0]) != 1 {
		return Stat{}, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f))
	}
	st := Stat{PID: pid, State: f[0][0], Start: string(f[19])}
	var err error
	if st.PPID, err = strconv.Atoi(string(f[1])); err != nil {
		return Stat{}, fmt.Errorf("/proc/%d/stat: ppid: %w", pid, err)
	}
	if st.PGID, err = strconv.Atoi(string(f[2])); err != nil {
		return Stat{}, fmt.Errorf("/proc/%d/stat: pgrp: %w", pid, err)
	}
	if st.SID, err = strconv.Atoi(string(f[3])); err != nil {
		return Stat{}, fmt.Errorf("/proc/%d/stat: session: %w", pid, err)
	}
	return st, nil
}

// startTime is the process's start time in clock ticks since boot. A
// zombie counts as gone: it runs nothing and holds nothing open.
func startTime(pid int) (string, error) {
	st, err := ReadStat(pid)
	if err != nil {
		return "", err
	}
	if st.State == 'Z' || st.State == 'X' {
		return "", fmt.Errorf("process %d has exited", pid)
	}
	return st.Start, nil
}
