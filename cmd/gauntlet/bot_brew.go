package main

import (
	"context"
	"fmt"
	"io"

	"gauntlet/referees/brew"
)

func init() {
	botServers["brew"] = func(ctx context.Context, r io.Reader, w io.Writer, bot any) error {
		b, ok := bot.(brew.Bot)
		if !ok {
			return fmt.Errorf("not a brew bot")
		}
		return brew.Serve(ctx, r, w, b)
	}
}
