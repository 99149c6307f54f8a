package openai_test

import (
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

var backgroundStart = time.Date(2030, 5, 6, 7, 0, 0, 0, time.UTC)

// backgroundParams asks for a background response to text.
func backgroundParams(text string) responses.ResponseNewParams {
	return responses.ResponseNewParams{Model: openai.ChatModelGPT4_1Mini, Input: e2e.InputText(text),
		Background: openai.Bool(true), Store: openai.Bool(true)}
}

// backgroundSession is a session on a server whose clock the test
// advances, and an openai-go client of it.
func backgroundSession(t *testing.T, opts ...session.Option) (*clock.Fake, *session.Session, openai.Client) {
	clk := clock.NewFake(backgroundStart)
	srv := llmtest.NewServer(t, llmtest.WithClock(clk))
	sess := srv.NewSession(t, opts...)
	return clk, sess, e2e.ClientFor(sess, "k")
}

func getResponse(t *testing.T, client openai.Client, id string) *responses.Response {
	t.Helper()
	r, err := client.Responses.Get(t.Context(), id, responses.ResponseGetParams{})
	require.NoError(t, err)
	return r
}

// A background response is queued when created, in progress while its
// plan runs, and completed with the reply once it has run: all on the
// session's clock, polled with GET, each poll journaled with the job's
// state.
func TestBackgroundResponseStateMachine(t *testing.T) {
	t.Parallel()
	clk, sess, client := backgroundSession(t)
	sess.Chat("report").Reply(scenario.Reply{Text: "The report is ready.",
		Job: &scenario.JobPlan{Queued: 2 * time.Second, Running: 6 * time.Second, Steps: 3}})

	r, err := client.Responses.New(t.Context(), backgroundParams("Write the report"))
	require.NoError(t, err)
	assert.Equal(t, responses.ResponseStatusQueued, r.Status)
	assert.True(t, r.Background)
	assert.Empty(t, r.Output, "nothing is generated yet")
	assert.Zero(t, r.Usage.TotalTokens)
	assert.Zero(t, r.CompletedAt)

	for _, step := range []struct {
		advance time.Duration
		status  responses.ResponseStatus
	}{
		{time.Second, responses.ResponseStatusQueued},
		{time.Second, responses.ResponseStatusInProgress},
		{5 * time.Second, responses.ResponseStatusInProgress},
		{time.Second, responses.ResponseStatusCompleted},
	} {
		clk.Advance(step.advance)
		got := getResponse(t, client, r.ID)
		require.Equal(t, step.status, got.Status, "at %v", clk.Now().Sub(backgroundStart))
	}
	done := getResponse(t, client, r.ID)
	assert.Equal(t, "The report is ready.", done.OutputText())
	assert.NotZero(t, done.Usage.TotalTokens)
	assert.Equal(t, backgroundStart.Add(8*time.Second).Unix(), int64(done.CompletedAt), "completed when its plan ended")

	entries := sess.Journal().Entries()
	require.Len(t, entries, 6)
	states := []string{}
	for _, e := range entries {
		assert.Equal(t, r.ID, e.Job)
		states = append(states, e.JobState)
	}
	assert.Equal(t, []string{"queued", "queued", "in_progress", "in_progress", "completed", "completed"}, states)
	assert.Equal(t, "report", entries[0].Scenario, "the create took the reply")
}

// Without a plan, a background response takes a few seconds of the
// session's clock: a second queued, four running.
func TestBackgroundResponseDefaultPlan(t *testing.T) {
	t.Parallel()
	clk, sess, client := backgroundSession(t)
	sess.Chat("a").Reply(scenario.Text("done"))
	r, err := client.Responses.New(t.Context(), backgroundParams("go"))
	require.NoError(t, err)
	clk.Advance(4999 * time.Millisecond)
	assert.Equal(t, responses.ResponseStatusInProgress, getResponse(t, client, r.ID).Status)
	clk.Advance(time.Millisecond)
	assert.Equal(t, responses.ResponseStatusCompleted, getResponse(t, client, r.ID).Status)
}

// A cancel while queued or in progress cancels the response, which then
// shows no output, and gives its reply back: the next request gets it.
// A cancel once it has ended returns it unchanged; a response that is not
// in the background cannot be cancelled.
func TestBackgroundResponseCancel(t *testing.T) {
	t.Parallel()
	for _, at := range []struct {
		name  string
		after time.Duration
	}{{"queued", 0}, {"in_progress", 2 * time.Second}} {
		t.Run(at.name, func(t *testing.T) {
			t.Parallel()
			clk, sess, client := backgroundSession(t)
			sess.Chat("once").Reply(scenario.Text("the only answer"))
			r, err := client.Responses.New(t.Context(), backgroundParams("go"))
			require.NoError(t, err)
			clk.Advance(at.after)
			require.Equal(t, responses.ResponseStatus(at.name), getResponse(t, client, r.ID).Status)

			cancelled, err := client.Responses.Cancel(t.Context(), r.ID)
			require.NoError(t, err)
			assert.Equal(t, responses.ResponseStatusCancelled, cancelled.Status)
			assert.Empty(t, cancelled.Output)
			clk.Advance(time.Hour)
			assert.Equal(t, responses.ResponseStatusCancelled, getResponse(t, client, r.ID).Status, "it stays cancelled")

			again, err := client.Responses.New(t.Context(), responses.ResponseNewParams{
				Model: openai.ChatModelGPT4_1Mini, Input: e2e.InputText("go")})
			require.NoError(t, err, "the cancelled response's reply went back to its queue")
			assert.Equal(t, "the only answer", again.OutputText())
			assert.Empty(t, sess.Assertions().UnusedReplies)
		})
	}

	t.Run("completed", func(t *testing.T) {
		t.Parallel()
		clk, sess, client := backgroundSession(t)
		sess.Chat("a").Reply(scenario.Text("kept"))
		r, err := client.Responses.New(t.Context(), backgroundParams("go"))
		require.NoError(t, err)
		clk.Advance(time.Minute)
		same, err := client.Responses.Cancel(t.Context(), r.ID)
		require.NoError(t, err)
		assert.Equal(t, responses.ResponseStatusCompleted, same.Status)
		assert.Equal(t, "kept", same.OutputText())
	})

	t.Run("not in the background", func(t *testing.T) {
		t.Parallel()
		_, sess, client := backgroundSession(t)
		sess.Chat("a").Reply(scenario.Text("now"))
		r, err := client.Responses.New(t.Context(), responses.ResponseNewParams{Model: openai.ChatModelGPT4_1Mini, Input: e2e.InputText("go")})
		require.NoError(t, err)
		_, err = client.Responses.Cancel(t.Context(), r.ID)
		apiErr := e2e.OpenAIError(t, err)
		assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
		assert.Contains(t, apiErr.Message, "Cannot cancel a synchronous response.")
	})
}

// A reply scripted with FailJob is taken when the response is created,
// which answers queued; the response fails with the reply's error once
// its plan has run. A plan that expires fails it too.
func TestBackgroundResponseFails(t *testing.T) {
	t.Parallel()
	clk, sess, client := backgroundSession(t)
	sess.Chat("a").Reply(scenario.FailJob(scenario.Error{Kind: scenario.ErrorServer, Code: "server_error", Message: "The model crashed."}),
		scenario.Job(scenario.JobPlan{Ends: scenario.JobExpired}))

	failing, err := client.Responses.New(t.Context(), backgroundParams("go"))
	require.NoError(t, err, "the error is the job's, not the create's")
	assert.Equal(t, responses.ResponseStatusQueued, failing.Status)
	expiring, err := client.Responses.New(t.Context(), backgroundParams("go"))
	require.NoError(t, err)

	clk.Advance(time.Minute)
	failed := getResponse(t, client, failing.ID)
	assert.Equal(t, responses.ResponseStatusFailed, failed.Status)
	assert.Equal(t, "The model crashed.", failed.Error.Message)
	assert.Equal(t, responses.ResponseErrorCode("server_error"), failed.Error.Code)
	assert.Empty(t, failed.Output)
	assert.Equal(t, responses.ResponseStatusFailed, getResponse(t, client, expiring.ID).Status)

	// A plain scripted error still refuses the create itself, as a 429
	// refuses a background request before it is queued.
	sess.Chat("b").Reply(scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorRateLimit}})
	_, err = client.Responses.New(t.Context(), backgroundParams("go"), option.WithMaxRetries(0))
	assert.Equal(t, http.StatusTooManyRequests, e2e.OpenAIError(t, err).StatusCode)
}

