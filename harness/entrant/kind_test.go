package entrant

import (
	"testing"

	"gauntlet/harness/internal/harnesstest"
	"gauntlet/harness/store"
)

// TestEntrantKinds: each way of making an entrant says its kind, and what
// the kind allows follows from it.
func TestEntrantKinds(t *testing.T) {
	r := harnesstest.DuelRegistry(&harnesstest.Duel{Seats: 2})
	built, err := Parse(r, "duel", "fixed")
	if err != nil {
		t.Fatal(err)
	}
	ext, err := Parse(r, "duel", "cmd:sh -c 'echo {w:int[0,9]=1}'")
	if err != nil {
		t.Fatal(err)
	}
	gone := Reparse(r, "duel", "nosuch:x=1", store.EntrantRecord{Key: "nosuch:x=1", Label: "nosuch", Strategy: "nosuch"})
	for _, c := range []struct {
		e        *Entrant
		kind     Kind
		external bool
		name     string
	}{
		{built, Builtin, false, "fixed"},
		{ext, External, true, "cmd"},
		{gone, Stored, false, "nosuch"},
	} {
		if c.e.Kind() != c.kind || c.e.IsExternal() != c.external || c.e.Name() != c.name {
			t.Errorf("%s: kind %v external %v name %q, want %v %v %q", c.e.Key(), c.e.Kind(), c.e.IsExternal(), c.e.Name(), c.kind, c.external, c.name)
		}
	}
	if _, err := ext.Bot(1); err == nil {
		t.Error("an external entrant built an in-process bot")
	}
	if _, err := gone.Bot(1); err == nil {
		t.Error("a stored-only entrant built a bot")
	}
	if _, err := gone.Argv(1); err == nil {
		t.Error("a stored-only entrant made a command line")
	}
	if got := ext.Specs().Names(); len(got) != 1 || got[0] != "w" {
		t.Errorf("external specs %v, want [w]", got)
	}
	if gone.Specs() != nil {
		t.Errorf("stored-only entrant declares %v", gone.Specs().Names())
	}
}
