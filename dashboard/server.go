package dashboard

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/harness/store"
	"gauntlet/league"
	"gauntlet/tuning"
	"gauntlet/tuning/spsa"
)

//go:embed assets templates
var files embed.FS

// Config is what the dashboard serves.
type Config struct {
	// Storage is the store's URL: sqlite:FILE or postgres://...
	Storage string
	// Registry knows the games: a run's planned games, its statistics and
	// its replays are rebuilt from its stored plan.
	Registry *contract.Registry
	// Poll is how often a page asks for its parts again (0: 2s).
	Poll time.Duration
	// Log receives the errors of background work (nil: slog.Default).
	Log *slog.Logger
}

// Server is the dashboard: an http.Handler over one store.
type Server struct {
	cfg   Config
	store *store.Store
	tune  *tuning.Storage
	spsa  *spsa.Storage
	// leagues reads the store's leagues; boards keeps their boards.
	leagues *league.Store
	boards  *boards
	tmpl    *template.Template
	mux     *http.ServeMux
	live    *live
	stop    context.CancelFunc
}

// Open opens the store at cfg.Storage read-only and returns the dashboard
// over it. Close it when done.
func Open(ctx context.Context, cfg Config) (*Server, error) {
	if cfg.Registry == nil {
		return nil, errors.New("dashboard: no game registry")
	}
	if cfg.Poll <= 0 {
		cfg.Poll = 2 * time.Second
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	st, err := store.OpenReadOnly(ctx, cfg.Storage)
	if err != nil {
		return nil, err
	}
	// A read-only SQLite connection reads the tables the store lacked when
	// it connected as empty stand-ins: connections are renewed so that a
	// study begun after the dashboard started is seen.
	st.DB().SetConnMaxLifetime(20 * time.Second)
	// The studies' and leagues' storages share the store's connections.
	tu, err := tuning.StorageOn(ctx, st)
	if err != nil {
		return nil, errors.Join(err, st.Close())
	}
	sp, err := spsa.StorageOn(ctx, st)
	if err != nil {
		return nil, errors.Join(err, st.Close())
	}
	lg, err := league.StoreOn(ctx, st)
	if err != nil {
		return nil, errors.Join(err, st.Close())
	}
	tmpl, err := template.New("").Funcs(funcs).ParseFS(files, "templates/*.html")
	if err != nil {
		return nil, errors.Join(err, st.Close())
	}
	bg, stop := context.WithCancel(context.WithoutCancel(ctx))
	s := &Server{cfg: cfg, store: st, tune: tu, spsa: sp, leagues: lg, tmpl: tmpl, stop: stop}
	s.live = newLive(bg, s)
	s.boards = newBoards(bg, s, lg)
	s.routes()
	return s, nil
}

// Close stops the background work and closes the store (the studies' and
// leagues' storages with it).
func (s *Server) Close() error {
	s.stop()
	return s.store.Close()
}

// ServeHTTP serves the dashboard.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	// Nothing outside the dashboard is loaded: no network, no frames, and
	// a stored name cannot bring a script.
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self' 'unsafe-inline'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	s.mux.ServeHTTP(w, r)
}

func (s *Server) routes() {
	assets, _ := fs.Sub(files, "assets") // a constant directory of the embedded files
	m := http.NewServeMux()
	m.Handle("GET /assets/", http.StripPrefix("/assets/", http.FileServerFS(assets)))
	m.HandleFunc("GET /{$}", s.page("index", s.indexPage))
	m.HandleFunc("GET /parts/index", s.parts("index", s.indexPage))
	m.HandleFunc("GET /run/{id}", s.page("run", s.runPage))
	m.HandleFunc("GET /parts/run/{id}", s.parts("run", s.runPage))
	m.HandleFunc("GET /study/{name}", s.page("study", s.studyPage))
	m.HandleFunc("GET /parts/study/{name}", s.parts("study", s.studyPage))
	m.HandleFunc("GET /spsa/{name}", s.page("spsa", s.spsaPage))
	m.HandleFunc("GET /parts/spsa/{name}", s.parts("spsa", s.spsaPage))
	m.HandleFunc("GET /league/{name}", s.page("league", s.leaguePage))
	m.HandleFunc("GET /parts/league/{name}", s.parts("league", s.leaguePage))
	m.HandleFunc("GET /replay/{id}/{key...}", s.replay)
	m.HandleFunc("GET /logs/{id}/{key...}", s.botLogs)
	s.mux = m
}

