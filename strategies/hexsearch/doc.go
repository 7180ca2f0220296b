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
// bumpiness, depth of the placement, row fill and contact. hexgreedy takes
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
// the best. Every unit's text is replayed on a copy of the referee's game
// before it is kept; if it does not lock the unit where planned, the plain
// shortest path is used instead.
//
// hexlookahead also plays a portfolio of weight variants one unit deep and
// keeps the text that the referee scores best.
//
// Both strategies are deterministic; a deadline on the context stops a
// solve early with the (valid) text of the units placed so far.
package hexsearch
