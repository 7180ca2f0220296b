package botlog

import "fmt"

// DefaultRecent is how many of a run's latest games keep their bots' logs
// under the default policy, Errors, beside those with a forfeit.
const DefaultRecent = 20

// Policy says which games keep their external bots' stderr (--bot-logs).
// The zero value is Errors, the default.
type Policy int8

const (
	// Errors keeps the logs of the games where a seat forfeited (a crash,
	// a timeout, a broken answer) and of the run's latest DefaultRecent
	// games.
	Errors Policy = iota
	// None captures nothing: a crash's last stderr lines in its forfeit
	// are all that is kept, as before.
	None
	// All keeps every game's logs.
	All
)

// String is the policy's flag value: "errors", "none" or "all".
func (p Policy) String() string {
	switch p {
	case None:
		return "none"
	case All:
		return "all"
	}
	return "errors"
}

// Set reads a flag value (flag.Value).
func (p *Policy) Set(s string) error {
	switch s {
	case "errors":
		*p = Errors
	case "none":
		*p = None
	case "all":
		*p = All
	default:
		return fmt.Errorf("%q: want none, errors or all", s)
	}
	return nil
}

// Capture reports whether bots' stderr is captured at all.
func (p Policy) Capture() bool { return p != None }
