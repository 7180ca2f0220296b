package paperio

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
)

func TestHashExample(t *testing.T) {
	s := newState(t, DefaultRules(), 1)
	const text = `[[[1,true,435,435,null,5,0,[[405,405],[405,435],[405,465],[435,405],[435,435],[435,465],[465,405],[465,435],[465,465]],[],[]]],[]]`
	if got := string(s.AppendCanonical(nil)); got != text {
		t.Fatalf("canonical text\n got %s\nwant %s", got, text)
	}
	if _, h := s.Hash(nil); h != "d33aa3d84998c011" {
		t.Errorf("hash %s, want d33aa3d84998c011", h)
	}
	s.Advance(&Commands{Up})
	if _, h := s.Hash(nil); h != "60ee27bd089037b6" {
		t.Errorf("after one tick up: hash %s, want 60ee27bd089037b6", h)
	}
}

// newState is NewState's state of n players under rules r.
func newState(tb testing.TB, r Rules, n int) *State {
	tb.Helper()
	s, err := NewState(r, n)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// newGame is NewGame's game of n players under rules r.
func newGame(tb testing.TB, r Rules, n int, seed int64) *Game {
	tb.Helper()
	g, err := NewGame(r, n, seed)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

func cellsOf(ij ...[2]int) []Cell {
	out := make([]Cell, len(ij))
	for k, c := range ij {
		out[k] = CellAt(c[0], c[1])
	}
	return out
}

func listCells(b *Bits) string {
	var parts []string
	for _, c := range b.AppendCells(nil) {
		parts = append(parts, fmt.Sprintf("(%d,%d)", c.I(), c.J()))
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

// TestCaptureHole is the first example of RULES.md 5.1: a pre-existing hole
// is not filled.
func TestCaptureHole(t *testing.T) {
	var terr Bits
	for _, c := range cellsOf([2]int{5, 17}, [2]int{5, 18}, [2]int{5, 19}, [2]int{6, 17}, [2]int{6, 19}, [2]int{7, 17}, [2]int{7, 18}, [2]int{7, 19}) {
		terr.Set(c)
	}
	lines := cellsOf([2]int{7, 16}, [2]int{6, 16}, [2]int{6, 17})
	got := Capture(&terr, lines)
	if want := "(6,16) (7,16)"; listCells(&got) != want {
		t.Errorf("capture = %s, want %s", listCells(&got), want)
	}
}

// TestCaptureSquare: a plain loop out of a 3×3 block takes the enclosed
// cells, which the flood from the edges agrees with.
func TestCaptureSquare(t *testing.T) {
	var terr Bits
	for i := 9; i <= 11; i++ {
		for j := 9; j <= 11; j++ {
			terr.Set(CellAt(i, j))
		}
	}
	// Up from (10,11): (10,12) (10,13), right (11,13) (12,13), down (12,12)
	// (12,11) back home at (11,11)... (12,11) is outside; home is (11,11).
	lines := cellsOf([2]int{10, 12}, [2]int{10, 13}, [2]int{11, 13}, [2]int{12, 13}, [2]int{12, 12}, [2]int{12, 11}, [2]int{11, 11})
	got := Capture(&terr, lines)
	want := "(10,12) (10,13) (11,12) (11,13) (12,11) (12,12) (12,13)"
	if listCells(&got) != want {
		t.Errorf("capture = %s, want %s", listCells(&got), want)
	}
	if got := Capture(&terr, lines[:1]); !got.Empty() {
		t.Error("a one-cell trail captured something")
	}
	if got := Capture(&terr, lines[:3]); !got.Empty() {
		t.Error("a trail not ending at home captured something")
	}
}

func TestRulesOverride(t *testing.T) {
	r := DefaultRules()
	for _, kv := range [][2]string{{"MAX_TICK_COUNT", "2500"}, {"AVAILABLE_BONUSES", `["saw"]`}, {"BONUS_CHANCE", "20"}, {"MODE", "local"}, {"REQUEST_MAX_TIME", "9"}} {
		if err := r.Override(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	if r.MaxTickCount != 2500 || r.Available != [numBonusKinds]bool{false, false, true} || r.BonusChance != 20 || r.Mode != Local {
		t.Errorf("override gave %+v", r)
	}
	for _, kv := range [][2]string{{"SPEED", "7"}, {"NOPE", "1"}, {"AVAILABLE_BONUSES", "x"}, {"MAX_TICK_COUNT", "a"}} {
		if err := r.Override(kv[0], kv[1]); err == nil {
			t.Errorf("%s=%s accepted", kv[0], kv[1])
		}
	}
}

func TestModesTickCount(t *testing.T) {
	for _, m := range []Mode{Server, Local} {
		r := DefaultRules()
		r.Mode = m
		r.MaxTickCount = 50
		s := newState(t, r, 2)
		ticks := 0
		for !s.Over() {
			s.Advance(&Commands{})
			ticks++
		}
		want := 49
		if m == Local {
			want = 50
		}
		if ticks != want {
			t.Errorf("mode %v: %d ticks, want %d", m, ticks, want)
		}
	}
}

// TestRecordRoundTrip records a live game and replays the record.
func TestRecordRoundTrip(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Rules.BonusChance = 10
	agents := []Agent{{Bot: &walker{}}, {Bot: &walker{turnEvery: 3}}, {Bot: &walker{turnEvery: 5}}}
	var rec bytes.Buffer
	res, err := PlayMatch(context.Background(), cfg, 5, agents, MatchOptions{Record: &rec, Name: "roundtrip"})
	if err != nil {
		t.Fatal(err)
	}
	diff, err := compareTrace(rec.Bytes())
	if err != nil || diff != "" {
		t.Fatalf("replay of the record: %v %s", err, diff)
	}
	if !strings.Contains(rec.String(), `"spawn"`) {
		t.Error("no spawn in a game with BONUS_CHANCE 10")
	}
	for i, p := range res.Players {
		if p.Rank < 1 || p.Rank > 3 || p.ID < 1 || p.ID > 3 {
			t.Errorf("agent %d: %+v", i, p)
		}
	}
	var first map[string]json.RawMessage
	if err := json.Unmarshal(bytes.SplitN(rec.Bytes(), []byte("\n"), 2)[0], &first); err != nil || first["header"] == nil {
		t.Errorf("record header: %v", err)
	}
}

// walker turns right (clockwise) every turnEvery centres, going up first.
type walker struct {
	turnEvery, n int
}

func (w *walker) Command(s *State, id int) Dir {
	p := s.Player(id)
	w.n++
	if p.Dir == DirNone {
		return Up
	}
	if w.turnEvery > 0 && w.n%w.turnEvery == 0 {
		switch p.Dir {
		case Up:
			return Right
		case Right:
			return Down
		case Down:
			return Left
		}
		return Up
	}
	return p.Dir
}

func TestRanks(t *testing.T) {
	ps := []PlayerResult{{Score: 5}, {Score: 9}, {Score: 5}, {Score: 1}}
	rankByScore(ps)
	got := fmt.Sprint(ps[0].Rank, ps[1].Rank, ps[2].Rank, ps[3].Rank)
	if got != "2 1 2 4" {
		t.Errorf("ranks %s, want 2 1 2 4", got)
	}
}

func TestOverrideFrom(t *testing.T) {
	env := map[string]string{"MAX_TICK_COUNT": "2500", "SAW_SCORE": "31"}
	r := DefaultRules()
	if err := r.OverrideFrom(func(k string) (string, bool) { v, ok := env[k]; return v, ok }); err != nil {
		t.Fatal(err)
	}
	if r.MaxTickCount != 2500 || r.SawScore != 31 || r.BonusChance != 500 {
		t.Errorf("got %+v", r)
	}
}
