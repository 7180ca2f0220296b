package store

import (
	"encoding/json"
	"strconv"
)

// parseDetail decodes a stored game's detail as json.Unmarshal into a
// map[string]any does: numbers become float64, lists []any. The form
// appendDetail writes (an object of plain keys holding numbers, bools,
// plain strings and flat lists of them) is read here without the
// decoder's reflection; anything else goes to json.Unmarshal. A worker
// reads back every game that others played, and json.Unmarshal was a
// third of that (BenchmarkGames).
func parseDetail(b []byte) (map[string]any, error) {
	if d, ok := scanDetail(b); ok {
		return d, nil
	}
	var d map[string]any
	err := json.Unmarshal(b, &d)
	return d, err
}

// scanDetail reads the form appendDetail writes; ok is false for any
// other text (escapes, nesting, white space, malformed input).
func scanDetail(b []byte) (d map[string]any, ok bool) {
	if len(b) < 2 || b[0] != '{' {
		return nil, false
	}
	d = make(map[string]any)
	i := 1
	if b[i] == '}' {
		return d, i+1 == len(b)
	}
	for {
		key, next, ok := scanString(b, i)
		if !ok || next >= len(b) || b[next] != ':' {
			return nil, false
		}
		var v any
		if v, i, ok = scanValue(b, next+1, true); !ok {
			return nil, false
		}
		if _, dup := d[key]; dup {
			return nil, false // the decoder's rule for duplicates is its own
		}
		d[key] = v
		if i >= len(b) {
			return nil, false
		}
		switch b[i] {
		case ',':
			i++
		case '}':
			return d, i+1 == len(b)
		default:
			return nil, false
		}
	}
}

// scanValue reads the value at b[i:], a list only where list is true (one
// level of nesting), and returns it with the index after it.
func scanValue(b []byte, i int, list bool) (any, int, bool) {
	if i >= len(b) {
		return nil, i, false
	}
	switch c := b[i]; {
	case c == '"':
		s, next, ok := scanString(b, i)
		return s, next, ok
	case c == 't' && hasWord(b, i, "true"):
		return true, i + 4, true
	case c == 'f' && hasWord(b, i, "false"):
		return false, i + 5, true
	case c == '[' && list:
		xs := []any{}
		i++
		if i < len(b) && b[i] == ']' {
			return xs, i + 1, true
		}
		for {
			var x any
			var ok bool
			if x, i, ok = scanValue(b, i, false); !ok || i >= len(b) {
				return nil, i, false
			}
			xs = append(xs, x)
			switch b[i] {
			case ',':
				i++
			case ']':
				return xs, i + 1, true
			default:
				return nil, i, false
			}
		}
	case c == '-' || '0' <= c && c <= '9':
		return scanInt(b, i)
	}
	return nil, i, false
}

// scanInt reads an integer as appendDetail writes it (no leading zeros,
// no fraction or exponent) and gives it as the float64 that
// json.Unmarshal makes of it; anything longer than 15 digits is left to
// the decoder.
func scanInt(b []byte, i int) (any, int, bool) {
	start, neg := i, b[i] == '-'
	if neg {
		i++
	}
	digits := i
	var n int64
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		n = n*10 + int64(b[i]-'0')
		i++
	}
	switch {
	case i == digits, i-digits > 15, b[digits] == '0' && i-digits > 1, neg && n == 0:
		return nil, i, false // not JSON, too long to be exact, or -0
	case i < len(b) && (b[i] == '.' || b[i] == 'e' || b[i] == 'E'):
		// A fraction or exponent: ParseFloat rounds it as the decoder does.
		x, next, ok := scanFloat(b, start)
		return x, next, ok
	}
	if neg {
		n = -n
	}
	return float64(n), i, true
}

// scanFloat reads a JSON number with a fraction or exponent at b[i:].
func scanFloat(b []byte, i int) (any, int, bool) {
	end := i
	for end < len(b) {
		c := b[end]
		if c != '-' && c != '+' && c != '.' && c != 'e' && c != 'E' && (c < '0' || c > '9') {
			break
		}
		end++
	}
	lit := b[i:end]
	if !json.Valid(lit) {
		return nil, i, false
	}
	x, err := strconv.ParseFloat(string(lit), 64)
	return x, end, err == nil
}

// scanString reads a string without escapes or control characters at
// b[i:] (the quotes included) and returns it with the index after it.
func scanString(b []byte, i int) (string, int, bool) {
	if i >= len(b) || b[i] != '"' {
		return "", i, false
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return string(b[i+1 : j]), j + 1, true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return "", j, false // escapes and UTF-8 (checked and replaced by the decoder)
		}
	}
	return "", len(b), false
}

// hasWord reports whether b[i:] starts with w.
func hasWord(b []byte, i int, w string) bool {
	return len(b)-i >= len(w) && string(b[i:i+len(w)]) == w
}
