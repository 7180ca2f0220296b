package paperpaths

import (
	"testing"

	"gauntlet/referees/paperio"
	"gauntlet/strategies/param"
)

// terrLifeState is a two-player position: we (player 1) own rows 10..12 of
// columns 8..22 and stand outside at (5, 11) with a trail (5..7, 11) moving
// left; the opponent (player 2) owns rows 16..18 and is out with a trail
// down column 12 into our land, its head at (12, 11) moving down.
func terrLifeState(t *testing.T) *paperio.State {
	t.Helper()
	s := twoLands(t, box{8, 22, 10, 12}, box{8, 22, 16, 18})
	me, o := &s.Players[0], &s.Players[1]
	setTrail := func(p *paperio.Player, d paperio.Dir, cells ...paperio.Cell) {
		lay(p, cells...)
		h := cells[len(cells)-1]
		p.X, p.Y, p.Dir = h.X(), h.Y(), d
	}
	setTrail(me, paperio.Left, paperio.CellAt(7, 11), paperio.CellAt(6, 11), paperio.CellAt(5, 11))
	var line []paperio.Cell
	for j := 15; j >= 11; j-- {
		line = append(line, paperio.CellAt(12, j))
	}
	setTrail(o, paperio.Down, line...)
	return s
}

func terrLifeBot(t *testing.T, on int) *Bot {
	t.Helper()
	b := mustBot(t, New2, params2(param.Values{"terr_life": float64(on)}), 1)
	return b
}

// TestTerritoryLifeMarksCellsAnOpponentTakes: own cells on and beside the
// opponent's trail are lost at the earliest tick it can be home, own cells
// far from its loop are not, and ours() turns false from that tick.
func TestTerritoryLifeMarksCellsAnOpponentTakes(t *testing.T) {
	s := terrLifeState(t)
	b := terrLifeBot(t, 1)
	b.survey(s, 1)
	home := b.homeAt[1]
	if home <= 0 || home >= unreached {
		t.Fatalf("opponent home at %d", home)
	}
	onTrail, far := paperio.CellAt(12, 12), paperio.CellAt(21, 10)
	if got := b.terrEnd[onTrail]; got != home {
		t.Errorf("own cell on the opponent's trail lost at %d, want its way home %d", got, home)
	}
	if got := b.terrEnd[far]; got != unreached {
		t.Errorf("own cell far from the opponent's loop lost at %d", got)
	}
	lost := 0
	for c := range b.terrEnd {
		if b.terrEnd[c] < unreached {
			lost++
			if !s.Players[0].Terr.Has(paperio.Cell(c)) {
				t.Errorf("cell (%d,%d) is not ours but marked lost", paperio.Cell(c).I(), paperio.Cell(c).J())
			}
		}
	}
	t.Logf("%d own cells lost at tick %d", lost, home)
	p := &s.Players[0]
	if !b.ours(p, onTrail, home-1) || b.ours(p, onTrail, home) {
		t.Errorf("ours(on trail) before/at %d: %v %v", home, b.ours(p, onTrail, home-1), b.ours(p, onTrail, home))
	}
	off := terrLifeBot(t, 0)
	off.survey(s, 1)
	if !off.ours(p, onTrail, home+100) {
		t.Error("terr_life=0: an own cell stops being ours")
	}
}

// TestTerritoryLifeWayHomeAvoidsLostCells: a way home that reaches our
// land only after the cells there are lost is no way home with terr_life;
// a way home that ends before they are lost still is.
func TestTerritoryLifeWayHomeAvoidsLostCells(t *testing.T) {
	s := terrLifeState(t)
	p := &s.Players[0]
	on, off := terrLifeBot(t, 1), terrLifeBot(t, 0)
	on.survey(s, 1)
	off.survey(s, 1)
	// From (12, 13), just above our land, moving down: one cell to (12, 12).
	from := paperio.CellAt(12, 13)
	late := on.terrEnd[paperio.CellAt(12, 12)] // arriving then is too late
	if d := off.homeDist(p, from, paperio.Down, late, 5); d != 1 {
		t.Fatalf("terr_life=0: %d cells home, want 1", d)
	}
	d := on.homeDist(p, from, paperio.Down, late, 5)
	if d == 1 || on.terrEnd[on.goal] <= late+d*5 {
		t.Fatalf("terr_life=1 arriving late: %d cells to (%d,%d), lost at %d", d, on.goal.I(), on.goal.J(), on.terrEnd[on.goal])
	}
	if d := on.homeDist(p, from, paperio.Down, 0, 5); d != 1 {
		t.Fatalf("terr_life=1 arriving early: %d cells home, want 1", d)
	}
}

