package workflow

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Limit is a time limit given as a flag: a duration that must not be
// negative, and whether it was given.
type Limit struct {
	D     time.Duration
	Given bool
}

func (l *Limit) String() string {
	if l == nil {
		return "0s"
	}
	return l.D.String()
}

// Set reads a duration (50ms, 1.5s) of at least 0.
func (l *Limit) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("not a duration (e.g. 50ms, 1.5s): %q", s)
	}
	if d < 0 {
		return fmt.Errorf("%v: must not be negative", d)
	}
	l.D, l.Given = d, true
	return nil
}

// Jobs is a number of games played in parallel given as a flag, which
// records that it was given.
type Jobs struct {
	N     *int
	Given *bool
}

func (j *Jobs) String() string {
	if j == nil || j.N == nil {
		return "0"
	}
	return strconv.Itoa(*j.N)
}

// Set reads a whole number.
func (j *Jobs) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("not a whole number: %q", s)
	}
	*j.N, *j.Given = n, true
	return nil
}

// Size is a number of bytes given with a binary unit: 512M, 2G, 1.5G, 64K,
// or plain bytes; 0 is no cap.
type Size struct{ N int64 }

func (z *Size) String() string {
	if z == nil || z.N == 0 {
		return "0"
	}
	return strconv.FormatInt(z.N>>20, 10) + "M"
}

// Set reads a size (ParseSize).
func (z *Size) Set(s string) error {
	n, err := ParseSize(s)
	if err != nil {
		return err
	}
	z.N = n
	return nil
}

// minBotMemory is the least bot memory cap: under it no interpreter
// starts, and a bare number was likely meant in mebibytes.
const minBotMemory = 1 << 20

// ParseSize reads a size: a number with an optional unit K, M, G or T
// (binary: 1K = 1024 bytes; "KB", "KiB" and lower case are the same), 0 or
// at least 1M.
func ParseSize(s string) (int64, error) {
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
