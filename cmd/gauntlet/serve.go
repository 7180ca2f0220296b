package main

import (
	"context"
	"time"

	"gauntlet/dashboard"
	"gauntlet/harness/contract"
	"gauntlet/harness/store"
	"gauntlet/workflow"
)

func init() {
	register(&command{
		name:    "serve",
		summary: "a live web dashboard over a store: runs, A/B tests, tuning and SPSA studies (read-only, localhost)",
		run:     runServe,
	})
}

func runServe(ctx context.Context, e *env, args []string) error {
	var storage, addr string
	var public bool
	var poll time.Duration
	fs := newFlags(e, "serve", "[--storage URL] [--addr 127.0.0.1:8080] [--public] [--poll 2s]")
	fs.StringVar(&storage, "storage", store.DefaultStorage, "results store to show: sqlite:FILE or postgres://... (opened read-only)")
	fs.StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on (port 0: any free port); a non-loopback address needs --public")
	fs.BoolVar(&public, "public", false, "allow a non-loopback --addr: whoever reaches it sees everything in the store")
	fs.DurationVar(&poll, "poll", 2*time.Second, "how often an open page refreshes what changed")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if err := dashboard.CheckAddr(addr, public); err != nil {
		return usagef("--addr: %v", err)
	}
	if poll < 200*time.Millisecond {
		return usagef("--poll %s: want at least 200ms", poll)
	}
	if err := workflow.ReadStorage("--storage", storage, "serve shows a results store"); err != nil {
		return err
	}
	if err := workflow.ExistingDatabase(storage); err != nil {
		return err
	}
	return dashboard.Run(ctx, dashboard.Config{Storage: storage, Registry: contract.Default, Poll: poll}, addr, e.stderr)
}
