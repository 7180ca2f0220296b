package towers

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"gauntlet/internal/bounded"
)

// Replay errors, as the replay contract names them.
const (
	ErrIllegalMove = "illegal-move"
	ErrBadLayout   = "bad-layout"
)

// ReplayInput is one line of `gauntlet replay towers`: a layout and moves
// [from, to].
type ReplayInput struct {
	Columns Layout    `json:"columns"`
	Moves   [][]int64 `json:"moves"`
	ID      *string   `json:"id,omitempty"`
}

// ReplayResult is one output line: the moves played, whether the layout is
// solved after them, the first error ("" | "illegal-move" | "bad-layout")
// with the index of the bad move (-1 if none) and a message, and the final
// layout (the input's, for a bad layout).
type ReplayResult struct {
	ID      *string `json:"id,omitempty"`
	Moves   int     `json:"moves"`
	Solved  bool    `json:"solved"`
	Error   string  `json:"error"`
	At      int     `json:"at"`
	Message string  `json:"message,omitempty"`
	Columns Layout  `json:"columns"`
}

// ReplayMoves plays moves on a layout and stops at the first illegal one.
func ReplayMoves(l Layout, moves []Move) ReplayResult {
	raw := make([][]int64, len(moves))
	for i, m := range moves {
		raw[i] = []int64{int64(m.From), int64(m.To)}
	}
	return replayOne(l, raw)
}

func replayOne(l Layout, moves [][]int64) ReplayResult {
	if l == nil {
		l = Layout{}
	}
	st, err := Parse(l)
	if err != nil {
		return ReplayResult{Error: ErrBadLayout, At: -1, Message: err.Error(), Columns: l}
	}
	res := ReplayResult{At: -1}
	for i, raw := range moves {
		if len(raw) != 2 || raw[0] < 0 || raw[1] < 0 || raw[0] >= int64(st.ncols) || raw[1] >= int64(st.ncols) {
			res.Error, res.At = ErrIllegalMove, i
			res.Message = fmt.Sprintf("move %d: %v is not [from, to] with columns 0..%d", i, raw, st.ncols-1)
			break
		}
		m := Move{uint8(raw[0]), uint8(raw[1])}
		if err := st.Legal(m); err != nil {
			res.Error, res.At, res.Message = ErrIllegalMove, i, fmt.Sprintf("move %d: %v", i, err)
			break
		}
		st.Apply(m)
		res.Moves++
	}
	res.Solved = st.Solved()
	res.Columns = st.Layout()
	return res
}

// Replay is the `gauntlet replay towers` contract: JSON lines
// {"columns": [...], "moves": [[from, to], ...]} in, one ReplayResult line
// out for each, in order. A bad layout or an illegal move is a result, not
// an error; a line that is not such a JSON object stops the replay with an
// error naming the line, after the results of the lines before it, as
// does a line longer than bounded.LineSize. ctx ends the replay even while
// a read of in blocks.
func Replay(ctx context.Context, in io.Reader, out io.Writer) error {
	sc := bounded.NewLines(ctx, in, 0)
	w := bufio.NewWriter(out)
	for sc.Scan() {
		line := sc.Line()
		if err := ctx.Err(); err != nil {
			return err
		}
		text := sc.Bytes()
		if len(text) == 0 {
			continue
		}
		var in ReplayInput
		if err := json.Unmarshal(text, &in); err != nil {
			if ferr := w.Flush(); ferr != nil {
				return ferr
			}
			return fmt.Errorf("towers replay: line %d: %w", line, err)
		}
		r := replayOne(in.Columns, in.Moves)
		r.ID = in.ID
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		_, _ = w.Write(append(b, '\n')) // errors are kept by the bufio.Writer and returned by Flush
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("towers replay: %w", err)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("towers replay: %w", err)
	}
	return nil
}
