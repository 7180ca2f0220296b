// Package harnesstest holds what the harness packages' tests share: the
// duel toy game and its registry, and test stores.
package harnesstest
