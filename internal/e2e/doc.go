// Package e2e holds the helpers that the end-to-end tests of llmtest, of
// the codecs (internal/openai, internal/anthropic) and of the compat module
// share: raw HTTP calls and their answers, sessions made through the admin
// API, openai-go clients and requests, the reading of Responses streams,
// and waits on a session's journal.
//
// Only tests import it, which internal/layering checks: it imports
// testing, which a program built on llmtest (cmd/llmtestserver) must not
// link, and llmtest, through which it reaches every codec. It imports no
// SDK that is not a dependency of the root module, so that the root
// module's graph stays as it is: the helpers of go-openai and
// anthropic-sdk-go stay in compat.
package e2e