// BenchmarkDecisionNewParams is BenchmarkDecision2 with terr_life=1 and
// terr_detour=4 (up to 16 ways home and captures per opponent out, each
// decision), kill_first=1, keep_plan=1, hunt=2, time_pow=0.5, approach=1
// (a distance map to the enemy land each decision) and close_guard_out=5
// (two arrival maps per opponent).
func BenchmarkDecisionNewParams(b *testing.B) {
	bot := mustBot(b, New2, params2(param.Values{"terr_life": 1, "kill_first": 1, "keep_plan": 1, "hunt": 2, "time_pow": 0.5, "approach": 1, "close_guard_out": 5, "terr_detour": 4}), 1)
	benchDecision(b, bot)
}

// TestTerrDetour: the opponent (player 2, land columns 10..12, rows 10..12)
// is out with a trail right along row 11 from (13, 11) to (17, 11), then
// down to its head at (17, 9), moving down; we own columns 14..15 of rows
// 9..10, under its trail. Its shortest ways home are 6 cells (36 ticks),
// the one the search takes along row 10 to (12, 10): it takes our row 10.
// One cell longer, along row 9 to (11, 9) and up into its land at (11, 10),
// it takes our row 9 as well, at 42. With terr_detour 0 only the first
// counts; with terr_detour 2 both do, each at its own tick.
func TestTerrDetour(t *testing.T) {
	s := lands(t, box{14, 15, 9, 10}, box{10, 12, 10, 12}, box{25, 28, 25, 28})
	me, o := &s.Players[0], &s.Players[1]
	put(me, 14, 9, paperio.Up)
	var trail []paperio.Cell
	for i := 13; i <= 17; i++ {
		trail = append(trail, paperio.CellAt(i, 11))
	}
	trail = append(trail, paperio.CellAt(17, 10), paperio.CellAt(17, 9))
	lay(o, trail...)
	put(o, 17, 9, paperio.Down)

	// The longer way's capture, by the referee's own function.
	way := append([]paperio.Cell{}, trail...)
	for i := 16; i >= 11; i-- {
		way = append(way, paperio.CellAt(i, 9))
	}
	way = append(way, paperio.CellAt(11, 10))
	got := paperio.Capture(&o.Terr, way)
	row9, row10 := []paperio.Cell{paperio.CellAt(14, 9), paperio.CellAt(15, 9)}, []paperio.Cell{paperio.CellAt(14, 10), paperio.CellAt(15, 10)}
	for _, c := range append(row9, row10...) {
		if !got.Has(c) {
			t.Fatalf("the way along row 9 does not take our cell (%d, %d)", c.I(), c.J())
		}
	}

	for _, c := range []struct {
		detour          float64
		row9At, row10At int32
	}{{0, unreached, 36}, {2, 42, 36}} {
		b := mustBot(t, New2, params2(param.Values{"terr_life": 1, "terr_detour": c.detour}), 1)
		b.survey(s, me.ID)
		if b.homeAt[1] != 36 {
			t.Fatalf("terr_detour %v: the opponent can be home in %d ticks, want 36", c.detour, b.homeAt[1])
		}
		for _, x := range row9 {
			if b.terrEnd[x] != c.row9At {
				t.Errorf("terr_detour %v: our cell (%d, %d) lost at %d, want %d", c.detour, x.I(), x.J(), b.terrEnd[x], c.row9At)
			}
		}
		for _, x := range row10 {
			if b.terrEnd[x] != c.row10At {
				t.Errorf("terr_detour %v: our cell (%d, %d) lost at %d, want %d", c.detour, x.I(), x.J(), b.terrEnd[x], c.row10At)
			}
		}
	}
}
