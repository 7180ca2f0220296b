package main

import (
	"flag"
	"fmt"
	"io"

	_ "gauntlet/games" // registers the games and their strategies
	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/harness/store"
	"gauntlet/reports"
	"gauntlet/workflow"
)

// runFlags are the flags shared by the commands that play games: the
// workflow's options and --json.
type runFlags struct {
	workflow.Options
	json bool
}

func (f *runFlags) register(fs *flag.FlagSet, storing bool) {
	f.Options = workflow.NewOptions()
	fs.StringVar(&f.Game, "game", "", "game name (see 'gauntlet list')")
	fs.Var(&workflow.Jobs{N: &f.Jobs, Given: &f.JobsSet}, "jobs", "games played in parallel (with time-limited external bots on the wall clock, the default leaves each player a core)")
	fs.BoolVar(&f.json, "json", false, "print one JSON document on stdout (logs and progress go to stderr)")
	fs.BoolVar(&f.NoTimeLimit, "no-time-limit", false, "no time limit for external bots (reproducible runs)")
	fs.Var(&f.TurnTime, "turn-time", "time limit of an external bot's answer (0 = the game's; 'gauntlet list --game G' shows each game's limits)")
	fs.Var(&f.FirstTurnTime, "first-turn-time", "time limit of an external bot's first answer, where the game has one (0 = the game's)")
	fs.Var(&f.Margin, "time-margin", "time an external bot may take beyond each limit before it forfeits (default: the game's; 0 = none)")
	fs.Var(&f.GameTimeout, "game-timeout", fmt.Sprintf("wall-clock cap of a game with external bots, whatever the time limits: a bot still awaited then forfeits (0 = twice the game's time limits, at least %v)", contract.DefaultGameCap))
	fs.Var(&f.BotMemory, "bot-memory", "most resident memory an external bot's processes may hold together, e.g. 512M or 2G (0 = no cap)")
	fs.IntVar(&f.BotProcs, "bot-procs", workflow.DefaultBotProcs, "most processes an external bot may run at once, itself included (0 = no cap)")
	fs.StringVar(&f.Clock, "clock", "wall", "how external bots' answers are timed: wall (as the contests did) or cpu (the CPU time of the bot's processes; Linux)")
	fs.Var(&f.BotLogs, "bot-logs", "which games keep their external bots' stderr: none, errors (the default: the games with a forfeit, and a run's latest 20) or all")
	fs.BoolVar(&f.Quiet, "quiet", false, "no progress bar")
	if storing {
		fs.StringVar(&f.Storage, "storage", store.DefaultStorage, "results store: sqlite:FILE, postgres://..., or none")
		fs.StringVar(&f.Run, "run", "", "run name (default: derived from game, entrants, params and cases; the same command resumes the same run)")
	}
}

// entrantFlags registers --strategy (with help), --param and --params-file
// into s.
func entrantFlags(fs *flag.FlagSet, s *workflow.EntrantSpec, strategyHelp string) {
	fs.StringVar(&s.Strategy, "strategy", "", strategyHelp)
	fs.Var((*multiFlag)(&s.Params), "param", "parameter k=v (repeatable)")
	fs.StringVar(&s.ParamsFile, "params-file", "", "JSON file of parameter values (e.g. from 'gauntlet tune --best-json')")
}

func writeJSON(w io.Writer, v any) error { return cli.WriteJSON(w, v) }

// tablesFlags registers --csv and --md into t; what names the tables
// ("table", "tables").
func tablesFlags(fs *flag.FlagSet, t *reports.TableFiles, what string) {
	fs.StringVar(&t.CSV, "csv", "", "also write the "+what+" as CSV to this file")
	fs.StringVar(&t.MD, "md", "", "also write the "+what+" as Markdown to this file")
}
