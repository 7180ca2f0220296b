package hextris

import (
	"embed"
	"fmt"
	"sort"
	"sync"
)

//go:embed data/problems/*.json data/phrases/*.txt
var dataFS embed.FS

// NumOfficial is the number of official problems: 0-24 (qualifier) and
// 25-32 (final round only).
const NumOfficial = 33

// QualifierProblems is the number of qualifier problems (0-24).
const QualifierProblems = 25

var official = sync.OnceValues(func() ([]*Problem, error) {
	ps := make([]*Problem, NumOfficial)
	for id := range ps {
		name := fmt.Sprintf("data/problems/problem_%d.json", id)
		data, err := dataFS.ReadFile(name)
		if err != nil {
			return nil, err
		}
		p, err := ParseProblem(data)
		if err != nil {
			return nil, fmt.Errorf("embedded %s: %w", name, err)
		}
		if p.ID != id {
			return nil, fmt.Errorf("embedded %s: id is %d", name, p.ID)
		}
		ps[id] = p
	}
	return ps, nil
})

// Official returns official problem id (0-32), from the embedded copies of
// the contest's problem files. The result is shared: do not modify it.
func Official(id int) (*Problem, error) {
	ps, err := official()
	if err != nil {
		return nil, err
	}
	if id < 0 || id >= len(ps) {
		return nil, fmt.Errorf("unknown problem %d (official problems are 0-%d)", id, NumOfficial-1)
	}
	return ps[id], nil
}

// OfficialProblems returns all official problems, by id.
func OfficialProblems() ([]*Problem, error) {
	ps, err := official()
	if err != nil {
		return nil, err
	}
	return append([]*Problem(nil), ps...), nil
}

// PhraseSetNames lists the embedded phrase sets.
var PhraseSetNames = []string{"power", "custom", "illegal", "none"}

var officialPhrases = sync.OnceValues(func() (map[string]PhraseSet, error) {
	m := map[string]PhraseSet{"none": NewPhraseSet("none", nil)}
	for _, name := range PhraseSetNames[:3] {
		data, err := dataFS.ReadFile("data/phrases/" + name + ".txt")
		if err != nil {
			return nil, err
		}
		m[name] = ParsePhrases(name, data)
	}
	return m, nil
})

// OfficialPhrases returns an embedded phrase set: "power" (the 18 phrases
// of the leaderboard), "custom" and "illegal" (final judging) or "none".
func OfficialPhrases(name string) (PhraseSet, error) {
	m, err := officialPhrases()
	if err != nil {
		return PhraseSet{}, err
	}
	ps, ok := m[name]
	if !ok {
		names := append([]string(nil), PhraseSetNames...)
		sort.Strings(names)
		return PhraseSet{}, fmt.Errorf("unknown phrase set %q (want one of %v)", name, names)
	}
	return ps, nil
}
