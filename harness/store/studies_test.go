package store

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"
)

// An SPSA study through the store: defined once, blocks claimed, renewed
// only by their owner, released and taken over, committed with θ moved
// by the worker's update, read back, listed and deleted.
func TestSPSAStudyLifecycle(t *testing.T) {
	for _, url := range storeURLs(t) {
		t.Run(dialectOf(url), func(t *testing.T) {
			ctx := context.Background()
			s, err := Open(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if err := s.CreateSPSATables(ctx); err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("store-test-%d", time.Now().UnixNano())
			defer s.DeleteSPSA(ctx, name)
			if stored, err := s.DefineSPSA(ctx, name, `{"v":1}`, []float64{0, 0}); err != nil || stored != `{"v":1}` {
				t.Fatalf("define: %q, %v", stored, err)
			}
			if stored, err := s.DefineSPSA(ctx, name, `{"v":2}`, []float64{9, 9}); err != nil || stored != `{"v":1}` {
				t.Fatalf("define again: %q, %v; want the stored definition", stored, err)
			}
			c, err := s.ClaimSPSA(ctx, name, "elsewhere:a", 3, 2, time.Hour)
			if err != nil || c.Block == nil || c.Block.First != 1 || c.Block.N != 2 || c.Block.Attempt != 1 {
				t.Fatalf("first claim: %+v, %v", c, err)
			}
			if ok, err := s.RenewSPSA(ctx, name, 1, "elsewhere:b", time.Hour); err != nil || ok {
				t.Fatalf("b renewed a's block: %v, %v", ok, err)
			}
			if err := s.ReleaseSPSA(ctx, name, 1, "elsewhere:a"); err != nil {
				t.Fatal(err)
			}
			c, err = s.ClaimSPSA(ctx, name, "elsewhere:b", 3, 2, time.Hour)
			if err != nil || c.Block == nil || c.Block.First != 1 || c.Block.Attempt != 2 {
				t.Fatalf("a released block is not taken over: %+v, %v", c, err)
			}
			blk := *c.Block
			results := []SPSAResult{{Iter: 1, Case: "c1", Flips: "+-", Wins: 1}, {Iter: 2, Case: "c2", Flips: "--", Losses: 1}}
			if cm, err := s.CommitSPSA(ctx, name, "elsewhere:a", blk, results, func([]float64, int) {}); err != nil || !cm.Lost {
				t.Fatalf("a committed b's block: %+v, %v", cm, err)
			}
			cm, err := s.CommitSPSA(ctx, name, "elsewhere:b", blk, results, func(th []float64, i int) { th[i]++ })
			if err != nil || cm.Lost || cm.Applied != 2 || !slices.Equal(cm.Theta, []float64{1, 1}) {
				t.Fatalf("commit: %+v, %v", cm, err)
			}
			c, err = s.ClaimSPSA(ctx, name, "elsewhere:b", 3, 2, time.Hour)
			if err != nil || c.Block == nil || c.Block.First != 3 || c.Block.N != 1 || !slices.Equal(c.Block.Theta, []float64{1, 1}) {
				t.Fatalf("last claim: %+v, %v", c, err)
			}
			if c, err := s.ClaimSPSA(ctx, name, "elsewhere:a", 3, 2, time.Hour); err != nil || c.Block != nil || !c.Wait {
				t.Fatalf("claim with the last block held: %+v, %v; want to wait", c, err)
			}
			rec, err := s.LoadSPSA(ctx, name)
			if err != nil || rec == nil {
				t.Fatalf("load: %v, %v", rec, err)
			}
			if rec.Spec != `{"v":1}` || rec.Applied != 2 || rec.Handed != 3 || rec.Replayed != 1 || rec.Pending != 1 || len(rec.Iterations) != 2 {
				t.Fatalf("loaded %+v", rec)
			}
			if it := rec.Iterations[1]; it.Seq != 2 || it.Case != "c2" || it.Losses != 1 || !slices.Equal(it.Theta, []float64{1, 1}) || it.Worker != "elsewhere:b" {
				t.Errorf("second iteration %+v", it)
			}
			heads, err := s.SPSAStudies(ctx)
			if err != nil || !slices.ContainsFunc(heads, func(h SPSAHead) bool { return h.Name == name && h.Applied == 2 }) {
				t.Fatalf("list: %+v, %v", heads, err)
			}
			if err := s.DeleteSPSA(ctx, name); err != nil {
				t.Fatal(err)
			}
			if rec, err := s.LoadSPSA(ctx, name); err != nil || rec != nil {
				t.Fatalf("deleted study: %+v, %v", rec, err)
			}
		})
	}
}

// A tuning study's records of ours through the store: the definition kept
// as first stored, the default scores written once, a trial's scores
// replaced, finished units kept as first stored.
func TestStudyRecords(t *testing.T) {
	for _, url := range storeURLs(t) {
		t.Run(dialectOf(url), func(t *testing.T) {
			ctx := context.Background()
			s, err := Open(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			q := s.Studies()
			if err := q.CreateTables(ctx); err != nil {
				t.Fatal(err)
			}
			now := time.Now()
			name := fmt.Sprintf("store-test-%d", now.UnixNano())
			id := int(now.UnixNano()%1_000_000_000) + 1_000_000_000 // a study ID no other test uses
			trial := id                                             // trial IDs are a key of tune_scores: one no other test uses
			defer func() {                                          // a shared server keeps nothing of the test
				for _, q := range []struct {
					sql string
					arg any
				}{
					{`DELETE FROM tune_studies WHERE study_name = ?`, name},
					{`DELETE FROM tune_scores WHERE study_id = ?`, id},
					{`DELETE FROM tune_units WHERE study_id = ?`, id},
				} {
					if _, err := s.db.ExecContext(ctx, s.rebind(q.sql), q.arg); err != nil {
						t.Errorf("cleaning up: %v", err)
					}
				}
			}()
			if d, err := q.DefineStudy(ctx, StudyDef{Name: name, Spec: "a", Units: "u"}); err != nil || d.Spec != "a" {
				t.Fatalf("define: %+v, %v", d, err)
			}
			if d, err := q.DefineStudy(ctx, StudyDef{Name: name, Spec: "b", Units: "v"}); err != nil || d.Spec != "a" || d.Units != "u" {
				t.Fatalf("define again: %+v, %v; want the stored definition", d, err)
			}
			for _, sc := range [][]float64{{1, 2}, {3}} {
				if err := q.SetDefaultScores(ctx, name, sc); err != nil {
					t.Fatal(err)
				}
			}
			if d, err := q.Study(ctx, name); err != nil || d == nil || !slices.Equal(d.DefaultScores, []float64{1, 2}) || d.Created.IsZero() {
				t.Fatalf("study: %+v, %v", d, err)
			}
			if d, err := q.Study(ctx, name+"-none"); err != nil || d != nil {
				t.Fatalf("a study not stored: %+v, %v", d, err)
			}
			names, err := q.StudyNames(ctx, true)
			if err != nil || !slices.Contains(names, name) {
				t.Fatalf("names: %v, %v", names, err)
			}
			for _, sc := range [][]float64{{0.5}, {0.5, 0.25}} {
				if err := q.SaveScores(ctx, id, trial, sc); err != nil {
					t.Fatal(err)
				}
			}
			if sc, err := q.TrialScores(ctx, trial); err != nil || !slices.Equal(sc, []float64{0.5, 0.25}) {
				t.Fatalf("trial scores: %v, %v", sc, err)
			}
			if all, err := q.StudyScores(ctx, id); err != nil || len(all) != 1 || len(all[trial]) != 2 {
				t.Fatalf("study scores: %v, %v", all, err)
			}
			if err := s.SaveUnits(ctx, id, trial, "cfg", map[int]float64{0: 1, 1: 2}); err != nil {
				t.Fatal(err)
			}
			if err := s.SaveUnits(ctx, id, trial, "cfg", map[int]float64{1: 9, 2: 3}); err != nil {
				t.Fatal(err)
			}
			units, err := q.LoadUnits(ctx, id, "cfg")
			want := []StoredUnit{{0, trial, 1}, {1, trial, 2}, {2, trial, 3}}
			if err != nil || !slices.Equal(units, want) {
				t.Fatalf("units %v, %v; want %v", units, err, want)
			}
		})
	}
}
