package llmtest

// WithDashboard serves the browser dashboard at the server's URL, /, behind
// the management key (ManagementKey): a browser logs in with any user name
// and the key as password. It shows the default runtime and every session
// of the working set (see session.ManagerConfig.Dashboard). It is for
// looking at a test while it runs, so a server in InMemory mode, which no
// browser reaches, serves it to its own clients only.
func WithDashboard() Option {
	return optionFunc(func(s *settings) error {
		s.dashboard = true
		return nil
	})
}
