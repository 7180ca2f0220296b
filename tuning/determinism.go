package tuning

import (
	"fmt"
	"strings"

	"gauntlet/harness"
	"gauntlet/strategies/param"
)

// clockSuffix marks a strategy parameter that gives its bot a wall-clock
// budget (brewbeam's and paperpaths' time_ms, paperpaths' game_ms): by the
// strategies' convention such a parameter is named NAME_ms, and 0 means no
// clock. Every other budget counts nodes or paths, so a built-in strategy
// plays the same game for the same seed unless one of these is set.
const clockSuffix = "_ms"

// clocked names the first parameter of specs that gives the bot a wall
// clock at values v, as "name=value", or "".
func clocked(specs param.Specs, v param.Values) string {
	for _, sp := range specs {
		if strings.HasSuffix(sp.Name, clockSuffix) && v[sp.Name] != 0 {
			return sp.Name + "=" + sp.FormatValue(v[sp.Name])
		}
	}
	return ""
}

// deterministic reports whether the study's objective at values v (the
// tuned entrant's) repeats exactly: every unit gives the same score each
// time it is played. It holds when no entrant of the games has a clock: an
// external bot plays without time limits (--no-time-limit; a bot under a
// clock may forfeit or answer otherwise on a busier machine), and no
// built-in strategy, tuned, opponent or filler, has a wall-clock budget
// parameter set (see clockSuffix). When it does not hold, why says which
// clock.
func (t *Tuner) deterministic(v param.Values) (ok bool, why string) {
	if t.base.IsExternal() && t.spec.Limits != "none" {
		return false, "the bot plays under time limits (--no-time-limit makes its games repeat)"
	}
	if !t.base.IsExternal() {
		e, err := t.entrant(v)
		if err != nil {
			return false, err.Error()
		}
		if c := clocked(e.Specs(), e.Params); c != "" {
			return false, fmt.Sprintf("%s gives the tuned strategy a wall-clock budget", c)
		}
	}
	for _, e := range append(append([]*harness.Entrant(nil), t.opps...), t.fills...) {
		if c := clocked(e.Specs(), e.Params); c != "" {
			return false, fmt.Sprintf("%s gives %s a wall-clock budget", c, e.Label())
		}
	}
	return true, ""
}
