package dashboard

import (
	"bytes"
	"net/http"
	"strings"

	"gauntlet/harness/results"
	"gauntlet/reports"
)

// replay answers the viewer page of one stored game, made on demand by the
// game's viewer (results.WatchStored: from the game's recorded moves, or
// by playing it again from its seeds).
func (s *Server) replay(w http.ResponseWriter, r *http.Request) {
	id, key := r.PathValue("id"), r.PathValue("key")
	rp, v, err := results.WatchStored(r.Context(), s.store, s.cfg.Registry, id, key)
	if err != nil {
		msg := err.Error()
		if strings.HasPrefix(msg, "no run ") || strings.Contains(msg, " has no game ") || strings.Contains(msg, "no replay viewer") {
			err = notFound{err}
		}
		s.fail(w, r, err)
		return
	}
	if len(rp.Logs) > 0 {
		rp.LogsURL = logsPath(id, key)
	}
	var buf bytes.Buffer
	if err := reports.WriteReplay(&buf, rp, v.Renderer()); err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = buf.WriteTo(w) // a client gone away: nothing to tell it
}
