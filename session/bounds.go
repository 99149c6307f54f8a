package session

// Bounds limit what a server admits. In a ManagerConfig, a zero field means
// its default.
type Bounds struct {
	// MaxSessions is the most sessions alive at once. Default 32.
	MaxSessions int
	// MaxReservedBytes is the most bytes all sessions may reserve together
	// (see Config.Reservation), the default runtime's share included: it is
	// priced like a session, from the startup configuration on. It is an
	// admission budget, not a heap measurement: capacity may run out before
	// the session count does. Default 512 MiB.
	MaxReservedBytes int64
	// MaxConfigBytes is the most bytes of one session's configuration, as
	// Config.Size measures it, scripted scenarios included: creation,
	// configuration, scenario posts and builders are all held to it.
	// Default 1 MiB.
	MaxConfigBytes int64
}

// DefaultBounds returns 32 sessions, 512 MiB reserved in all, and 1 MiB of
// configuration per session.
func DefaultBounds() Bounds {
	return Bounds{MaxSessions: 32, MaxReservedBytes: 512 << 20, MaxConfigBytes: 1 << 20}
}
