package cli

import (
	"flag"
	"math"
	"strings"
	"time"
)

// The checks of flag values a command runs before any game: a bad value is
// a usage error (exit status 2) that names the flag, the value given and
// what is allowed.

// AtLeast refuses an integer flag below lo.
func AtLeast(name string, v, lo int, what string) error {
	if v < lo {
		return Usagef("%s %d: want at least %d (%s)", name, v, lo, what)
	}
	return nil
}

// NonNegativeDuration refuses a negative duration flag.
func NonNegativeDuration(name string, d time.Duration, zero string) error {
	if d < 0 {
		return Usagef("%s %v: want a duration of at least 0 (0: %s)", name, d, zero)
	}
	return nil
}

// OpenInterval refuses a float flag outside the open interval (lo, hi),
// NaN included.
func OpenInterval(name string, v, lo, hi float64, what string) error {
	if !(v > lo && v < hi) || math.IsNaN(v) {
		return Usagef("%s %v: want %s in (%g, %g)", name, v, what, lo, hi)
	}
	return nil
}

// NameList refuses a comma-separated list with an empty name (",,", "a,",
// "a,,b"); "" is no list at all.
func NameList(flagName, list, what string) error {
	if list == "" {
		return nil
	}
	for i, n := range strings.Split(list, ",") {
		if strings.TrimSpace(n) == "" {
			return Usagef("%s %q: name %d is empty; want comma-separated %s", flagName, list, i+1, what)
		}
	}
	return nil
}

// SetFlags returns the names of the flags given on the command line.
func SetFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// OutputFiles checks several output file flags (name, path pairs).
func OutputFiles(pairs ...string) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		if err := OutputFile(pairs[i], pairs[i+1]); err != nil {
			return err
		}
	}
	return nil
}

// ParseOnly parses the flags of a command that takes no arguments besides
// them.
func ParseOnly(fs *flag.FlagSet, args []string) error {
	rest, err := Parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return Usagef("unexpected argument %q: this command takes only flags (a list is one comma-separated value; quote a value with spaces)", rest[0])
	}
	return nil
}
