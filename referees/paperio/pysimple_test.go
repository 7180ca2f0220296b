package paperio

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"
)

// pySimple mirrors the runner's own simple_bot (clients.SimplePythonClient),
// which draws randint(1, 4) from the game's global generator. It lets the
// test check the traces that use it against the MT19937 stream too. It
// gets the tick message as Python objects (no JSON), so its "next point
// not in lines" test works; its border test is lopsided (x > 945).
type pySimple struct {
	rng        *MT
	cmd        Dir
	nextChange int
	nextDir    int
}

func (b *pySimple) change() {
	b.cmd = [4]Dir{Left, Down, Right, Up}[b.nextDir%4]
	b.nextDir++
}

func (b *pySimple) emptyNext(p *Player) bool {
	x, y := p.X, p.Y
	dx, dy := 0, 0
	switch b.cmd {
	case Up:
		dy = Width
	case Down:
		dy = -Width
	case Left:
		dx = -Width
	case Right:
		dx = Width
	}
	x, y = x+dx, y+dy
	if c, ok := CellOf(x, y); ok {
		for _, l := range p.Trail() {
			if l == c {
				return false
			}
		}
	}
	return !(x < Half || x > Cols*Width+Half || y < Half || y > Rows*Width+Half)
}

func (b *pySimple) command(p *Player) Dir {
	if b.nextChange == 0 || !b.emptyNext(p) {
		b.nextChange = b.rng.Randint(1, 4)
		b.change()
		for attempts := 0; !b.emptyNext(p) && attempts < 3; attempts++ {
			b.change()
		}
	}
	b.nextChange--
	return b.cmd
}

// TestSeededSimpleBot replays the traces that use the runner's simple_bot
// with the game's generator driving both the bots and the spawns (and the
// shuffle of the clients in server mode): every command, spawn and hash
// must agree.
func TestSeededSimpleBot(t *testing.T) {
	checked := 0
	for _, f := range traceFiles(t) {
		data := readGz(t, f)
		tr, err := NewTraceReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		simple := -1
		for i, b := range tr.Header.Bots {
			if b == "simple" {
				simple = i
			}
		}
		if simple < 0 || tr.Header.Spawns != "rng" {
			continue
		}
		checked++
		name := filepath.Base(f)
		g := newGame(t, tr.Rules, tr.N, tr.Header.Seed)
		order := make([]int, tr.N)
		for i := range order {
			order[i] = i
		}
		if tr.Header.Shuffled {
			order = g.RNG.ShuffleOrder(tr.N)
		}
		var bots [MaxPlayers]*pySimple
		for k, ai := range order {
			if tr.Header.Bots[ai] == "simple" {
				bots[k] = &pySimple{rng: &g.RNG}
			}
		}
		lines := bytes.Split(data, []byte("\n"))
		var row TraceRow
		var rec TickRecord
		var buf []byte
		ok := true
		for i := 1; ok && !g.Over(); i++ {
			if err := tr.Next(&row); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			tick := g.State.Tick
			for k := 0; k < tr.N; k++ {
				p := &g.Players[k]
				if bots[k] == nil || !p.Alive || !p.AtCentre() {
					continue
				}
				if d := bots[k].command(p); d != row.Cmds[k] {
					t.Errorf("%s tick %d: simple_bot (player %d) says %v, trace %v", name, tick, k+1, d, row.Cmds[k])
					ok = false
				}
			}
			b, spawned := g.PlayTick(&row.Cmds)
			if spawned != (row.Spawn != nil) || (spawned && (row.Spawn.Kind != b.Kind || row.Spawn.X != b.Cell.X() ||
				row.Spawn.Y != b.Cell.Y() || row.Spawn.Active != int(b.Active))) {
				t.Errorf("%s tick %d: spawn %v %+v, trace %+v", name, tick, spawned, b, row.Spawn)
				ok = false
			}
			buf = g.Record(tick, &rec, buf)
			var want TickRecord
			if err := json.Unmarshal(lines[i], &want); err != nil {
				t.Fatal(err)
			}
			if want.Hash != rec.Hash {
				t.Errorf("%s tick %d: hash %s, trace %s", name, tick, rec.Hash, want.Hash)
				ok = false
			}
		}
	}
	if checked == 0 {
		t.Fatal("no trace with simple_bot")
	}
	t.Logf("%d traces with simple_bot checked", checked)
}
