package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"gauntlet/harness"
	"gauntlet/internal/untrusted"
	"gauntlet/league"
	"gauntlet/reports"
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
	fs.StringVar(&l.storage, "storage", harness.DefaultStorage, "store of the league: sqlite:FILE or postgres://...")
}

func (l *leagueFlags) check() error {
	if strings.TrimSpace(l.name) == "" {
		return usagef("--league is required")
	}
	if len(l.name) > 200 || strings.ContainsAny(l.name, "\n\r\t") {
		return usagef("--league %q: at most 200 characters on one line", l.name)
	}
	return readStorage("--storage", l.storage, "a league lives in a store")
}

func leagueAdd(ctx context.Context, e *env, args []string) (retErr error) {
	var lf leagueFlags
	var game, cases, name, file string
	var size int
	fs := newFlags(e, "league add", "--league NAME [--game G] [--name VERSION] [--params-file F] ENTRANT")
	lf.register(fs)
	fs.StringVar(&game, "game", "", "the league's game (needed to make the league, then fixed; 'gauntlet list')")
	fs.StringVar(&cases, "cases", "", "case set the league plays, in turn (default: the game's choice, else seeds:100000 or smoke for single-player games)")
	fs.IntVar(&size, "size", 0, "versions in each game (its seats; single-player games: versions ranked on one case); default 2, or the game's fewest seats")
	fs.StringVar(&name, "name", "", "the version's name on the ladder (default: the entrant's label)")
	fs.StringVar(&file, "params-file", "", "JSON parameter values for the entrant (e.g. from 'gauntlet tune --best-json')")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := lf.check(); err != nil {
		return err
	}
	if len(rest) != 1 {
		return usagef("league add: want one entrant (strategy NAME[:k=v,...] or cmd:COMMAND), got %d arguments", len(rest))
	}
	st, err := league.OpenStore(ctx, lf.storage)
	if err != nil {
		return err
	}
	defer closeInto(&retErr, st)
	if game == "" {
		// A league's game is fixed when it is made: later versions need not repeat it.
		d, err := st.Def(ctx, lf.name)
		if errors.Is(err, league.ErrNoLeague) {
			return usagef("--game is required to make league %q (games: %s)", untrusted.Line(lf.name), gameNames())
		}
		if err != nil {
			return err
		}
		game = d.Game
	}
	g, err := harness.Default.Game(game)
	if err != nil {
		return usagef("--game: %v", err)
	}
	info := g.Info()
	if size == 0 {
		size = league.DefaultSize(info)
	}
	if err := league.CheckSize(info, size); err != nil {
		return usagef("--size: %v", err)
	}
	if cases == "" {
		fallback := "seeds:100000"
		if info.MaxSeats == 1 {
			fallback = "smoke"
		}
		cases = harness.DefaultCases(g, "league", fallback)
	}
	if _, err := g.Cases(cases); err != nil {
		return usagef("--cases: %v", err)
	}
	ent, err := abEntrant(game, "--", rest[0], file)
	if err != nil {
		return err
	}
	d := league.Def{Name: lf.name, Game: game, Cases: cases, Size: size}
	v, err := league.Add(ctx, st, d, name, ent)
	if err != nil {
		return usagef("%v", err)
	}
	fmt.Fprintf(e.stdout, "league %s: added version %s (%s)\n", untrusted.Line(lf.name), untrusted.Line(v.Title()), untrusted.Line(v.Label))
	return nil
}

func leagueRemove(ctx context.Context, e *env, args []string) (retErr error) {
	var lf leagueFlags
	fs := newFlags(e, "league remove", "--league NAME VERSION")
	lf.register(fs)
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := lf.check(); err != nil {
		return err
	}
	if len(rest) != 1 {
		return usagef("league remove: want one version name, got %d arguments", len(rest))
	}
	st, err := league.OpenStore(ctx, lf.storage)
	if err != nil {
		return err
	}
	defer closeInto(&retErr, st)
	if err := st.RemoveVersion(ctx, lf.name, rest[0]); err != nil {
		return usagef("%v", err)
	}
	fmt.Fprintf(e.stdout, "league %s: version %s removed (its games stay)\n", untrusted.Line(lf.name), untrusted.Line(rest[0]))
	return nil
}

