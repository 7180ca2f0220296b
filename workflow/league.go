package workflow

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"time"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/internal/untrusted"
	"gauntlet/league"
)

// CheckLeagueName refuses an empty or multi-line league name and a
// storage URL no league can live in.
func CheckLeagueName(name, storage string) error {
	if strings.TrimSpace(name) == "" {
		return cli.Usagef("--league is required")
	}
	if len(name) > 200 || strings.ContainsAny(name, "\n\r\t") {
		return cli.Usagef("--league %q: at most 200 characters on one line", name)
	}
	return ReadStorage("--storage", storage, "a league lives in a store")
}

// LeagueAddRequest adds one version to a league, making the league on
// first use.
type LeagueAddRequest struct {
	Storage    string
	League     string
	Game       string // needed to make the league; then its own
	Cases      string // "": the game's choice
	Size       int    // 0: the game's default
	Name       string // "": the entrant's label
	Entrant    string // strategy NAME[:k=v,...] or cmd:COMMAND
	ParamsFile string
}

// LeagueAdd adds req's version and returns it.
func LeagueAdd(ctx context.Context, req LeagueAddRequest) (v league.Version, err error) {
	if err := CheckLeagueName(req.League, req.Storage); err != nil {
		return v, err
	}
	st, err := league.OpenStore(ctx, req.Storage)
	if err != nil {
		return v, err
	}
	defer closeInto(&err, st)
	if req.Game == "" {
		// A league's game is fixed when it is made: later versions need
		// not repeat it.
		d, err := st.Def(ctx, req.League)
		if errors.Is(err, league.ErrNoLeague) {
			return v, cli.Usagef("--game is required to make league %q (games: %s)", untrusted.Line(req.League), GameNames())
		}
		if err != nil {
			return v, err
		}
		req.Game = d.Game
	}
	g, err := contract.Default.Game(req.Game)
	if err != nil {
		return v, cli.Usagef("--game: %v", err)
	}
	info := g.Info()
	if req.Size == 0 {
		req.Size = league.DefaultSize(info)
	}
	if err := league.CheckSize(info, req.Size); err != nil {
		return v, cli.Usagef("--size: %v", err)
	}
	if req.Cases == "" {
		fallback := "seeds:100000"
		if info.MaxSeats == 1 {
			fallback = "smoke"
		}
		req.Cases = contract.DefaultCases(g, "league", fallback)
	}
	if _, err := g.Cases(req.Cases); err != nil {
		return v, cli.Usagef("--cases: %v", err)
	}
	ent, err := abEntrant(req.Game, "--", req.Entrant, req.ParamsFile)
	if err != nil {
		return v, err
	}
	d := league.Def{Name: req.League, Game: req.Game, Cases: req.Cases, Size: req.Size}
	v, err = league.Add(ctx, st, d, req.Name, ent)
	if err != nil {
		return v, cli.Usagef("%v", err)
	}
	return v, nil
}

// LeagueRemove stops version of league from playing; its games stay.
func LeagueRemove(ctx context.Context, storage, name, version string) (err error) {
	if err := CheckLeagueName(name, storage); err != nil {
		return err
	}
	st, err := league.OpenStore(ctx, storage)
	if err != nil {
		return err
	}
	defer closeInto(&err, st)
	if err := st.RemoveVersion(ctx, name, version); err != nil {
		return cli.Usagef("%v", err)
	}
	return nil
}

// LeagueRunRequest plays a league's games on this worker.
type LeagueRunRequest struct {
	Options
	League string
	Target league.Target
	Seed   uint64
}

// check refuses bad targets and options before any game.
func (req *LeagueRunRequest) check() error {
	if err := CheckLeagueName(req.League, req.Storage); err != nil {
		return err
	}
	switch t := req.Target; {
	case t.GamesPerVersion < 0:
		return cli.Usagef("--games %d: want a number of games >= 0", t.GamesPerVersion)
	case t.Separate < 0 || t.Separate >= 1:
		return cli.Usagef("--separate %v: want a likelihood in [0, 1), e.g. 0.95", t.Separate)
	case t.Total < 0:
		return cli.Usagef("--total %d: want a number of games >= 0", t.Total)
	}
	return req.Options.Check()
}

