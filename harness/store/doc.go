// Package store is gauntlet's one database layer, in SQLite or PostgreSQL:
// every SQL statement of the module outside internal/sqldb (the dialect,
// locks and lease protocol beneath it) is here, behind typed methods. One
// Open serves runs, tuning studies, SPSA studies and leagues, on one
// connection pool, with every table declared in this package (file.go recognises a
// store by them).
//
// Runs: the storage URL and its file checks (store.go, file.go), the
// schema, runs and their entrants' records (runs.go), games in batches and
// their compact codec (games.go, codec.go, detail.go), referee failures
// (referees.go), and the blocks of games that workers claim, renew and
// release (blocks.go). It knows games only through package contract's
// Outcome.
//
// Tuning studies (package tuning, beside Goptuna's own tables): their
// definitions and scores (studies.go), the trials' bookkeeping and
// heartbeats (trials.go) and finished units (units.go), through Studies,
// which runs on the store's database or in a transaction that Goptuna's
// storage shares. SPSA studies (package tuning/spsa): definitions, leased
// blocks of iterations and applied iterations (spsa.go). Leagues (package
// league): definitions, versions, leased blocks of units, their games and
// referee failures (league.go). What the dashboard reads of the work in
// progress: workers, heartbeats, pages of a run's games (dashboard.go).
package store
