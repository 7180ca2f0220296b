package results

import (
	"regexp"
	"slices"
	"strings"
)

// ReasonCount is one kind of forfeit (or of elimination): how many games
// ended so, and the first of them in full.
type ReasonCount struct {
	Kind  string `json:"kind"`  // the grouping key (see ReasonKind)
	Count int    `json:"count"` // games (a league: seats) that ended so
	First string `json:"first"` // the first such reason, in full
	Case  string `json:"case"`  // the case of that first one
}

var (
	quotedText = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	numberText = regexp.MustCompile(`[0-9]+(?:[.,][0-9]+)*`)
)

// ReasonKind is the key that groups forfeit reasons of one kind: the reason
// without its stderr tail ("; stderr: ..."), quoted text replaced by "…"
// and every number by "#". "crashed in round 4: exit status 3; stderr: x"
// and "crashed in round 9: exit status 1" are both
// "crashed in round #: exit status #".
func ReasonKind(reason string) string {
	s, _, _ := strings.Cut(reason, "; stderr:")
	s = quotedText.ReplaceAllString(s, `"…"`)
	return numberText.ReplaceAllString(strings.TrimSpace(s), "#")
}

// ReasonTally counts reasons (forfeits, or a game's eliminations) by
// kind, keeping the first of each kind in full with its case. The ab and
// eval conduct and a league's board count with it. The zero value is
// ready to use; it is not safe for concurrent use.
type ReasonTally struct {
	counts []ReasonCount  // in the order each kind was first seen
	index  map[string]int // kind → index in counts
}

// Add counts reason r of a game of case caseID.
func (t *ReasonTally) Add(r, caseID string) {
	k := ReasonKind(r)
	i, ok := t.index[k]
	if !ok {
		if t.index == nil {
			t.index = map[string]int{}
		}
		i = len(t.counts)
		t.index[k] = i
		t.counts = append(t.counts, ReasonCount{Kind: k, First: r, Case: caseID})
	}
	t.counts[i].Count++
}

// Counts returns a copy of the kinds counted, in the order each was first
// seen (nil if none).
func (t *ReasonTally) Counts() []ReasonCount {
	return slices.Clone(t.counts)
}

// ByKind returns a copy of the kinds counted, ordered by kind (nil if
// none): the order of a summary of games read in no particular order.
func (t *ReasonTally) ByKind() []ReasonCount {
	c := t.Counts()
	slices.SortFunc(c, func(a, b ReasonCount) int { return strings.Compare(a.Kind, b.Kind) })
	return c
}
