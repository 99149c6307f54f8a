package session

import "github.com/llmtestserver/llmtestserver/internal/runtime"

// setFaults replaces the rate limits or the chaos rules of session id (the
// default runtime when id is ""), as PUT /admin-api/rate-limits and PUT
// /admin-api/chaos do: change sets the part in a copy of the current
// configuration, which is checked like a configuration (valid, within the
// size limit, its reservation within the budget), and apply hands the new
// part to the runtime, which keeps every other state. On any error nothing
// changes.
func (m *Manager) setFaults(id string, change func(*Config), apply func(*runtime.Runtime, *Config)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entryOf(id)
	if !ok {
		return ErrNotFound
	}
	rt := e.session.rt
	cfg := e.cfg.clone()
	change(&cfg)
	if err := cfg.Validate(); err != nil {
		return err
	}
	whole := cfg
	whole.Scenarios = rt.Settings().Scenarios // read only: Size and Reservation
	size := whole.Size()
	if err := m.checkSizeOf(size); err != nil {
		return err
	}
	reservation := whole.Reservation()
	if err := m.checkReservation(e, reservation); err != nil {
		return err
	}
	m.reserved += reservation - e.reservation
	e.cfg, e.size, e.reservation = cfg, size, reservation
	e.gen++
	apply(rt, &cfg)
	return nil
}

// setChaos replaces the chaos rules of session id (nil removes them).
func (m *Manager) setChaos(id string, chaos *ChaosConfig) error {
	return m.setFaults(id, func(c *Config) { c.Chaos = chaos },
		func(rt *runtime.Runtime, c *Config) { rt.SetChaos(c.Chaos.settings()) })
}

// setRateLimits replaces the rate limits of session id (nil removes them).
func (m *Manager) setRateLimits(id string, limits *RateLimitsConfig) error {
	return m.setFaults(id, func(c *Config) { c.RateLimits = limits },
		func(rt *runtime.Runtime, c *Config) { rt.SetRateLimits(c.RateLimits.settings()) })
}
