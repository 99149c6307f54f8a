// Package openai holds the OpenAI wire format: request decoding and
// validation as the real API does it, response and SSE encoding, and the
// error vocabulary. It knows nothing of HTTP routing or sessions.
package openai
