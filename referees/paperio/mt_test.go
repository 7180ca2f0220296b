package paperio

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

type mtVector struct {
	Seed   int64             `json:"seed"`
	Uint32 []uint32          `json:"uint32"`
	Random []float64         `json:"random"`
	Calls  []json.RawMessage `json:"calls"`
}

func loadMTVectors(t *testing.T) []mtVector {
	b, err := os.ReadFile(filepath.Join(confDir(t), "mt_vectors.json"))
	if err != nil {
		t.Fatalf("mt_vectors.json: %v", err)
	}
	var f struct {
		Vectors []mtVector `json:"vectors"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("mt_vectors.json: %v", err)
	}
	if len(f.Vectors) == 0 {
		t.Fatal("mt_vectors.json: no vectors")
	}
	return f.Vectors
}

func TestMTVectors(t *testing.T) {
	for _, v := range loadMTVectors(t) {
		m := NewMT(v.Seed)
		for i, want := range v.Uint32 {
			if got := m.Uint32(); got != want {
				t.Fatalf("seed %d: uint32 #%d = %d, want %d", v.Seed, i, got, want)
			}
		}
		m.Seed(v.Seed)
		for i, want := range v.Random {
			if got := m.Random(); got != want {
				t.Fatalf("seed %d: random #%d = %v, want %v", v.Seed, i, got, want)
			}
		}
		m.Seed(v.Seed)
		for i, raw := range v.Calls {
			var call []json.RawMessage
			if err := json.Unmarshal(raw, &call); err != nil || len(call) < 3 {
				t.Fatalf("seed %d call %d: bad entry %s", v.Seed, i, raw)
			}
			var op string
			_ = json.Unmarshal(call[0], &op)
			var got, want string
			switch op {
			case "randint":
				var a, b, r int
				_ = json.Unmarshal(call[1], &a)
				_ = json.Unmarshal(call[2], &b)
				_ = json.Unmarshal(call[3], &r)
				got, want = fmt.Sprint(m.Randint(a, b)), fmt.Sprint(r)
			case "choice":
				var list []json.RawMessage
				_ = json.Unmarshal(call[1], &list)
				got, want = string(list[m.Choice(len(list))]), string(call[2])
			case "shuffle":
				var n int
				var perm []int
				_ = json.Unmarshal(call[1], &n)
				_ = json.Unmarshal(call[2], &perm)
				got, want = fmt.Sprint(m.ShuffleOrder(n)), fmt.Sprint(perm)
			default:
				t.Fatalf("seed %d call %d: unknown op %q", v.Seed, i, op)
			}
			if got != want {
				t.Fatalf("seed %d call %d (%s): got %s, want %s", v.Seed, i, raw, got, want)
			}
		}
	}
}
