package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/harness/store"
	"gauntlet/internal/bounded"
)

// Every flag value is checked here before any game starts: a bad one is a
// usage error (exit status 2) that names the flag, the value given and what
// is allowed.

// check refuses bad values of the flags every game-playing command shares.
func (f *runFlags) check() error {
	if err := atLeast("--jobs", f.jobs, 1, "games played in parallel"); err != nil {
		return err
	}
	return f.checkBots()
}

// atLeast refuses an integer flag below lo.
func atLeast(name string, v, lo int, what string) error {
	if v < lo {
		return usagef("%s %d: want at least %d (%s)", name, v, lo, what)
	}
	return nil
}

// nonNegativeDuration refuses a negative duration flag.
func nonNegativeDuration(name string, d time.Duration, zero string) error {
	if d < 0 {
		return usagef("%s %v: want a duration of at least 0 (0: %s)", name, d, zero)
	}
	return nil
}

// openInterval refuses a float flag outside the open interval (lo, hi),
// NaN included.
func openInterval(name string, v, lo, hi float64, what string) error {
	if !(v > lo && v < hi) || math.IsNaN(v) {
		return usagef("%s %v: want %s in (%g, %g)", name, v, what, lo, hi)
	}
	return nil
}

// nameList refuses a comma-separated list with an empty name (",,", "a,",
// "a,,b"); "" is no list at all.
func nameList(flagName, list, what string) error {
	if list == "" {
		return nil
	}
	for i, n := range strings.Split(list, ",") {
		if strings.TrimSpace(n) == "" {
			return usagef("%s %q: name %d is empty; want comma-separated %s", flagName, list, i+1, what)
		}
	}
	return nil
}

// setFlags returns the names of the flags given on the command line.
func setFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// readParamsFile reads a JSON object of parameter values, either plain
// ({"w": 1.5}) or as written by 'gauntlet tune --best-json' ({"params":
// {...}}, or a tune summary's {"best_params": {...}}). Anything else (not
// JSON, null, not an object, a value that is not a number, string or
// boolean) is a usage error naming the file and what is wrong, with the
// line and column of a syntax error.
//
// The file may hold at most bounded.SettingsSize bytes ("params file F:
// larger than 16 MiB"). It is read before any game starts, without the
// command's context: a named pipe that never ends holds the command there.
func readParamsFile(path string) (map[string]any, error) {
	data, err := bounded.ReadFile(context.Background(), path, bounded.SettingsSize)
	if tl := (*bounded.TooLargeError)(nil); errors.As(err, &tl) {
		return nil, usagef("params file %v", err)
	}
	if err != nil {
		return nil, usagef("params file %s: %s", path, fileProblem(err))
	}
	doc, err := decodeJSON(data)
	if err != nil {
		return nil, usagef("params file %s: %v; want a JSON object of parameter values", path, err)
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil, usagef("params file %s: holds %s; want a JSON object of parameter values, e.g. {\"name\": 1.5}", path, jsonKind(doc))
	}
	for _, key := range []string{"params", "best_params"} {
		if inner, found := obj[key]; found {
			m, ok := inner.(map[string]any)
			if !ok {
				return nil, usagef("params file %s: %q holds %s; want a JSON object of parameter values", path, key, jsonKind(inner))
			}
			obj = m
			break
		}
	}
	for k, v := range obj {
		// The values become name=value assignments, which commas separate
		// (an item without "=" continues the value before it): a name with
		// a comma or "=", or a value with a comma followed by "=", would set
		// other parameters than the one the file names; a name with spaces
		// at an end would set the parameter without them.
		if strings.ContainsAny(k, ",=") || k != strings.TrimSpace(k) {
			return nil, usagef("params file %s: %q is not a parameter name (it holds a comma or '=', or spaces at an end)", path, k)
		}
		switch x := v.(type) {
		case float64, bool:
		case string:
			if i := strings.Index(x, ","); i >= 0 && strings.Contains(x[i:], "=") {
				return nil, usagef("params file %s: parameter %q holds %q; a value with a comma has no '=' after it", path, k, x)
			}
		default:
			return nil, usagef("params file %s: parameter %q holds %s; want a number, a string or a boolean", path, k, jsonKind(v))
		}
	}
	return obj, nil
}

// fileProblem says why a file could not be read, in words.
func fileProblem(err error) string { return cli.FileProblem(err) }

