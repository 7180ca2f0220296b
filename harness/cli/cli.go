// Package cli is the small part of the command line that games share with
// cmd/gauntlet: the standard streams a tool writes to, flag sets whose
// errors are usage errors, and the usage error itself, which the CLI turns
// into exit status 2. A game's own tools (contract.Tool, contract.Replayer)
// take their arguments with it, so that `gauntlet GAME VERB -h` and a bad
// flag behave as every built-in command does.
package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// IO holds the standard streams of one command.
type IO struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// UsageError marks a bad invocation: a bad flag, a value out of range, a
// missing argument. The CLI prints it and exits with status 2 (1 for every
// other error). Wrapped usage errors count too (errors.As).
type UsageError struct{ Msg string }

func (u UsageError) Error() string { return u.Msg }

// Usagef formats a UsageError.
func Usagef(format string, a ...any) error { return UsageError{fmt.Sprintf(format, a...)} }

// IsUsage reports whether err is, or wraps, a UsageError.
func IsUsage(err error) bool {
	var u UsageError
	return errors.As(err, &u)
}

// NewFlags makes a flag set for "gauntlet NAME" whose -h prints usage (the
// arguments after the command, e.g. "GAME STRATEGY [flags]") and the flags
// to io.Stderr. Parse it with Parse.
func NewFlags(io IO, name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet("gauntlet "+name, flag.ContinueOnError)
	fs.SetOutput(io.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(io.Stderr, "usage: gauntlet %s %s\n", name, usage)
		fs.PrintDefaults()
	}
	return fs
}

// Parse parses args into fs and returns the positional arguments. Flags may
// come before, between and after the positional arguments
// (`gauntlet GAME score a.json b.json --seeds`); "--" ends the flags. A bad
// flag is a UsageError, and so is a flag given twice unless it collects
// values (Strings); -h gives flag.ErrHelp (the CLI exits 0).
func Parse(fs *flag.FlagSet, args []string) ([]string, error) {
	if err := givenTwice(fs, args); err != nil {
		return nil, err
	}
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, UsageError{err.Error()}
		}
		left := fs.Args()
		if n := len(args) - len(left); n > 0 && args[n-1] == "--" {
			return append(rest, left...), nil
		}
		if len(left) == 0 {
			return rest, nil
		}
		rest = append(rest, left[0])
		args = left[1:]
	}
}

// givenTwice refuses a flag of fs that takes one value and is given twice
// in args. It reads args as fs.Parse does: a flag's value is the rest of
// its word after "=", else, but for a flag without a value (--json), the
// next word; "--" ends the flags; other words are positional.
func givenTwice(fs *flag.FlagSet, args []string) error {
	seen := map[string]bool{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return nil
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		name, _, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		f := fs.Lookup(name)
		if f == nil {
			continue // fs.Parse says so
		}
		b, isBool := f.Value.(interface{ IsBoolFlag() bool })
		if !hasValue && !(isBool && b.IsBoolFlag()) {
			i++ // the flag's value
		}
		if _, ok := f.Value.(*Strings); ok {
			continue
		}
		if seen[name] {
			return Usagef("--%s given twice: it takes one value", name)
		}
		seen[name] = true
	}
	return nil
}

// NoArgs is the usage error of a command that takes no positional
// arguments, or nil when rest is empty.
func NoArgs(command string, rest []string) error {
	if len(rest) == 0 {
		return nil
	}
	return Usagef("%s takes no arguments; got %q", command, rest)
}

// Strings collects a repeated string flag (--param k=v --param k2=v2).
type Strings []string

func (m *Strings) String() string     { return strings.Join(*m, " ") }
func (m *Strings) Set(s string) error { *m = append(*m, s); return nil }

// WriteJSON writes v as one indented JSON document.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
