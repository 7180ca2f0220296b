package dashboard

import (
	"fmt"
	"net/http"
	"strings"

	"gauntlet/internal/untrusted"
)

// botLogs answers the external bots' stderr kept with one stored game
// (--bot-logs), every seat's, as plain text: turn by turn, the lines
// escaped (untrusted.Text again: a store is a file anyone may hand us).
func (s *Server) botLogs(w http.ResponseWriter, r *http.Request) {
	id, key := r.PathValue("id"), r.PathValue("key")
	logs, err := s.store.BotLogs(r.Context(), id, key)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if len(logs) == 0 {
		s.fail(w, r, notFound{fmt.Errorf("run %s game %s keeps no bots' logs (--bot-logs keeps those of the games with a forfeit and the latest ones; all keeps every game's)",
			untrusted.Line(id), untrusted.Line(key))})
		return
	}
	var b strings.Builder
	for i, l := range logs {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "=== seat %d: %d lines (kept: %s; at most %d bytes a game) ===\n", l.Seat, l.Record.Lines(), l.Why, l.Record.Cap)
		b.WriteString(l.Record.Text())
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write([]byte(untrusted.Text(b.String()))) // a client gone away: nothing to tell it
}

// logsPath is the path of a stored game's bots' logs.
func logsPath(id, key string) string { return "/logs/" + pathEscape(id) + "/" + pathEscape(key) }
