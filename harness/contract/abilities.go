package contract

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"gauntlet/harness/cli"
)

// A game offers more than the core contract (Game) through the small
// optional interfaces of this file, found by type assertion, in the style
// of gonum/plot's DataRanger or GlyphBoxer. The CLI discovers every one of
// them from the registry: a new game edits nothing in cmd/. A game asserts
// the abilities it means to have at compile time, next to its type:
//
//	var _ contract.Replayer = brewGame{}
//
// Aggregator and Coster (game.go) are abilities of the same kind.

// Replayer is implemented by games with a conformance replay,
// `gauntlet replay GAME [flags]`: recorded games in, the referee's results
// out, in the game's own JSON-lines format.
type Replayer interface {
	// Replay reads recorded games from io.Stdin and writes the results to
	// io.Stdout, in input order. args are the arguments after the game's
	// name (the game's own flags, e.g. --inputs); a bad one is a
	// cli.UsageError. A malformed record stops the replay with an error
	// naming it, after the results of the records before it.
	Replay(ctx context.Context, io cli.IO, args []string) error
}

// ReplayReferencer is implemented by replaying games whose repository keeps
// reference data that the replay must reproduce (the organisers' referee's
// own results). One conformance test replays every registered game's data
// through the CLI.
type ReplayReferencer interface {
	// ReplayReference describes the reference files and how to compare them.
	ReplayReference() ReplayReference
}

// ReplayReference describes a game's replay reference data.
type ReplayReference struct {
	// Files is a glob relative to the repository root, e.g.
	// "referees/brew/testdata/games.jsonl.gz". The files are JSON lines,
	// gzip-compressed when the name ends in ".gz"; each file is fed whole
	// to one `gauntlet replay GAME` on its standard input.
	Files string
	// Header is the number of leading lines of a file that describe the
	// game and give no output line (a trace's header).
	Header int
	// Fields are the output fields compared with the same fields of the
	// reference line (output line i against file line Header+i).
	Fields []string
	// Trace is true when each file is one game (a trace of its turns) that
	// agrees as a whole; otherwise each line is a case of its own.
	Trace bool
}

// BotServer is implemented by games whose built-in strategies can play as
// stand-alone bots of the game's native protocol, `gauntlet bot GAME
// STRATEGY`, in the organisers' runner or in gauntlet as a cmd: entrant.
type BotServer interface {
	// ServeBot plays bot, an instance built by one of the game's strategies
	// (Strategy.New), over the game's protocol: the referee's messages on
	// io.Stdin, the bot's answers on io.Stdout, until the input ends or ctx
	// is cancelled.
	ServeBot(ctx context.Context, io cli.IO, bot any) error
}

// CaseDefaulter is implemented by games that choose the case set a command
// plays when the user gives none (hextris: ab plays the qualifier).
type CaseDefaulter interface {
	// DefaultCases returns the case set of command ("eval", "ab", "tune"),
	// or "" to leave the command's own default.
	DefaultCases(command string) string
}

// Tool is a command of a game's own, `gauntlet GAME NAME [args]` (hextris:
// score, solve).
type Tool struct {
	// Name is the verb: lower-case letters, digits and '-'.
	Name string
	// Summary is one line for the help and `gauntlet list`.
	Summary string
	// Run runs the tool with the arguments after its name. Bad arguments
	// are a cli.UsageError (exit status 2); flag.ErrHelp after -h exits 0.
	Run func(ctx context.Context, io cli.IO, args []string) error
}

// Tooler is implemented by games with commands of their own (contest tools).
type Tooler interface {
	// Tools lists the game's commands, in the order help shows them.
	Tools() []Tool
}

// OptimumFinder is implemented by games that can compute the best possible
// score of a case (towers: the provably shortest solution). Eval tables
// then show each case's optimum and the gap to it.
type OptimumFinder interface {
	// Optimum returns the best score achievable on case c; ok is false when
	// the game cannot tell for this case (a search budget ran out, no
	// solution exists). err is for the harness's own errors (a bad case, a
	// cancelled context).
	Optimum(ctx context.Context, c Case) (best float64, ok bool, err error)
}

// DetailColumner is implemented by games that choose which Outcome.Detail
// keys eval tables show (by default: every short scalar).
type DetailColumner interface {
	// DetailColumns lists the Detail keys shown as table columns, in order.
	DetailColumns() []string
}

