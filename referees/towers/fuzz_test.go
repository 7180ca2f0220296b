package towers

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"testing"
)

// FuzzReplay feeds arbitrary lines to the replay: errors and bad-layout or
// illegal-move results are fine, panics are not; a line that replays
// prints a layout that parses again.
func FuzzReplay(f *testing.F) {
	f.Add([]byte(`{"columns": ["a1 b0 a0", "b6 b5 b4 b3 b2 b1", "a6 a5 a4 a3 a2", ""], "moves": [[0,3],[0,1],[0,2],[3,2]]}`))
	f.Add([]byte(`{"columns": ["b4 d5 a2 a5 b0 c3 d3", "b3 c1 c2 b6 c0 d1 a3", "d6 a6 a1 d4 a4 b5 b2", "c4 b1 c5 c6 d2 a0 d0", "", ""], "moves": [[2,4],[2,5],[1,2]]}`))
	f.Add([]byte(`{"columns": ["a1 b0 a0 a0", "", "", ""], "moves": [[-1, 2], [1]]}`))
	f.Add([]byte(`{"columns": null, "moves": [[0,1e30]]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = Replay(context.Background(), bytes.NewReader(data), io.Discard) // an error is an answer; a panic is the failure
		var in ReplayInput
		if json.Unmarshal(data, &in) != nil {
			return
		}
		r := replayOne(in.Columns, in.Moves)
		if r.Error == ErrBadLayout {
			return
		}
		st, err := Parse(r.Columns)
		if err != nil {
			t.Fatalf("final layout %q does not parse: %v", r.Columns, err)
		}
		if st.Solved() != r.Solved {
			t.Fatalf("solved %v, the final layout says %v", r.Solved, st.Solved())
		}
	})
}

// FuzzParse parses arbitrary columns: an error or a state whose printed
// layout parses to the same key.
func FuzzParse(f *testing.F) {
	f.Add("a1 b0 a0", "b6 b5 b4 b3 b2 b1", "a6 a5 a4 a3 a2", "")
	f.Add("a1 b0 a0 a9", "b6 b5 b4 b3 b2 b1", "a6  a5 a4 a3 a2", "c0")
	f.Fuzz(func(t *testing.T, c0, c1, c2, c3 string) {
		st, err := Parse(Layout{c0, c1, c2, c3})
		if err != nil {
			return
		}
		again, err := Parse(st.Layout())
		if err != nil || again.Key() != st.Key() {
			t.Fatalf("%q printed as %q: %v", []string{c0, c1, c2, c3}, st.Layout(), err)
		}
	})
}
