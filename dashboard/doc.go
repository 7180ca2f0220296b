// Package dashboard is `gauntlet serve`: a web dashboard over a results
// store (SQLite file or PostgreSQL), opened read-only, that shows every
// eval and ab run, tuning study, SPSA study and league while workers play
// them.
//
// A page is server-rendered HTML (html/template) made of parts; the page's
// script asks the page's parts endpoint for the parts again every few
// seconds and replaces those whose HTML changed, so that a page follows a
// run without reloading what did not move. Charts are SVG drawn on the
// server; the script and style sheet are embedded in the binary: the
// dashboard needs no network beyond its own address.
//
// Pages stay fast on large stores: counts walk the games table's primary
// key, pages of games are read by key range (store.GamesPage: the
// dashboard holds no statement, and opens the database once), and an
// unfinished run's statistics are computed in the background from a
// follower of its games (results.Follower: each computation reads the
// run's keys and only the games stored since the last), at most once per
// change of its game count and never more often than their own cost
// allows, while the page shows the last ones computed (live.go). A
// finished run shows the summary its command stored.
// A league's board is followed (league.Follower): each build reads only
// the games stored since the last one, in the background (leagues.go).
//
// Everything read from the store (entrant names, parameters, forfeit
// reasons, worker names) came from bots, files or other users: the
// templates escape it for HTML, and untrusted.Line escapes what is not
// safe to show as text.
package dashboard
