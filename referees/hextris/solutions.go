package hextris

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
)

// Solution is one entry of a contest solution file: the commands for one
// (problem, seed) pair, with a free-form tag.
type Solution struct {
	ProblemID int    `json:"problemId"`
	Seed      uint32 `json:"seed"`
	Tag       string `json:"tag"`
	Solution  string `json:"solution"`
}

// ParseSolutions reads a contest solution file: a JSON array of objects
// with problemId, seed, solution and an optional tag. Errors name the entry
// index and the field.
func ParseSolutions(data []byte) ([]Solution, error) {
	data = bytes.TrimSpace(data)
	var items []json.RawMessage
	err := json.Unmarshal(data, &items)
	if msg := notJSON(err); msg != "" {
		return nil, fmt.Errorf("solutions: %s", msg)
	}
	if jsonKind(data) != "an array" {
		return nil, fmt.Errorf("solutions: want a JSON array of {problemId, seed, tag, solution}, got %s", jsonKind(data))
	}
	if err != nil {
		return nil, fmt.Errorf("solutions: %w", err)
	}
	out := make([]Solution, 0, len(items))
	for i, raw := range items {
		path := fmt.Sprintf("solutions[%d]", i)
		obj, err := jsonObject(raw, path)
		if err != nil {
			return nil, err
		}
		var s Solution
		r, err := field(obj, "problemId", path)
		if err != nil {
			return nil, err
		}
		id, err := jsonInt(r, path+".problemId", 0, math.MaxInt32)
		if err != nil {
			return nil, err
		}
		s.ProblemID = int(id)
		if r, err = field(obj, "seed", path); err != nil {
			return nil, err
		}
		seed, err := jsonInt(r, path+".seed", 0, math.MaxUint32)
		if err != nil {
			return nil, err
		}
		s.Seed = uint32(seed)
		if r, err = field(obj, "solution", path); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(r, &s.Solution); err != nil || jsonKind(bytes.TrimSpace(r)) != "a string" {
			return nil, fmt.Errorf("%s.solution: want a string, got %s", path, jsonKind(bytes.TrimSpace(r)))
		}
		if r, ok := obj["tag"]; ok && jsonKind(bytes.TrimSpace(r)) != "null" {
			if err := json.Unmarshal(r, &s.Tag); err != nil {
				return nil, fmt.Errorf("%s.tag: want a string, got %s", path, jsonKind(bytes.TrimSpace(r)))
			}
		}
		out = append(out, s)
	}
	return out, nil
}

// SeedScore is the result of one (problem, seed) pair of a solution set.
type SeedScore struct {
	Seed   uint32
	Tag    string
	Result Result
	// Missing is true for a source seed without a solution (it scores 0).
	Missing bool
	// Reason says why the pair scores 0 when it is not a game error: a
	// missing solution, or a seed that is not a source seed of the problem.
	Reason string
}

// ProblemScore is one problem of a solution set, aggregated as the
// leaderboard did: Score is the floor of the sum of the seed scores over
// len(SourceSeeds) (each distinct seed once; a missing seed counts 0); MoveScore and
// PowerScore are aggregated the same way from the error-free games.
type ProblemScore struct {
	ProblemID  int
	NumSeeds   int // len(SourceSeeds), the divisor (duplicates included)
	Solved     int // source seeds with a solution
	Errors     int // solutions with a game error
	Score      int64
	MoveScore  int64
	PowerScore int64
	// Seeds has one entry per distinct source seed, in the problem's order,
	// then the solutions for seeds that are not source seeds.
	Seeds []SeedScore
}

// ScoreSolutions scores a solution set as the leaderboard did: for each
// (problem, seed) the latest solution in the list counts; problems come in
// increasing id order. problem looks problems up by id (Official for the
// contest's problems); an unknown id is an error naming the entry.
func ScoreSolutions(sols []Solution, phrases PhraseSet, problem func(id int) (*Problem, error)) ([]ProblemScore, error) {
	type key struct {
		id   int
		seed uint32
	}
	latest := map[key]int{}
	probs := map[int]*Problem{}
	for i, s := range sols {
		if _, ok := probs[s.ProblemID]; !ok {
			p, err := problem(s.ProblemID)
			if err != nil {
				return nil, fmt.Errorf("solutions[%d]: problemId %d: %w", i, s.ProblemID, err)
			}
			probs[s.ProblemID] = p
		}
		latest[key{s.ProblemID, s.Seed}] = i
	}
	ids := make([]int, 0, len(probs))
	for id := range probs {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	var g Game
	out := make([]ProblemScore, 0, len(ids))
	for _, id := range ids {
		p := probs[id]
		ps := ProblemScore{ProblemID: id, NumSeeds: len(p.SourceSeeds)}
		seen := map[uint32]bool{}
		var sum, moves, power int64
		for _, seed := range p.SourceSeeds {
			if seen[seed] {
				continue
			}
			seen[seed] = true
			i, ok := latest[key{id, seed}]
			if !ok {
				ps.Seeds = append(ps.Seeds, SeedScore{Seed: seed, Missing: true, Reason: "no solution (counts 0)"})
				continue
			}
			ps.Solved++
			r := g.Play(p, seed, phrases, sols[i].Solution)
			if r.Error != "" {
				ps.Errors++
			} else {
				moves += r.MoveScore
				power += r.PowerScore
			}
			sum += r.Score
			ps.Seeds = append(ps.Seeds, SeedScore{Seed: seed, Tag: sols[i].Tag, Result: r})
		}
		var extra []uint32
		for k := range latest {
			if k.id == id && !seen[k.seed] {
				extra = append(extra, k.seed)
			}
		}
		sort.Slice(extra, func(a, b int) bool { return extra[a] < extra[b] })
		for _, seed := range extra {
			i := latest[key{id, seed}]
			r := g.Play(p, seed, phrases, sols[i].Solution)
			ps.Seeds = append(ps.Seeds, SeedScore{Seed: seed, Tag: sols[i].Tag, Result: r,
				Reason: fmt.Sprintf("seed %d is not a source seed of problem %d (scores 0)", seed, id)})
		}
		// The leaderboard divided by len(sourceSeeds), duplicates included
		// (problem 5 lists one seed twice).
		if n := int64(len(p.SourceSeeds)); n > 0 {
			ps.Score, ps.MoveScore, ps.PowerScore = floorDiv64(sum, n), floorDiv64(moves, n), floorDiv64(power, n)
		}
		out = append(out, ps)
	}
	return out, nil
}

func floorDiv64(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
