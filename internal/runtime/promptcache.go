package runtime

import (
	"hash/maphash"
)

// Prompt caching as the real API reports it: a request whose prompt starts
// like an earlier one's, for the same model and prompt_cache_key, has that
// shared prefix cached, counted from 1024 tokens on and in steps of 128.
// The prefix is compared a segment at a time (tools, system text, then each
// message), which is as fine as a test can tell apart.
const (
	cacheMinTokens  = 1024
	cacheStepTokens = 128
	// maxCachedPrefixes bounds a runtime's cache; it starts over when full.
	maxCachedPrefixes = 1 << 14
)

// PromptSegment is one part of a prompt in order, with its token count.
type PromptSegment struct {
	Text   string
	Tokens int
}

// cacheSeed makes prefix hashes comparable within the process.
var cacheSeed = maphash.MakeSeed()

type prefixKey struct {
	model, cacheKey string
	hash            uint64 // of every segment up to this prefix's end
}

// CachedTokens returns how many leading tokens of a prompt of these
// segments were cached by earlier prompts of the same model and cache key,
// and remembers this prompt's prefixes for later ones.
func (rt *Runtime) CachedTokens(model, cacheKey string, segments []PromptSegment) int {
	keys := make([]prefixKey, len(segments))
	var h maphash.Hash
	h.SetSeed(cacheSeed)
	for i, s := range segments {
		h.WriteString(s.Text)
		h.WriteByte(0)
		keys[i] = prefixKey{model: model, cacheKey: cacheKey, hash: h.Sum64()}
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.retired {
		return 0
	}
	if rt.prefixes == nil || len(rt.prefixes)+len(keys) > maxCachedPrefixes {
		rt.prefixes = make(map[prefixKey]struct{})
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
		rt.prefixes[k] = struct{}{}
	}
	if shared < cacheMinTokens {
		return 0
	}
	return cacheMinTokens + (shared-cacheMinTokens)/cacheStepTokens*cacheStepTokens
}
