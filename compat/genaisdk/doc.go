// Package genaisdk tests the Gemini codec through Google's genai SDK
// (google.golang.org/genai), over HTTP and the in-memory transport, as a
// user's test drives it. It lives in the compat module so that genai never
// enters the main module's graph.
package genaisdk
