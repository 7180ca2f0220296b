// Package tuning runs Goptuna studies over a strategy's declared parameters:
// the search space comes from the strategy's param.Specs, a trial plays the
// study's cases in chunks (an intermediate value after each, so that pruners
// can stop bad trials early), and the study lives in the same database as
// the results store through Goptuna's rdb.v2 storage.
//
// Several workers, in one process or many machines, share a study: creating
// the next trial is serialised with a database lock so that a study gets
// exactly its budget of trials, and each running trial has a heartbeat in a
// table of ours; a trial whose heartbeat goes stale is marked failed and its
// parameters are queued again for the survivors.
//
// Sampling is reproducible: the samplers here (TPE, random) draw every number
// of a trial from a generator derived from the study seed, the trial's
// budget slot and the parameter name, so a seeded study with one worker at a
// time gives the same trials twice, restarts included.
package tuning
