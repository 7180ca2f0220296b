package hextris

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseProblem reads a problem file (JSON with the keys id, width, height,
// filled, units, sourceLength and sourceSeeds; other keys are ignored). An
// error names the field at fault, e.g. `units[3].members[0].x`.
func ParseProblem(data []byte) (*Problem, error) {
	obj, err := jsonObject(data, "problem")
	if err != nil {
		return nil, err
	}
	p := &Problem{raw: bytes.Clone(data)}
	ints := []struct {
		name   string
		dst    *int
		lo, hi int64
	}{
		{"id", &p.ID, math.MinInt32, math.MaxInt32},
		{"width", &p.Width, 1, MaxSide},
		{"height", &p.Height, 1, MaxSide},
		{"sourceLength", &p.SourceLength, 0, 1 << 30},
	}
	for _, f := range ints {
		raw, err := field(obj, f.name, "problem")
		if err != nil {
			return nil, err
		}
		v, err := jsonInt(raw, f.name, f.lo, f.hi)
		if err != nil {
			return nil, fmt.Errorf("problem: %w", err)
		}
		*f.dst = int(v)
	}
	raw, err := field(obj, "filled", "problem")
	if err != nil {
		return nil, err
	}
	if p.Filled, err = jsonCells(raw, "filled"); err != nil {
		return nil, fmt.Errorf("problem: %w", err)
	}
	if raw, err = field(obj, "units", "problem"); err != nil {
		return nil, err
	}
	units, err := jsonArray(raw, "units")
	if err != nil {
		return nil, fmt.Errorf("problem: %w", err)
	}
	p.Units = make([]Unit, len(units))
	for i, ur := range units {
		path := fmt.Sprintf("units[%d]", i)
		uo, err := jsonObject(ur, path)
		if err != nil {
			return nil, fmt.Errorf("problem: %w", err)
		}
		mr, err := field(uo, "members", path)
		if err != nil {
			return nil, fmt.Errorf("problem: %w", err)
		}
		if p.Units[i].Members, err = jsonCells(mr, path+".members"); err != nil {
			return nil, fmt.Errorf("problem: %w", err)
		}
		pr, err := field(uo, "pivot", path)
		if err != nil {
			return nil, fmt.Errorf("problem: %w", err)
		}
		if p.Units[i].Pivot, err = jsonCell(pr, path+".pivot"); err != nil {
			return nil, fmt.Errorf("problem: %w", err)
		}
	}
	if raw, err = field(obj, "sourceSeeds", "problem"); err != nil {
		return nil, err
	}
	seeds, err := jsonArray(raw, "sourceSeeds")
	if err != nil {
		return nil, fmt.Errorf("problem: %w", err)
	}
	if len(seeds) == 0 {
		return nil, fmt.Errorf("problem %d: sourceSeeds: none (a problem needs at least one source seed to play)", p.ID)
	}
	p.SourceSeeds = make([]uint32, len(seeds))
	for i, sr := range seeds {
		v, err := jsonInt(sr, fmt.Sprintf("sourceSeeds[%d]", i), 0, math.MaxUint32)
		if err != nil {
			return nil, fmt.Errorf("problem: %w", err)
		}
		p.SourceSeeds[i] = uint32(v)
	}
	if err := p.compile(); err != nil {
		return nil, err
	}
	return p, nil
}

// JSON returns the problem file: the bytes it was parsed from, or the
// canonical encoding (MarshalJSON) for a problem built with NewProblem.
func (p *Problem) JSON() ([]byte, error) {
	if p.raw != nil {
		return p.raw, nil
	}
	return p.MarshalJSON()
}

// MarshalJSON encodes the problem in the contest's problem format.
func (p *Problem) MarshalJSON() ([]byte, error) {
	filled, units := p.Filled, p.Units
	if filled == nil {
		filled = []Cell{}
	}
	if units == nil {
		units = []Unit{}
	}
	seeds := p.SourceSeeds
	if seeds == nil {
		seeds = []uint32{}
	}
	return json.Marshal(struct {
		ID           int      `json:"id"`
		Width        int      `json:"width"`
		Height       int      `json:"height"`
		Filled       []Cell   `json:"filled"`
		Units        []Unit   `json:"units"`
		SourceLength int      `json:"sourceLength"`
		SourceSeeds  []uint32 `json:"sourceSeeds"`
	}{p.ID, p.Width, p.Height, filled, units, p.SourceLength, seeds})
}

// jsonKind names the JSON type of a raw value for error messages.
func jsonKind(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return "a number"
	}
	return "not JSON"
}

