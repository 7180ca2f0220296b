// Package testjson encodes values for tests that compare them as JSON: a
// value that does not encode (a NaN, a channel) fails the test instead of
// comparing as an empty text equal to any other.
package testjson

import (
	"encoding/json"
	"testing"
)

// Marshal is v's JSON encoding; it fails the test when v does not encode.
func Marshal(tb testing.TB, v any) []byte {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatalf("encoding %T: %v", v, err)
	}
	return b
}
