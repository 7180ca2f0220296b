package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"gauntlet/harness/contract"
	"gauntlet/internal/testdata"
)

// repoRoot is the repository root, relative to this package.
var repoRoot = filepath.Join("..", "..")

// readReference reads a reference file (gunzipped when its name ends in
// ".gz"); missing data fails the test.
func readReference(t *testing.T, path string) []byte {
	t.Helper()
	data, err := testdata.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// replay pipes input through `gauntlet replay GAME` and returns the output
// lines decoded.
func replay(t *testing.T, game string, input []byte) []map[string]any {
	t.Helper()
	cmd := exec.Command(os.Args[0], "replay", game)
	cmd.Env = append(os.Environ(), "GAUNTLET_CLI_MAIN=1")
	cmd.Stdin = bytes.NewReader(input)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("replay %s: %v: %s", game, err, errb.String())
	}
	return decodeLines(t, out)
}

func decodeLines(t *testing.T, data []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %d: %v", len(out)+1, err)
		}
		out = append(out, m)
	}
	return out
}

// TestReplayConformance replays the reference data of every registered
// game that declares some (contract.ReplayReferencer) through the CLI, as
// the organisers' checker would, and compares the declared fields of every
// output line with the reference. Missing data fails the test.
func TestReplayConformance(t *testing.T) {
	games := 0
	for _, g := range contract.Default.Games() {
		ref, ok := g.(contract.ReplayReferencer)
		if !ok {
			continue
		}
		games++
		name := g.Info().Name
		t.Run(name, func(t *testing.T) {
			spec := ref.ReplayReference()
			files, err := filepath.Glob(filepath.Join(repoRoot, spec.Files))
			if err != nil || len(files) == 0 {
				t.Fatalf("reference data %s missing: %v", spec.Files, err)
			}
			all := len(files)
			if testing.Short() && spec.Trace && all > 3 {
				// Whole-game traces are slow under the race detector; the
				// referee's own conformance test replays every one, and
				// make test-long replays them all here too.
				files = files[:3]
			}
			agree, total := 0, 0
			for _, f := range files {
				data := readReference(t, f)
				want := decodeLines(t, data)
				if len(want) < spec.Header {
					t.Fatalf("%s: %d lines, fewer than its %d header lines", f, len(want), spec.Header)
				}
				want = want[spec.Header:]
				got := replay(t, name, data)
				if len(got) != len(want) {
					t.Errorf("%s: %d output lines for %d reference lines", filepath.Base(f), len(got), len(want))
				}
				fileOK := len(got) == len(want)
				for i := range want {
					ok := i < len(got)
					for _, k := range spec.Fields {
						if !ok {
							break
						}
						if !reflect.DeepEqual(got[i][k], want[i][k]) {
							t.Errorf("%s line %d (%v): %s = %v, want %v", filepath.Base(f), spec.Header+i+1, want[i]["name"], k, got[i][k], want[i][k])
							ok = false
						}
					}
					if !spec.Trace {
						total++
						if ok {
							agree++
						}
					}
					if !ok {
						fileOK = false
						if spec.Trace {
							break // the rest of a trace follows from the first difference
						}
					}
				}
				if spec.Trace {
					total++
					if fileOK {
						agree++
					}
				}
			}
			unit := "cases"
			if spec.Trace {
				unit = "traces"
			}
			t.Logf("gauntlet replay %s: %d/%d %s agree", name, agree, total, unit)
			if len(files) < all {
				t.Logf("gauntlet replay %s: -short replays %d of the %d trace files", name, len(files), all)
			}
			if total == 0 {
				t.Fatalf("reference data %s holds no case", spec.Files)
			}
		})
	}
	if games == 0 {
		t.Fatal("no registered game declares replay reference data")
	}
}
