// Package e2e holds the end-to-end tests of the gauntlet command on the
// real games: the built binary run as a user runs it, with external bots
// (scripts under the referees' testdata and bots compiled into this test
// binary, see internal/testbot). The CLI's own tests in cmd/gauntlet use
// toy games only, so that nothing in cmd/ names a game.
package e2e
