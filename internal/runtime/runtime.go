package runtime

import (
	"context"
	"crypto/subtle"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/internal/friend"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// ErrSuperseded is the cancellation cause of requests that were in flight
// when their runtime was retired.
var ErrSuperseded = errors.New("runtime: session deleted while the request was in flight")

// Settings is everything a runtime is configured with. The session package
// builds it from the public, JSON-serializable configuration.
type Settings struct {
	// APIKey, when set, is the provider API key every request must
	// present, as its codec reads it (provider.Codec.APIKey): OpenAI's
	// bearer token, Anthropic's x-api-key.
	APIKey string
	// Models lists the models served; empty means the built-in catalog.
	Models []string
	// Scenarios script the answers, tried in order.
	Scenarios []scenario.Scenario
	// JournalCapacity and JournalMaxBytes bound the journal.
	JournalCapacity int
	JournalMaxBytes int64
	// JournalBodyBytes is how many first bytes of a request's body its
	// entry keeps (0: none), and JournalRedactHeaders the headers, beyond
	// the credentials the HTTP core always redacts, whose values the
	// journal never shows; the HTTP core reads both.
	JournalBodyBytes     int64
	JournalRedactHeaders []string
	// Stream shapes streamed answers.
	Stream StreamSettings
	// HistoryCapacity is the most records the codecs store (responses,
	// stored chat completions and conversations alike) kept, and
	// HistoryMaxBytes the most bytes they keep, as Stored.Size counts them.
	HistoryCapacity int
	HistoryMaxBytes int64
	// VideoCapacity is the most video jobs kept, and VideoMaxBytes the
	// most bytes they keep; JobCapacity and JobMaxBytes bound the other
	// jobs (batches, their files, background responses) alike, as
	// AddJob says. The reservation prices both.
	VideoCapacity int
	VideoMaxBytes int64
	JobCapacity   int
	JobMaxBytes   int64
	// RateLimits limit the requests and tokens a minute, per model (see
	// RateLimits); the zero value limits nothing.
	RateLimits RateLimits
	// Chaos are the session-wide fault rules (see Chaos).
	Chaos Chaos
	// IgnoreContextWindow turns off the check that a request's prompt and
	// its maximum output fit the model's context window.
	IgnoreContextWindow bool
	// AllowUnknownParameters lets request bodies carry fields the codecs do
	// not know, which they otherwise refuse as the provider does.
	AllowUnknownParameters bool
	// RelaxAPIHeaders serves requests whose API headers the provider
	// refuses (Anthropic's missing anthropic-version, an unknown
	// anthropic-beta value).
	RelaxAPIHeaders bool
	// IdempotencyCapacity is the most Idempotency-Key answers kept, and
	// IdempotencyMaxBytes the most bytes they keep (see
	// IdempotentAnswer.Size).
	IdempotencyCapacity int
	IdempotencyMaxBytes int64
	// IDSeed, when set, seeds the sequence of generated IDs and request
	// serials, so that they are the same on every run; nil draws a random
	// sequence, unique to the runtime. New and Reset start the sequence;
	// Configure restarts it only when the seed changes.
	IDSeed *uint64
	// Clock is the time the runtime runs on; nil means the real clock. A
	// runtime keeps the clock it was made with: Configure never changes
	// it.
	Clock clock.Clock
}

// StreamSettings shape streamed answers.
type StreamSettings struct {
	// TokensPerChunk is how many tokens a content chunk carries (at least 1).
	TokensPerChunk int
	// TTFT holds the first chunk back.
	TTFT time.Duration
	// TokensPerSecond paces the chunks after the first; 0 sends them at once.
	TokensPerSecond float64
}

// Paced reports whether streams are paced, and so flushed event by event.
func (s StreamSettings) Paced() bool { return s.TTFT > 0 || s.TokensPerSecond > 0 }

// Runtime is one isolated fake provider.
type Runtime struct {
	// journal is what tests read of the journal, and journalWriter its
	// write side, which never leaves the runtime.
	journal       *journal.Journal
	journalWriter friend.JournalWriter[journal.Entry]
	clock         clock.Clock

	mu       sync.Mutex
	settings Settings             // guarded by mu; never mutated in place
	queues   []*queue             // guarded by mu; one per scenario, in order
	retired  bool                 // guarded by mu
	inflight map[*flight]struct{} // guarded by mu
	lastEnd  time.Time            // guarded by mu; when the last request in flight ended (see idle.go)
	serial   uint64               // guarded by mu; numbers requests
	ids      idSequence           // guarded by mu; generates IDs and serials
	// conversations tracks generations by conversation identity; guarded by mu.
	conversations map[identityKey]conversation
	// positions counts the per-conversation queue positions of all queues;
	// guarded by mu.
	positions int
	history   history // guarded by mu
	jobs      jobs    // guarded by mu
	// earlier counts the turns before a continued chain's kept responses
	// for the one reservation under way (see ReserveAfter); guarded by mu.
	earlier Earlier
	// prefixes holds the prompt prefixes seen, for prompt caching, with
	// their expiry in Unix nanoseconds (0 for none); guarded by mu.
	prefixes map[prefixKey]int64
	// rates holds the rate-limit buckets by model, at most maxRateBuckets;
	// guarded by mu.
	rates map[string]*modelBuckets
	// chaos is the live state of the chaos rules; guarded by mu.
	chaos chaosState
	// idempotency holds the answers kept under Idempotency-Key; guarded
	// by mu.
	idempotency idempotency
	// faults counts the fired faults by kind; guarded by mu.
	faults map[string]int
}

// flight is one request in progress.
type flight struct {
	cancel   context.CancelCauseFunc
	onRetire func() // may be nil
}

// New returns a runtime configured with s.
func New(s Settings) *Runtime {
	rt := &Runtime{
		clock:    s.Clock,
		settings: s,
		inflight: make(map[*flight]struct{}),
		ids:      newIDSequence(s.IDSeed),

		conversations: make(map[identityKey]conversation),
	}
	rt.journal, rt.journalWriter = newJournal(&s)
	if rt.clock == nil {
		rt.clock = clock.Real()
	}
	rt.settings.Clock = rt.clock
	rt.settings.Scenarios = ownReplies(s.Scenarios)
	rt.queues = newQueues(rt.settings.Scenarios)
	rt.chaos = newChaosState(rt.settings.Chaos)
	return rt
}

// newJournal returns an empty journal within s's bounds, and its writer.
func newJournal(s *Settings) (*journal.Journal, friend.JournalWriter[journal.Entry]) {
	return friend.NewJournal[*journal.Journal, journal.Entry](s.JournalCapacity, s.JournalMaxBytes)
}

// Journal returns the runtime's journal, read-only: only the runtime
// writes it.
func (rt *Runtime) Journal() *journal.Journal { return rt.journal }

// Settings returns the current settings. The caller must not modify them.
func (rt *Runtime) Settings() Settings {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.settings
}

// Configure replaces the settings as a whole. Scenario queues start afresh
// from the new scenarios, rate-limit buckets full and chaos rules from
// their seed; the journal keeps what fits its new bounds. Generated IDs go
// on with their sequence unless the ID seed changes, which restarts it
// from the new seed (a random one for none). A retired runtime stays as
// it is.
func (rt *Runtime) Configure(s Settings) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.retired {
		return
	}
	if !sameSeed(rt.settings.IDSeed, s.IDSeed) {
		rt.ids, rt.serial = newIDSequence(s.IDSeed), 0
	}
	rt.settings = s
	rt.settings.Clock = rt.clock
	rt.settings.Scenarios = ownReplies(s.Scenarios)
	rt.queues = newQueues(rt.settings.Scenarios)
	rt.positions = 0
	rt.rates = nil
	rt.chaos = newChaosState(s.Chaos)
	rt.trimHistory(s.HistoryCapacity)
	rt.idempotency.trim(s.IdempotencyCapacity, s.IdempotencyMaxBytes)
	rt.journalWriter.Resize(s.JournalCapacity, s.JournalMaxBytes)
}

