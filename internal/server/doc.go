// Package server assembles the HTTP face of llmtestserver: one
// http.Handler that knows nothing of listeners. It sends /admin-api/* to
// the admin API (internal/admin) and every other request to the codec whose
// route serves it (internal/openai, internal/anthropic), through the HTTP
// core (internal/httpx), which selects the session's runtime, guards it
// with the provider key and journals the request. With Options.Dashboard,
// GET and HEAD of / and of the dashboard's assets go to the browser
// dashboard (internal/dashboard), behind the management key.
package server
