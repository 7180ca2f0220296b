package e2e

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeCommand is one shell command of a runnable block of README.md.
type readmeCommand struct {
	line int    // README.md line where it starts
	text string // the command, continuation lines joined
}

// runnableFence is the info string of README's runnable code blocks: a
// block opened with ```sh is run by TestReadmeCommands, one opened with
// ```text is shown only. Every other info string (none included) is
// refused, so that no command slips through unrun for want of a label.
const runnableFence = "sh"

var shownFences = map[string]bool{"text": true, "json": true, "python": true, "go": true}

// readmeCommands returns the commands of the runnable blocks of the
// Markdown file at path: one per line, lines ending in a backslash joined
// with the next, blank lines and comment lines left out.
func readmeCommands(t *testing.T, path string) []readmeCommand {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cmds []readmeCommand
	var cur *readmeCommand
	inFence, run := false, false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if fence, ok := strings.CutPrefix(line, "```"); ok {
			if inFence {
				if cur != nil {
					t.Fatalf("%s:%d: a command ends in a backslash at the end of its block", path, cur.line)
				}
				inFence = false
				continue
			}
			info := strings.TrimSpace(fence)
			if info != runnableFence && !shownFences[info] {
				t.Fatalf("%s:%d: code block marked %q: mark it ```%s (run by this test) or ```text (shown only)", path, n, info, runnableFence)
			}
			inFence, run = true, info == runnableFence
			continue
		}
		if !inFence || !run {
			continue
		}
		trimmed := strings.TrimSpace(line)
		if cur == nil {
			if trimmed == "" || strings.HasPrefix(trimmed, "#") {
				continue
			}
			cur = &readmeCommand{line: n}
		}
		body, more := strings.CutSuffix(trimmed, `\`)
		if cur.text != "" {
			cur.text += " "
		}
		cur.text += strings.TrimSpace(body)
		if !more {
			cmds = append(cmds, *cur)
			cur = nil
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if inFence {
		t.Fatalf("%s: a code block is not closed", path)
	}
	return cmds
}

// outputFlag finds the files a command says it writes.
var outputFlag = regexp.MustCompile(`--(?:out|best-json) (\S+)`)

// TestReadmeCommands runs every command of README.md's runnable blocks, in
// order, as written, in one fresh directory laid out like a clone (its
// examples/ linked in), with the built binary as gauntlet on the PATH. Each
// must exit 0, and every file it names with --out or --best-json must exist
// afterwards. The commands that need Python 3 are skipped without it, except
// under CI.
func TestReadmeCommands(t *testing.T) {
	cmds := readmeCommands(t, filepath.Join("..", "README.md"))
	if len(cmds) < 10 {
		t.Fatalf("README.md has %d runnable commands: the tour is missing (blocks marked ```%s)", len(cmds), runnableFence)
	}
	dir := t.TempDir()
	examples, err := filepath.Abs(filepath.Join("..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(examples, filepath.Join(dir, "examples")); err != nil {
		t.Fatal(err)
	}
	binDir := t.TempDir()
	if err := os.Symlink(bin, filepath.Join(binDir, "gauntlet")); err != nil {
		t.Fatal(err)
	}
	path := binDir + string(os.PathListSeparator) + os.Getenv("PATH")
	hasPython := havePython(t)
	for _, c := range cmds {
		if !strings.HasPrefix(c.text, "gauntlet ") {
			t.Errorf("README.md:%d: %q: a runnable command starts with gauntlet", c.line, c.text)
			continue
		}
		if strings.Contains(c.text, "python3") && !hasPython {
			t.Logf("README.md:%d: skipped (no python3): %s", c.line, c.text)
			continue
		}
		cmd := exec.Command("sh", "-c", c.text)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+path)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("README.md:%d: %s: %v\n%s", c.line, c.text, err, out)
		}
		for _, m := range outputFlag.FindAllStringSubmatch(c.text, -1) {
			if _, err := os.Stat(filepath.Join(dir, m[1])); err != nil {
				t.Errorf("README.md:%d: %s: %v", c.line, c.text, err)
			}
		}
	}
}

// havePython reports whether python3 is on the PATH, for the example bots;
// under CI its absence fails the test.
func havePython(t *testing.T) bool {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("no python3: the example bots cannot run")
		}
		return false
	}
	return true
}
