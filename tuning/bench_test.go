package tuning

import (
	"context"
	"log/slog"
	"os"
	"testing"
	"time"
)

// BenchmarkTrialOverhead measures one trial of a SQLite study on the toy
// game with 4 instant cases: the cost of the bookkeeping (lock, heartbeat
// row, sampler, intermediate values, scores) per trial.
func BenchmarkTrialOverhead(b *testing.B) {
	for _, sampler := range []string{"random", "tpe"} {
		b.Run(sampler, func(b *testing.B) {
			reg := toyRegistry(0)
			tu, err := New(reg, Config{Game: "knob", Strategy: "dial", Cases: "seeds:4", Sampler: sampler, Chunk: 2, Pruner: "median"})
			if err != nil {
				b.Fatal(err)
			}
			st, err := OpenStorage(context.Background(), "sqlite:"+b.TempDir()+"/bench.db")
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
			b.ResetTimer()
			start := time.Now()
			if _, err := tu.Run(context.Background(), st, RunOptions{Study: "bench", Trials: b.N, Jobs: 1, Log: log}); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "trials/s")
		})
	}
}
