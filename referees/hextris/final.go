package hextris

import (
	_ "embed"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// qualityMD is the quality anchors file; its "Final round" section is the
// official final board (copied from the organisers' rankings.js).
//
//go:embed testdata/quality.md
var qualityMD []byte

// FinalVariant is a phrase variant of the final round: the name the final
// board gives it and the embedded phrase set (OfficialPhrases) it scored.
type FinalVariant struct {
	Name    string // power, nopower, custompower, illegalpower
	Phrases string // power, none, custom, illegal
}

// FinalVariants are the final round's four variants, in the board's order.
var FinalVariants = []FinalVariant{
	{"power", "power"}, {"nopower", "none"}, {"custompower", "custom"}, {"illegalpower", "illegal"},
}

// FinalVariantOf looks a variant up by its board name (custompower) or by
// the name of its phrase set (custom).
func FinalVariantOf(name string) (FinalVariant, error) {
	for _, v := range FinalVariants {
		if name == v.Name || name == v.Phrases {
			return v, nil
		}
	}
	return FinalVariant{}, fmt.Errorf("unknown final-round variant %q (want power, nopower, custompower or illegalpower; or the phrase set none, custom, illegal)", name)
}

// FinalBest is one cell of the final board: the best team's problem score
// (the leaderboard's per-problem average) and the teams that had it.
type FinalBest struct {
	Score int64
	Teams []string
}

// FinalTeam is a team of the final ranking with its points (the mean of
// its FinalPoints over all cells, as published).
type FinalTeam struct {
	Name   string
	Points int
}

// FinalBoard is the official final board: the judged problems, the best
// problem score per (problem, variant), and the published final ranking.
type FinalBoard struct {
	// Problems are the judged problems, in increasing order.
	Problems []int
	// Variants are the board's columns, in order (FinalVariants names).
	Variants []string
	// Ranking is the published final ranking, best first.
	Ranking []FinalTeam
	best    map[finalKey]FinalBest
}

type finalKey struct {
	problem int
	variant string
}

// Best returns the best problem score of a (problem, variant) cell.
func (b *FinalBoard) Best(problem int, variant string) (FinalBest, bool) {
	c, ok := b.best[finalKey{problem, variant}]
	return c, ok
}

// Has reports whether problem was judged in the final round.
func (b *FinalBoard) Has(problem int) bool {
	_, ok := slices.BinarySearch(b.Problems, problem)
	return ok
}

// FinalPoints is the final round's score of one (problem, variant) cell:
// round(100·(ours/best)²), ours and best being problem scores (per-problem
// averages). It is not capped: a problem score above the best gives more
// than 100. best must be positive.
func FinalPoints(ours, best int64) int64 {
	r := float64(ours) / float64(best)
	return int64(math.Round(100 * r * r))
}

var officialFinal = sync.OnceValues(func() (*FinalBoard, error) {
	b, err := ParseFinalBoard(qualityMD)
	if err != nil {
		return nil, fmt.Errorf("embedded quality.md: %w", err)
	}
	return b, nil
})

// OfficialFinalBoard returns the final board parsed from the embedded
// quality anchors (testdata/quality.md). The result is shared: do not
// modify it.
func OfficialFinalBoard() (*FinalBoard, error) { return officialFinal() }

// ParseFinalBoard reads the "## Final round" section of a quality anchors
// file: the Markdown table "| problem | power | nopower | custompower |
// illegalpower |" whose cells read "SCORE (TEAM, TEAM...)", and the line
// "Final ranking: TEAM POINTS, ...". Errors name the line.
func ParseFinalBoard(md []byte) (*FinalBoard, error) {
	lines := strings.Split(string(md), "\n")
	start := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "## Final round") })
	if start < 0 {
		return nil, fmt.Errorf("no \"## Final round\" section")
	}
	b := &FinalBoard{best: map[finalKey]FinalBest{}}
	inTable := false
	for i := start + 1; i < len(lines); i++ {
		line, at := strings.TrimSpace(lines[i]), fmt.Sprintf("line %d", i+1)
		if strings.HasPrefix(line, "## ") {
			break
		}
		if rest, ok := strings.CutPrefix(line, "Final ranking:"); ok {
			r, err := parseFinalRanking(rest)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", at, err)
			}
			b.Ranking = r
			continue
		}
		if !strings.HasPrefix(line, "|") {
			if inTable {
				break
			}
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for j := range cells {
			cells[j] = strings.TrimSpace(cells[j])
		}
		switch {
		case !inTable:
			if cells[0] != "problem" {
				return nil, fmt.Errorf("%s: want the header | problem | VARIANT... |, got %q", at, line)
			}
			for _, v := range cells[1:] {
				fv, err := FinalVariantOf(v)
				if err != nil || fv.Name != v {
					return nil, fmt.Errorf("%s: column %q is not a final-round variant", at, v)
				}
				if slices.Contains(b.Variants, v) {
					return nil, fmt.Errorf("%s: column %q twice", at, v)
				}
				b.Variants = append(b.Variants, v)
			}
			inTable = true
		case strings.Trim(line, "|-: ") == "":
			// the separator row
		default:
			if len(cells) != len(b.Variants)+1 {
				return nil, fmt.Errorf("%s: %d cells, want %d", at, len(cells), len(b.Variants)+1)
			}
			id, err := strconv.Atoi(cells[0])
			if err != nil || id < 0 || id >= NumOfficial {
				return nil, fmt.Errorf("%s: problem %q is not 0..%d", at, cells[0], NumOfficial-1)
			}
			if len(b.Problems) > 0 && id <= b.Problems[len(b.Problems)-1] {
				return nil, fmt.Errorf("%s: problem %d is out of order", at, id)
			}
			b.Problems = append(b.Problems, id)
			for j, v := range b.Variants {
				c, err := parseFinalCell(cells[j+1])
				if err != nil {
					return nil, fmt.Errorf("%s, problem %d, %s: %w", at, id, v, err)
				}
				b.best[finalKey{id, v}] = c
			}
		}
	}
	switch {
	case len(b.Problems) == 0:
		return nil, fmt.Errorf("final round: no board table")
	case len(b.Variants) == 0:
		return nil, fmt.Errorf("final round: the board table has no variant column")
	case len(b.Ranking) == 0:
		return nil, fmt.Errorf("final round: no \"Final ranking:\" line")
	}
	return b, nil
}

