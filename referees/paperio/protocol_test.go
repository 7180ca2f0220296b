package paperio

import (
	"errors"
	"testing"
)

func TestParseAnswer(t *testing.T) {
	for _, c := range []struct {
		line       string
		dir        Dir
		unreadable bool
		disconnect bool
	}{
		{`{"command": "up"}`, Up, false, false},
		{`{"command": "left", "debug": "thinking"}`, Left, false, false},
		{`{"command": "sideways"}`, DirNone, false, false},
		{`{"command": null}`, DirNone, false, false},
		{`{}`, DirNone, false, false},
		{`null`, DirNone, false, false},
		{`0`, DirNone, false, false},
		{`garbage`, DirNone, true, false},
		{``, DirNone, true, false},
		{`["up"]`, DirNone, false, true},
		{`7`, DirNone, false, true},
		{`{"command": "up", "debug": 5}`, DirNone, false, true},
		{`{"command": "up", "error": ["a"]}`, Up, false, false},
	} {
		_, d, err := ParseAnswer([]byte(c.line))
		unreadable := errors.Is(err, ErrUnreadable)
		disconnect := err != nil && !unreadable
		if d != c.dir || unreadable != c.unreadable || disconnect != c.disconnect {
			t.Errorf("%q: dir %v err %v; want dir %v unreadable %v disconnect %v", c.line, d, err, c.dir, c.unreadable, c.disconnect)
		}
	}
}

func TestTickMessage(t *testing.T) {
	s := newState(t, DefaultRules(), 2)
	got := string(s.AppendTick(nil, 2))
	want := `{"type": "tick", "params": {"players": {"1": {"score": 0, "direction": null, "territory": [[255, 405], [255, 435], [255, 465], [285, 405], [285, 435], [285, 465], [315, 405], [315, 435], [315, 465]], "lines": [], "position": [285, 435], "bonuses": []}, "i": {"score": 0, "direction": null, "territory": [[555, 405], [555, 435], [555, 465], [585, 405], [585, 435], [585, 465], [615, 405], [615, 435], [615, 465]], "lines": [], "position": [585, 435], "bonuses": []}}, "bonuses": [], "tick_num": 1}}` + "\n"
	if got != want {
		t.Errorf("tick message\n got %s\nwant %s", got, want)
	}
}
