// Package store keeps runs and their games in SQLite or PostgreSQL: the
// storage URL and its file checks (store.go, file.go), the schema, runs
// and their entrants' records (runs.go), games in batches and their compact
// codec (games.go, codec.go, detail.go), and the blocks of games that
// workers claim, renew and release (blocks.go). It knows games only through
// package contract's Outcome.
package store
