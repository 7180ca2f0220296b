package refgame

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"gauntlet/harness/contract"
	"gauntlet/internal/bounded"
	"gauntlet/internal/untrusted"
	"gauntlet/referees/relay"
)

// A referee's game is watched as its transcript (relay.Transcript): what
// gauntlet saw of it, turn by turn in the relayed protocol. The game's own
// picture is the referee's and unknown here.
var _ contract.Viewer = (*Game)(nil)

//go:embed viewer/transcript.js
var transcriptRenderer string

// storedTranscript is the Outcome.Moves of a referee's game: its transcript
// as gzip-compressed JSON, in base64.
type storedTranscript struct {
	GZ string `json:"transcript_gz"`
}

// maxTranscriptJSON bounds a stored transcript once decompressed (the
// relay's caps keep one far below it).
const maxTranscriptJSON = 16 << 20

// encodeTranscript is the Outcome.Moves of a game with transcript t.
func encodeTranscript(t *relay.Transcript) (json.RawMessage, error) {
	data, err := json.Marshal(t)
	if err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(data); err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	return json.Marshal(storedTranscript{GZ: base64.StdEncoding.EncodeToString(b.Bytes())})
}

// decodeTranscript reads the transcript of a stored game (untrusted: a
// store may hold anything).
func decodeTranscript(moves json.RawMessage) (*relay.Transcript, error) {
	var st storedTranscript
	if err := json.Unmarshal(moves, &st); err != nil || st.GZ == "" {
		return nil, fmt.Errorf("the game's moves are not a referee game's transcript (%v)", err)
	}
	zipped, err := base64.StdEncoding.DecodeString(st.GZ)
	if err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(zipped))
	if err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	data, err := bounded.ReadAll(zr, "transcript", maxTranscriptJSON)
	if err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	var t relay.Transcript
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	return &t, nil
}

// transcriptSetup is the page's data beside the turns (the frames).
type transcriptSetup struct {
	Protocol string              `json:"protocol"`
	Seed     int64               `json:"seed"`
	About    string              `json:"about"` // what gauntlet sees of a game of this protocol
	Limits   *relay.AnswerLimits `json:"limits,omitempty"`
	Notes    []relay.Note        `json:"notes,omitempty"`
	End      string              `json:"end,omitempty"`
	Verdict  []seatVerdict       `json:"verdict"`
	Output   []string            `json:"output,omitempty"`
	Log      []string            `json:"log,omitempty"`
	Data     []string            `json:"data,omitempty"` // a play command's test_data and player_data
	Cut      string              `json:"cut,omitempty"`
}

// seatVerdict is one seat's result, with its stderr after its last answer.
type seatVerdict struct {
	Rank    int      `json:"rank"`
	Score   float64  `json:"score"`
	Forfeit string   `json:"forfeit,omitempty"`
	Answers int      `json:"answers"`
	Stderr  []string `json:"stderr,omitempty"`
}

// about says what a transcript of each protocol holds.
var about = map[string]string{
	"relayed": "Relayed protocol: gauntlet sat between the referee and the players. Each turn shows what the player was sent " +
		"and answered, its answer time, its stderr (as far as it can be told which answer it came with) and the referee's " +
		"messages (its own lines, ###Error lines, its stderr). The game's picture is the referee's own, unknown to gauntlet.",
	"direct": "Direct protocol: the referee ran and timed the players itself, so gauntlet saw no turns. Shown is what is " +
		"known: the scores, the referee's output, its stderr and its log file.",
	"play": "Play protocol: the play command ran the players itself, so gauntlet saw no turns. Shown is what is known: " +
		"the ranks and errors, the command's output (its JSON) and its stderr.",
}

// Watch makes the transcript page's data of a played game: one frame for
// the start, one per turn and one for the verdict in the relayed protocol;
// one frame in the others.
func (g *Game) Watch(c contract.Case, out contract.Outcome, seats []string) (*contract.Replay, error) {
	if len(out.Moves) == 0 {
		return nil, fmt.Errorf("%s case %s: no transcript was kept", g.file.Name, c.ID)
	}
	t, err := decodeTranscript(out.Moves)
	if err != nil {
		return nil, fmt.Errorf("%s case %s: %w", g.file.Name, c.ID, err)
	}
	if len(out.Seats) != len(seats) {
		return nil, fmt.Errorf("%s case %s: %d seat results for %d seats", g.file.Name, c.ID, len(out.Seats), len(seats))
	}
	cleanTranscript(t, len(seats))
	setup := transcriptSetup{Protocol: t.Protocol, Seed: t.Seed, About: about[t.Protocol], Limits: t.Limits,
		Notes: t.Notes, End: t.End, Output: t.Output, Log: t.Log, Cut: t.Cut, Data: playData(out.Detail)}
	if setup.About == "" {
		setup.About = "Protocol " + relay.Quote(t.Protocol, 20) + ": unknown to this version of gauntlet."
	}
	r := &contract.Replay{Game: g.file.Name, Case: c.ID, Seats: seats, Scores: make([]float64, len(seats)), Setup: &setup,
		Title: untrusted.Line(fmt.Sprintf("%s %s: %s (transcript)", g.file.Name, c.ID, strings.Join(seats, " vs ")))}
	answers := make([]int, len(seats))
	for _, tn := range t.Turns {
		answers[tn.Player]++
	}
	for i, s := range out.Seats {
		r.Scores[i] = s.Score
		v := seatVerdict{Rank: s.Rank, Score: s.Score, Forfeit: untrusted.Line(s.Forfeit), Answers: answers[i]}
		if i < len(t.Stderr) {
			v.Stderr = t.Stderr[i]
		}
		setup.Verdict = append(setup.Verdict, v)
	}
	turns := t.Turns
	if turns == nil {
		turns = []relay.Turn{}
	}
	r.Frames, r.Count = turns, 1
	if t.Protocol == "relayed" {
		r.Count = len(turns) + 2
	}
	return r, nil
}

// Renderer draws a transcript.
func (g *Game) Renderer() string { return transcriptRenderer }

// cleanTranscript escapes every text of a stored transcript again (a
// store is untrusted too) and drops turns of players the game does not
// have.
func cleanTranscript(t *relay.Transcript, players int) {
	lines := func(ls []string) {
		for i, l := range ls {
			ls[i] = untrusted.Line(l)
		}
	}
	notes := func(ns []relay.Note) {
		for i := range ns {
			ns[i].From = untrusted.Line(ns[i].From)
			lines(ns[i].Lines)
		}
	}
	t.Turns = slices.DeleteFunc(t.Turns, func(tn relay.Turn) bool { return tn.Player < 0 || tn.Player >= players })
	for i := range t.Turns {
		tn := &t.Turns[i]
		lines(tn.Sent)
		lines(tn.Answered)
		lines(tn.Stderr)
		notes(tn.Referee)
		tn.Forfeit = untrusted.Line(tn.Forfeit)
	}
	notes(t.Notes)
	lines(t.Output)
	lines(t.Log)
	for _, ls := range t.Stderr {
		lines(ls)
	}
	t.End, t.Cut = untrusted.Line(t.End), untrusted.Line(t.Cut)
}

// playData is a play command's test_data and player_data, one line each.
func playData(detail map[string]any) []string {
	var out []string
	for k, v := range detail {
		if !strings.HasPrefix(k, "test.") && k != "player_data" {
			continue
		}
		j, err := json.Marshal(v)
		if err != nil {
			j = []byte(fmt.Sprint(v))
		}
		out = append(out, untrusted.Line(k+" = "+string(j)))
	}
	slices.Sort(out)
	return out
}