// notJSON describes a syntax error of a JSON document as "not JSON:
// invalid character 'x' looking for beginning of value at offset 0", or
// returns "" for another error.
func notJSON(err error) string {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return ""
	}
	at := se.Offset - 1 // Offset counts the bad byte
	if strings.HasPrefix(se.Error(), "unexpected end") {
		at = se.Offset
	}
	return fmt.Sprintf("not JSON: %v at offset %d", se, max(at, 0))
}

func jsonObject(data []byte, path string) (map[string]json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		if msg := notJSON(err); msg != "" {
			return nil, fmt.Errorf("%s: %s", path, msg)
		}
		if jsonKind(data) != "an object" {
			return nil, fmt.Errorf("%s: want a JSON object, got %s", path, jsonKind(data))
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if obj == nil {
		return nil, fmt.Errorf("%s: want a JSON object, got null", path)
	}
	return obj, nil
}

func field(obj map[string]json.RawMessage, name, path string) (json.RawMessage, error) {
	raw, ok := obj[name]
	if !ok {
		return nil, fmt.Errorf("%s: missing field %q", path, name)
	}
	return raw, nil
}

func jsonArray(raw json.RawMessage, path string) ([]json.RawMessage, error) {
	var a []json.RawMessage
	err := json.Unmarshal(raw, &a)
	if msg := notJSON(err); msg != "" {
		return nil, fmt.Errorf("%s: %s", path, msg)
	}
	if jsonKind(raw) != "an array" {
		return nil, fmt.Errorf("%s: want an array, got %s", path, jsonKind(raw))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return a, nil
}

// jsonInt reads an integer in [lo, hi]. Integral numbers written with a
// fraction or exponent (1.0, 1e2) are accepted, as the referee's JSON
// library does.
func jsonInt(raw json.RawMessage, path string, lo, hi int64) (int64, error) {
	raw = bytes.TrimSpace(raw)
	if jsonKind(raw) != "a number" {
		return 0, fmt.Errorf("%s: want an integer, got %s", path, jsonKind(raw))
	}
	s := string(raw)
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || f != math.Trunc(f) || math.Abs(f) > 1<<62 {
			return 0, fmt.Errorf("%s: want an integer, got %s", path, s)
		}
		v = int64(f)
	}
	if v < lo || v > hi {
		return 0, fmt.Errorf("%s: %d is out of range [%d, %d]", path, v, lo, hi)
	}
	return v, nil
}

func jsonCell(raw json.RawMessage, path string) (Cell, error) {
	obj, err := jsonObject(raw, path)
	if err != nil {
		return Cell{}, err
	}
	var c Cell
	for _, f := range []struct {
		name string
		dst  *int
	}{{"x", &c.X}, {"y", &c.Y}} {
		r, err := field(obj, f.name, path)
		if err != nil {
			return Cell{}, err
		}
		v, err := jsonInt(r, path+"."+f.name, math.MinInt32, math.MaxInt32)
		if err != nil {
			return Cell{}, err
		}
		*f.dst = int(v)
	}
	return c, nil
}

func jsonCells(raw json.RawMessage, path string) ([]Cell, error) {
	a, err := jsonArray(raw, path)
	if err != nil {
		return nil, err
	}
	cells := make([]Cell, len(a))
	for i, r := range a {
		if cells[i], err = jsonCell(r, fmt.Sprintf("%s[%d]", path, i)); err != nil {
			return nil, err
		}
	}
	return cells, nil
}
