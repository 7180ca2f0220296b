package param

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
)

// DecodeFile decodes the text of a params file: a JSON object of parameter
// values, either plain ({"w": 1.5}) or as 'gauntlet tune --best-json' and
// 'gauntlet spsa --best-json' write it ({"params": {...}}, or a tune
// summary's {"best_params": {...}}). Anything else (not JSON, null, not an
// object, a value that is not a number, string or boolean, a name that
// Assignments could not pass on as it is) is an error saying what is wrong,
// with the line and column of a syntax error; the caller names the file.
func DecodeFile(data []byte) (map[string]any, error) {
	doc, err := decodeJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%v; want a JSON object of parameter values", err)
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("holds %s; want a JSON object of parameter values, e.g. {\"name\": 1.5}", jsonKind(doc))
	}
	for _, key := range []string{"params", "best_params"} {
		if inner, found := obj[key]; found {
			m, ok := inner.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%q holds %s; want a JSON object of parameter values", key, jsonKind(inner))
			}
			obj = m
			break
		}
	}
	for k, v := range obj {
		// The values become name=value assignments, which commas separate
		// (empty items are skipped): a name with a comma or "=", or a value
		// with a comma followed by "=", would set other parameters than the
		// one the file names; a value with nothing after a comma would be
		// cut there; a name with spaces at an end would set the parameter
		// without them.
		if strings.ContainsAny(k, ",=") || k != strings.TrimSpace(k) {
			return nil, fmt.Errorf("%q is not a parameter name (it holds a comma or '=', or spaces at an end)", k)
		}
		switch x := v.(type) {
		case float64, bool:
		case string:
			if i := strings.Index(x, ","); i >= 0 && strings.Contains(x[i:], "=") {
				return nil, fmt.Errorf("parameter %q holds %q; a value with a comma has no '=' after it", k, x)
			}
			for _, rest := range strings.Split(x, ",")[1:] {
				if strings.TrimSpace(rest) == "" {
					return nil, fmt.Errorf("parameter %q holds %q; a value has something after each comma", k, x)
				}
			}
		default:
			return nil, fmt.Errorf("parameter %q holds %s; want a number, a string or a boolean", k, jsonKind(v))
		}
	}
	return obj, nil
}

// Assignments turns the values of a params file into k=v assignments for
// Specs.Parse. A whole number is written in digits (1000000, not 1e+06): a
// fixed placeholder of an external bot passes the text on as it is.
func Assignments(m map[string]any) []string {
	var out []string
	for k, v := range m {
		if x, ok := v.(float64); ok && x == math.Trunc(x) && math.Abs(x) <= MaxInt {
			v = int64(x)
		}
		out = append(out, fmt.Sprintf("%s=%v", k, v))
	}
	return out
}

// decodeJSON decodes one JSON value; a syntax error says "not JSON" with
// its line and column.
func decodeJSON(data []byte) (any, error) {
	var v any
	err := json.Unmarshal(data, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := lineCol(data, se.Offset)
		msg := se.Error()
		head, detail := msg, ""
		// "invalid character 'h' looking for beginning of value": the
		// character, then what the parser expected.
		if strings.HasPrefix(msg, "invalid character '") {
			if i := strings.Index(msg[len("invalid character '")+1:], "' "); i >= 0 {
				cut := len("invalid character '") + 1 + i + 1
				head, detail = msg[:cut], strings.TrimSpace(msg[cut:])
			}
		}
		if detail != "" {
			return nil, fmt.Errorf("not JSON: %s at line %d, column %d (%s)", head, line, col, detail)
		}
		return nil, fmt.Errorf("not JSON: %s at line %d, column %d", head, line, col)
	}
	return v, err
}

// lineCol turns the offset of a json.SyntaxError (bytes read when the
// error was found) into the 1-based line and column of the offending byte.
func lineCol(data []byte, offset int64) (line, col int) {
	at := int(max(offset-1, 0))
	at = min(at, len(data))
	before := data[:at]
	line = 1 + bytes.Count(before, []byte{'\n'})
	col = at - bytes.LastIndexByte(before, '\n')
	return line, col
}

// jsonKind names the kind of a decoded JSON value.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case float64:
		return "a number"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}
