// Package entrant reads who plays: a built-in strategy with parameter
// values ("greedy:depth=3") or an external command ("cmd:./bot {seed}")
// with its placeholders, spec files and fingerprint (external.go), a
// line-up of several (parse.go), and an entrant of a stored run that no
// longer parses (stored.go). An entrant makes the ready-made
// contract.Player a game plays with (Entrant.Player).
package entrant
