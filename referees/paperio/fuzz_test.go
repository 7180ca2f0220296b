package paperio

import (
	"bytes"
	"context"
	"io"
	"testing"
)

// FuzzReplay feeds arbitrary traces to the replay: errors are fine, panics
// are not.
func FuzzReplay(f *testing.F) {
	for _, file := range traceFiles(f)[:4] {
		data := readGz(f, file)
		// The header and six ticks: with 40 lines the fuzzer spent its time
		// minimizing long inputs (about 20 inputs in 7 s, 140,000 now).
		lines := bytes.SplitN(data, []byte("\n"), 8)
		f.Add(bytes.Join(lines[:len(lines)-1], []byte("\n")))
	}
	f.Add([]byte(`{"header": {"start": [[1,435,435,[14,14]]]}}` + "\n" + `{"tick": 1, "cmds": {"1": "up"}, "spawn": ["saw", 465, 435, 10]}`))
	f.Add([]byte(`{"header": {"start": [1,2], "MAX_TICK_COUNT": 3}}` + "\n" + `{"tick": 1, "cmds": {"7": 1}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = Replay(context.Background(), bytes.NewReader(data), io.Discard) // an error is an answer; a panic is the failure
	})
}

// FuzzTickMessage parses arbitrary tick messages into a state.
func FuzzTickMessage(f *testing.F) {
	r := DefaultRules()
	r.BonusChance = 3
	g := newGame(f, r, 4, 3)
	bots := []Bot{&walker{turnEvery: 2}, &walker{turnEvery: 3}, &walker{}, &walker{turnEvery: 5}}
	for tick := 0; tick < 60; tick++ {
		if tick%12 == 0 {
			f.Add(g.AppendTick(nil, 1+tick/12%4))
		}
		var cmds Commands
		for k := range bots {
			view := g.State
			cmds[k] = bots[k].Command(&view, k+1)
		}
		g.PlayTick(&cmds)
	}
	f.Add([]byte(`{"type": "tick", "params": {"players": {"i": {"position": [1, 2], "territory": [[15, 15]], "lines": [[1,1]]}}}}`))
	f.Add([]byte(`{"type": "start_game", "params": {"speed": 5}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		m, err := ParseMessage(line)
		if err != nil || m.Type != "tick" {
			return
		}
		tp, err := ParseTick(m.Params)
		if err != nil {
			return
		}
		var s State
		if n, me := identify(&tp); n > 0 {
			if tp.Fill(&s, DefaultRules(), n, me) == nil {
				printBot{}.Command(&s, me)
			}
		}
		_ = tp.Fill(&s, DefaultRules(), 6, 1) // an error is an answer; a panic is the failure
	})
}

// FuzzAnswer parses arbitrary answer lines.
func FuzzAnswer(f *testing.F) {
	for _, s := range []string{`{"command": "up"}`, `{"command": null, "debug": "x"}`, `{"command": 5}`, `garbage`, `[]`, `{"command": "upp"}`, `{"debug": 5}`, `0`, `{"command": "up"} x`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		_, d, err := ParseAnswer(line)
		if err != nil && d != DirNone {
			t.Fatal("direction with an error")
		}
	})
}

// FuzzServe runs Serve on arbitrary input.
func FuzzServe(f *testing.F) {
	r := DefaultRules()
	g := newGame(f, r, 2, 1)
	f.Add(append(AppendStartGame(nil, &r), g.AppendTick(nil, 2)...))
	f.Add([]byte("{\"type\": \"end_game\", \"params\": {}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = Serve(t.Context(), bytes.NewReader(data), io.Discard, printBot{}) // an error is an answer; a panic is the failure
	})
}
