package reports

import (
	"strings"
	"testing"

	"gauntlet/strategies/param"
)

// TestWriteParamsIntsInDigits: list and params show an int parameter's
// range and default in digits.
func TestWriteParamsIntsInDigits(t *testing.T) {
	var b strings.Builder
	WriteParams(&b, "", DescribeParams(param.Specs{{Name: "nodes", Kind: param.Int, Min: 100, Max: 1e7, Default: 1e6}}))
	if got := b.String(); !strings.Contains(got, "[100, 10000000]") || !strings.Contains(got, "default 1000000 ") {
		t.Fatalf("writeParams: %q", got)
	}
}
