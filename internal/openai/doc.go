// Package openai is OpenAI's codec on the provider seam (Codec): request
// decoding and validation as the real API does it for Chat Completions, the
// Responses API and embeddings, their normalization into scenario.Request,
// their turns on the core's conversational pipeline (answer.Turn), the
// rendering of neutral answers as OpenAI's JSON and SSE, the history
// records they keep, OpenAI's error envelope and its model catalog.
//
// Its files come in families, one per API, and a shared part:
//
//   - Chat Completions: chat_*.go and codec_chat*.go (stored completions
//     included);
//   - the Responses API: responses_*.go, conversations.go and
//     codec_responses.go, codec_conversations.go;
//   - embeddings: embeddings.go and codec_embeddings.go;
//   - shared by all: the route table (codec.go), errors, decoding and
//     validation helpers (decode.go, validate.go, json_walk.go, params_*.go,
//     strict_schema.go, metadata.go, images.go), SSE framing and chunking
//     (sse.go, obfuscation.go), usage, prompt counting and the cache rule
//     (usage.go, codec_usage.go), log probabilities, reasoning, paging, the
//     history's lookup, rate limits and the catalog (models*.go,
//     model_*.go).
//
// A family uses its own files and the shared ones, never another family's;
// the shared files use none of a family's, but for the route table. The
// layering test checks it.
package openai
