package cli

import (
	"errors"
	"log/slog"
	"os"
	"runtime/pprof"
)

// StartProfile writes a CPU profile of the command to file (none when file
// is empty) until the returned stop is called: `go tool pprof gauntlet FILE`
// shows where a whole eval, ab or tune process spends its time.
func StartProfile(file string) (stop func() error, err error) {
	if file == "" {
		return func() error { return nil }, nil
	}
	f, err := os.Create(file)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		return nil, errors.Join(err, f.Close())
	}
	return func() error {
		pprof.StopCPUProfile()
		return f.Close()
	}, nil
}

// LogLevel is the level of the command's log: debug when GAUNTLET_DEBUG is
// set.
func LogLevel() slog.Level {
	if os.Getenv("GAUNTLET_DEBUG") != "" {
		return slog.LevelDebug
	}
	return slog.LevelInfo
}