// decodeJSON decodes one JSON value; a syntax error says "not JSON" with
// its line and column.
func decodeJSON(data []byte) (any, error) {
	var v any
	err := json.Unmarshal(data, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := lineCol(data, se.Offset)
		msg := se.Error()
		head, detail := msg, ""
		// "invalid character 'h' looking for beginning of value": the
		// character, then what the parser expected.
		if strings.HasPrefix(msg, "invalid character '") {
			if i := strings.Index(msg[len("invalid character '")+1:], "' "); i >= 0 {
				cut := len("invalid character '") + 1 + i + 1
				head, detail = msg[:cut], strings.TrimSpace(msg[cut:])
			}
		}
		if detail != "" {
			return nil, fmt.Errorf("not JSON: %s at line %d, column %d (%s)", head, line, col, detail)
		}
		return nil, fmt.Errorf("not JSON: %s at line %d, column %d", head, line, col)
	}
	return v, err
}

// lineCol turns the offset of a json.SyntaxError (bytes read when the
// error was found) into the 1-based line and column of the offending byte.
func lineCol(data []byte, offset int64) (line, col int) {
	at := int(max(offset-1, 0))
	at = min(at, len(data))
	before := data[:at]
	line = 1 + bytes.Count(before, []byte{'\n'})
	col = at - bytes.LastIndexByte(before, '\n')
	return line, col
}

// jsonKind names the kind of a decoded JSON value.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case float64:
		return "a number"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// check refuses bad values of tune's flags (set: the flags given) and
// resolves the default case set.
func (f *tuneFlags) check(set map[string]bool) error {
	if f.list {
		return nil
	}
	checks := []error{
		f.rf.check(),
		atLeast("--trials", f.trials, 1, "a number of trials"),
		atLeast("--chunk", f.chunk, 0, "a number of cases between two intermediate values (0: automatic)"),
		nonNegativeDuration("--timeout", f.timeout, "none"),
		nameList("--space", f.space, "names of the strategy's declared parameters (see 'gauntlet list')"),
		cli.OutputFile("--best-json", f.bestJSON),
	}
	if f.heartbeat < 100*time.Millisecond {
		checks = append(checks, usagef("--heartbeat %v: want at least 100ms", f.heartbeat))
	}
	if f.pruner == "wilcoxon" {
		checks = append(checks, openInterval("--prune-p", f.pruneP, 0, 0.5, "a one-sided p-value"),
			atLeast("--prune-min", f.pruneMin, 1, "a number of paired cases"))
	} else {
		for _, name := range []string{"prune-p", "prune-min"} {
			if set[name] {
				checks = append(checks, usagef("--%s applies only to --pruner wilcoxon (the pruner is %s)", name, f.pruner))
			}
		}
	}
	for _, err := range checks {
		if err != nil {
			return err
		}
	}
	if f.cases == "" && f.rf.game != "" {
		f.cases = "smoke"
		if g, err := contract.Default.Game(f.rf.game); err == nil {
			f.cases = contract.DefaultCases(g, "tune", f.cases)
		}
	}
	return nil
}

// existingDatabase checks that the SQLite file of a --storage URL that is
// only read exists and can be opened (PostgreSQL URLs pass), saying which:
// no database, or permission denied.
func existingDatabase(url string) error {
	ps, err := store.ParseStorage(url)
	if err != nil || ps.Dialect != "sqlite" || ps.Path == ":memory:" {
		return nil // ParseStorage's error is reported where the store is opened
	}
	f, err := os.Open(ps.Path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("--storage %s: no database (%s: no such file)", url, ps.Path)
		}
		return fmt.Errorf("--storage %s: %s: %s", url, ps.Path, fileProblem(err))
	}
	return f.Close()
}

// outputFiles checks several output file flags (name, path pairs).
func outputFiles(pairs ...string) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		if err := cli.OutputFile(pairs[i], pairs[i+1]); err != nil {
			return err
		}
	}
	return nil
}

// outputDir checks a directory flag whose directory is created if missing
// (with its parents): it is a directory if it exists, and the nearest of
// its parents that exists is a directory.
func outputDir(flagName, path string) error {
	for p := filepath.Clean(path); ; p = filepath.Dir(p) {
		st, err := os.Stat(p)
		switch {
		case err == nil && st.IsDir():
			return nil
		case err == nil && p == filepath.Clean(path):
			return usagef("%s %s: is a file; want a directory to write the report into", flagName, path)
		case err == nil:
			return usagef("%s %s: %s is not a directory", flagName, path, p)
		case !errors.Is(err, fs.ErrNotExist):
			return usagef("%s %s: %s: %s", flagName, path, p, fileProblem(err))
		}
		if filepath.Dir(p) == p {
			return nil
		}
	}
}
