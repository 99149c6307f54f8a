// Package anthropic is the wire layer of the Anthropic Messages API as
// anthropic-sdk-go v2 speaks it: it decodes and validates request bodies the
// way the real API refuses them, turns them into scenario.Request, lists the
// prompt parts the token count and the prompt cache work on, and renders
// answers (JSON and event streams), errors, the model catalog and the
// response headers. Codec (codec.go) puts it on the provider seam: its
// routes, its key check, and the prompt accounting that feeds the answer
// layer and the session's breakpoint cache.
//
// Validation messages follow the real API's where they could be checked in
// public reports (they are quoted in the tests); where the wording is
// inferred, a comment at the message says so. Unknown fields are refused at
// every level from field lists taken from the SDK's params types (fields.go,
// fields_messages.go), unless the session allows unknown parameters.
package anthropic
