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

// cachedPrefix is a prefix a breakpoint cached, alive until expires; a hit
// refreshes it for another ttl.
type cachedPrefix struct {
	expires time.Time
	ttl     time.Duration
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
	now := rt.now()
	if rt.breakpoints == nil || len(rt.breakpoints)+len(bps) > maxCachedPrefixes {
		rt.breakpoints = make(map[prefixKey]cachedPrefix)
	}
	hit := -1
	for _, bp := range bps {
		for j := bp.Segment; j >= 0 && j > bp.Segment-max(rule.Lookback, 1); j-- {
			if c, ok := rt.breakpoints[key(j)]; ok && now.Before(c.expires) {
				if j > hit {
					hit = j
				}
				break
			}
		}
	}
	if hit >= 0 {
		read = cum[hit]
		c := rt.breakpoints[key(hit)]
		c.expires = now.Add(c.ttl)
		rt.breakpoints[key(hit)] = c
	}
	last, last1h := -1, -1
	for _, bp := range bps {
		i := bp.Segment
		if i <= hit || i >= len(segments) || cum[i] < rule.MinTokens {
			continue
		}
		rt.breakpoints[key(i)] = cachedPrefix{expires: now.Add(bp.TTL), ttl: bp.TTL}
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
