package main

import (
	"fmt"
	"log/slog"
	"math"
	"runtime"
	"strconv"
	"strings"

	"gauntlet/harness/contract"
	"gauntlet/harness/runner"
)

// DefaultBotProcs is the default --bot-procs: room for a bot that starts
// helpers or a pool of workers, none for one that forks without end.
const DefaultBotProcs = 256

// jobsFlag is --jobs, which records that it was given.
type jobsFlag struct {
	n   *int
	set *bool
}

func (j *jobsFlag) String() string {
	if j == nil || j.n == nil {
		return "0"
	}
	return strconv.Itoa(*j.n)
}

func (j *jobsFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("not a whole number: %q", s)
	}
	*j.n, *j.set = n, true
	return nil
}

// sizeFlag is a number of bytes given with a binary unit: 512M, 2G, 1.5G,
// 64K, or plain bytes.
type sizeFlag struct{ n int64 }

func (z *sizeFlag) String() string {
	if z == nil || z.n == 0 {
		return "0"
	}
	return strconv.FormatInt(z.n>>20, 10) + "M"
}

func (z *sizeFlag) Set(s string) error {
	n, err := parseSize(s)
	if err != nil {
		return err
	}
	z.n = n
	return nil
}

// minBotMemory is the least --bot-memory: under it no interpreter starts,
// and a bare number was likely meant in mebibytes.
const minBotMemory = 1 << 20

// parseSize reads a size: a number with an optional unit K, M, G or T
// (binary: 1K = 1024 bytes; "KB", "KiB" and lower case are the same).
func parseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	mult := int64(1)
	if t != "" {
		switch t[len(t)-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		}
		if mult > 1 {
			t = t[:len(t)-1]
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 || v*float64(mult) >= 1<<62 || math.IsNaN(v) {
		return 0, fmt.Errorf("not a size (e.g. 512M, 2G; 0 = no cap): %q", s)
	}
	n := int64(v * float64(mult))
	if n != 0 && n < minBotMemory {
		return 0, fmt.Errorf("%q is %d bytes: want at least 1M (units: K, M, G)", s, n)
	}
	return n, nil
}

// checkBots refuses bad values of the flags that bound external bots.
func (f *runFlags) checkBots() error {
	switch {
	case f.botProcs < 0:
		return usagef("--bot-procs %d: want at least 0 (0: no cap)", f.botProcs)
	case f.clock != "wall" && f.clock != "cpu":
		return usagef("--clock %q: want wall or cpu", f.clock)
	case f.clock == "cpu" && runtime.GOOS != "linux":
		return usagef("--clock cpu: CPU time is read from /proc, which only Linux has")
	case f.clock == "cpu" && f.noTimeLimit:
		return usagef("--clock cpu with --no-time-limit: there is no limit to time")
	}
	return nil
}

// fitJobs leaves each player of a game with time-limited external bots
// timed on the wall clock a core of its own, as the contests did: without
// --jobs, it plays at most cores / players games at once; with a --jobs
// that shares the cores, it warns that a timeout may then be the
// machine's, not the bot's.
func (f *runFlags) fitJobs(plan *runner.Plan, cores int) {
	external := false
	for _, e := range plan.Entrants {
		external = external || e.IsExternal()
	}
	seats := 1
	for i := range plan.Matches {
		seats = max(seats, len(plan.Matches[i].Seats))
	}
	f.fitJobsTo(plan.Game.Info(), external, seats, cores)
}

// fitJobsTo is fitJobs for games of the given seats, with an external bot
// among the players or not (tune and spsa, which build their games
// themselves).
func (f *runFlags) fitJobsTo(info contract.GameInfo, external bool, seats, cores int) {
	if l := info.Limits; !external || f.noTimeLimit || f.clock == "cpu" || l.Turn == 0 && l.FirstTurn == 0 && l.Total == 0 {
		return
	}
	seats = max(seats, 1)
	fit := max(1, cores/seats)
	switch {
	case !f.jobsSet && f.jobs > fit:
		slog.Info("external bots are timed on the wall clock: playing fewer games at once so that each player has a core",
			"jobs", fit, "players", seats, "cores", cores)
		f.jobs = fit
	case f.jobs > fit || seats > cores:
		slog.Warn(fmt.Sprintf("--jobs %d with %d players a game on %d cores: external bots are timed on the wall clock and share the CPU, "+
			"so a timeout may be the machine's, not the bot's (forfeits say so); --jobs %d gives each player a core, --clock cpu charges each bot its CPU time",
			f.jobs, seats, cores, fit))
	}
}
