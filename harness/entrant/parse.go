package entrant

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gauntlet/harness/contract"
)

// ParseEntrant reads one entrant of game: "NAME", "NAME:k=v,k=v" or
// "cmd:COMMAND LINE". Extra "k=v" assignments (from --param flags) apply on
// top. Unknown strategies and parameters, out-of-range values and commands
// that cannot be found are errors naming the input.
func Parse(r *contract.Registry, game, spec string, assignments ...string) (*Entrant, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, fmt.Errorf("empty entrant")
	}
	if rest, ok := strings.CutPrefix(spec, "cmd:"); ok {
		return parseExternal(rest, assignments)
	}
	name, inline, _ := strings.Cut(spec, ":")
	if name == "" {
		return nil, fmt.Errorf("entrant %q: no strategy name before ':'", spec)
	}
	s, err := r.Strategy(game, name)
	if err != nil {
		return nil, err
	}
	all := append([]string{inline}, assignments...)
	v, err := s.Params.Parse(all...)
	if err != nil {
		return nil, fmt.Errorf("strategy %s: %w", name, err)
	}
	return &Entrant{Strategy: s, Params: v, Version: Version}, nil
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// commandVersion is "git describe" of the repository holding the command,
// when it is in one; "" otherwise.
func commandVersion(path string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "git", "-C", filepath.Dir(path), "describe", "--always", "--dirty", "--tags").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// ParseLineup reads a comma-separated list of entrants for the seats of a
// game: "greedy,random", "simple*5", "greedy:w=2,x=1,random" (an item with
// "=" and no ":" continues the previous entrant's parameters). External
// commands cannot be listed here; give them one per flag.
func ParseLineup(r *contract.Registry, game, spec string) ([]*Entrant, error) {
	var items []string
	for _, it := range strings.Split(spec, ",") {
		it = strings.TrimSpace(it)
		if it == "" {
			continue
		}
		if strings.Contains(it, "=") && !strings.Contains(it, ":") && len(items) > 0 {
			items[len(items)-1] += "," + it
			continue
		}
		items = append(items, it)
	}
	var out []*Entrant
	for _, it := range items {
		n := 1
		if base, count, ok := strings.Cut(it, "*"); ok && !strings.HasPrefix(it, "cmd:") {
			c, err := strconv.Atoi(strings.TrimSpace(count))
			if err != nil || c < 1 || c > 64 {
				return nil, fmt.Errorf("entrant %q: bad repeat count %q", it, count)
			}
			if strings.TrimSpace(base) == "" {
				return nil, fmt.Errorf("entrant %q: no strategy before the repeat count", it)
			}
			it, n = strings.TrimSpace(base), c
		}
		e, err := Parse(r, game, it)
		if err != nil {
			return nil, err
		}
		for i := 0; i < n; i++ {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("empty lineup %q", spec)
	}
	return out, nil
}
