package lineproc

import (
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// TestHasMarkTellsUnknown: a process with the mark has it, one with another
// environment has not, and one whose environment reads empty is unknown,
// which makes Close look again. A process just started shows an empty
// environment for a moment too: its exec has not set it up yet (the
// window this guards against), so each is asked once its command line
// reads, which the kernel sets up with the environment.
func TestHasMarkTellsUnknown(t *testing.T) {
	mark := EnvMark + "=test:1"
	for _, tc := range []struct {
		env        []string
		has, known bool
	}{
		{[]string{mark}, true, true},
		{[]string{"HOME=/"}, false, true},
		{[]string{}, false, false},
	} {
		cmd := exec.Command("sleep", "5")
		cmd.Env = tc.env
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		pid := cmd.Process.Pid
		for i := 0; i < 400; i++ {
			if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline"); err == nil && len(b) > 0 {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		has, known := hasMark(pid, mark)
		// The test's own child: a failed kill or wait changes nothing it
		// checks.
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if has != tc.has || known != tc.known {
			t.Errorf("env %q: hasMark = %v, %v; want %v, %v", tc.env, has, known, tc.has, tc.known)
		}
	}
}