// A streamed background response streams as it is generated, announcing
// it queued first (response.created queued, response.queued), every event
// with its sequence_number; GET with stream=true and starting_after
// resumes after the event the client saw last.
func TestBackgroundResponseStreamResumes(t *testing.T) {
	t.Parallel()
	_, sess, client := backgroundSession(t)
	sess.Chat("a").Reply(scenario.Text("one two three four"))

	params := backgroundParams("go")
	s := e2e.CollectResponses(t, client.Responses.NewStreaming(t.Context(), params))
	require.GreaterOrEqual(t, len(s.Types), 5)
	assert.Equal(t, []string{"response.created", "response.queued", "response.in_progress"}, s.Types[:3])
	assert.Equal(t, "response.completed", s.Types[len(s.Types)-1])
	id := s.Completed.ID

	resumed := client.Responses.GetStreaming(t.Context(), id, responses.ResponseGetParams{StartingAfter: openai.Int(4)})
	var seqs []int64
	var text string
	for resumed.Next() {
		ev := resumed.Current()
		seqs = append(seqs, ev.SequenceNumber)
		if d, ok := ev.AsAny().(responses.ResponseTextDeltaEvent); ok {
			text += d.Delta
		}
	}
	require.NoError(t, resumed.Err())
	require.NotEmpty(t, seqs)
	assert.Equal(t, int64(5), seqs[0], "the first event after starting_after")
	assert.Equal(t, int64(len(s.Types)-1), seqs[len(seqs)-1])
	assert.NotEmpty(t, text)
	assert.Equal(t, responses.ResponseStatusCompleted, getResponse(t, client, id).Status)
}

