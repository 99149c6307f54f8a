// Package anthropicsdk is the home of the tests that drive llmtest through
// github.com/anthropics/anthropic-sdk-go/v2.
//
// Like the rest of the compat module, it keeps that SDK out of the module
// graph of a user of llmtestserver.
package anthropicsdk
