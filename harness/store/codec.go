package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"gauntlet/harness/contract"
)

// gameText is the text columns of a game's row: seats, seat results and
// detail (JSON).
func gameText(g *GameRecord, buf []byte) (seats, results, detail string, _ []byte, err error) {
	buf = appendSeats(buf[:0], g.Seats)
	seats = string(buf)
	if buf, err = appendSeatResults(buf[:0], g.Outcome.Seats); err != nil {
		return "", "", "", buf, fmt.Errorf("game %s: %w", g.Key, err)
	}
	results = string(buf)
	if buf, err = appendDetail(buf[:0], g.Outcome.Detail); err != nil {
		return "", "", "", buf, fmt.Errorf("game %s: detail: %w", g.Key, err)
	}
	return seats, results, string(buf), buf, nil
}

// appendGameRow appends a game's row for insertGamesJSON: a JSON array of
// the games columns after run_id, in their order; seats, detail and seat
// results are JSON values inside it.
func appendGameRow(buf []byte, g *GameRecord) ([]byte, error) {
	buf = append(buf, '[')
	buf = appendJSONString(buf, g.Key)
	buf = append(buf, ',')
	buf = strconv.AppendInt(buf, int64(g.Index), 10)
	buf = append(buf, ',')
	buf = appendJSONString(buf, g.CaseID)
	buf = append(buf, ',')
	buf = appendJSONString(buf, g.Group)
	buf = append(buf, `,"`...)
	buf = strconv.AppendUint(buf, g.Seed, 10)
	buf = append(buf, `",`...)
	buf = appendSeats(buf, g.Seats)
	buf = append(buf, ',')
	buf = strconv.AppendInt(buf, int64(g.Outcome.Turns), 10)
	buf = append(buf, ',')
	buf, err := appendDetail(buf, g.Outcome.Detail)
	if err != nil {
		return buf, fmt.Errorf("game %s: detail: %w", g.Key, err)
	}
	buf = append(buf, ',')
	buf = strconv.AppendFloat(buf, float64(g.Wall)/1e6, 'g', -1, 64)
	buf = append(buf, ',')
	buf = appendJSONString(buf, g.Worker)
	buf = append(buf, `,"`...)
	buf = g.Finished.UTC().AppendFormat(buf, time.RFC3339Nano)
	buf = append(buf, `",`...)
	if buf, err = appendSeatResults(buf, g.Outcome.Seats); err != nil {
		return buf, fmt.Errorf("game %s: %w", g.Key, err)
	}
	return append(buf, ']'), nil
}

// appendDetail appends a game's detail as encoding/json writes it. The
// games' own details (a few ints, strings, bools and slices of them) are
// written with appends: json.Marshal's reflection and sorting were a
// third of building a brew game's row and most of its garbage
// (BenchmarkSaveBatch); any other value goes through json.Marshal.
func appendDetail(buf []byte, d map[string]any) ([]byte, error) {
	if d == nil {
		return append(buf, "{}"...), nil
	}
	var keys [8]string
	if len(d) > len(keys) {
		return appendMarshal(buf, d)
	}
	n := 0
	for k, v := range d {
		if !plainDetail(v) || !plainString(k) {
			return appendMarshal(buf, d)
		}
		keys[n] = k
		n++
	}
	slices.Sort(keys[:n])
	buf = append(buf, '{')
	for i, k := range keys[:n] {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, '"')
		buf = append(buf, k...)
		buf = append(buf, `":`...)
		switch v := d[k].(type) {
		case int:
			buf = strconv.AppendInt(buf, int64(v), 10)
		case bool:
			buf = strconv.AppendBool(buf, v)
		case string:
			buf = appendJSONString(buf, v)
		case []int:
			buf = appendList(buf, v, appendInt)
		case []bool:
			buf = appendList(buf, v, strconv.AppendBool)
		case []string:
			buf = appendList(buf, v, appendJSONString)
		}
	}
	return append(buf, '}'), nil
}

// appendList appends xs as a JSON array, each element by appendElem.
func appendList[T any](buf []byte, xs []T, appendElem func([]byte, T) []byte) []byte {
	buf = append(buf, '[')
	for i, x := range xs {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendElem(buf, x)
	}
	return append(buf, ']')
}

func appendInt(buf []byte, x int) []byte { return strconv.AppendInt(buf, int64(x), 10) }

