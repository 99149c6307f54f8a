package runtime

// SetRateLimits replaces the rate limits and nothing else of the
// settings: the buckets refill, as after Configure, while the scenario
// queues, conversations, history and every other state stay as they are.
// A retired runtime stays as it is.
func (rt *Runtime) SetRateLimits(limits RateLimits) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.retired {
		return
	}
	s := rt.settings // a copy: readers share the old settings
	s.RateLimits = limits
	rt.settings = s
	rt.rates = nil
}

// SetChaos replaces the chaos rules and nothing else of the settings: the
// rules start from their seed, as after Configure, while the scenario
// queues and every other state stay as they are. A retired runtime stays
// as it is.
func (rt *Runtime) SetChaos(chaos Chaos) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.retired {
		return
	}
	s := rt.settings
	s.Chaos = chaos
	rt.settings = s
	rt.chaos = newChaosState(chaos)
}
