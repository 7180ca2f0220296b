package reports

import (
	"fmt"
	"io"
	"strings"

	"gauntlet/harness/entrant"
)

// EntrantListing is an entrant's parameters as `gauntlet params` shows
// them (its --json answer).
type EntrantListing struct {
	Game        string            `json:"game"`
	Entrant     string            `json:"entrant"`
	Params      []ParamListing    `json:"params"`
	Values      map[string]any    `json:"values"`
	Fixed       map[string]string `json:"fixed,omitempty"`
	Fingerprint string            `json:"fingerprint,omitempty"`
}

// DescribeEntrant lists the declared parameters of entrant e of game, its
// values, an external command's fixed values and its files' fingerprint.
func DescribeEntrant(game string, e *entrant.Entrant) EntrantListing {
	out := EntrantListing{Game: game, Entrant: e.Label(), Params: DescribeParams(e.Specs()),
		Values: e.Specs().Map(e.Params), Fingerprint: e.Fingerprint}
	if len(e.Ext) > 0 {
		out.Fixed = e.Ext
	}
	return out
}

// WriteEntrant writes an entrant's listing as text.
func WriteEntrant(w io.Writer, out EntrantListing) {
	fmt.Fprintf(w, "%s (game %s)\n", out.Entrant, out.Game)
	if len(out.Params) == 0 {
		fmt.Fprintln(w, "  no tunable parameter (an external command declares them as {name:int[1,9]=5}, float, log or cat, or in {params@spec.json})")
	} else {
		fmt.Fprintln(w, "  tunable parameters:")
		WriteParams(w, "    ", out.Params)
	}
	if len(out.Fixed) > 0 {
		var parts []string
		for _, k := range sortedKeys(out.Fixed) {
			parts = append(parts, k+"="+out.Fixed[k])
		}
		fmt.Fprintf(w, "  fixed values: %s\n", strings.Join(parts, " "))
	}
	if out.Fingerprint != "" {
		fmt.Fprintf(w, "  files fingerprint: %s (part of a run's identity: a rebuilt bot makes new runs)\n", out.Fingerprint)
	}
}
