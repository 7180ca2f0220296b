package brew

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Values printed by OpenJDK 17's java.util.Random and Collections.shuffle
// for these seeds: nextInt(), nextInt(10), nextInt(16), nextInt(1000000007),
// nextInt(1073741825), then shuffling the list 0..9, in that order on one
// generator.
var javaVectors = []struct {
	seed    int64
	next32  int32
	ints    [4]int32
	shuffle [10]uint8
}{
	{0, -1155484576, [4]int32{8, 3, 302116440, 663681053}, [10]uint8{0, 7, 8, 9, 6, 5, 2, 4, 3, 1}},
	{42, -1170105035, [4]int32{3, 10, 102948884, 662969970}, [10]uint8{3, 4, 0, 1, 2, 7, 6, 8, 9, 5}},
	{-1, 1155099827, [4]int32{5, 0, 176895432, 894294477}, [10]uint8{3, 4, 1, 9, 6, 2, 5, 0, 7, 8}},
	{9223372036854775807, 1155099827, [4]int32{5, 0, 176895432, 894294477}, [10]uint8{3, 4, 1, 9, 6, 2, 5, 0, 7, 8}},
	{-9223372036854775808, -1155484576, [4]int32{8, 3, 302116440, 663681053}, [10]uint8{0, 7, 8, 9, 6, 5, 2, 4, 3, 1}},
	{123456789012345, -1421006947, [4]int32{4, 13, 308132645, 185864260}, [10]uint8{7, 2, 8, 0, 6, 1, 5, 3, 4, 9}},
}

