package paperpaths

import (
	"testing"

	"gauntlet/referees/paperio"
	"gauntlet/strategies/param"
)

// TestLifetimeDiscountsCellsOpponentsReachSoon: with a lifetime horizon,
// a captured cell an opponent reaches right after the capture keeps
// life_floor of its value, one reached halfway through the horizon the
// middle of floor and 1, one out of reach its full value; enemy cells
// weigh w_enemy.
func TestLifetimeDiscountsCellsOpponentsReachSoon(t *testing.T) {
	v, err := Params.Parse("life=100", "life_floor=0.4", "w_neutral=1", "w_enemy=5")
	if err != nil {
		t.Fatal(err)
	}
	b := mustBot(t, New, v, 1)
	for i := range b.arrive {
		b.arrive[i] = unreached
	}
	soon, half, far, enemy := paperio.CellAt(3, 4), paperio.CellAt(10, 4), paperio.CellAt(20, 7), paperio.CellAt(5, 5)
	const t0 = 30
	b.arrive[soon] = t0 - 10 // already reachable before the loop closes
	b.arrive[half] = t0 + 50
	b.arrive[enemy] = t0 + 50
	var got, enemyGot paperio.Bits
	for _, c := range []paperio.Cell{soon, half, far, enemy} {
		got.Set(c)
	}
	enemyGot.Set(enemy)
	want := 0.4 + 0.7 + 1 + 5*0.7
	if v := b.lifeValue(&got, &enemyGot, t0); !near(v, want) {
		t.Fatalf("lifetime value %v, want %v", v, want)
	}
	off := mustBot(t, New, param.Values{"life": 0}, 1)
	if off.life != 0 {
		t.Fatal("life=0 should turn the estimate off")
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
