package workflow

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"gauntlet/harness/results"
	"gauntlet/harness/store"
	"gauntlet/tuning"
	"gauntlet/tuning/spsa"
)

// TrialCounts are a tuning study's trials by state.
type TrialCounts struct {
	All      int `json:"all"`
	Complete int `json:"complete"`
	Pruned   int `json:"pruned"`
	Failed   int `json:"failed"` // lost ones included
	Running  int `json:"running"`
}

// studies are the tuning and SPSA studies stored at url (of game only,
// unless ""), as runs lists them.
func studies(ctx context.Context, url, game string) ([]RunInfo, error) {
	tune, err := tuning.ListStudies(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("tuning studies: %w", err)
	}
	sp, err := spsa.ListStudies(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("SPSA studies: %w", err)
	}
	var list []RunInfo
	for _, s := range tune {
		if game != "" && s.Game != game {
			continue
		}
		info := RunInfo{ID: s.Name, Kind: "tune", Game: tuning.GameArg(s.Game, s.Source), CaseSet: s.Cases,
			Entrants: []string{s.Strategy}, Differs: tunes(s.Space), Status: "idle", Created: s.Created, Updated: s.Updated,
			Trials: &TrialCounts{All: s.Trials, Complete: s.Complete, Pruned: s.Pruned, Failed: s.Failed, Running: s.Running},
			Best:   s.Best, BestTrial: s.BestTrial}
		if s.Running > 0 {
			info.Status = "running"
		}
		if s.Best != nil && s.BestTrial != nil {
			info.Result = fmt.Sprintf("best %s (trial %d, %s sampler)", num(*s.Best), *s.BestTrial, s.Sampler)
		}
		list = append(list, info)
	}
	for _, s := range sp {
		if game != "" && s.Game != game {
			continue
		}
		info := RunInfo{ID: s.Name, Kind: "spsa", Game: tuning.GameArg(s.Game, s.Source), CaseSet: s.Cases,
			Entrants: []string{s.Target}, Differs: tunes(s.Space), Games: 2 * s.Applied, Planned: s.Games,
			Status: "running", Created: s.Created, Updated: s.Updated}
		if s.Complete {
			info.Status = "complete"
		}
		list = append(list, info)
	}
	return list, nil
}

// tunes is a study's Differs: the parameters it tunes.
func tunes(space []string) []string {
	if len(space) == 0 {
		return nil
	}
	return []string{"tunes: " + strings.Join(space, ", ")}
}

// differs are the parameters whose values differ between entrants of the
// same strategy, "name: v1 vs v2" in entrant order ("-" where an entrant
// has none), by strategy in order of appearance, then by name.
func differs(es []store.EntrantRecord) []string {
	var out []string
	var strategies []string
	for _, e := range es {
		if !slices.Contains(strategies, e.Strategy) {
			strategies = append(strategies, e.Strategy)
		}
	}
	for _, name := range strategies {
		var group []store.EntrantRecord
		for _, e := range es {
			if e.Strategy == name {
				group = append(group, e)
			}
		}
		if len(group) < 2 {
			continue
		}
		var keys []string
		for _, e := range group {
			for k := range e.Params {
				if !slices.Contains(keys, k) {
					keys = append(keys, k)
				}
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			vals := make([]string, len(group))
			for i, e := range group {
				vals[i] = "-"
				if v, ok := e.Params[k]; ok {
					vals[i] = fmt.Sprint(v)
				}
			}
			if slices.ContainsFunc(vals, func(v string) bool { return v != vals[0] }) {
				out = append(out, k+": "+strings.Join(vals, " vs "))
			}
		}
	}
	return out
}

// specSPRT is the sequential test in an ab run's stored spec (nil in a
// spec without one).
func specSPRT(spec string) *results.SPRTSpec {
	var s struct {
		Extra struct {
			SPRT *results.SPRTSpec `json:"sprt"`
		} `json:"extra"`
	}
	if json.Unmarshal([]byte(spec), &s) != nil {
		return nil // a spec this build cannot read lists no test
	}
	return s.Extra.SPRT
}
