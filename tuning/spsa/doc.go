// Package spsa tunes many numeric parameters of an entrant at once by
// self-play, with simultaneous perturbation stochastic approximation as
// fishtest runs it for Stockfish (its "classic" SPSA).
//
// # The algorithm
//
// A study of N iterations (N = games/2; each iteration is one game pair)
// keeps a point θ, one coordinate per tuned parameter, starting at the
// entrant's start values. Iteration k = 1..N draws a random vector Δ of ±1
// and plays one pair of games on one case between θ+ = θ + c_k·Δ and
// θ− = θ − c_k·Δ, with the seats swapped between the two games (the other
// seats, if the game has more, hold the start values). With W, L the wins
// and losses of θ+ against θ− over the pair, every coordinate moves by
//
//	θ_i ← clamp(θ_i + a_k,i · (W − L) · Δ_i / c_k,i)
//
// (1/Δ_i = Δ_i for Δ_i = ±1). The gains follow fishtest's schedule:
//
//	c_k = c / k^γ                a_k = a / (A + k)^α
//	c   = c_end · N^γ            a   = r_end · c_end² · (A + N)^α
//	A   = ⌊A_ratio · N⌋          α = 0.602, γ = 0.101, A_ratio = 0.1
//
// so that at the last iteration c_N = c_end (the perturbation at the end)
// and a_N / c_N² = r_end (the learning rate at the end). A parameter's c_end
// defaults to a tenth of its declared range (at least 0.5 for an integer
// parameter) and its r_end to 0.002 (Stockfish's default); both are
// settable per parameter. Coordinates are the parameter's own value, or its
// logarithm for a log-float parameter; θ± and θ are clamped to the declared
// range. An integer parameter's θ± is rounded stochastically as fishtest's
// worker does: ⌊x + u⌋ with u uniform in [0, 1), so that its expected value
// is x. The final values round integer parameters to the nearest integer.
// Categorical parameters cannot be perturbed: they keep their start value.
//
// Every random draw of iteration k (Δ, the rounding of θ+ and θ−) comes from
// a generator seeded with the study seed and k, and iteration k plays the
// (k−1 mod n)-th of the study's n cases.
//
// # Storage and workers
//
// A study lives in three tables of the results store (SQLite or
// PostgreSQL), whose statements package store holds: spsa_studies (its definition, the current θ, the iterations
// applied and handed out), spsa_blocks (runs of consecutive iterations
// handed to a worker, with the θ they start from) and spsa_iterations (each
// applied iteration: its case, Δ, the pair's wins, draws and losses and θ
// after it). A worker claims a block in one transaction that holds the
// study's lock (an immediate transaction on SQLite, an advisory lock on
// PostgreSQL), plays its pairs from the block's θ, moving its own copy of θ
// after each pair, and applies the block in one transaction: every
// iteration's update is added, in order, to the stored θ, which other
// workers may have moved meanwhile (asynchronous SPSA, as fishtest's workers
// do). An iteration is stored once (its key is the study and its number) and
// only by the worker that holds its block, so none is counted twice. A
// block's claim is a lease renewed while it plays; a block whose worker died
// (its lease expired, or its process is gone on this machine) is played
// again from the same θ by the next worker that asks for work.
//
// With one worker and one lane at a time every block starts from the θ left
// by all the iterations before it, so a study is the same whatever the block
// sizes, the kills and restarts: the study records this per iteration
// (in_order) and reports whether it is reproducible.
//
// # Entrants
//
// What is tuned is a Target: declared parameters and a way to build an
// entrant from their values. StrategyTarget adapts a registered built-in
// strategy; an external command with declared parameters plugs in as another
// Target.
package spsa
