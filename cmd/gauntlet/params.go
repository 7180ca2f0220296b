package main

import (
	"context"
	"fmt"
	"strings"

	"gauntlet/harness/contract"
)

func init() {
	register(&command{
		name:    "params",
		summary: "show an entrant's tunable parameters: a built-in strategy's, or an external command's declared placeholders",
		run:     runParams,
	})
}

// paramsOutput is the --json answer of params.
type paramsOutput struct {
	Game        string            `json:"game"`
	Entrant     string            `json:"entrant"`
	Params      []listParam       `json:"params"`
	Values      map[string]any    `json:"values"`
	Fixed       map[string]string `json:"fixed,omitempty"`
	Fingerprint string            `json:"fingerprint,omitempty"`
}

func runParams(ctx context.Context, e *env, args []string) error {
	var rf runFlags
	var ef entrantFlags
	fs := newFlags(e, "params", "--game G ENTRANT [--param k=v]... [--params-file F] [--json]")
	fs.StringVar(&rf.game, "game", "", "game name (see 'gauntlet list')")
	fs.BoolVar(&rf.json, "json", false, "print JSON")
	fs.Var(&ef.params, "param", "parameter k=v (repeatable)")
	fs.StringVar(&ef.paramsFile, "params-file", "", "JSON file of parameter values")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usagef("params: want one ENTRANT (a strategy NAME or 'cmd:COMMAND'), got %d arguments", len(rest))
	}
	if rf.game == "" {
		return usagef("--game is required (games: %s)", gameNames())
	}
	if _, err := contract.Default.Game(rf.game); err != nil {
		return usagef("--game: %v", err)
	}
	ef.strategy = rest[0]
	ent, err := ef.entrant(rf.game)
	if err != nil {
		return err
	}
	out := paramsOutput{Game: rf.game, Entrant: ent.Label(), Params: describeParams(ent.Specs()),
		Values: ent.Specs().Map(ent.Params), Fingerprint: ent.Fingerprint}
	if len(ent.Ext) > 0 {
		out.Fixed = ent.Ext
	}
	if rf.json {
		return writeJSON(e.stdout, out)
	}
	w := e.stdout
	fmt.Fprintf(w, "%s (game %s)\n", out.Entrant, rf.game)
	if len(out.Params) == 0 {
		fmt.Fprintln(w, "  no tunable parameter (an external command declares them as {name:int[1,9]=5}, float, log or cat, or in {params@spec.json})")
	} else {
		fmt.Fprintln(w, "  tunable parameters:")
		writeParams(w, "    ", out.Params)
	}
	if len(out.Fixed) > 0 {
		var parts []string
		for _, k := range sortedKeys(toAny(out.Fixed)) {
			parts = append(parts, k+"="+out.Fixed[k])
		}
		fmt.Fprintf(w, "  fixed values: %s\n", strings.Join(parts, " "))
	}
	if out.Fingerprint != "" {
		fmt.Fprintf(w, "  files fingerprint: %s (part of a run's identity: a rebuilt bot makes new runs)\n", out.Fingerprint)
	}
	return nil
}

func toAny(m map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
