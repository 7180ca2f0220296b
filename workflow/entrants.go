package workflow

import (
	"context"
	"errors"
	"fmt"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/internal/bounded"
	"gauntlet/strategies/param"
)

// ReadParamsFile reads a params file (param.DecodeFile) before any game
// starts; a file that cannot be read or decoded is a usage error naming it.
// The file may hold at most bounded.SettingsSize bytes ("params file F:
// larger than 16 MiB"). It is read without the command's context: a named
// pipe that never ends holds the command there.
func ReadParamsFile(path string) (map[string]any, error) {
	data, err := bounded.ReadFile(context.Background(), path, bounded.SettingsSize)
	if tl := (*bounded.TooLargeError)(nil); errors.As(err, &tl) {
		return nil, cli.Usagef("params file %v", err)
	}
	if err != nil {
		return nil, cli.Usagef("params file %s: %s", path, cli.FileProblem(err))
	}
	m, err := param.DecodeFile(data)
	if err != nil {
		return nil, cli.Usagef("params file %s: %v", path, err)
	}
	return m, nil
}

// FileAssignments are the k=v assignments of a params file, none for
// path "".
func FileAssignments(path string) ([]string, error) {
	if path == "" {
		return nil, nil
	}
	m, err := ReadParamsFile(path)
	if err != nil {
		return nil, err
	}
	return param.Assignments(m), nil
}

// EntrantSpec is an entrant as flags give it: --strategy with --param and
// --params-file (whose values come first, so that --param wins).
type EntrantSpec struct {
	Strategy   string
	Params     []string
	ParamsFile string
}

// Entrant resolves the entrant for game; errors are usage errors.
func (s EntrantSpec) Entrant(game string) (*entrant.Entrant, error) {
	if s.Strategy == "" {
		return nil, cli.Usagef("--strategy is required")
	}
	assign, err := FileAssignments(s.ParamsFile)
	if err != nil {
		return nil, err
	}
	e, err := entrant.Parse(contract.Default, game, s.Strategy, append(assign, s.Params...)...)
	if err != nil {
		return nil, cli.Usagef("--strategy: %v", err)
	}
	return e, nil
}

// Opponents reads the other seats of g: the lineup (--opponents) and the
// extra entrants (repeated --opponent, for external commands); by default
// the game's lineup. A single-player game takes none.
func Opponents(g contract.Game, lineup string, extra []string) ([]*entrant.Entrant, error) {
	info := g.Info()
	if info.MaxSeats == 1 {
		if lineup != "" || len(extra) > 0 {
			return nil, cli.Usagef("game %s is single-player: no --opponents", info.Name)
		}
		return nil, nil
	}
	if lineup == "" && len(extra) == 0 {
		lineup = info.Opponents
	}
	var out []*entrant.Entrant
	if lineup != "" && lineup != "none" {
		l, err := entrant.ParseLineup(contract.Default, info.Name, lineup)
		if err != nil {
			return nil, cli.Usagef("--opponents: %v", err)
		}
		out = l
	}
	for _, spec := range extra {
		e, err := entrant.Parse(contract.Default, info.Name, spec)
		if err != nil {
			return nil, cli.Usagef("--opponent: %v", err)
		}
		out = append(out, e)
	}
	return out, nil
}

// abEntrant resolves entrant spec of flag flagName (--a, --b) with the
// values of its params file (--a-params-file), then the values more.
func abEntrant(game, flagName, spec, file string, more ...string) (*entrant.Entrant, error) {
	assign, err := FileAssignments(file)
	if err != nil {
		return nil, fmt.Errorf("%s-params-file: %w", flagName, err)
	}
	e, err := entrant.Parse(contract.Default, game, spec, append(assign, more...)...)
	if err != nil {
		return nil, cli.Usagef("%s: %v", flagName, err)
	}
	return e, nil
}
