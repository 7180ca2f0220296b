package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestExamplesPlay builds the C++ example bot with the system's g++ (as
// `make examples` does) and plays each example bot one game through
// `gauntlet play`: the bot answers every turn, forfeits nothing and sends
// no answer the rules ignore. Without g++ or python3 the test is skipped
// locally and fails under CI (env CI set; .ci/run installs both).
func TestExamplesPlay(t *testing.T) {
	cpp := filepath.Join(t.TempDir(), "brew-bot")
	build := exec.Command(tool(t, "g++"), "-O2", "-std=c++17", "-Wall", "-Wextra", "-o", cpp, example(t, "brew-cpp", "bot.cpp"))
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("g++: %v\n%s", err, out)
	}
	python := tool(t, "python3")
	for _, c := range []struct {
		name, game, opponent, bot string
	}{
		{"brew-cpp", "brew", "greedy", quote(cpp)},
		{"brew-python", "brew", "greedy", quote(python) + " " + quote(example(t, "brew-python", "bot.py"))},
		{"paperio-python", "paperio", "simple", quote(python) + " " + quote(example(t, "paperio-python", "bot.py"))},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			// No clock: a loaded machine or an interpreter's slow start
			// must not make the example forfeit.
			out, stderr, code := gauntlet(t, t.TempDir(), "play", "--game", c.game, "--case", "seed:1",
				"--entrants", c.opponent, "--entrant", "cmd:"+c.bot, "--no-time-limit", "--quiet", "--json")
			if code != 0 {
				t.Fatalf("play: exit %d: %s", code, stderr)
			}
			var res struct {
				Outcome struct {
					Seats []struct {
						Forfeit      string `json:"forfeit"`
						Ignored      int    `json:"ignored"`
						IgnoredFirst string `json:"ignored_first"`
						Times        *struct {
							Later struct {
								N int `json:"n"`
							} `json:"later"`
						} `json:"times"`
					} `json:"seats"`
				} `json:"outcome"`
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("play --json: %v\n%s", err, out)
			}
			if len(res.Outcome.Seats) != 2 {
				t.Fatalf("play: %d seats, want 2:\n%s", len(res.Outcome.Seats), out)
			}
			bot := res.Outcome.Seats[1]
			if bot.Forfeit != "" {
				t.Errorf("the example forfeits: %s", bot.Forfeit)
			}
			if bot.Ignored > 0 {
				t.Errorf("the rules ignored %d of the example's answers, the first %q", bot.Ignored, bot.IgnoredFirst)
			}
			if bot.Times == nil || bot.Times.Later.N == 0 {
				t.Errorf("the example answered no turn after its first:\n%s", out)
			}
		})
	}
}

// example is the absolute path of a file of examples/.
func example(t *testing.T, dir, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "examples", dir, name))
	if err != nil {
		t.Fatal(err)
	}
	// Read, not only found: go test's cache then keys the result on the
	// example's content.
	if _, err := os.ReadFile(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// quote quotes a path for an entrant's command line.
func quote(p string) string { return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'" }

// tool is the path of a program the examples need; without it the test
// is skipped, or fails under CI.
func tool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("no %s on the PATH: CI must install it (see .ci/run) to build and run the examples", name)
	}
	t.Skipf("no %s on the PATH (CI installs it); skipping the examples", name)
	return ""
}
