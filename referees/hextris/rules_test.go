package hextris

import (
	"slices"
	"testing"
	"unicode"
)

func mustOfficial(t testing.TB, id int) *Problem {
	t.Helper()
	p, err := Official(id)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustPhrases(t testing.TB, name string) PhraseSet {
	t.Helper()
	ps, err := OfficialPhrases(name)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// The check values quoted in RULES.md section 4.
func TestLCG(t *testing.T) {
	for _, tc := range []struct {
		seed uint32
		want []uint32
	}{
		{17, []uint32{0, 24107, 16552, 12125, 9427, 13152, 21440, 3383, 6873, 16117}},
		{0, []uint32{0, 0, 21468, 9988, 22117}},
	} {
		l := NewLCG(tc.seed)
		var got []uint32
		for range tc.want {
			got = append(got, l.Next())
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("seed %d: got %v, want %v", tc.seed, got, tc.want)
		}
	}
}

func TestSourceUnits(t *testing.T) {
	p, err := NewProblem(0, 5, 5, nil, []Unit{
		{Members: []Cell{{0, 0}}}, {Members: []Cell{{0, 0}, {1, 0}}},
		{Members: []Cell{{0, 0}, {2, 0}}},
	}, 10, []uint32{17})
	if err != nil {
		t.Fatal(err)
	}
	// Seed 17 outputs mod 3.
	want := []int{0, 24107 % 3, 16552 % 3, 12125 % 3, 9427 % 3, 13152 % 3, 21440 % 3, 3383 % 3, 6873 % 3, 16117 % 3}
	if got := SourceUnits(p, 17, nil); !slices.Equal(got, want) {
		t.Errorf("SourceUnits = %v, want %v", got, want)
	}
}

// RULES.md section 11: `ei!ei!` on problem 1, seed 0.
func TestRepeatedPositionExample(t *testing.T) {
	r := Play(mustOfficial(t, 1), 0, mustPhrases(t, "power"), "ei!ei!")
	if r.Error != "repeated-position" || r.MovesExecuted != 3 || r.Score != 0 {
		t.Errorf("ei!ei!: error %q, moves %d, score %d; want repeated-position, 3, 0", r.Error, r.MovesExecuted, r.Score)
	}
	if r.ErrorAt != 3 {
		t.Errorf("ErrorAt = %d, want 3 (the second e)", r.ErrorAt)
	}
	if r.EndState != "playing" {
		t.Errorf("end state %q, want playing", r.EndState)
	}
}

func TestPowerExamples(t *testing.T) {
	p, power := mustOfficial(t, 1), mustPhrases(t, "power")
	if r := Play(p, 0, power, "EI!"); r.PowerScore != 306 || r.Error != "" || r.Score != r.MoveScore+306 {
		t.Errorf("EI!: power %d, error %q, score %d; want 306, no error, move+306", r.PowerScore, r.Error, r.Score)
	}
	if r := Play(p, 0, power, "E\nI!"); r.PowerScore != 0 {
		t.Errorf("E\\nI!: power %d, want 0", r.PowerScore)
	}
	// Overlapping occurrences count: "ia! ia! ia!" holds "ia! ia!" twice.
	if got, want := power.Score("ia! ia! ia!"), int64(300+2*7*2); got != want {
		t.Errorf("ia! ia! ia!: %d, want %d", got, want)
	}
}

func TestPhraseScoreRules(t *testing.T) {
	for _, tc := range []struct {
		phrases []string
		text    string
		want    int64
	}{
		{[]string{"ei!"}, "", 0},
		{[]string{"ei!"}, "EI!ei!xEi!", 300 + 2*3*3},
		{[]string{"ei!", "EI!"}, "ei!", 300 + 2*3*2}, // listed twice: reps twice, bonus once
		{[]string{"aa"}, "aaaa", 300 + 2*2*3},
		{[]string{"a", "aa"}, "aa", 300 + 2*1*2 + 300 + 2*2*1},
		{[]string{""}, "x", 300},
		{[]string{""}, "", 0},
		{[]string{"ß"}, "xßß", 300 + 2*1*2},    // length in characters
		{[]string{"k"}, "\u212a", 300 + 2*1*1}, // Kelvin sign lower-cases to k
		{[]string{"ei!"}, "e\ti!", 0},
		{nil, "ei!", 0},
	} {
		if got := NewPhraseSet("t", tc.phrases).Score(tc.text); got != tc.want {
			t.Errorf("phrases %q text %q: %d, want %d", tc.phrases, tc.text, got, tc.want)
		}
		if got := naiveScore(tc.phrases, tc.text); got != tc.want {
			t.Errorf("naive: phrases %q text %q: %d, want %d", tc.phrases, tc.text, got, tc.want)
		}
	}
}

// RULES.md section 6: with pivot (2,2), member (3,2) goes to (2,3) under CW
// and to (2,1) under CCW.
func TestRotationExample(t *testing.T) {
	if got := Rotate(Cell{3, 2}, Cell{2, 2}, true); got != (Cell{2, 3}) {
		t.Errorf("CW: %v, want (2,3)", got)
	}
	if got := Rotate(Cell{3, 2}, Cell{2, 2}, false); got != (Cell{2, 1}) {
		t.Errorf("CCW: %v, want (2,1)", got)
	}
	// E -> SE -> SW -> W -> NW -> NE -> E around any pivot, both parities.
	for _, pv := range []Cell{{2, 2}, {5, 3}, {0, -1}} {
		c := Cell{pv.X + 1, pv.Y}
		for i := 0; i < 6; i++ {
			c = Rotate(c, pv, true)
		}
		if c != (Cell{pv.X + 1, pv.Y}) {
			t.Errorf("six CW turns about %v: %v", pv, c)
		}
		if got, want := Rotate(Cell{pv.X + 1, pv.Y}, pv, true), Neighbour(pv, MoveSE); got != want {
			t.Errorf("CW of E about %v: %v, want SE %v", pv, got, want)
		}
	}
}

// The engine's rotations agree with the rules' axial formula, cell by cell.
func TestEngineRotationMatchesFormula(t *testing.T) {
	for id := 0; id < NumOfficial; id++ {
		p := mustOfficial(t, id)
		for u := range p.Units {
			pos := p.Spawn(u)
			for _, dy := range []int32{0, 1} { // both pivot parities
				pos := Position{pos.X, pos.Y + dy, 0}
				cells := p.Cells(u, pos, nil)
				pivot := Cell{int(pos.X), int(pos.Y)}
				for k := 0; k < 7; k++ {
					want := make([]Cell, len(cells))
					for i, c := range cells {
						want[i] = Rotate(c, pivot, true)
					}
					pos = p.Next(u, pos, RotCW)
					got := p.Cells(u, pos, nil)
					if !sameSet(got, want) {
						t.Fatalf("problem %d unit %d: CW gives %v, want %v", id, u, got, want)
					}
					cells = got
				}
			}
		}
	}
}

func sameSet(a, b []Cell) bool {
	key := func(c Cell) [2]int { return [2]int{c.Y, c.X} }
	ka, kb := make([][2]int, 0, len(a)), make([][2]int, 0, len(b))
	for _, c := range a {
		ka = append(ka, key(c))
	}
	for _, c := range b {
		kb = append(kb, key(c))
	}
	cmp := func(x, y [2]int) int {
		if x[0] != y[0] {
			return x[0] - y[0]
		}
		return x[1] - y[1]
	}
	slices.SortFunc(ka, cmp)
	slices.SortFunc(kb, cmp)
	return slices.Equal(slices.Compact(ka), slices.Compact(kb))
}

// RULES.md section 8: clearing 2 lines with a unit of size 4 right after a
// lock that cleared 3 lines gives points 4+300 = 304 and a bonus of
// floor(2*304/10) = 60.
func TestLineBonusExample(t *testing.T) {
	a := Unit{Members: []Cell{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}}} // size 6, three rows
	b := Unit{Members: []Cell{{0, 0}, {1, 0}, {0, 1}, {1, 1}}}                 // size 4, two rows
	// Seed 17's outputs 0, 24107 pick a then b.
	p, err := NewProblem(0, 2, 3, nil, []Unit{a, b}, 2, []uint32{17})
	if err != nil {
		t.Fatal(err)
	}
	g := NewGame(p, 17)
	if g.Step(MoveSW) != StepLocked || g.LastLines() != 3 {
		t.Fatalf("first lock: lines %d, want 3", g.LastLines())
	}
	first := int64(6 + 100*(1+3)*3/2)
	if g.MoveScore() != first {
		t.Fatalf("first lock: %d points, want %d", g.MoveScore(), first)
	}
	if g.Step(MoveSW) != StepEnded || g.LastLines() != 2 {
		t.Fatalf("second lock: lines %d, want 2", g.LastLines())
	}
	if got := g.MoveScore() - first; got != 304+60 {
		t.Errorf("second lock: %d points, want 304+60", got)
	}
	if g.End() != SourceExhausted {
		t.Errorf("end %v, want source-exhausted", g.End())
	}
	r := Play(p, 17, PhraseSet{}, "aa")
	if r.MoveScore != first+364 || r.EndState != "source-exhausted" || r.UnitsLocked != 2 || r.Error != "" {
		t.Errorf("Play: %+v", r)
	}
	if r := Play(p, 17, PhraseSet{}, "aa\t\r\n"); r.Error != "" {
		t.Errorf("trailing \\t\\r\\n after the end: error %q", r.Error)
	}
	if r := Play(p, 17, PhraseSet{}, "aa\nx"); r.Error != "command-after-end" || r.MovesExecuted != 2 || r.ErrorAt != 3 {
		t.Errorf("surplus character: %+v", r)
	}
}

// RULES.md section 9, the edge case no official problem exercises: when
// the first spawn is blocked, exactly one command is accepted.
func TestFirstSpawnBlocked(t *testing.T) {
	wide := Unit{Members: []Cell{{0, 0}, {1, 0}, {2, 0}}}
	p, err := NewProblem(0, 2, 4, nil, []Unit{wide}, 5, []uint32{0})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		text, err string
	}{
		{"", ""}, {"a", ""}, {"a\n", ""}, {"aa", "command-after-end"},
		{"a#", "command-after-end"}, {"#", "invalid-command"}, {"\n#a", "invalid-command"},
	} {
		r := Play(p, 0, PhraseSet{}, tc.text)
		if r.Error != tc.err || r.EndState != "spawn-blocked" || r.MovesExecuted != 0 || r.UnitsLocked != 0 {
			t.Errorf("%q: %+v, want error %q", tc.text, r, tc.err)
		}
	}
	empty, err := NewProblem(0, 2, 4, nil, []Unit{wide}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := Play(empty, 0, PhraseSet{}, ""); r.EndState != "source-exhausted" {
		t.Errorf("empty source: %+v", r)
	}
}

func TestRepeatRules(t *testing.T) {
	dot := Unit{Members: []Cell{{0, 0}}, Pivot: Cell{0, 0}}
	off := Unit{Members: []Cell{{0, 0}}, Pivot: Cell{0, 1}}
	line := Unit{Members: []Cell{{0, 0}, {1, 0}, {2, 0}}, Pivot: Cell{1, 0}}
	for _, tc := range []struct {
		unit       Unit
		text, err  string
		moves, rot int
	}{
		{dot, "d", "repeated-position", 0, 1},  // symmetric: turning onto itself
		{dot, "k", "repeated-position", 0, 1},  //
		{off, "dddddd", "", 6, 6},              // pivot off the cell: six distinct positions (see below)
		{dot, "bp", "repeated-position", 1, 1}, // back to the spawn position
		{dot, "blp", "", 3, 1},                 // a SE move resets the history
		{line, "lldd", "", 4, 3},               // a line has three distinct rotations
		{line, "llddd", "repeated-position", 4, 3},
	} {
		p, err := NewProblem(0, 9, 9, nil, []Unit{tc.unit}, 1, []uint32{0})
		if err != nil {
			t.Fatal(err)
		}
		if p.Rotations(0) != tc.rot {
			t.Errorf("unit %v: %d rotations, want %d", tc.unit, p.Rotations(0), tc.rot)
		}
		if tc.unit.Pivot == (Cell{0, 1}) {
			// Six CW turns come back to the spawn position: the sixth repeats.
			tc.err, tc.moves = "repeated-position", 5
		}
		r := Play(p, 0, PhraseSet{}, tc.text)
		if r.Error != tc.err || r.MovesExecuted != tc.moves {
			t.Errorf("unit %v %q: error %q moves %d, want %q %d", tc.unit, tc.text, r.Error, r.MovesExecuted, tc.err, tc.moves)
		}
	}
}

func TestInvalidAndIgnoredCharacters(t *testing.T) {
	p, power := mustOfficial(t, 6), mustPhrases(t, "power")
	r := Play(p, 0, power, "ALL\t\r\nl#ll")
	if r.Error != "invalid-command" || r.MovesExecuted != 4 || r.ErrorAt != 7 || r.Score != 0 {
		t.Errorf("%+v", r)
	}
	// Upper case and lower case are the same command.
	a, b := Play(p, 0, power, "LLLLBBBB"), Play(p, 0, power, "llllbbbb")
	if !slices.Equal(a.Board, b.Board) || a.MovesExecuted != 8 {
		t.Errorf("upper/lower differ: %+v %+v", a, b)
	}
	for _, ch := range "p'!.03bcefy2aghij4lmno 5dqrvz1kstuwx" {
		if _, ok, _ := DecodeChar(ch); !ok {
			t.Errorf("%q is not a command", ch)
		}
	}
	for _, ch := range "#?\x00é" {
		if _, ok, invalid := DecodeChar(ch); ok || !invalid {
			t.Errorf("%q decodes", ch)
		}
	}
}

// naiveScore is the referee's phrase scoring written plainly, as a test
// oracle: at each character index, each listed phrase that starts there
// counts once.
func naiveScore(phrases []string, text string) int64 {
	lower := func(s string) []rune {
		var out []rune
		for _, r := range s {
			out = append(out, unicode.ToLower(r))
		}
		return out
	}
	t := lower(text)
	reps := map[string]int64{}
	for i := range t {
		for _, p := range phrases {
			lp := lower(p)
			if len(lp) <= len(t)-i && slices.Equal(t[i:i+len(lp)], lp) {
				reps[string(lp)]++
			}
		}
	}
	var total int64
	for p, n := range reps {
		if n > 0 {
			total += 300 + 2*int64(len([]rune(p)))*n
		}
	}
	return total
}