// parseFinalCell reads "19887 (Natsubate!)" or "3200 (Unagi, Gachi)".
func parseFinalCell(s string) (FinalBest, error) {
	num, teams, ok := strings.Cut(s, " (")
	if !ok || !strings.HasSuffix(teams, ")") {
		return FinalBest{}, fmt.Errorf("cell %q: want \"SCORE (TEAM, ...)\"", s)
	}
	v, err := strconv.ParseInt(num, 10, 64)
	if err != nil || v <= 0 {
		return FinalBest{}, fmt.Errorf("cell %q: score %q is not a positive integer", s, num)
	}
	c := FinalBest{Score: v}
	for _, t := range strings.Split(strings.TrimSuffix(teams, ")"), ",") {
		c.Teams = append(c.Teams, strings.TrimSpace(t))
	}
	return c, nil
}

// parseFinalRanking reads " Unagi 77, Natsubate! 48, ... Begot 37.".
func parseFinalRanking(s string) ([]FinalTeam, error) {
	var out []FinalTeam
	for _, f := range strings.Split(strings.TrimSuffix(strings.TrimSpace(s), "."), ",") {
		f = strings.TrimSpace(f)
		i := strings.LastIndexByte(f, ' ')
		if i <= 0 {
			return nil, fmt.Errorf("final ranking entry %q: want \"TEAM POINTS\"", f)
		}
		p, err := strconv.Atoi(f[i+1:])
		if err != nil {
			return nil, fmt.Errorf("final ranking entry %q: points %q are not an integer", f, f[i+1:])
		}
		out = append(out, FinalTeam{Name: f[:i], Points: p})
	}
	return out, nil
}
