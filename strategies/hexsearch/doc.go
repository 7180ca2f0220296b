// Package hexsearch holds the search strategies of hextris (ICFP Contest
// 2015): hexgreedy and hexlookahead.
//
// For each unit of the (known) source, a breadth-first search over
// (pivot, rotation) from the spawn finds every placement where the unit can
// lock, with a command path to it; a shortest path never repeats a
// position, so every path obeys the repeat rule. Rotation indexes are the
// referee's, which already merge the rotations of symmetric units.
//
// Placements are scored by named, tunable weights (Weights): points earned
// with lines and the line bonus, holes, dead cells, column heights,
// bumpiness, depth of the placement, row fill, contact, enclosed cells and
// wells. hexgreedy takes
// the best placement of the current unit; hexlookahead searches Depth units
// ahead, expanding the Beam best placements per level within a node budget.
//
// Phrases of power are typed on the way to the chosen placement: a planner
// walks from the spawn and repeatedly types the most valuable word (up to
// three plain commands, then a phrase, possibly completing one the text
// already ends with) after which the target stays reachable, checked
// against backward distances to the target and the repeat rule of the
// current row. Unused phrases come first (300 points each), then points per
// row descended, the resource that bounds repetitions. A phrase that no
// single unit's fall can hold is carried across units ("spans"): a phrase
// character that cannot move the unit locks it, the next unit continues the
// phrase from its spawn, and a span is started only if simulating the next
// units shows that it completes with every placement within SpanMargin of
// the best.
//
// A phrase search (phrase_dp) then finds, for the same lock target, the
// path that earns the most power points, by dynamic programming over
// (position, row memory, phrase automaton state): an Aho–Corasick
// automaton over the phrases' characters counts occurrences as the text
// is typed, and carries its state from one unit to the next, so phrases
// that span units count. Down moves never come back up, so the repeat
// rule only concerns the current row; the search keeps each row's moves
// acyclic (sideways moves one way, rotations at one column one way, at
// most dp_turns of them) and the path graph is a DAG, searched by
// memoised recursion within a budget of states (dp_nodes). A phrase
// still unused earns its 300 points on reaching it (the search may count
// one twice within a unit); up to dp_unused unused phrases that fit the
// fall and the dp_repeats used ones with the best points per row are
// tried (the automaton is reduced to them for the unit), paths stay
// within dp_slack columns of the line from the spawn to the target, and a
// phrase left partly typed at the lock is worth dp_potential per
// character. With dp_span, up to that many unused phrases too long for the
// unit's fall may be begun, a partial one worth dp_span_potential per
// character at the lock, for the next units to finish (their first use is
// worth 300 points; small boards type more phrases so, but lose repeats:
// beam_span applies it to a second typing of the game beam's line only,
// kept if it scores more). The unit's text is the greedy planner's or the
// search's,
// whichever scores more, counted exactly with the automaton. Every unit's
// text is replayed on a copy of the referee's game before it is kept; if
// it does not lock the unit where planned, the plain shortest path is used
// instead.
//
// With portfolio N, hexlookahead also plays N weight variants one unit
// deep and keeps the text that the referee scores best (none by default:
// on the qualifier they took 12% of the time for about 110 points). The
// variants are ranked without the phrase search; the winner is played
// again with it (reusing its lock choices where the board is the same) and
// kept if it scores more. hexgreedy leaves the phrase search off by
// default.
//
// Last, hexlookahead plays a game beam (game_beam, game_nodes): the whole
// source searched as one beam over units, keeping after each unit the
// widest set of distinct game states its budget allows, ranked by the
// gains of their line plus the static value of their board. Where the
// lookahead commits to one placement per unit, the beam keeps
// alternatives alive until later units show which of them survive; on
// small boards with long sources that decides the score (problem 9: 7,000
// to about 30,000). Its budget is per problem, shared among the source
// seeds, and sets the width; a beam that would be under 16 wide is not
// played. The best line by move points, plus beam_rows points per row
// its units fall (the phrases typed on the way: a line that lives longer
// or locks deeper leaves the phrase search more rows), is typed with the
// phrase search (Solver.choose follows it lock for lock) and kept if the
// referee scores it above the lookahead's text. By default (game_line=0)
// only the beams below play their lines, at the game beam's width and
// budget: on the qualifier the fall beam's text scored as much or more on
// 17 of the 25 problems, and the game beam's own line and its second
// typing took a third of the solve time. While the best text's
// game ends before its source does, survive_beams more beams are played
// with a heavier height penalty (survival is what such a game lacks: each
// unit locked is a fall for the phrases; problem 18 locks 903 units of
// 1,000 instead of 240). The fall beam (fall_beam) is one more game beam,
// ranked for boards where units fall far: fall_gain per row each unit
// falls (the phrases typed on the way), the lock points' weight times
// fall_points (a line cleared lowers the stack for every later unit), its
// line picked by move points plus fall_rows per row; it has the game
// beam's budget, or big_nodes on a board too big for that (problem 24,
// 100×40 with 1,620 units, where the game beam is left out). The well beam
// (well_beam) is one more, ranked for lines cleared together (k lines in
// one lock earn 100·k(k+1)/2 points, 100·k one by one): its evaluation
// rewards the deepest open well (Weights.Well: rows one cell short, their
// empty cells on a diagonal that the problem's longest straight unit
// slides down) and nearly full rows, where that unit is long for the
// board's width (problem 8: the game beam clears every line alone, the
// well beam four at a time, twice the move points).
//
// Both strategies are deterministic; a deadline on the context stops a
// solve early with the (valid) text of the units placed so far.
package hexsearch
