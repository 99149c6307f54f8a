// Package openaiwire tests the wire types of internal/openai against
// github.com/sashabaranov/go-openai.
//
// The tests live in the compat module, not in the root one, so that
// go-openai never enters the module graph of a user of llmtestserver.
// They were internal tests of package openai and keep their bodies: they
// dot-import internal/openai so that its exported names read as they did
// inside the package, and unexported_test.go stands in for the few
// unexported names they used.
package openaiwire
