// Package openai holds the OpenAI wire format: request decoding and
// validation as the real API does it, response and SSE encoding, and the
// error vocabulary. The vocabulary also names the server's own errors
// (sessions, configuration, scenarios) so that they reach clients in the
// same envelope; deciding when they apply belongs to the callers. It knows
// nothing of HTTP routing.
package openai
