// Package results turns a run's games into what eval, ab and compare
// report: the eval summary (eval.go), the A/B summary and its sequential
// test (ab.go, absummary.go), external bots' conduct (conduct.go), the
// comparison of two stored runs (compare.go), and stored runs loaded again
// (load.go, watch.go).
package results
