//go:build race

package scenario_test

// raceEnabled reports whether the race detector is on. Under it, sync.Pool
// drops items at random, so the regexp package's pooled matchers allocate.
const raceEnabled = true
