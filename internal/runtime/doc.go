// Package runtime holds one isolated fake provider: its settings, scenario
// queues, in-flight requests and journal. Every session owns one runtime and
// the server owns a default runtime for requests without session headers;
// runtimes share nothing.
//
// Locking: each Runtime has one mutex, mu. Unexported helpers that say
// "caller holds mu" must be called with it held. The journal has its own lock,
// always taken after mu, never before.
package runtime
