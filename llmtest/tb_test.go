package llmtest_test

import (
	"fmt"
	"testing"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The testing package's types are TBs, and a TB is what testify's require
// and assert take.
var (
	_ llmtest.TB       = (*testing.T)(nil)
	_ llmtest.TB       = (*testing.B)(nil)
	_ llmtest.TB       = (*testing.F)(nil)
	_ require.TestingT = llmtest.TB(nil)
	_ assert.TestingT  = llmtest.TB(nil)
)

// stoppingTB is a TB whose FailNow records the stop, as testing's
// runtime.Goexit would end the test there.
type stoppingTB struct {
	errors  []string
	stopped bool
}

func (r *stoppingTB) Helper()                        {}
func (r *stoppingTB) Cleanup(func())                 {}
func (r *stoppingTB) Logf(string, ...any)            {}
func (r *stoppingTB) Fatalf(format string, a ...any) { r.Errorf(format, a...); r.FailNow() }
func (r *stoppingTB) FailNow()                       { r.stopped = true }
func (r *stoppingTB) Failed() bool                   { return len(r.errors) > 0 }
func (r *stoppingTB) Name() string                   { return "TestStopping" }
func (r *stoppingTB) Errorf(format string, a ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, a...))
}

// requireLastUserText is the kind of helper a user writes against
// llmtest.TB: it passes its t straight to require.
func requireLastUserText(t llmtest.TB, sess *session.Session, want string) {
	t.Helper()
	last, ok := sess.Journal().Last()
	require.True(t, ok, "the session saw no request")
	require.Equal(t, want, last.UserText)
}

func TestHelperOnTBPassesItToRequire(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("ok")
	client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
		option.WithHTTPClient(sess.HTTPClient()))
	_, err := client.Chat.Completions.New(t.Context(), openai.ChatCompletionNewParams{Model: "gpt-4.1-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage("You are terse."), openai.UserMessage("Hello")}})
	require.NoError(t, err)

	requireLastUserText(t, sess, "Hello")

	fake := &stoppingTB{}
	requireLastUserText(fake, sess, "Goodbye")
	assert.True(t, fake.stopped, "require did not stop the helper through FailNow")
	require.Len(t, fake.errors, 1)
	assert.Contains(t, fake.errors[0], `"Goodbye"`)
	assert.Contains(t, fake.errors[0], `"Hello"`)
}
