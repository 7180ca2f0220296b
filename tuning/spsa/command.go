package spsa

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/internal/bounded"
	"gauntlet/tuning"
)

// This file is what `gauntlet spsa` needs of the package beyond a study:
// its flag values read into a Config, its list and its --best-json file.

// ParseSettings merges the per-parameter gains of a --gains-file (path, ""
// for none: {"NAME": {"c_end": X, "r_end": Y}, "*": {...}}) and of the
// --c-end and --r-end values (X for every parameter, or NAME=X), the flags
// winning. Every error is a usage error naming the flag or the file.
func ParseSettings(path string, cEnd, rEnd []string) (map[string]Setting, error) {
	out := map[string]Setting{}
	if path != "" {
		data, err := bounded.ReadFile(context.Background(), path, bounded.SettingsSize)
		if err != nil {
			return nil, cli.Usagef("--gains-file: %v", err)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&out); err != nil {
			return nil, cli.Usagef("--gains-file %s: %v (want {\"NAME\": {\"c_end\": X, \"r_end\": Y}, ...})", path, err)
		}
	}
	for _, fl := range []struct {
		name string
		vals []string
		set  func(s *Setting, x float64)
	}{
		{"--c-end", cEnd, func(s *Setting, x float64) { s.CEnd = &x }},
		{"--r-end", rEnd, func(s *Setting, x float64) { s.REnd = &x }},
	} {
		for _, v := range fl.vals {
			name, num, ok := strings.Cut(v, "=")
			if !ok {
				name, num = AllParams, v
			}
			x, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
			if err != nil || strings.TrimSpace(name) == "" {
				return nil, cli.Usagef("%s %q: want X or NAME=X with X a number", fl.name, v)
			}
			s := out[strings.TrimSpace(name)]
			fl.set(&s, x)
			out[strings.TrimSpace(name)] = s
		}
	}
	return out, nil
}

// ResolveTarget resolves --strategy (spec) of game into what a study
// tunes, with the start values: assign and a built-in strategy's inline
// k=v values after them, or every declared value of an external command
// (which takes assign, fixed placeholders included, now). Errors are usage
// errors naming --strategy.
func ResolveTarget(reg *contract.Registry, game, spec string, assign []string) (Target, []string, error) {
	if strings.HasPrefix(spec, "cmd:") {
		e, err := entrant.Parse(reg, game, spec, assign...)
		if err != nil {
			return nil, nil, cli.Usagef("--strategy: %v", err)
		}
		if len(e.Specs()) == 0 {
			return nil, nil, cli.Usagef("--strategy %q declares no parameter to tune: declare them in its placeholders ({name:int[1,9]=5}, float, log, cat) or a spec file ({params@spec.json})", spec)
		}
		var start []string
		for _, sp := range e.Specs() {
			start = append(start, sp.Name+"="+sp.FormatValue(e.Params[sp.Name]))
		}
		return EntrantTarget{Base: e}, start, nil
	}
	name, inline, _ := strings.Cut(spec, ":")
	s, err := reg.Strategy(game, name)
	if err != nil {
		return nil, nil, cli.Usagef("--strategy: %v", err)
	}
	return StrategyTarget{Strategy: s}, append(assign, tuning.SplitNames(inline)...), nil
}

// ListStudies opens the storage at url read-only and lists its studies,
// oldest first.
func ListStudies(ctx context.Context, url string) ([]StudyInfo, error) {
	st, err := OpenStorageReadOnly(ctx, url)
	if err != nil {
		return nil, err
	}
	defer func() { _ = st.Close() }() // read only: a failed close loses nothing
	return st.Studies(ctx)
}

// BestFile is what spsa's --best-json writes; "params" is what
// --params-file reads.
type BestFile struct {
	Game       string         `json:"game"`
	Strategy   string         `json:"strategy"`
	Study      string         `json:"study"`
	Iterations int            `json:"iterations"`
	Params     map[string]any `json:"params"`
}

// Best is the study's final values as --best-json writes them.
func (s *Summary) Best() *BestFile {
	return &BestFile{Game: tuning.GameArg(s.Game, s.Source), Strategy: s.Target, Study: s.Study, Iterations: s.Applied, Params: s.Final}
}