// Reset forgets all state and keeps the settings: every scripted reply is
// available again, the journal and the fault counters are empty, the
// history (stored responses, chat completions and conversations), the
// prompt cache and the conversations' generations are forgotten,
// generated IDs and request serials start over (from the ID seed, so that
// a seeded session repeats its IDs; else from a fresh random sequence),
// the rate-limit buckets are full, the chaos rules start again from their
// seed and the kept Idempotency-Key answers are gone. A retired runtime
// stays as it is, so its journal can still be read.
func (rt *Runtime) Reset() {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.retired {
		return
	}
	rt.queues = newQueues(rt.settings.Scenarios)
	rt.positions = 0
	rt.serial = 0
	rt.ids = newIDSequence(rt.settings.IDSeed)
	clear(rt.conversations)
	rt.history = history{}
	rt.jobs = jobs{}
	rt.prefixes = nil
	rt.rates = nil
	rt.chaos = newChaosState(rt.settings.Chaos)
	rt.idempotency.reset()
	rt.faults = nil
	rt.journalWriter.Reset()
}

// Retire ends the runtime's life: requests in flight are cancelled with
// ErrSuperseded, new ones are refused, and nothing changes any more: not its
// queues, conversations, history, prompt cache, ID sequence or journal.
// Every mutator checks retired in the same critical section as its change.
func (rt *Runtime) Retire() {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.retireLocked()
}

