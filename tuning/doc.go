// Package tuning runs Goptuna studies over a strategy's declared parameters:
// the search space comes from the strategy's param.Specs, a trial plays the
// study's cases in chunks (an intermediate value after each, so that pruners
// can stop bad trials early), and the study lives in the same database as
// the results store through Goptuna's rdb.v2 storage; the tables of ours
// beside Goptuna's, and every statement on them, are package store's
// (store.Studies).
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
//
// # Reading studies back (reports)
//
// A report reads a study without a registry:
//
//	func ListStudies(ctx context.Context, url string) ([]StudyInfo, error)
//	func LoadStudy(ctx context.Context, url, name string) (*StudyRecord, error)
//	func BuildSummary(rec *StudyRecord) *Summary
//
// url is a storage URL as --storage takes it ("sqlite:FILE" or
// "postgres://..."). A StudyRecord has the study's Spec (game, strategy,
// case set, searched parameters, base values, sampler, seed, pruner), its
// Units (the scored cases in play order), the default configuration's
// per-unit scores (DefaultScores) and every trial as a TrialRecord: Number,
// State (complete, pruned, failed, lost, running, waiting), Value, Params in
// Goptuna's external representation (int, float64, or the choice name of a
// categorical), Intermediate values (Step = units played, Value = running
// mean), per-unit Scores, Start and End times, Worker. StudyRecord.Best
// returns the best complete trial. With an open *Storage the same are
// Storage.Studies and Storage.Load.
package tuning
