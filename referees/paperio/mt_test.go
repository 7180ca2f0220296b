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
			// decode reads the call's fields into vs, in order.
			decode := func(vs ...any) {
				if len(call) < len(vs) {
					t.Fatalf("seed %d call %d: %d fields, want %d: %s", v.Seed, i, len(call), len(vs), raw)
				}
				for k, dst := range vs {
					if err := json.Unmarshal(call[k], dst); err != nil {
						t.Fatalf("seed %d call %d field %d: %v", v.Seed, i, k, err)
					}
				}
			}
			var op string
			decode(&op)
			var got, want string
			switch op {
			case "randint":
				var a, b, r int
				decode(&op, &a, &b, &r)
				got, want = fmt.Sprint(m.Randint(a, b)), fmt.Sprint(r)
			case "choice":
				var list []json.RawMessage
				decode(&op, &list)
				got, want = string(list[m.Choice(len(list))]), string(call[2])
			case "shuffle":
				var n int
				var perm []int
				decode(&op, &n, &perm)
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