// retireLocked is Retire with rt.mu held.
func (rt *Runtime) retireLocked() {
	rt.retired = true
	rt.journalWriter.Freeze()
	for f := range rt.inflight {
		f.cancel(ErrSuperseded)
		if f.onRetire != nil {
			f.onRetire()
		}
	}
	clear(rt.inflight)
}

// Begin registers a request as in flight. If the runtime is retired before
// end is called, the returned context is cancelled with ErrSuperseded and
// onRetire, when not nil, runs (under the runtime's lock: it must be quick
// and must not call the runtime). Once end has returned, onRetire never
// runs, so it may touch what only the request owns, such as its
// connection. end must be called when the request is over. Begin fails when
// the runtime is already retired.
func (rt *Runtime) Begin(parent context.Context, onRetire func()) (ctx context.Context, end func(), ok bool) {
	ctx, cancel := context.WithCancelCause(parent)
	f := &flight{cancel: cancel, onRetire: onRetire}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.retired {
		cancel(ErrSuperseded)
		return nil, nil, false
	}
	rt.inflight[f] = struct{}{}
	return ctx, func() {
		now := rt.clock.Now()
		rt.mu.Lock()
		delete(rt.inflight, f)
		rt.lastEnd = now
		rt.mu.Unlock()
		cancel(nil)
	}, true
}

// KeyAccepted reports whether key is the provider key the runtime
// requires, compared in constant time; any key is accepted when it
// requires none. How a request presents its key is its codec's business.
func (rt *Runtime) KeyAccepted(key string) bool {
	want := rt.Settings().APIKey
	if want == "" {
		return true
	}
	return key != "" && subtle.ConstantTimeCompare([]byte(key), []byte(want)) == 1
}

// Models returns the IDs of the models the runtime serves: those its
// settings name, or else catalog, the models of the provider asked.
func (rt *Runtime) Models(catalog []string) []string {
	if models := rt.Settings().Models; len(models) > 0 {
		return models
	}
	return catalog
}

// Serves reports whether model is one the runtime serves (see Models).
func (rt *Runtime) Serves(model string, catalog []string) bool {
	return slices.Contains(rt.Models(catalog), model)
}

// Record adds e to the journal, and counts its fault, unless the runtime
// is retired: a deleted session is never written to again.
func (rt *Runtime) Record(e journal.Entry) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if !rt.retired {
		rt.journalWriter.Record(e)
		if e.Fault != "" {
			rt.countFault(e.Fault)
		}
	}
}

// Now returns the runtime clock's current time.
func (rt *Runtime) Now() time.Time { return rt.clock.Now() }

// Clock returns the clock the runtime runs on.
func (rt *Runtime) Clock() clock.Clock { return rt.clock }

// NextSerial returns the next number of the runtime's request sequence,
// which the codecs turn into request IDs: consecutive from a start drawn
// from the ID sequence, so that it is reproducible under an ID seed and
// otherwise differs between runtimes. A retired runtime returns the number
// without advancing its sequence.
func (rt *Runtime) NextSerial() uint64 {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.retired {
		return rt.ids.serialBase + rt.serial + 1
	}
	rt.serial++
	return rt.ids.serialBase + rt.serial
}

// Wait holds the caller for d on the runtime's clock, or until ctx ends,
// whichever comes first. On the real clock inside a testing/synctest
// bubble (a server in memory mode started in the bubble), d passes on the
// bubble's virtual time.
func (rt *Runtime) Wait(ctx context.Context, d time.Duration) error {
	return clock.Wait(ctx, rt.clock, d)
}
