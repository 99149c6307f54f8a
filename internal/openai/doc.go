// Package openai is OpenAI's codec on the provider seam (Codec): request
// decoding and validation as the real API does it for Chat Completions, the
// Responses API and embeddings, their normalization into scenario.Request,
// the rendering of neutral answers as OpenAI's JSON and SSE, the history
// records of the Responses API, OpenAI's error envelope and its model
// catalog.
package openai
