// Package workflow is what the commands that play games do between
// reading their flags and printing their answer: resolve the entrants and
// the case set, check every input before a game starts, play the plan on
// the results store (resuming a run that is there), summarise it and
// record the summary; list and compare the stored runs. It renders
// nothing: package reports prints what it returns.
//
// Games, strategies and stores come from harness (contract.Default is the
// registry). Every error about the request is a usage error
// (harness/cli), which the CLI turns into exit status 2.
package workflow
