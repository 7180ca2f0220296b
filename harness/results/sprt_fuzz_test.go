package results

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// FuzzParseSPRT feeds ParseSPRT --sprt text: it never panics; what it
// accepts is a test the statistics can run, written back it reads the
// same, and each number is exactly one of the input's fields; what it
// refuses is an error that quotes the input.
func FuzzParseSPRT(f *testing.F) {
	for _, s := range []string{"0,10", "-5,5", "0,10,0.05,0.05", "logistic:0,5", "nelo:0,10,0.1,0.1", "normalized:-3,3",
		"10,0", "0,10,0.5,0.05", "bogus:0,10", "0,nan", "0,1e400", "0,5x", " 0 , 5 ", "0,10,0.05", "0:1,2", "0,0x1p3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		sp, err := ParseSPRT(text)
		if err != nil {
			if !strings.Contains(err.Error(), "--sprt "+strconv.Quote(text)) {
				t.Fatalf("ParseSPRT(%q): error %q does not quote the input", text, err)
			}
			return
		}
		if !(sp.Elo1 > sp.Elo0) || !(sp.Alpha > 0 && sp.Alpha < 0.5) || !(sp.Beta > 0 && sp.Beta < 0.5) || !sp.Early {
			t.Fatalf("ParseSPRT(%q) accepted %+v", text, sp)
		}
		if sp.Model != "normalized" && sp.Model != "logistic" {
			t.Fatalf("ParseSPRT(%q): model %q", text, sp.Model)
		}
		// Every field of the input is one number of the test, in order.
		body := text
		if _, rest, ok := strings.Cut(text, ":"); ok {
			body = rest
		}
		want := []float64{sp.Elo0, sp.Elo1, sp.Alpha, sp.Beta}
		for i, field := range strings.Split(body, ",") {
			x, err := strconv.ParseFloat(strings.TrimSpace(field), 64)
			if err != nil || x != want[i] {
				t.Fatalf("ParseSPRT(%q) = %+v: field %d %q is not %v", text, sp, i+1, field, want[i])
			}
		}
		again := fmt.Sprintf("%s:%s,%s,%s,%s", sp.Model, sprtNum(sp.Elo0), sprtNum(sp.Elo1), sprtNum(sp.Alpha), sprtNum(sp.Beta))
		back, err := ParseSPRT(again)
		if err != nil || back != sp {
			t.Fatalf("ParseSPRT(%q) = %+v; written back as %q it reads %+v, %v", text, sp, again, back, err)
		}
	})
}

func sprtNum(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