// LeagueRun plays req's league until a target is reached or ctx ends,
// with progress on progress (nil: none), and returns what this worker
// did and the board after it. Interrupted, it returns what was stored
// with an error that says how to go on.
func LeagueRun(ctx context.Context, req LeagueRunRequest, progress io.Writer) (out *league.Outcome, b *league.Board, err error) {
	if err := req.check(); err != nil {
		return nil, nil, err
	}
	st, err := league.OpenStore(ctx, req.Storage)
	if err != nil {
		return nil, nil, err
	}
	defer closeInto(&err, st)
	d, err := st.Def(ctx, req.League)
	if err != nil {
		return nil, nil, cli.Usagef("%v (make it with 'gauntlet league add')", err)
	}
	if req.Game != "" && req.Game != d.Game {
		return nil, nil, cli.Usagef("--game %q: league %s plays %s", req.Game, req.League, d.Game)
	}
	req.Game = d.Game
	g, err := contract.Default.Game(req.Game)
	if err != nil {
		return nil, nil, cli.Usagef("league %s: %v", req.League, err)
	}
	if err := req.CheckLimits(); err != nil {
		return nil, nil, err
	}
	vs, err := st.Versions(ctx, req.League)
	if err != nil {
		return nil, nil, err
	}
	external := false
	for _, v := range vs {
		external = external || v.Active && v.Strategy == "cmd"
	}
	req.FitJobsTo(g.Info(), external, d.Size, runtime.NumCPU())
	cfg := league.Config{League: req.League, Jobs: req.Jobs, Options: req.PlayOptions(), Target: req.Target, Seed: req.Seed}
	if progress != nil && !req.Quiet {
		cfg.Progress = leagueProgress(progress, req.League)
		defer fmt.Fprintln(progress)
	}
	out, err = league.Run(ctx, st, cfg)
	if err != nil {
		if errors.Is(err, context.Canceled) && out != nil {
			return out, nil, fmt.Errorf("%w: this worker stored %d games of league %s; 'gauntlet league run' again goes on", err, out.Played, req.League)
		}
		return out, nil, err
	}
	b, err = league.Load(context.WithoutCancel(ctx), st, req.League, nil)
	return out, b, err
}

// leagueProgress writes the league's games to w at most twice a second.
func leagueProgress(w io.Writer, name string) func(total, played int) {
	var mu sync.Mutex
	var last time.Time
	return func(total, played int) {
		mu.Lock()
		defer mu.Unlock()
		if time.Since(last) < 500*time.Millisecond {
			return
		}
		last = time.Now()
		fmt.Fprintf(w, "\rleague %s: %d games, %d by this worker", untrusted.Line(name), total, played)
	}
}

// LeagueBoard reads league name's board from a store opened read-only.
func LeagueBoard(ctx context.Context, storage, name string) (b *league.Board, err error) {
	if err := CheckLeagueName(name, storage); err != nil {
		return nil, err
	}
	st, err := league.OpenStoreReadOnly(ctx, storage)
	if err != nil {
		return nil, err
	}
	defer closeInto(&err, st)
	b, err = league.Load(ctx, st, name, nil)
	if errors.Is(err, league.ErrNoLeague) {
		return nil, cli.Usagef("%v", err)
	}
	return b, err
}

// Leagues lists the leagues of a store.
func Leagues(ctx context.Context, storage string) (ds []league.Def, err error) {
	if err := ReadStorage("--storage", storage, "leagues live in a store"); err != nil {
		return nil, err
	}
	st, err := league.OpenStoreReadOnly(ctx, storage)
	if err != nil {
		return nil, err
	}
	defer closeInto(&err, st)
	return st.Leagues(ctx)
}
