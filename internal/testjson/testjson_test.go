package testjson

import (
	"math"
	"testing"
)

func TestMarshal(t *testing.T) {
	if got := string(Marshal(t, map[string]int{"b": 2, "a": 1})); got != `{"a":1,"b":2}` {
		t.Errorf("Marshal = %s", got)
	}
	var rec recorder
	Marshal(&rec, math.NaN())
	if !rec.failed {
		t.Error("a NaN encoded without failing the test")
	}
}

// recorder is a testing.TB whose Fatalf records the failure and returns.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Fatalf(string, ...any) { r.failed = true }
