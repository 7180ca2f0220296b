package main

import (
	"context"
	"flag"
	"fmt"

	"gauntlet/harness/store"
	"gauntlet/internal/untrusted"
	"gauntlet/league"
	"gauntlet/reports"
	"gauntlet/workflow"
)

func init() {
	register(&command{
		name:    "league",
		summary: "a stored pool of versions rated together (add, remove, run, show, report, list): Elo/Plackett–Luce ladder with intervals",
		run:     runLeague,
	})
}

// leagueVerbs are league's sub-commands.
var leagueVerbs = map[string]func(ctx context.Context, e *env, args []string) error{
	"add":    leagueAdd,
	"remove": leagueRemove,
	"run":    leagueRun,
	"show":   leagueShow,
	"report": leagueReport,
	"list":   leagueList,
}

func runLeague(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(e.stderr, "usage: gauntlet league add|remove|run|show|report|list [flags]  ('gauntlet league VERB -h' for each)")
		if len(args) == 0 {
			return usagef("league: a verb is required")
		}
		return flag.ErrHelp
	}
	verb, ok := leagueVerbs[args[0]]
	if !ok {
		return usagef("league: unknown verb %q (add, remove, run, show, report, list)", args[0])
	}
	return verb(ctx, e, args[1:])
}

// leagueFlags are the flags every league verb has.
type leagueFlags struct {
	name    string
	storage string
}

func (l *leagueFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&l.name, "league", "", "league name (required)")
	fs.StringVar(&l.storage, "storage", store.DefaultStorage, "store of the league: sqlite:FILE or postgres://...")
}

func leagueAdd(ctx context.Context, e *env, args []string) error {
	var lf leagueFlags
	var req workflow.LeagueAddRequest
	fs := newFlags(e, "league add", "--league NAME [--game G] [--name VERSION] [--params-file F] ENTRANT")
	lf.register(fs)
	fs.StringVar(&req.Game, "game", "", "the league's game (needed to make the league, then fixed; 'gauntlet list')")
	fs.StringVar(&req.Cases, "cases", "", "case set the league plays, in turn (default: the game's choice, else seeds:100000 or smoke for single-player games)")
	fs.IntVar(&req.Size, "size", 0, "versions in each game (its seats; single-player games: versions ranked on one case); default 2, or the game's fewest seats")
	fs.StringVar(&req.Name, "name", "", "the version's name on the ladder (default: the entrant's label)")
	fs.StringVar(&req.ParamsFile, "params-file", "", "JSON parameter values for the entrant (e.g. from 'gauntlet tune --best-json')")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usagef("league add: want one entrant (strategy NAME[:k=v,...] or cmd:COMMAND), got %d arguments", len(rest))
	}
	req.League, req.Storage, req.Entrant = lf.name, lf.storage, rest[0]
	v, err := workflow.LeagueAdd(ctx, req)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "league %s: added version %s (%s)\n", untrusted.Line(lf.name), untrusted.Line(v.Title()), untrusted.Line(v.Label))
	return nil
}

func leagueRemove(ctx context.Context, e *env, args []string) error {
	var lf leagueFlags
	fs := newFlags(e, "league remove", "--league NAME VERSION")
	lf.register(fs)
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usagef("league remove: want one version name, got %d arguments", len(rest))
	}
	if err := workflow.LeagueRemove(ctx, lf.storage, lf.name, rest[0]); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "league %s: version %s removed (its games stay)\n", untrusted.Line(lf.name), untrusted.Line(rest[0]))
	return nil
}

func leagueRun(ctx context.Context, e *env, args []string) error {
	var lf leagueFlags
	var rf runFlags
	var tables reports.TableFiles
	var req workflow.LeagueRunRequest
	fs := newFlags(e, "league run", "--league NAME [--games N] [--separate P] [--total N] [flags]")
	lf.register(fs)
	rf.register(fs, false)
	tablesFlags(fs, &tables, "ladder")
	fs.IntVar(&req.Target.GamesPerVersion, "games", 0, "stop once every active version has played this many games (0: no such target)")
	fs.Float64Var(&req.Target.Separate, "separate", 0, "stop once every two neighbours on the ladder are told apart with this likelihood of superiority, e.g. 0.95 (0: no such target)")
	fs.Int64Var(&req.Target.Total, "total", 0, "stop once the league holds this many games, by all workers (0: no such target)")
	fs.Uint64Var(&req.Seed, "seed", 1, "seed of the matchmaker's random choices")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if err := tables.Check(); err != nil {
		return err
	}
	req.Options, req.League = rf.Options, lf.name
	req.Storage = lf.storage
	out, b, err := workflow.LeagueRun(ctx, req, e.stderr)
	if err != nil {
		return err
	}
	if err := tables.Write(reports.LeagueTable(b)); err != nil {
		return err
	}
	if rf.json {
		return writeJSON(e.stdout, struct {
			Run   *league.Outcome `json:"run"`
			Board *league.Board   `json:"board"`
		}{out, b})
	}
	return reports.WriteLeagueRun(e.stdout, lf.name, out, b)
}

func leagueShow(ctx context.Context, e *env, args []string) error {
	var lf leagueFlags
	var tables reports.TableFiles
	var asJSON, pairs bool
	fs := newFlags(e, "league show", "--league NAME [--json] [--md F] [--csv F] [--pairs]")
	lf.register(fs)
	tablesFlags(fs, &tables, "ladder")
	fs.BoolVar(&asJSON, "json", false, "print the leaderboard as one JSON document (versions, pairs, history)")
	fs.BoolVar(&pairs, "pairs", false, "also print each pair's results (two versions a game)")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if err := tables.Check(); err != nil {
		return err
	}
	b, err := workflow.LeagueBoard(ctx, lf.storage, lf.name)
	if err != nil {
		return err
	}
	if err := tables.Write(reports.LeagueTable(b)); err != nil {
		return err
	}
	if asJSON {
		return writeJSON(e.stdout, b)
	}
	return reports.WriteLeagueBoard(e.stdout, b, pairs)
}

func leagueReport(ctx context.Context, e *env, args []string) error {
	var lf leagueFlags
	var out string
	fs := newFlags(e, "league report", "--league NAME --out DIR")
	lf.register(fs)
	fs.StringVar(&out, "out", "", "report directory (made if missing)")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if out == "" {
		return usagef("--out is required")
	}
	if err := reports.OutputDir("--out", out); err != nil {
		return err
	}
	b, err := workflow.LeagueBoard(ctx, lf.storage, lf.name)
	if err != nil {
		return err
	}
	r, err := reports.WriteLeagueReport(out, b)
	if err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, r.Summary)
	fmt.Fprintf(e.stdout, "report: %s/index.html\n", out)
	return nil
}

func leagueList(ctx context.Context, e *env, args []string) error {
	var storage string
	fs := newFlags(e, "league list", "[--storage URL]")
	fs.StringVar(&storage, "storage", store.DefaultStorage, "store: sqlite:FILE or postgres://...")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	ds, err := workflow.Leagues(ctx, storage)
	if err != nil {
		return err
	}
	return reports.LeaguesTable(ds).WriteText(e.stdout)
}
