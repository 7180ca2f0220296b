package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"gauntlet/harness/contract"
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
	Name       string                 `json:"name"`
	Title      string                 `json:"title"`
	Seats      [2]int                 `json:"seats"`
	Opponents  string                 `json:"default_opponents,omitempty"`
	CaseSets   []contract.CaseSetInfo `json:"case_sets"`
	Strategies []listStrategy         `json:"strategies"`
	// Direction is "higher is better" or "lower is better"; Abilities and
	// Tools are what the game offers beyond playing (contract.Abilities).
	Direction string     `json:"direction"`
	Abilities []string   `json:"abilities,omitempty"`
	Tools     []listTool `json:"tools,omitempty"`
	// TimeLimits are the game's time limits on an external bot, as the
	// game declares them (--turn-time and --first-turn-time override them,
	// --no-time-limit lifts them).
	TimeLimits listLimits `json:"time_limits"`
}

// listLimits is a game's declared time limits: zero where the game has
// none; NoTurnTime and NoFirstTurnTime say why the flag does not apply.
type listLimits struct {
	Text              string  `json:"text"`
	FirstTurnMS       float64 `json:"first_turn_ms,omitempty"`
	TurnMS            float64 `json:"turn_ms,omitempty"`
	TotalMS           float64 `json:"total_ms,omitempty"`
	MarginMS          float64 `json:"margin_ms,omitempty"`
	FirstTurnMarginMS float64 `json:"first_turn_margin_ms,omitempty"`
	Measured          string  `json:"measured,omitempty"`
	NoTurnTime        string  `json:"no_turn_time,omitempty"`
	NoFirstTurnTime   string  `json:"no_first_turn_time,omitempty"`
}

func describeLimits(l contract.TimeLimits) listLimits {
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	return listLimits{Text: l.String(), FirstTurnMS: ms(l.FirstTurn), TurnMS: ms(l.Turn), TotalMS: ms(l.Total),
		MarginMS: ms(l.Margin), FirstTurnMarginMS: ms(l.FirstTurnMargin), Measured: l.Measured,
		NoTurnTime: l.NoTurnTime, NoFirstTurnTime: l.NoFirstTurnTime}
}

// writeLimits prints a game's time limits on external bots and which
// flags change them.
func writeLimits(w io.Writer, l listLimits) {
	if l.TurnMS == 0 && l.FirstTurnMS == 0 && l.TotalMS == 0 {
		fmt.Fprintln(w, "  time limits for external bots: none (--turn-time and --first-turn-time do not apply)")
		return
	}
	fmt.Fprintf(w, "  time limits for external bots: %s\n", l.Text)
	if l.Measured != "" {
		fmt.Fprintf(w, "    measured %s\n", l.Measured)
	}
	for _, f := range []struct{ flag, what, no string }{
		{"--turn-time", "sets the limit of each answer (each after the first, where the first has its own)", l.NoTurnTime},
		{"--first-turn-time", "sets the first answer's", l.NoFirstTurnTime},
	} {
		if f.no != "" {
			fmt.Fprintf(w, "    %s does not apply: %s\n", f.flag, f.no)
		} else {
			fmt.Fprintf(w, "    %s %s\n", f.flag, f.what)
		}
	}
	fmt.Fprintln(w, "    --time-margin replaces the margins; --no-time-limit lifts every limit")
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
	if g, err := contract.Default.Game(only); only != "" && err == nil {
		only = g.Info().Name // a game file or referee:COMMAND lists as its game
	}
	var games []listGame
	for _, g := range contract.Default.Games() {
		info := g.Info()
		if only != "" && info.Name != only {
			continue
		}
		lg := listGame{Name: info.Name, Title: info.Title, Seats: [2]int{info.MinSeats, info.MaxSeats}, Opponents: info.Opponents, CaseSets: info.CaseSets}
		lg.Direction, lg.Abilities = info.Direction.String(), contract.Abilities(g)
		lg.TimeLimits = describeLimits(info.Limits)
		for _, t := range contract.ToolsOf(g) {
			lg.Tools = append(lg.Tools, listTool{Command: "gauntlet " + info.Name + " " + t.Name, Summary: t.Summary})
		}
		for _, s := range contract.Default.Strategies(info.Name) {
			lg.Strategies = append(lg.Strategies, listStrategy{Name: s.Name, Doc: s.Doc, Params: describeParams(s.Params)})
		}
		games = append(games, lg)
	}
	if only != "" && len(games) == 0 {
		_, err := contract.Default.Game(only)
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
		players := fmt.Sprintf("%d players", g.Seats[0])
		switch {
		case g.Seats[1] != g.Seats[0]:
			players = fmt.Sprintf("%d to %d players", g.Seats[0], g.Seats[1])
		case g.Seats[0] == 1:
			players = "1 player"
		}
		// The title may name the players itself ("(2 players, final-league
		// rules)"): the figures come on a line of their own.
		fmt.Fprintf(w, "game %s — %s\n", g.Name, g.Title)
		fmt.Fprintf(w, "  %s; scores: %s\n", players, g.Direction)
		if len(g.Abilities) > 0 {
			fmt.Fprintf(w, "  abilities: %s\n", strings.Join(g.Abilities, ", "))
		}
		for _, t := range g.Tools {
			fmt.Fprintf(w, "  tool: %s — %s\n", t.Command, t.Summary)
		}
		if g.Opponents != "" {
			fmt.Fprintf(w, "  default opponents: %s\n", g.Opponents)
		}
		writeLimits(w, g.TimeLimits)
		fmt.Fprintln(w, "  case sets:")
		for _, c := range g.CaseSets {
			fmt.Fprintf(w, "    %-14s %s\n", c.Name, c.Doc)
		}
		fmt.Fprintln(w, "  strategies:")
		for _, s := range g.Strategies {
			fmt.Fprintf(w, "    %-14s %s\n", s.Name, s.Doc)
			writeParams(w, "      ", s.Params)
		}
	}
	return nil
}

// writeParams prints declared parameters, one a line: name, kind, range,
// default and meaning.
func writeParams(w io.Writer, indent string, ps []listParam) {
	for _, p := range ps {
		rng, def := "", p.Default
		if p.Choices != nil {
			rng = strings.Join(p.Choices, "|")
		} else if p.Kind == param.Int.String() { // in digits: 1000000, not 1e+06
			rng = fmt.Sprintf("[%.0f, %.0f]", *p.Min, *p.Max)
			def = fmt.Sprintf("%.0f", p.Default)
		} else {
			rng = fmt.Sprintf("[%v, %v]", *p.Min, *p.Max)
		}
		fmt.Fprintf(w, "%s%-18s %-11s %-18s default %-8v %s\n", indent, p.Name, p.Kind, rng, def, p.Help)
	}
}
