package reports

import (
	"fmt"
	"io"
	"strings"
	"time"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/strategies/param"
)

// This file is the answer of `gauntlet list`: the games of a registry with
// their case sets, strategies and parameters, time limits and tools.

// StrategyListing is a strategy as list shows it.
type StrategyListing struct {
	Name   string         `json:"name"`
	Doc    string         `json:"doc"`
	Params []ParamListing `json:"params"`
}

// ParamListing is a declared parameter as list and params show it.
type ParamListing struct {
	Name    string   `json:"name"`
	Kind    string   `json:"kind"`
	Min     *float64 `json:"min,omitempty"`
	Max     *float64 `json:"max,omitempty"`
	Choices []string `json:"choices,omitempty"`
	Default any      `json:"default"`
	Help    string   `json:"help"`
}

// GameListing is a game as list shows it.
type GameListing struct {
	Name       string                 `json:"name"`
	Title      string                 `json:"title"`
	Seats      [2]int                 `json:"seats"`
	Opponents  string                 `json:"default_opponents,omitempty"`
	CaseSets   []contract.CaseSetInfo `json:"case_sets"`
	Strategies []StrategyListing      `json:"strategies"`
	// Direction is "higher is better" or "lower is better"; Abilities and
	// Tools are what the game offers beyond playing (contract.Abilities).
	Direction string        `json:"direction"`
	Abilities []string      `json:"abilities,omitempty"`
	Tools     []ToolListing `json:"tools,omitempty"`
	// TimeLimits are the game's time limits on an external bot, as the
	// game declares them (--turn-time and --first-turn-time override them,
	// --no-time-limit lifts them).
	TimeLimits LimitsListing `json:"time_limits"`
}

// LimitsListing is a game's declared time limits: zero where the game has
// none; NoTurnTime and NoFirstTurnTime say why the flag does not apply.
type LimitsListing struct {
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

// describeLimits is l as list shows it.
func describeLimits(l contract.TimeLimits) LimitsListing {
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	return LimitsListing{Text: l.String(), FirstTurnMS: ms(l.FirstTurn), TurnMS: ms(l.Turn), TotalMS: ms(l.Total),
		MarginMS: ms(l.Margin), FirstTurnMarginMS: ms(l.FirstTurnMargin), Measured: l.Measured,
		NoTurnTime: l.NoTurnTime, NoFirstTurnTime: l.NoFirstTurnTime}
}

// writeLimits prints a game's time limits on external bots and which
// flags change them.
func writeLimits(w io.Writer, l LimitsListing) {
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

// ToolListing is a game's own tool: the command that runs it.
type ToolListing struct {
	Command string `json:"command"`
	Summary string `json:"summary"`
}

// DescribeParams lists specs as list and params show them.
func DescribeParams(specs param.Specs) []ParamListing {
	var out []ParamListing
	for _, sp := range specs {
		lp := ParamListing{Name: sp.Name, Kind: sp.Kind.String(), Help: sp.Help}
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

// ListGames describes the games of reg, or only the game only (its name,
// a game file or referee:COMMAND) unless "".
func ListGames(reg *contract.Registry, only string) ([]GameListing, error) {
	if g, err := reg.Game(only); only != "" && err == nil {
		only = g.Info().Name // a game file or referee:COMMAND lists as its game
	}
	var games []GameListing
	for _, g := range reg.Games() {
		info := g.Info()
		if only != "" && info.Name != only {
			continue
		}
		lg := GameListing{Name: info.Name, Title: info.Title, Seats: [2]int{info.MinSeats, info.MaxSeats}, Opponents: info.Opponents, CaseSets: info.CaseSets}
		lg.Direction, lg.Abilities = info.Direction.String(), contract.Abilities(g)
		lg.TimeLimits = describeLimits(info.Limits)
		for _, t := range contract.ToolsOf(g) {
			lg.Tools = append(lg.Tools, ToolListing{Command: "gauntlet " + info.Name + " " + t.Name, Summary: t.Summary})
		}
		for _, s := range reg.Strategies(info.Name) {
			lg.Strategies = append(lg.Strategies, StrategyListing{Name: s.Name, Doc: s.Doc, Params: DescribeParams(s.Params)})
		}
		games = append(games, lg)
	}
	if only != "" && len(games) == 0 {
		_, err := reg.Game(only)
		return nil, cli.Usagef("--game: %v", err)
	}
	return games, nil
}

// WriteGames writes games as text, a blank line between two.
func WriteGames(w io.Writer, games []GameListing) {
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
			WriteParams(w, "      ", s.Params)
		}
	}
}

// WriteParams prints declared parameters, one a line: name, kind, range,
// default and meaning.
func WriteParams(w io.Writer, indent string, ps []ParamListing) {
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
