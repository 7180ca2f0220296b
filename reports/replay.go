package reports

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"os"
	"strings"

	"gauntlet/harness/contract"
)

// The viewer page is one self-contained HTML file: the replay's frames as
// JSON, the game's renderer script and the shell below (controls, slider,
// keyboard, score line). It loads nothing from the network and opens from
// disk.
//
// A game's renderer script (contract.Viewer.Renderer) defines one function,
//
//	function gauntletRenderer(replay, stage) { ...; return {draw: function (i) {...}} }
//
// called once with the parsed Replay and the page's drawing area (a <div>).
// draw(i) draws frame i (0 <= i < replay.count) and returns its status:
// {label: "round 12", scores: [per seat], note: "text shown under the
// board"}. The shell writes the scores into the element with id "score", one
// span per seat, so that the last frame shows the referee's final scores.
//
// The fragment selects the first frame shown: #frame=last or #frame=N. The
// page keeps it current while stepping, and records on <body> the frame
// shown (data-frame), the number of frames (data-frames) and
// data-viewer-ready="1", which headless tests read. A test may add
// &press=KEY,KEY (KeyboardEvent key names) to have the page press those
// keys after it has drawn the first frame.
var (
	//go:embed viewer/shell.js
	shellJS string
	//go:embed viewer/shell.css
	shellCSS string
)

var replayTemplate = template.Must(template.New("replay").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.R.Title}}</title>
<style>{{.CSS}}</style>
</head>
<body>
<header>
<h1>{{.R.Title}}</h1>
<div id="score" aria-live="polite"></div>
</header>
<main>
<div id="board">
<div id="stage"></div>
<div id="note"></div>
</div>
<aside id="logs" hidden></aside>
</main>
<footer id="controls">
<button id="first" title="first frame (Home)">&#x7C;&#x25C0;</button>
<button id="back" title="step back (&#x2190;; Shift: 10)">&#x25C0;</button>
<button id="play" title="play / pause (space)">&#x25B6;</button>
<button id="fwd" title="step forward (&#x2192;; Shift: 10)">&#x25B6;&#x25B6;</button>
<button id="last" title="last frame (End)">&#x25B6;&#x7C;</button>
<input id="slider" type="range" min="0" value="0" aria-label="frame">
<span id="frame-label"></span>
<label>speed <select id="speed">
<option value="1">1/s</option><option value="4">4/s</option><option value="10" selected>10/s</option>
<option value="30">30/s</option><option value="100">100/s</option><option value="500">500/s</option>
</select></label>
</footer>
<script type="application/json" id="replay-data">{{.Data}}</script>
<script>{{.Renderer}}</script>
<script>{{.Shell}}</script>
</body>
</html>
`))

// WriteReplay writes the viewer page of r, drawn by the game's renderer
// script (see above for its contract).
func WriteReplay(w io.Writer, r *contract.Replay, renderer string) error {
	if r.Count < 1 {
		return fmt.Errorf("replay of %s %s has no frames", r.Game, r.Case)
	}
	if len(r.Scores) != len(r.Seats) {
		return fmt.Errorf("replay of %s %s: %d scores for %d seats", r.Game, r.Case, len(r.Scores), len(r.Seats))
	}
	// json.Marshal escapes <, > and &: the data cannot end its <script>.
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("replay of %s %s: %w", r.Game, r.Case, err)
	}
	var b bytes.Buffer
	err = replayTemplate.Execute(&b, struct {
		R               *contract.Replay
		CSS             template.CSS
		Data            template.JS
		Renderer, Shell template.JS
	}{r, template.CSS(shellCSS), template.JS(data), template.JS(renderer), template.JS(shellJS)})
	if err != nil {
		return err
	}
	_, err = w.Write(b.Bytes())
	return err
}

// WriteReplayFile writes the viewer page of r to path.
func WriteReplayFile(path string, r *contract.Replay, renderer string) error {
	var b bytes.Buffer
	if err := WriteReplay(&b, r, renderer); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// VsScores is "label score, label score" of a replay's seats.
func VsScores(r *contract.Replay) string {
	var b strings.Builder
	for i, l := range r.Seats {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(l + " " + Num(r.Scores[i]))
	}
	return b.String()
}
