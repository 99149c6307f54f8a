// Package goopenai tests llmtest through github.com/sashabaranov/go-openai.
//
// The tests live in the compat module, not in the root one, so that
// go-openai never enters the module graph of a user of llmtestserver.
// They were the root's llmtest tests that use go-openai, and they keep
// their bodies; the helpers they share with those tests are internal/e2e's,
// and those of go-openai stay here.
package goopenai
