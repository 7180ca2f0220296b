// Package testdata reads the reference data that tests keep under their
// package's testdata directory, gzip-compressed where large.
package testdata

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"
)

// Read returns the contents of path, decompressed when the name ends in
// ".gz". A missing file is an error naming it: reference data is part of
// the repository, and a test must fail, not skip, without it.
func Read(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reference data: %w", err)
	}
	if !strings.HasSuffix(path, ".gz") {
		return data, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("reference data %s: %w", path, err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("reference data %s: %w", path, err)
	}
	return out, nil
}
