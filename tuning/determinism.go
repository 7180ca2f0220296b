package tuning

import (
	"fmt"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/strategies/param"
)

// clocked names the first parameter of specs that gives the bot a wall
// clock at values v (param.Spec.Clock, not 0), as "name=value", or "".
// Every other budget counts nodes or paths, so a built-in strategy plays
// the same game for the same seed unless one of these is set.
func clocked(specs param.Specs, v param.Values) string {
	for _, sp := range specs {
		if sp.Clock && v[sp.Name] != 0 {
			return sp.Name + "=" + sp.FormatValue(v[sp.Name])
		}
	}
	return ""
}

// deterministic reports whether the study's objective at values v (the
// tuned entrant's), played with options play, repeats exactly: every unit
// gives the same score each time it is played. It holds when no entrant of
// the games has a clock: an external bot, tuned, opponent or filler, plays
// without time limits (--no-time-limit; a bot under a clock may forfeit or
// answer otherwise on a busier machine), and no built-in strategy has a
// wall-clock budget parameter set (param.Spec.Clock). When it does not
// hold, why says which clock.
func (t *Tuner) deterministic(v param.Values, play contract.PlayOptions) (ok bool, why string) {
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
	for _, e := range append(append([]*entrant.Entrant(nil), t.opps...), t.fills...) {
		if e.IsExternal() && !play.NoTimeLimit {
			return false, fmt.Sprintf("%s plays under time limits (--no-time-limit makes its games repeat)", e.Label())
		}
		if c := clocked(e.Specs(), e.Params); c != "" {
			return false, fmt.Sprintf("%s gives %s a wall-clock budget", c, e.Label())
		}
	}
	return true, ""
}
