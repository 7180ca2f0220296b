// Package testbot holds external bots for tests that time them: compiled
// into the test binary, they spend exactly their budget after reading their
// input, with none of the jitter of a shell script's reading. A test binary
// whose TestMain calls Main becomes such a bot when started as
//
//	<test binary> gauntlet-test-bot NAME ARGS...
//
// Bots: "brew-budget FIRST LATER" (CodinGame protocol: read a whole turn
// input, spend FIRST seconds on the first turn and LATER on the others,
// answer WAIT) and "paperio-budget T" (the runner's protocol: spend T
// seconds after reading each tick message, answer left).
package testbot

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Arg is the first argument that makes a test binary a bot.
const Arg = "gauntlet-test-bot"

// Command returns the argv that starts bot name with its arguments from
// the running test binary.
func Command(name string, args ...string) []string {
	return append([]string{os.Args[0], Arg, name}, args...)
}

// Main runs the bot named by the command line and exits, when the process
// was started as one (see Command); otherwise it returns.
func Main() {
	if len(os.Args) < 3 || os.Args[1] != Arg {
		return
	}
	var err error
	switch os.Args[2] {
	case "brew-budget":
		err = brewBudget(os.Args[3:])
	case "paperio-budget":
		err = paperioBudget(os.Args[3:])
	default:
		err = fmt.Errorf("unknown test bot %q", os.Args[2])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "testbot:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

func seconds(args []string, i int) (time.Duration, error) {
	if i >= len(args) {
		return 0, fmt.Errorf("missing argument %d", i+1)
	}
	s, err := strconv.ParseFloat(args[i], 64)
	if err != nil {
		return 0, err
	}
	return time.Duration(s * float64(time.Second)), nil
}

func brewBudget(args []string) error {
	first, err := seconds(args, 0)
	if err != nil {
		return err
	}
	later, err := seconds(args, 1)
	if err != nil {
		return err
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<16), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	spend := first
	for in.Scan() {
		n, err := strconv.Atoi(strings.TrimSpace(in.Text()))
		if err != nil {
			return err
		}
		for range n + 2 { // the actions, then both inventories
			if !in.Scan() {
				return in.Err()
			}
		}
		time.Sleep(spend)
		spend = later
		if _, err := out.WriteString("WAIT\n"); err != nil {
			return err
		}
		if err := out.Flush(); err != nil {
			return err
		}
	}
	return in.Err()
}

func paperioBudget(args []string) error {
	spend, err := seconds(args, 0)
	if err != nil {
		return err
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<16), 1<<22)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		line := in.Text()
		switch {
		case strings.HasPrefix(line, `{"type": "tick"`):
			time.Sleep(spend)
			if _, err := out.WriteString(`{"command": "left"}` + "\n"); err != nil {
				return err
			}
			if err := out.Flush(); err != nil {
				return err
			}
		case strings.HasPrefix(line, `{"type": "end_game"`):
			return nil
		}
	}
	return in.Err()
}

// Exact marks a test whose bot spends exactly its budget: whether it stays
// within a margin of a few tens of milliseconds depends on how busy the
// machine is, so it runs only where GAUNTLET_EXACT_TIMING is set: make
// test-long runs these tests on their own, one package at a time.
func Exact(t interface {
	Helper()
	Skip(args ...any)
}) {
	t.Helper()
	if os.Getenv("GAUNTLET_EXACT_TIMING") == "" {
		t.Skip("exact-budget timing test: run by make test-long alone on the machine (GAUNTLET_EXACT_TIMING=1 go test -run Budget -p 1)")
	}
}

// Tries is how many times Retry plays an exact-budget game.
const Tries = 3

// Retry plays an exact-budget game up to Tries times, again while play
// reports a stall (a timeout that a machine stall past the margin can
// cause: a CI machine once answered after 162 ms for a 50 ms budget, in
// one round of about 130), logging each. The caller checks the last game
// as it would one: a harness that adds its own delay fails every try.
func Retry(t interface {
	Helper()
	Logf(format string, args ...any)
}, play func() (stall string)) {
	t.Helper()
	for try := 1; ; try++ {
		stall := play()
		if stall == "" || try == Tries {
			return
		}
		t.Logf("try %d of %d: %s; trying again", try, Tries, stall)
	}
}

// Millis returns the milliseconds that a timing message gives right after
// word ("answered after 1,013 ms" with word "after " gives 1013), or -1.
// Tests check such a figure against a floor: a loaded machine can only add
// to a wait, so an exact figure would make the test fail by chance.
func Millis(msg, word string) int {
	_, rest, ok := strings.Cut(msg, word)
	if !ok {
		return -1
	}
	digits, _, ok := strings.Cut(rest, " ms")
	n, err := strconv.Atoi(strings.ReplaceAll(digits, ",", ""))
	if !ok || err != nil {
		return -1
	}
	return n
}
