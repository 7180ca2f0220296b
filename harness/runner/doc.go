// Package runner plays plans: a run's identity and its matches (plan.go),
// one game with its players and its bots' bounds (play.go), and the Runner
// that plays a plan in parallel, resumably when it has a store: it claims
// blocks of games (claims.go), collects and stores finished games in
// batches (collect.go) and draws progress (progress.go).
package runner
