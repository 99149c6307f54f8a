package runtime

import "time"

// Breakpoint marks a segment of a prompt whose prefix, that segment
// included, a request asks the prompt cache to keep for TTL: Anthropic's
// cache_control. The rules around it (the minimum cacheable length, how
// far back a lookup reaches) are the codec's, passed in as a
// BreakpointRule.
type Breakpoint struct {
	Segment int
	TTL     time.Duration
}

// BreakpointRule is a provider's rule for breakpoint caching.
type BreakpointRule struct {
	// MinTokens is the shortest prefix a breakpoint caches; shorter ones
	// are ignored without an error.
	MinTokens int
	// Lookback is how many segments before a breakpoint, itself included,
	// a lookup checks for an earlier cached prefix.
	Lookback int
}

// CacheAtBreakpoints meets a prompt of these segments with the runtime's
// breakpoint cache for scope (the model): it returns the tokens read from
// the cache (the longest live cached prefix that a breakpoint's lookup
// reaches), the tokens this prompt writes to it (from the end of what was
// read to its last cacheable breakpoint), and of those the tokens written
// for one hour or more (up to the last such breakpoint). Every cacheable
// breakpoint past what was read is cached for its TTL, and a hit is
// refreshed. A retired runtime reads and writes nothing.
func (rt *Runtime) CacheAtBreakpoints(scope string, segments []PromptSegment, bps []Breakpoint, rule BreakpointRule) (read, write, write1h int) {
	if len(bps) == 0 {
		return 0, 0, 0
	}
	states := PrefixStates(segments)
	cum := make([]int, len(segments))
	total := 0
	for i, s := range segments {
		total += s.Tokens
		cum[i] = total
	}
	sc := cacheScope("breakpoints\x00"+scope, "")
	key := func(i int) prefixKey { return prefixKey{scope: sc, hash: states[i]} }
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.retired {
		return 0, 0, 0
	}
	// The breakpoints' prefixes share the map and the bound of the other
	// prompt cache, under scopes of their own; each keeps its expiry, in
	// Unix nanoseconds.
	now := rt.clock.Now().UnixNano()
	if rt.prefixes == nil || len(rt.prefixes)+len(bps) > maxCachedPrefixes {
		rt.prefixes = make(map[prefixKey]int64)
	}
	hit, hitTTL := -1, time.Duration(0)
	for _, bp := range bps {
		for j := bp.Segment; j >= 0 && j > bp.Segment-max(rule.Lookback, 1); j-- {
			if expires, ok := rt.prefixes[key(j)]; ok && now < expires {
				if j > hit {
					hit, hitTTL = j, bp.TTL
				}
				break
			}
		}
	}
	if hit >= 0 {
		// A hit refreshes the prefix for the TTL of the breakpoint that
		// reached it.
		read = cum[hit]
		rt.prefixes[key(hit)] = max(rt.prefixes[key(hit)], now+int64(hitTTL))
	}
	last, last1h := -1, -1
	for _, bp := range bps {
		i := bp.Segment
		if i <= hit || i >= len(segments) || cum[i] < rule.MinTokens {
			continue
		}
		rt.prefixes[key(i)] = now + int64(bp.TTL)
		last = max(last, i)
		if bp.TTL >= time.Hour {
			last1h = max(last1h, i)
		}
	}
	if last >= 0 {
		write = cum[last] - read
	}
	if last1h >= 0 {
		write1h = cum[last1h] - read
	}
	return read, write, write1h
}
