package runtime

import (
	"encoding/binary"
	"hash/maphash"
)

// Automatic prompt caching: a request whose prompt starts like an earlier
// one's, for the same model and cache key, has that shared prefix cached,
// reported as its provider's PrefixRule says. The prefix is compared a
// segment at a time (tools, system text, then each message), which is as
// fine as a test can tell apart.

// maxCachedPrefixes bounds a runtime's cache; it starts over when full.
const maxCachedPrefixes = 1 << 14

// PrefixRule is a provider's rule for reporting what automatic prompt
// caching served: the longest cached prefix, from MinTokens on, rounded
// down to MinTokens plus a multiple of StepTokens (OpenAI's 1024 and 128).
// A shorter prefix reports nothing.
type PrefixRule struct {
	MinTokens, StepTokens int
}

// report is what the rule reports of a cached prefix of shared tokens.
func (r PrefixRule) report(shared int) int {
	if shared < r.MinTokens || shared <= 0 {
		return 0
	}
	if r.StepTokens <= 0 {
		return shared
	}
	return r.MinTokens + (shared-r.MinTokens)/r.StepTokens*r.StepTokens
}

// PromptSegment is one part of a prompt in order, with its token count.
type PromptSegment struct {
	Text   string
	Tokens int
	// Resume, when set, stands for segments no longer at hand (the turns
	// of evicted responses, with Tokens their count): Text is ignored, and
	// the prefix continues from where those segments had brought it.
	Resume *PromptResume
}

// PromptResume records where the prefix states of a prompt stood around
// segments that are gone: After is the state before them and State the one
// after them, as PrefixStates computed. A prompt whose state before the
// resume segment is After continues from State, exactly as if it still held
// those segments; any other prompt continues from a state of its own, so
// that it shares no prefix through them.
type PromptResume struct {
	After, State uint64
}

// cacheSeed makes prefix hashes comparable within the process.
var cacheSeed = maphash.MakeSeed()

// prefixKey names one cached prefix. It keeps hashes only: a
// prompt_cache_key is the client's to choose and may be as long as a
// request body, so keeping it in every key would let the cache's entry
// bound say nothing about its bytes.
type prefixKey struct {
	scope uint64 // the hash of the model and prompt_cache_key
	hash  uint64 // the prefix state at this prefix's end
}

// cacheScope hashes what separates prompt caches: the model and the
// prompt_cache_key.
func cacheScope(model, cacheKey string) uint64 {
	var h maphash.Hash
	h.SetSeed(cacheSeed)
	h.WriteString(model)
	h.WriteByte(0)
	h.WriteString(cacheKey)
	return h.Sum64()
}

// PrefixStates returns the prefix state after each segment: a hash chained
// over the segments up to it, so that the state after a prefix can stand in
// for that prefix (see PromptResume).
func PrefixStates(segments []PromptSegment) []uint64 {
	states := make([]uint64, len(segments))
	var state uint64
	for i, s := range segments {
		state = nextState(state, s)
		states[i] = state
	}
	return states
}

// nextState chains segment s onto the prefix state.
func nextState(state uint64, s PromptSegment) uint64 {
	if s.Resume != nil && s.Resume.After == state {
		return s.Resume.State
	}
	var h maphash.Hash
	h.SetSeed(cacheSeed)
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], state)
	h.Write(b[:])
	if s.Resume != nil {
		h.WriteByte(1)
		binary.LittleEndian.PutUint64(b[:], s.Resume.State)
		h.Write(b[:])
	} else {
		h.WriteByte(0)
		h.WriteString(s.Text)
	}
	return h.Sum64()
}

// CachedTokens returns how many leading tokens of a prompt of these
// segments were cached by earlier prompts of the same model and cache key,
// as rule reports them, and remembers this prompt's prefixes for later
// ones.
func (rt *Runtime) CachedTokens(model, cacheKey string, segments []PromptSegment, rule PrefixRule) int {
	keys := make([]prefixKey, len(segments))
	scope := cacheScope(model, cacheKey)
	for i, state := range PrefixStates(segments) {
		keys[i] = prefixKey{scope: scope, hash: state}
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.retired {
		return 0
	}
	if rt.prefixes == nil || len(rt.prefixes)+len(keys) > maxCachedPrefixes {
		rt.prefixes = make(map[prefixKey]int64)
	}
	shared, tokens := 0, 0
	for i, k := range keys {
		if _, ok := rt.prefixes[k]; !ok {
			break
		}
		tokens += segments[i].Tokens
		shared = tokens
	}
	for _, k := range keys {
		rt.prefixes[k] = 0
	}
	return rule.report(shared)
}
