package main

import (
	"slices"
	"strings"
	"testing"

	"gauntlet/strategies/param"
)

// TestParamAssignmentsWholeNumbers: a whole number of a params file is
// passed on in digits, so that a fixed placeholder gives the bot 1000000
// and not 1e+06; other values keep their text.
func TestParamAssignmentsWholeNumbers(t *testing.T) {
	got := paramAssignments(map[string]any{"n": 1e6, "w": 1.5e6, "x": 0.25, "mode": "fast", "on": true})
	slices.Sort(got)
	want := []string{"mode=fast", "n=1000000", "on=true", "w=1500000", "x=0.25"}
	if !slices.Equal(got, want) {
		t.Fatalf("paramAssignments = %q, want %q", got, want)
	}
}

// TestWriteParamsIntsInDigits: list and params show an int parameter's
// range and default in digits.
func TestWriteParamsIntsInDigits(t *testing.T) {
	var b strings.Builder
	writeParams(&b, "", describeParams(param.Specs{{Name: "nodes", Kind: param.Int, Min: 100, Max: 1e7, Default: 1e6}}))
	if got := b.String(); !strings.Contains(got, "[100, 10000000]") || !strings.Contains(got, "default 1000000 ") {
		t.Fatalf("writeParams: %q", got)
	}
}