// Eliminator is implemented by games in which a seat can be out before the
// game ends (Paper.io: a player dies, and the referee says of what). The
// ab, eval and play summaries count each entrant's eliminations by cause
// beside its forfeits: a run shows how its entrants lose, not only how
// often.
type Eliminator interface {
	// Eliminated returns why seat was out before the game ended, in the
	// referee's words, or "" when it played to the end (or o has no such
	// seat). o may come from the store, its Detail decoded from JSON.
	Eliminated(o *Outcome, seat int) string
}

// Eliminates reports whether g says why a seat was out before the end (it
// is an Eliminator): summaries then count eliminations and show the
// columns for them.
func Eliminates(g Game) bool {
	_, ok := g.(Eliminator)
	return ok
}

// EliminatedOf is why seat of o was out before the game ended, when g is an
// Eliminator; "" otherwise.
func EliminatedOf(g Game, o *Outcome, seat int) string {
	if e, ok := g.(Eliminator); ok {
		return e.Eliminated(o, seat)
	}
	return ""
}

// Ability names as Abilities returns them.
const (
	AbilityReplay    = "replay"
	AbilityReference = "replay reference data"
	AbilityBot       = "bot protocol"
	AbilityTools     = "tools"
	AbilityCases     = "default case sets"
	AbilityOptimum   = "optimum"
	AbilityDetail    = "detail columns"
	AbilityAggregate = "official aggregation"
	AbilityCost      = "case costs"
	AbilityView      = "view" // Viewer: gauntlet view, replays in reports
	AbilityEliminate = "eliminations"
)

// Abilities lists the optional interfaces g implements, by the names above,
// in that order.
func Abilities(g Game) []string {
	var out []string
	add := func(ok bool, name string) {
		if ok {
			out = append(out, name)
		}
	}
	_, ok := g.(Replayer)
	add(ok, AbilityReplay)
	_, ok = g.(ReplayReferencer)
	add(ok, AbilityReference)
	_, ok = g.(BotServer)
	add(ok, AbilityBot)
	_, ok = g.(Tooler)
	add(ok, AbilityTools)
	_, ok = g.(CaseDefaulter)
	add(ok, AbilityCases)
	_, ok = g.(OptimumFinder)
	add(ok, AbilityOptimum)
	_, ok = g.(DetailColumner)
	add(ok, AbilityDetail)
	_, ok = g.(Aggregator)
	add(ok, AbilityAggregate)
	_, ok = g.(Coster)
	add(ok, AbilityCost)
	_, ok = g.(Viewer)
	add(ok, AbilityView)
	add(Eliminates(g), AbilityEliminate)
	return out
}

// ToolsOf returns g's tools (none when it is not a Tooler).
func ToolsOf(g Game) []Tool {
	if t, ok := g.(Tooler); ok {
		return t.Tools()
	}
	return nil
}

// FindTool returns g's tool named verb, or a usage error listing the known
// ones.
func FindTool(g Game, verb string) (Tool, error) {
	tools := ToolsOf(g)
	names := make([]string, len(tools))
	for i, t := range tools {
		if t.Name == verb {
			return t, nil
		}
		names[i] = t.Name
	}
	return Tool{}, cli.Usagef("unknown %s tool %q (want %s)", g.Info().Name, verb, strings.Join(names, "|"))
}

// DefaultCases returns the case set command plays on g when the user gives
// none: the game's choice (CaseDefaulter), else fallback.
func DefaultCases(g Game, command, fallback string) string {
	if d, ok := g.(CaseDefaulter); ok {
		if s := d.DefaultCases(command); s != "" {
			return s
		}
	}
	return fallback
}

// checkTools validates a game's tool declarations at registration.
func checkTools(g Game) error {
	seen := map[string]bool{}
	for _, t := range ToolsOf(g) {
		if t.Name == "" || t.Run == nil || strings.TrimFunc(t.Name, func(r rune) bool {
			return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-'
		}) != "" {
			return fmt.Errorf("bad tool %q (a name of a-z, 0-9 and '-', and a Run function)", t.Name)
		}
		if seen[t.Name] {
			return fmt.Errorf("tool %q declared twice", t.Name)
		}
		seen[t.Name] = true
	}
	if r, ok := g.(ReplayReferencer); ok {
		ref := r.ReplayReference()
		if _, isReplayer := g.(Replayer); !isReplayer {
			return fmt.Errorf("replay reference data without a Replay")
		}
		if ref.Files == "" || len(ref.Fields) == 0 || ref.Header < 0 || slices.Contains(ref.Fields, "") {
			return fmt.Errorf("bad replay reference %+v", ref)
		}
	}
	return nil
}