// view is what a page handler builds: the page's model, the names of the
// parts a poll refreshes, and the page's title.
type view struct {
	Title string
	Model any
	Parts []string
}

// builder builds a page's view for a request; an error of kind notFound
// answers 404.
type builder func(r *http.Request) (*view, error)

// notFound is an error that answers 404 Not Found.
type notFound struct{ err error }

func (e notFound) Error() string { return e.err.Error() }
func (e notFound) Unwrap() error { return e.err }

// page renders a whole page: the layout around template name, with its
// parts.
func (s *Server) page(name string, build builder) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v, err := build(r)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		parts, err := s.renderParts(name, v)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		poll := "/parts" + r.URL.EscapedPath()
		if name == "index" {
			poll = "/parts/index"
		}
		if r.URL.RawQuery != "" {
			poll += "?" + r.URL.RawQuery
		}
		var buf bytes.Buffer
		data := pageData{Title: v.Title, Name: name, Model: v.Model, Parts: parts, Poll: poll, PollMS: s.cfg.Poll.Milliseconds()}
		if err := s.tmpl.ExecuteTemplate(&buf, "layout", data); err != nil {
			s.fail(w, r, err)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = buf.WriteTo(w) // a client gone away: nothing to tell it
	}
}

// pageData is the layout's data.
type pageData struct {
	Title  string
	Name   string
	Model  any
	Parts  map[string]template.HTML
	Poll   string
	PollMS int64
}

// parts answers a poll: the page's parts as JSON {"parts": {name: html}}.
func (s *Server) parts(name string, build builder) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v, err := build(r)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		parts, err := s.renderParts(name, v)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		_ = json.NewEncoder(w).Encode(map[string]any{"parts": parts}) // a client gone away: nothing to tell it
	}
}

// renderParts executes the templates "<page>.<part>" of the view's parts.
func (s *Server) renderParts(name string, v *view) (map[string]template.HTML, error) {
	out := make(map[string]template.HTML, len(v.Parts))
	for _, p := range v.Parts {
		var buf bytes.Buffer
		if err := s.tmpl.ExecuteTemplate(&buf, name+"."+p, v.Model); err != nil {
			return nil, err
		}
		out[p] = template.HTML(buf.String()) // html/template's own output
	}
	return out, nil
}

// fail answers an error: 404 for a missing thing, else 500, the message
// escaped as text.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	code := http.StatusInternalServerError
	var nf notFound
	if errors.As(err, &nf) {
		code = http.StatusNotFound
	} else if r.Context().Err() == nil {
		s.cfg.Log.Error("dashboard", "path", r.URL.Path, "err", err)
	}
	http.Error(w, lineOf(err.Error()), code)
}

// intParam reads a non-negative integer query parameter (def when absent
// or not one).
func intParam(r *http.Request, name string, def int) int {
	n, err := strconv.Atoi(r.URL.Query().Get(name))
	if err != nil || n < 0 {
		return def
	}
	return n
}

// CheckAddr checks a listen address: a loopback host (127.0.0.1, ::1,
// localhost) unless public allows any. An empty host ("":8080) listens on
// every interface, so it needs public too.
func CheckAddr(addr string, public bool) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("address %q: want HOST:PORT, e.g. 127.0.0.1:8080 (%v)", addr, err)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return fmt.Errorf("address %q: port %q is not a number from 0 to 65535", addr, port)
	}
	if public {
		return nil
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("address %q is not a loopback address: the dashboard shows everything in the store (entrants, parameters, bot commands, workers' host names) to whoever reaches it; give --public to listen on %s", addr, addr)
}

// Serve serves the dashboard on ln until ctx ends, then shuts the server
// down.
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, WriteTimeout: time.Minute, IdleTimeout: time.Minute}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Run opens the store of cfg, listens on addr and serves the dashboard
// until ctx ends, saying on log where it listens.
func Run(ctx context.Context, cfg Config, addr string, log io.Writer) (err error) {
	srv, err := Open(ctx, cfg)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := srv.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("--addr %s: %w", addr, err)
	}
	fmt.Fprintf(log, "gauntlet serve: http://%s/ shows %s read-only; Ctrl-C stops it\n", ln.Addr(), store.RedactURL(cfg.Storage))
	return Serve(ctx, ln, srv)
}