// plainDetail reports whether appendDetail writes v itself.
func plainDetail(v any) bool {
	switch v := v.(type) {
	case int, bool, string:
		return true
	case []int: // json.Marshal writes a nil slice as null
		return v != nil
	case []bool:
		return v != nil
	case []string:
		return v != nil
	}
	return false
}

// appendMarshal appends v as json.Marshal writes it.
func appendMarshal(buf []byte, v any) ([]byte, error) {
	js, err := json.Marshal(v)
	return append(buf, js...), err
}

// appendJSONString appends s as a JSON string, as encoding/json writes
// it: keys, case IDs and worker names need no escaping and are copied.
func appendJSONString(buf []byte, s string) []byte {
	if !plainString(s) {
		// Marshal of a string fails on nothing (invalid UTF-8 becomes
		// U+FFFD).
		js, _ := json.Marshal(s)
		return append(buf, js...)
	}
	buf = append(buf, '"')
	buf = append(buf, s...)
	return append(buf, '"')
}

// plainString reports whether s is written in JSON as it is, between
// quotes: printable ASCII without the characters encoding/json escapes.
func plainString(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20, c >= 0x80, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}

// appendSeatResults appends the seats' results as a JSON array of
// [score, rank, forfeit] arrays.
func appendSeatResults(buf []byte, seats []contract.SeatResult) ([]byte, error) {
	buf = append(buf, '[')
	for i, o := range seats {
		if math.IsNaN(o.Score) || math.IsInf(o.Score, 0) {
			return buf, fmt.Errorf("seat %d: score %v is not a finite number", i, o.Score)
		}
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, '[')
		buf = strconv.AppendFloat(buf, o.Score, 'g', -1, 64)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(o.Rank), 10)
		buf = append(buf, ',')
		buf = appendJSONString(buf, o.Forfeit)
		buf = append(buf, ']')
	}
	return append(buf, ']'), nil
}

// parseSeatResults reads what appendSeatResults wrote into seats.
func parseSeatResults(s string, seats []contract.SeatResult) error {
	if scanSeatResults(s, seats) {
		return nil
	}
	var raw [][3]json.RawMessage
	if err := json.Unmarshal([]byte(s), &raw); err != nil {
		return err
	}
	for i := range min(len(raw), len(seats)) {
		o := &seats[i]
		if err := errors.Join(json.Unmarshal(raw[i][0], &o.Score), json.Unmarshal(raw[i][1], &o.Rank), json.Unmarshal(raw[i][2], &o.Forfeit)); err != nil {
			return fmt.Errorf("seat %d: %w", i, err)
		}
	}
	return nil
}

// scanSeatResults reads the form appendSeatResults writes without a JSON
// decoder (a resumed run reads every stored game); it reports false for
// anything else, which parseSeatResults then decodes as JSON.
func scanSeatResults(s string, seats []contract.SeatResult) bool {
	rest, ok := strings.CutPrefix(s, "[")
	if !ok {
		return false
	}
	for i := 0; ; i++ {
		if rest == "]" {
			return true
		}
		if i > 0 {
			if rest, ok = strings.CutPrefix(rest, ","); !ok {
				return false
			}
		}
		if rest, ok = strings.CutPrefix(rest, "["); !ok {
			return false
		}
		score, after, ok := strings.Cut(rest, ",")
		if !ok {
			return false
		}
		rank, after, ok := strings.Cut(after, ",")
		if !ok || !strings.HasPrefix(after, `"`) {
			return false
		}
		end := strings.IndexByte(after[1:], '"')
		if end < 0 || strings.IndexByte(after[1:1+end], '\\') >= 0 {
			return false // escapes: JSON's decoder reads them
		}
		x, err1 := strconv.ParseFloat(score, 64)
		r, err2 := strconv.Atoi(rank)
		if err1 != nil || err2 != nil {
			return false
		}
		if i < len(seats) {
			seats[i] = contract.SeatResult{Score: x, Rank: r, Forfeit: after[1 : 1+end]}
		}
		if rest, ok = strings.CutPrefix(after[2+end:], "]"); !ok {
			return false
		}
	}
}

// appendSeats appends the JSON array of seats ("[0,1]") to buf.
func appendSeats(buf []byte, seats []int) []byte { return appendList(buf, seats, appendInt) }
