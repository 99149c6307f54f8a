package session

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
)

// ForkOption changes how Session.Fork makes a fork.
type ForkOption interface {
	applyFork(*forkSettings)
}

type forkSettings struct {
	name string // "" names the fork by its ordinal
}

type forkOptionFunc func(*forkSettings)

func (f forkOptionFunc) applyFork(s *forkSettings) { f(s) }

// ForkName names the fork, for the ID seed it derives from a seeded
// parent's (see Session.Fork): forks of one parent under one name get the
// same seed, whatever order they are made in. llmtest.Server.Fork names a
// fork after its test, so that parallel subtests, which fork in no fixed
// order, each see the same IDs on every run. Without it a fork is named by
// its ordinal among the parent's forks: "fork 1", "fork 2" ...
func ForkName(name string) ForkOption {
	return forkOptionFunc(func(s *forkSettings) { s.name = name })
}

// Fork admits a new session that starts as a copy of s: its own ID and key,
// and a deep copy of s's configuration and state, taken in one step, so
// that neither ever sees what the other does next. Build a base session
// once (scenarios, a conversation or two, stored responses) and fork it for
// each parallel subtest.
//
// The fork gets the scenario queues with what each has left (a reply s
// already used is used in the fork too, one s rolled back is still there,
// and each conversation keeps its place in a per-conversation queue), the
// conversations and their generations, the Responses history with the
// stored chat completions and conversations (a previous_response_id of s's
// works in the fork), the prompt cache, the rate-limit buckets, the chaos
// rules' counts and generator, and the Idempotency-Key answers kept. A
// reply that a request of s still in flight has taken counts as used in the
// fork, whatever becomes of that request, and an Idempotency-Key such a
// request holds is not the fork's.
//
// The fork's journal starts empty, and so do its fault counts: they record
// what a session was asked, and a subtest checks what its own code sent
// (Assertions, Transcript, strict mode) without the base's set-up requests.
//
// Generated IDs: the fork never hands out the IDs s hands out next. An
// unseeded s gives a fork a random sequence of its own; a seeded s (see
// WithIDSeed) gives it a seed derived from its own and the fork's name (see
// ForkName), deterministic, which the fork's configuration shows and its
// Reset starts from again.
//
// The fork reserves what s reserves and counts as a session: when the
// manager's bounds are full it is refused with ErrCapacityExceeded, as
// Create is. A deleted s cannot be forked: ErrNotFound. The caller closes
// the fork; closing either leaves the other as it is.
func (s *Session) Fork(opts ...ForkOption) (*Session, error) {
	var fs forkSettings
	for _, o := range opts {
		o.applyFork(&fs)
	}
	return s.m.fork(s, fs)
}

// fork makes the fork of parent. The runtime is copied outside the
// manager's lock, so that a large copy holds up no other session's
// request; the copy is kept when no change of configuration or scenarios
// (each made under the lock, counted by entry.gen) came between reading
// the configuration and copying the runtime, and made again otherwise.
func (m *Manager) fork(parent *Session, fs forkSettings) (*Session, error) {
	name := fs.name
	for attempt := 1; ; attempt++ {
		m.mu.RLock()
		e, ok := m.sessions[parent.id]
		switch {
		case m.closed:
			m.mu.RUnlock()
			return nil, ErrClosed
		case !ok || e.session != parent:
			m.mu.RUnlock()
			return nil, ErrNotFound
		}
		cfg, gen, reservation := e.cfg.clone(), e.gen, e.reservation
		// A parent scripted without pause would keep a copy made outside
		// the lock from ever matching: the last attempt copies under it.
		locked := attempt == maxForkAttempts
		if !locked {
			m.mu.RUnlock()
			beforeForkCopy()
		}
		if cfg.IDSeed != nil {
			if name == "" {
				name = fmt.Sprintf("fork %d", e.forks.Add(1))
			}
			seed := forkSeed(*cfg.IDSeed, name)
			cfg.IDSeed = &seed
		}
		rt, ok := parent.rt.Clone(cfg.IDSeed)
		same := true
		if locked {
			m.mu.RUnlock()
		} else {
			m.mu.RLock()
			same = m.sessions[parent.id] == e && e.gen == gen
			m.mu.RUnlock()
		}
		if !ok {
			return nil, ErrNotFound // retired meanwhile: deleted
		}
		if !same {
			rt.Retire() // configured or scripted meanwhile: copy again
			continue
		}
		cfg.Scenarios = rt.Settings().Scenarios
		size := cfg.Size()
		if err := m.checkSizeOf(size); err != nil {
			rt.Retire()
			return nil, err
		}
		s := &Session{m: m, id: newID(), key: newKey(), rt: rt}
		if err := m.enter(&entry{session: s, cfg: cfg.withoutScenarios(), size: size, reservation: reservation}); err != nil {
			rt.Retire()
			return nil, err
		}
		return s, nil
	}
}

// beforeForkCopy runs between reading a parent's configuration and copying
// its runtime outside the lock; a test makes a change land there.
var beforeForkCopy = func() {}

// maxForkAttempts is how often fork copies a runtime outside the manager's
// lock, in vain, before it copies under the lock.
const maxForkAttempts = 3

// forkSeed derives the ID seed of a fork called name from its parent's
// seed: a hash of the two, stable across runs and platforms, that is never
// the parent's own seed in practice.
func forkSeed(parent uint64, name string) uint64 {
	h := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], parent)
	h.Write(b[:])
	h.Write([]byte(name))
	// A splitmix64 finalizer, so that nearby names give unrelated seeds.
	z := h.Sum64() + 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
