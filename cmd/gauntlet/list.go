package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"gauntlet/harness"
	"gauntlet/strategies/param"
)

func init() {
	register(&command{
		name:    "list",
		summary: "games, case sets, strategies and their parameters",
		run:     runList,
	})
}

type listStrategy struct {
	Name   string      `json:"name"`
	Doc    string      `json:"doc"`
	Params []listParam `json:"params"`
}

type listParam struct {
	Name    string   `json:"name"`
	Kind    string   `json:"kind"`
	Min     *float64 `json:"min,omitempty"`
	Max     *float64 `json:"max,omitempty"`
	Choices []string `json:"choices,omitempty"`
	Default any      `json:"default"`
	Help    string   `json:"help"`
}

type listGame struct {
	Name       string                `json:"name"`
	Title      string                `json:"title"`
	Seats      [2]int                `json:"seats"`
	Opponents  string                `json:"default_opponents,omitempty"`
	CaseSets   []harness.CaseSetInfo `json:"case_sets"`
	Strategies []listStrategy        `json:"strategies"`
	// Direction is "higher is better" or "lower is better"; Abilities and
	// Tools are what the game offers beyond playing (harness.Abilities).
	Direction string     `json:"direction"`
	Abilities []string   `json:"abilities,omitempty"`
	Tools     []listTool `json:"tools,omitempty"`
}

type listTool struct {
	Command string `json:"command"`
	Summary string `json:"summary"`
}

func describeParams(specs param.Specs) []listParam {
	var out []listParam
	for _, sp := range specs {
		lp := listParam{Name: sp.Name, Kind: sp.Kind.String(), Help: sp.Help}
		if sp.Kind == param.Categorical {
			lp.Choices = sp.Choices
			lp.Default = sp.FormatValue(sp.Default)
		} else {
			lo, hi := sp.Min, sp.Max
			lp.Min, lp.Max = &lo, &hi
			lp.Default = sp.Default
		}
		out = append(out, lp)
	}
	return out
}

func runList(ctx context.Context, e *env, args []string) error {
	var asJSON bool
	var only string
	fs := newFlags(e, "list", "[--game G] [--json]")
	fs.BoolVar(&asJSON, "json", false, "print JSON")
	fs.StringVar(&only, "game", "", "only this game")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if g, err := harness.Default.Game(only); only != "" && err == nil {
		only = g.Info().Name // a game file or referee:COMMAND lists as its game
	}
	var games []listGame
	for _, g := range harness.Default.Games() {
		info := g.Info()
		if only != "" && info.Name != only {
			continue
		}
		lg := listGame{Name: info.Name, Title: info.Title, Seats: [2]int{info.MinSeats, info.MaxSeats}, Opponents: info.Opponents, CaseSets: info.CaseSets}
		lg.Direction, lg.Abilities = info.Direction(), harness.Abilities(g)
		for _, t := range harness.ToolsOf(g) {
			lg.Tools = append(lg.Tools, listTool{Command: "gauntlet " + info.Name + " " + t.Name, Summary: t.Summary})
		}
		for _, s := range harness.Default.Strategies(info.Name) {
			lg.Strategies = append(lg.Strategies, listStrategy{Name: s.Name, Doc: s.Doc, Params: describeParams(s.Params)})
		}
		games = append(games, lg)
	}
	if only != "" && len(games) == 0 {
		_, err := harness.Default.Game(only)
		return usagef("--game: %v", err)
	}
	if asJSON {
		return writeJSON(e.stdout, games)
	}
	w := e.stdout
	for i, g := range games {
		if i > 0 {
			fmt.Fprintln(w)
		}
		seats := fmt.Sprint(g.Seats[0])
		if g.Seats[1] != g.Seats[0] {
			seats = fmt.Sprintf("%d-%d", g.Seats[0], g.Seats[1])
		}
		fmt.Fprintf(w, "game %s — %s (%s players, %s)\n", g.Name, g.Title, seats, g.Direction)
		if len(g.Abilities) > 0 {
			fmt.Fprintf(w, "  abilities: %s\n", strings.Join(g.Abilities, ", "))
		}
		for _, t := range g.Tools {
			fmt.Fprintf(w, "  tool: %s — %s\n", t.Command, t.Summary)
		}
		if g.Opponents != "" {
			fmt.Fprintf(w, "  default opponents: %s\n", g.Opponents)
		}
		fmt.Fprintln(w, "  case sets:")
		for _, c := range g.CaseSets {
			fmt.Fprintf(w, "    %-14s %s\n", c.Name, c.Doc)
		}
		fmt.Fprintln(w, "  strategies:")
		for _, s := range g.Strategies {
			fmt.Fprintf(w, "    %-14s %s\n", s.Name, s.Doc)
			for _, p := range s.Params {
				rng := ""
				if p.Choices != nil {
					rng = strings.Join(p.Choices, "|")
				} else {
					rng = fmt.Sprintf("[%v, %v]", *p.Min, *p.Max)
				}
				fmt.Fprintf(w, "      %-18s %-11s %-18s default %-8v %s\n", p.Name, p.Kind, rng, p.Default, p.Help)
			}
		}
	}
	return nil
}

// writeParams prints declared parameters, one a line: name, kind, range,
// default and meaning.
func writeParams(w io.Writer, indent string, ps []listParam) {
	for _, p := range ps {
		rng := ""
		if p.Choices != nil {
			rng = strings.Join(p.Choices, "|")
		} else {
			rng = fmt.Sprintf("[%v, %v]", *p.Min, *p.Max)
		}
		fmt.Fprintf(w, "%s%-18s %-11s %-18s default %-8v %s\n", indent, p.Name, p.Kind, rng, p.Default, p.Help)
	}
}
