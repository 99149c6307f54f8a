package runtime

import "maps"

// countFault counts one fired fault of kind. The caller holds mu and has
// checked that the runtime is not retired, so a deleted session's counts
// stay as they were.
func (rt *Runtime) countFault(kind string) {
	if rt.faults == nil {
		rt.faults = make(map[string]int)
	}
	rt.faults[kind]++
}

// Faults returns how many scripted faults of each kind the runtime fired
// (see journal.Entry.Fault), since it was made or last reset; nil when
// none did. The counts are session state: Record keeps them with the
// journal, Reset clears them, and a retired runtime's stay frozen.
func (rt *Runtime) Faults() map[string]int {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return maps.Clone(rt.faults)
}
