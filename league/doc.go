// Package league keeps a league: a named, stored pool of versions of bots
// for one game, to which versions are added and from which they are
// removed while it runs, and which plays games among them where they
// inform most, on one machine or several sharing one store.
//
// Ratings are maximum-likelihood fits over all games: Bradley–Terry (the
// model Ordo and BayesElo fit) for two-player games, draws counted as
// half points, and Plackett–Luce over placements for games of more
// players (and for single-player games, whose versions are placed by
// their scores on the same case). Both are fitted by Newton's method on
// counts aggregated per pair (or per distinct stage of a placement), so a
// fit costs by the number of versions, not games. Intervals come from the
// observed information (the inverse Hessian under Σθ = 0).
//
// Matchmaking plays a version with fewer than FreshGames games first,
// against the versions it met least; otherwise the pair (or group) whose
// result is least certain: p(1−p)·Var(r_i − r_j), largest first, so close
// ratings and wide intervals go first. Each scheduled unit plays one case
// in every rotation of its seats (a pair plays the same seed both ways).
//
// Work is shared through the store (package store holds the league's
// tables and statements) as blocks of units claimed under a lease
// (internal/sqldb): a worker killed with -9 leaves its block to the
// next worker, which plays the same units; a block's games are stored in
// one transaction with its completion, so none is lost or stored twice.
package league