func leagueRun(ctx context.Context, e *env, args []string) (retErr error) {
	var lf leagueFlags
	var rf runFlags
	var tables tableFiles
	var t league.Target
	var seed uint64
	fs := newFlags(e, "league run", "--league NAME [--games N] [--separate P] [--total N] [flags]")
	lf.register(fs)
	rf.register(fs, false)
	tables.register(fs, "ladder")
	fs.IntVar(&t.GamesPerVersion, "games", 0, "stop once every active version has played this many games (0: no such target)")
	fs.Float64Var(&t.Separate, "separate", 0, "stop once every two neighbours on the ladder are told apart with this likelihood of superiority, e.g. 0.95 (0: no such target)")
	fs.Int64Var(&t.Total, "total", 0, "stop once the league holds this many games, by all workers (0: no such target)")
	fs.Uint64Var(&seed, "seed", 1, "seed of the matchmaker's random choices")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if err := lf.check(); err != nil {
		return err
	}
	switch {
	case t.GamesPerVersion < 0:
		return usagef("--games %d: want a number of games >= 0", t.GamesPerVersion)
	case t.Separate < 0 || t.Separate >= 1:
		return usagef("--separate %v: want a likelihood in [0, 1), e.g. 0.95", t.Separate)
	case t.Total < 0:
		return usagef("--total %d: want a number of games >= 0", t.Total)
	}
	if err := tables.check(); err != nil {
		return err
	}
	if err := rf.checkBots(); err != nil {
		return err
	}
	st, err := league.OpenStore(ctx, lf.storage)
	if err != nil {
		return err
	}
	defer closeInto(&retErr, st)
	d, err := st.Def(ctx, lf.name)
	if err != nil {
		return usagef("%v (make it with 'gauntlet league add')", err)
	}
	if rf.game != "" && rf.game != d.Game {
		return usagef("--game %q: league %s plays %s", rf.game, lf.name, d.Game)
	}
	rf.game = d.Game
	g, err := rf.gameOrErr()
	if err != nil {
		return err
	}
	vs, err := st.Versions(ctx, lf.name)
	if err != nil {
		return err
	}
	external := false
	for _, v := range vs {
		external = external || v.Active && v.Strategy == "cmd"
	}
	rf.fitJobsTo(g.Info(), external, d.Size, runtime.NumCPU())
	cfg := league.Config{League: lf.name, Jobs: rf.jobs, Options: rf.playOptions(e), Target: t, Seed: seed}
	if !rf.quiet {
		cfg.Progress = leagueProgress(e, lf.name)
	}
	out, err := league.Run(ctx, st, cfg)
	if !rf.quiet {
		fmt.Fprintln(e.stderr)
	}
	if err != nil {
		if errors.Is(err, context.Canceled) && out != nil {
			return fmt.Errorf("%w: this worker stored %d games of league %s; 'gauntlet league run' again goes on", err, out.Played, lf.name)
		}
		return err
	}
	b, err := league.Load(context.WithoutCancel(ctx), st, lf.name, nil)
	if err != nil {
		return err
	}
	if err := tables.write(reports.LeagueTable(b)); err != nil {
		return err
	}
	if rf.json {
		return writeJSON(e.stdout, struct {
			Run   *league.Outcome `json:"run"`
			Board *league.Board   `json:"board"`
		}{out, b})
	}
	fmt.Fprintf(e.stdout, "league %s: this worker played %d games (%d blocks, %d taken over); stopped: %s\n",
		untrusted.Line(lf.name), out.Played, out.Blocks, out.Resumed, out.Reason)
	return printBoard(e, b, false)
}

// leagueProgress prints the league's games on stderr at most twice a second.
func leagueProgress(e *env, name string) func(total, played int) {
	var mu sync.Mutex
	var last time.Time
	return func(total, played int) {
		mu.Lock()
		defer mu.Unlock()
		if time.Since(last) < 500*time.Millisecond {
			return
		}
		last = time.Now()
		fmt.Fprintf(e.stderr, "\rleague %s: %d games, %d by this worker", untrusted.Line(name), total, played)
	}
}

// printBoard prints the ladder (and the pairs) on stdout.
func printBoard(e *env, b *league.Board, pairs bool) error {
	if err := reports.LeagueTable(b).WriteText(e.stdout); err != nil {
		return err
	}
	if pairs && len(b.Pairs) > 0 {
		if err := reports.LeaguePairsTable(b).WriteText(e.stdout); err != nil {
			return err
		}
	}
	for _, n := range b.Notes {
		fmt.Fprintln(e.stdout, "note:", untrusted.Line(n))
	}
	return nil
}

func leagueShow(ctx context.Context, e *env, args []string) (retErr error) {
	var lf leagueFlags
	var tables tableFiles
	var asJSON, pairs bool
	fs := newFlags(e, "league show", "--league NAME [--json] [--md F] [--csv F] [--pairs]")
	lf.register(fs)
	tables.register(fs, "ladder")
	fs.BoolVar(&asJSON, "json", false, "print the leaderboard as one JSON document (versions, pairs, history)")
	fs.BoolVar(&pairs, "pairs", false, "also print each pair's results (two versions a game)")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if err := lf.check(); err != nil {
		return err
	}
	if err := tables.check(); err != nil {
		return err
	}
	b, err := loadBoard(ctx, lf)
	if err != nil {
		return err
	}
	if err := tables.write(reports.LeagueTable(b)); err != nil {
		return err
	}
	if asJSON {
		return writeJSON(e.stdout, b)
	}
	return printBoard(e, b, pairs)
}

// loadBoard reads a league's board from a store opened read-only.
func loadBoard(ctx context.Context, lf leagueFlags) (b *league.Board, retErr error) {
	st, err := league.OpenStoreReadOnly(ctx, lf.storage)
	if err != nil {
		return nil, err
	}
	defer closeInto(&retErr, st)
	b, err = league.Load(ctx, st, lf.name, nil)
	if errors.Is(err, league.ErrNoLeague) {
		return nil, usagef("%v", err)
	}
	return b, err
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
	if err := lf.check(); err != nil {
		return err
	}
	if out == "" {
		return usagef("--out is required")
	}
	if err := outputDir("--out", out); err != nil {
		return err
	}
	b, err := loadBoard(ctx, lf)
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

func leagueList(ctx context.Context, e *env, args []string) (retErr error) {
	var storage string
	fs := newFlags(e, "league list", "[--storage URL]")
	fs.StringVar(&storage, "storage", harness.DefaultStorage, "store: sqlite:FILE or postgres://...")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if err := readStorage("--storage", storage, "leagues live in a store"); err != nil {
		return err
	}
	st, err := league.OpenStoreReadOnly(ctx, storage)
	if err != nil {
		return err
	}
	defer closeInto(&retErr, st)
	ds, err := st.Leagues(ctx)
	if err != nil {
		return err
	}
	t := &reports.Table{Title: "leagues", Header: []string{"league", "game", "cases", "size", "games", "created"}}
	for _, d := range ds {
		t.Rows = append(t.Rows, []string{d.Name, d.Game, d.Cases, fmt.Sprint(d.Size), fmt.Sprint(d.Games), d.Created})
	}
	return t.WriteText(e.stdout)
}
