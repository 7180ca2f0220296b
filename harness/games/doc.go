// Package games wraps each referee package as a harness.Game and registers
// it, with its built-in strategies, in harness.Default. Import it for its
// side effects.
package games
