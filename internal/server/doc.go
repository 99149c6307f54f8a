// Package server is the HTTP face of llmtestserver: one http.Handler that
// knows nothing of listeners. It selects the runtime a request is for from
// the session headers, guards it with that runtime's bearer token, serves the
// admin API under /admin-api/ and the provider API under /v1/, and records
// provider requests in the selected runtime's journal.
//
// Session bookkeeping (admission, configuration parsing) belongs to the
// session package, which hands it in as [Sessions].
package server