func TestJavaRandomVectors(t *testing.T) {
	for _, v := range javaVectors {
		r := NewJavaRandom(v.seed)
		if got := r.Next(32); got != v.next32 {
			t.Errorf("seed %d: nextInt() = %d, want %d", v.seed, got, v.next32)
		}
		for i, n := range [4]int32{10, 16, 1000000007, 1073741825} {
			if got := r.NextInt(n); got != v.ints[i] {
				t.Errorf("seed %d: nextInt(%d) = %d, want %d", v.seed, n, got, v.ints[i])
			}
		}
		list := []uint8{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
		r.ShuffleBytes(list)
		if !slices.Equal(list, v.shuffle[:]) {
			t.Errorf("seed %d: shuffle = %v, want %v", v.seed, list, v.shuffle)
		}
	}
}

// TestJavaRandomRejection covers nextInt's rejection loop: with n just above
// 2^30 about half the draws are rejected (OpenJDK 17, seed 7).
func TestJavaRandomRejection(t *testing.T) {
	r := NewJavaRandom(7)
	want := []int32{20678044, 747989380, 1053566254, 755731200}
	for i, w := range want {
		if got := r.NextInt(0x40000001); got != w {
			t.Fatalf("draw %d: %d, want %d", i, got, w)
		}
	}
	r = NewJavaRandom(7)
	for i, w := range []int32{4, 2, 3, 4, 4, 4, 4, 5} {
		if got := r.NextInt(6); got != w {
			t.Fatalf("nextInt(6) draw %d: %d, want %d", i, got, w)
		}
	}
}

// decksDoc is decks.md split into its tables and check lines.
type decksDoc struct {
	tome      map[int][5]int // id -> delta, repeatable (0/1)
	orders    map[int][5]int // id -> cost, price
	ordersL1  map[int][5]int // id -> printed delta, price
	checkTome map[int64][]uint8
	checkOrd  map[int64][]uint8
}

func readDecksDoc(t *testing.T) decksDoc {
	path := filepath.Join(conformanceDir, "decks.md")
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("brew deck data missing: %v", err)
	}
	defer f.Close()
	d := decksDoc{tome: map[int][5]int{}, orders: map[int][5]int{}, ordersL1: map[int][5]int{},
		checkTome: map[int64][]uint8{}, checkOrd: map[int64][]uint8{}}
	section := ""
	var seed int64
	sc := bufio.NewScanner(f)
	ints := func(s string) []int {
		var out []int
		for _, w := range strings.Fields(s) {
			n, err := strconv.Atoi(w)
			if err != nil {
				t.Fatalf("decks.md: %q in %q is not a number", w, s)
			}
			out = append(out, n)
		}
		return out
	}
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## Tome spells"):
			section = "tome"
		case strings.HasPrefix(line, "## Orders"):
			section = "orders"
		case strings.HasPrefix(line, "### League 1 order deck"):
			section = "l1"
		case strings.HasPrefix(line, "##"):
			section = ""
		case strings.HasPrefix(line, "seed="):
			seed, err = strconv.ParseInt(strings.TrimPrefix(line, "seed="), 10, 64)
			if err != nil {
				t.Fatalf("decks.md: %q: %v", line, err)
			}
		case strings.HasPrefix(line, " tome:"), strings.HasPrefix(line, " orders:"):
			var ids []uint8
			_, rest, _ := strings.Cut(line, ":")
			for _, n := range ints(rest) {
				ids = append(ids, uint8(n))
			}
			if strings.HasPrefix(line, " tome:") {
				d.checkTome[seed] = ids
			} else {
				d.checkOrd[seed] = ids
			}
		case strings.HasPrefix(line, "| ") && section != "":
			cells := strings.Split(strings.Trim(line, "| "), "|")
			id, err := strconv.Atoi(strings.TrimSpace(cells[0]))
			if err != nil {
				continue // header row
			}
			var row [5]int
			switch section {
			case "tome":
				copy(row[:], ints(cells[1]))
				if strings.TrimSpace(cells[2]) == "yes" {
					row[4] = 1
				}
				d.tome[id] = row
			case "orders":
				copy(row[:], ints(cells[1]))
				row[4] = ints(cells[3])[0]
				d.orders[id] = row
			case "l1":
				copy(row[:], ints(cells[1]))
				row[4] = ints(cells[2])[0]
				d.ordersL1[id] = row
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(d.tome) != TomeDeckSize || len(d.orders) != OrderCount || len(d.ordersL1) != orderCountL1 || len(d.checkTome) != 3 {
		t.Fatalf("decks.md: read %d tome spells, %d orders, %d league-1 orders, %d check seeds",
			len(d.tome), len(d.orders), len(d.ordersL1), len(d.checkTome))
	}
	return d
}

// TestDecksTables compares the card tables with decks.md.
func TestDecksTables(t *testing.T) {
	d := readDecksDoc(t)
	for id, row := range d.tome {
		rc := Recipes[id]
		for k := 0; k < Tiers; k++ {
			if int(rc.Delta[k]) != row[k] {
				t.Errorf("tome spell %d: delta %v, want %v", id, rc.Delta, row[:4])
				break
			}
		}
		if rc.Repeatable != (row[4] == 1) {
			t.Errorf("tome spell %d: repeatable %v", id, rc.Repeatable)
		}
	}
	for id, row := range d.orders {
		o := Orders[id-FirstOrderID]
		if [5]int{int(o.Cost[0]), int(o.Cost[1]), int(o.Cost[2]), int(o.Cost[3]), int(o.Price)} != row {
			t.Errorf("order %d: %v, want %v", id, o, row)
		}
	}
	var l1 []uint8
	for _, idx := range leagueOneOrders {
		l1 = append(l1, FirstOrderID+idx)
	}
	for _, id := range l1 {
		row, ok := d.ordersL1[int(id)]
		if !ok {
			t.Errorf("league 1 keeps order %d, which decks.md drops", id)
			continue
		}
		o := OrdersL1[id-FirstOrderID]
		if [5]int{-int(o.Cost[0]), -int(o.Cost[1]), -int(o.Cost[2]), -int(o.Cost[3]), int(o.Price)} != row {
			t.Errorf("league-1 order %d: %v, want printed %v", id, o, row)
		}
	}
}

// TestDealCheckOrders compares Deal with the full deck orders that decks.md
// lists for three seeds.
func TestDealCheckOrders(t *testing.T) {
	d := readDecksDoc(t)
	for seed, tome := range d.checkTome {
		got := Deal(seed, 3)
		if !slices.Equal(got.Tome[:], tome) {
			t.Errorf("seed %d: tome %v, want %v", seed, got.Tome, tome)
		}
		if !slices.Equal(got.Orders[:got.NOrders], d.checkOrd[seed]) {
			t.Errorf("seed %d: orders %v, want %v", seed, got.Orders[:got.NOrders], d.checkOrd[seed])
		}
	}
	// Only the low 48 bits of the seed matter.
	if Deal(0, 3) != Deal(-1<<63, 3) {
		t.Error("seeds 0 and -2^63 deal differently")
	}
	l1 := Deal(0, 1)
	if l1.NOrders != orderCountL1 {
		t.Errorf("league 1 deals %d orders, want %d", l1.NOrders, orderCountL1)
	}
}
