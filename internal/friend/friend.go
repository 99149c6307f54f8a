// Package friend hands the module's own packages what the public packages
// keep from their users: the writer of a journal, which only the runtime
// that owns it may hold, and a scenario builder bound to a session. A
// public package registers its constructor here from its init; the
// runtime and the session package call it through the generic functions
// below, whose type arguments name the public types, so that both ends
// are checked by the compiler and only the registration is checked when
// it is first used.
//
// It imports nothing of this module, so that scenario and journal, which
// import nothing else of it, may import it.
package friend

import "fmt"

// JournalWriter is the write side of a journal of entries E.
type JournalWriter[E any] interface {
	// Record appends e, evicting what no longer fits the bounds.
	Record(e E)
	// Reset forgets every entry and restarts numbering.
	Reset()
	// Resize changes the bounds, evicting what no longer fits.
	Resize(capacity int, maxBytes int64)
	// Freeze makes the journal read-only for good.
	Freeze()
}

// ScenarioSink receives what a scenario builder scripts, for scenarios S
// matching M with replies R: a session implements it.
type ScenarioSink[M, R, S any] interface {
	// AddReplies appends replies to the scenario called name, creating it
	// with match when there is none of that name yet.
	AddReplies(name string, match M, replies ...R)
	// UpdateScenario changes the settings of the scenario called name,
	// creating it with match when there is none, and keeps its replies.
	UpdateScenario(name string, match M, change func(*S))
	// ClearReplies drops the replies the scenario called name has left.
	ClearReplies(name string)
}

var (
	newJournal any // func(int, int64) (J, JournalWriter[E]), set by package journal
	newBuilder any // func(ScenarioSink[M, R, S], string, M) B, set by package scenario
)

// RegisterJournal records the constructor of a journal and its writer.
// Package journal calls it from its init.
func RegisterJournal[J, E any](f func(capacity int, maxBytes int64) (J, JournalWriter[E])) {
	newJournal = f
}

// NewJournal returns an empty journal of entries E, bounded to capacity
// entries and maxBytes bytes, and its writer.
func NewJournal[J, E any](capacity int, maxBytes int64) (J, JournalWriter[E]) {
	return registered[func(int, int64) (J, JournalWriter[E])](newJournal, "journal")(capacity, maxBytes)
}

// RegisterBuilder records the constructor of scenario builders. Package
// scenario calls it from its init.
func RegisterBuilder[B, M, R, S any](f func(sink ScenarioSink[M, R, S], name string, base M) B) {
	newBuilder = f
}

// NewBuilder returns a builder that scripts the scenario name, matching
// base, into sink.
func NewBuilder[B, M, R, S any](sink ScenarioSink[M, R, S], name string, base M) B {
	return registered[func(ScenarioSink[M, R, S], string, M) B](newBuilder, "builder")(sink, name, base)
}

// registered returns the constructor f as the type the caller expects, and
// panics when none of that type was registered: the type arguments of a
// call do not match the registration, a mistake of this module's code that
// its tests catch.
func registered[F any](f any, what string) F {
	typed, ok := f.(F)
	if !ok {
		panic(fmt.Sprintf("friend: no %s constructor of type %T is registered (have %T)", what, typed, f))
	}
	return typed
}