// A background stream cut at its first event leaves the response queued,
// as real ones were seen to stay: polling does not revive it (for a day
// of the session's clock, after which it fails).
func TestBackgroundStreamCutStaysQueued(t *testing.T) {
	t.Parallel()
	clk, sess, client := backgroundSession(t)
	sess.Chat("a").Reply(scenario.Reply{Text: "never seen", Fault: &scenario.Fault{Kind: scenario.FaultCut, AfterEvents: 1}})

	stream := client.Responses.NewStreaming(t.Context(), backgroundParams("go"), option.WithMaxRetries(0))
	var id string
	for stream.Next() {
		if ev := stream.Current(); ev.Type == "response.created" {
			id = ev.Response.ID
		}
	}
	require.Error(t, stream.Err(), "the stream was cut")
	require.NotEmpty(t, id)

	clk.Advance(10 * time.Minute)
	assert.Equal(t, responses.ResponseStatusQueued, getResponse(t, client, id).Status)
	clk.Advance(24 * time.Hour)
	assert.Equal(t, responses.ResponseStatusFailed, getResponse(t, client, id).Status)
}

// Background responses are bounded by the session's jobs: past them the
// create is a 429 that takes no reply, and everything else goes on.
func TestBackgroundResponsesBounded(t *testing.T) {
	t.Parallel()
	_, sess, client := backgroundSession(t, session.WithJobs(1, 1<<20))
	sess.Chat("a").Reply(scenario.Text("first"), scenario.Text("second"))
	_, err := client.Responses.New(t.Context(), backgroundParams("go"))
	require.NoError(t, err)
	_, err = client.Responses.New(t.Context(), backgroundParams("go"), option.WithMaxRetries(0))
	apiErr := e2e.OpenAIError(t, err)
	assert.Equal(t, http.StatusTooManyRequests, apiErr.StatusCode)
	assert.Equal(t, "session_jobs_full", apiErr.Code)
	assert.Contains(t, apiErr.Message, "jobs.capacity")

	r, err := client.Responses.New(t.Context(), responses.ResponseNewParams{Model: openai.ChatModelGPT4_1Mini, Input: e2e.InputText("go")})
	require.NoError(t, err)
	assert.Equal(t, "second", r.OutputText(), "the refused create took no reply")
}

// Another session cannot see a background response; a fork sees its
// parent's, and its own cancel leaves the parent's alone.
func TestBackgroundResponsesIsolatedAndForked(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(backgroundStart)
	srv := llmtest.NewServer(t, llmtest.WithClock(clk))
	sess := srv.NewSession(t)
	sess.Chat("a").Reply(scenario.Text("mine"))
	client := e2e.ClientFor(sess, "k")
	r, err := client.Responses.New(t.Context(), backgroundParams("go"))
	require.NoError(t, err)

	other := e2e.ClientFor(srv.NewSession(t), "k")
	_, err = other.Responses.Get(t.Context(), r.ID, responses.ResponseGetParams{})
	assert.Equal(t, http.StatusNotFound, e2e.OpenAIError(t, err).StatusCode)
	_, err = other.Responses.Cancel(t.Context(), r.ID)
	assert.Equal(t, http.StatusNotFound, e2e.OpenAIError(t, err).StatusCode)

	fork := srv.Fork(t, sess)
	forked := e2e.ClientFor(fork, "k")
	cancelled, err := forked.Responses.Cancel(t.Context(), r.ID)
	require.NoError(t, err)
	assert.Equal(t, responses.ResponseStatusCancelled, cancelled.Status)
	clk.Advance(time.Minute)
	assert.Equal(t, responses.ResponseStatusCompleted, getResponse(t, client, r.ID).Status, "the parent's job is its own")
}

// Inside a testing/synctest bubble a client that polls every second with
// time.Sleep sees the response through on the bubble's virtual clock, in
// no real time to speak of.
func TestBackgroundResponsePolledInABubble(t *testing.T) {
	t.Parallel()
	start := time.Now()
	synctest.Test(t, func(t *testing.T) {
		srv := llmtest.NewServer(t, llmtest.WithInMemory())
		sess := srv.NewSession(t)
		sess.Chat("slow").Reply(scenario.Reply{Text: "at last", Job: &scenario.JobPlan{Queued: time.Minute, Running: 10 * time.Minute}})
		client := e2e.ClientFor(sess, "k")
		began := time.Now()
		r, err := client.Responses.New(t.Context(), backgroundParams("go"))
		require.NoError(t, err)
		polls := 0
		for r.Status == responses.ResponseStatusQueued || r.Status == responses.ResponseStatusInProgress {
			time.Sleep(time.Second)
			r = getResponse(t, client, r.ID)
			polls++
		}
		assert.Equal(t, responses.ResponseStatusCompleted, r.Status)
		assert.Equal(t, "at last", r.OutputText())
		assert.Equal(t, 660, polls)
		t.Logf("virtual time: %v", time.Since(began))
	})
	t.Logf("real time: %v", time.Since(start))
}
