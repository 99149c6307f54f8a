package llmtest_test

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// userUpdate is the -update flag a user's package declares for golden
// files of its own. Declared here, it proves that llmtest's flag does not
// take the name: the test binary would panic at start if it did.
var userUpdate = flag.Bool("update", false, "a package's own golden-file flag, beside llmtest's")

// goldenSeed seeds the IDs of every golden session.
const goldenSeed = 11

// setUpdate turns the -llmtest.update flag on or off for the test, and
// LLMTEST_UPDATE off, whatever the run set, restoring both afterwards.
func setUpdate(t *testing.T, on bool) {
	t.Helper()
	t.Setenv(llmtest.EnvUpdate, "")
	f := flag.Lookup(llmtest.UpdateFlag)
	require.NotNil(t, f, "llmtest registers no -%s flag", llmtest.UpdateFlag)
	old := f.Value.String()
	require.NoError(t, flag.Set(llmtest.UpdateFlag, strconv.FormatBool(on)))
	t.Cleanup(func() { _ = flag.Set(llmtest.UpdateFlag, old) })
}

// scriptAgent scripts an agent's model: a tool call and the answer that
// follows its result, a Responses API chain, and a streamed haiku. answer
// is the text after the tool result, which the tests change.
func scriptAgent(sess *session.Session, answer string) {
	sess.Chat("weather").When(scenario.ToolOffered("get_weather")).
		CallsTool("get_weather", `{"city":"Paris"}`).
		Then(answer)
	sess.Chat("summary").When(scenario.Match{Endpoint: scenario.EndpointResponses}).
		Responds("Pack a coat and an umbrella.").
		Then("A coat.")
	sess.Chat("haiku").When(scenario.UserContains("haiku")).Responds("Rain on the Seine")
}

// runAgent plays the agent against sess through openai-go: every request
// scriptAgent answers, and one that nothing answers.
func runAgent(t *testing.T, sess *session.Session) {
	t.Helper()
	client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
		option.WithHTTPClient(sess.HTTPClient()), option.WithMaxRetries(0))
	ctx := t.Context()

	weather := openai.ChatCompletionNewParams{Model: "gpt-4.1-mini",
		Tools: []openai.ChatCompletionToolUnionParam{
			openai.ChatCompletionFunctionTool(openai.FunctionDefinitionParam{Name: "get_weather"})},
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage("You plan trips."), openai.UserMessage("What should I wear in Paris?")}}
	first, err := client.Chat.Completions.New(ctx, weather)
	require.NoError(t, err)
	calls := first.Choices[0].Message.ToolCalls
	require.Len(t, calls, 1)
	weather.Messages = append(weather.Messages, first.Choices[0].Message.ToParam(),
		openai.ToolMessage(`{"sky":"rain","celsius":9}`, calls[0].ID))
	_, err = client.Chat.Completions.New(ctx, weather)
	require.NoError(t, err)

	summary, err := client.Responses.New(ctx, responses.ResponseNewParams{Model: "gpt-4.1-mini",
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Summarize the advice")}})
	require.NoError(t, err)
	_, err = client.Responses.New(ctx, responses.ResponseNewParams{Model: "gpt-4.1-mini",
		PreviousResponseID: openai.String(summary.ID),
		Input:              responses.ResponseNewParamsInputUnion{OfString: openai.String("Shorter")}})
	require.NoError(t, err)

	stream := client.Chat.Completions.NewStreaming(ctx, openai.ChatCompletionNewParams{Model: "gpt-4.1-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Write a haiku about rain")}})
	for stream.Next() {
	}
	require.NoError(t, stream.Err())
	require.NoError(t, stream.Close())

	_, err = client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "gpt-4.1-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Nothing answers this")}})
	require.Error(t, err)
}

// agentSession opens a seeded session on srv, scripts it with answer and
// plays the agent against it. Its cleanup is the test's: the fake TBs of
// these tests check CheckGolden, not the session.
func agentSession(t *testing.T, srv *llmtest.Server, answer string) *session.Session {
	t.Helper()
	sess := srv.NewSession(t, session.WithIDSeed(goldenSeed))
	scriptAgent(sess, answer)
	runAgent(t, sess)
	return sess
}

// A golden file recorded with -llmtest.update is what the next run
// compares with: the same script passes, a changed one fails with the line
// that differs, and leaves the file alone.
func TestGoldenRoundTripWithUpdateFlag(t *testing.T) {
	path := filepath.Join(t.TempDir(), "testdata", "agent", "trip.golden")
	srv := llmtest.NewServer(t)

	setUpdate(t, true)
	recorded := agentSession(t, srv, "Take an umbrella.")
	rec := &reportTB{name: t.Name()}
	require.True(t, llmtest.CheckGolden(rec, recorded, path), rec.reported())
	assert.Empty(t, rec.reported())
	assert.Contains(t, rec.logged(), "wrote golden file "+path)
	raw, err := os.ReadFile(path)
	require.NoError(t, err, "CheckGolden under -llmtest.update created no file")
	want := llmtest.Transcript(recorded)
	require.Equal(t, want, string(raw))
	require.Equal(t, 6, strings.Count(want, "\n#")+1, "one line per request, then the miss's explanation under it")
	require.Equal(t, 3, strings.Count(want, "\n\ttried "), "the three scenarios the miss tried")

	setUpdate(t, false)
	again := agentSession(t, srv, "Take an umbrella.")
	assert.True(t, llmtest.CheckGolden(t, again, path))

	changed := agentSession(t, srv, "Take sunglasses.")
	cmp := &reportTB{name: t.Name()}
	assert.False(t, llmtest.CheckGolden(cmp, changed, path))
	msg := cmp.reported()
	assert.Contains(t, msg, "transcript differs from golden file "+path)
	assert.Contains(t, msg, "first difference at line 2:")
	assert.Contains(t, msg, "Take an umbrella.")
	assert.Contains(t, msg, "Take sunglasses.")
	assert.Contains(t, msg, "-llmtest.update")
	assert.Empty(t, cmp.logged())
	raw, err = os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, want, string(raw), "a comparison rewrote the golden file")
}

// LLMTEST_UPDATE=1 rewrites golden files as the flag does, for runs over
// packages whose test binaries know no -llmtest.update.
func TestGoldenUpdateFromEnvironment(t *testing.T) {
	setUpdate(t, false)
	path := filepath.Join(t.TempDir(), "nested", "env.golden")
	srv := llmtest.NewServer(t)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte("stale\n"), 0o644))

	t.Setenv(llmtest.EnvUpdate, "1")
	updating, err := llmtest.Updating()
	require.NoError(t, err)
	require.True(t, updating)
	sess := agentSession(t, srv, "Take an umbrella.")
	rec := &reportTB{name: t.Name()}
	require.True(t, llmtest.CheckGolden(rec, sess, path), rec.reported())
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, llmtest.Transcript(sess), string(raw))

	t.Setenv(llmtest.EnvUpdate, "0")
	assert.True(t, llmtest.CheckGolden(t, agentSession(t, srv, "Take an umbrella."), path))
	changed := &reportTB{name: t.Name()}
	assert.False(t, llmtest.CheckGolden(changed, agentSession(t, srv, "Take sunglasses."), path))
	assert.Contains(t, changed.reported(), "first difference at line 2:")

	t.Setenv(llmtest.EnvUpdate, "yes please")
	_, err = llmtest.Updating()
	require.Error(t, err)
	bad := &reportTB{name: t.Name()}
	assert.False(t, llmtest.CheckGolden(bad, sess, path))
	assert.Contains(t, bad.reported(), `LLMTEST_UPDATE="yes please": want 1 or 0`)
}

// The flag is llmtest's own, beside the -update of the package under test.
func TestUpdateFlagKeepsItsPrefix(t *testing.T) {
	f := flag.Lookup(llmtest.UpdateFlag)
	require.NotNil(t, f)
	assert.Equal(t, "llmtest.update", f.Name)
	assert.Equal(t, "false", f.DefValue)
	assert.Contains(t, f.Usage, "llmtest.CheckGolden")
	u := flag.Lookup("update")
	require.NotNil(t, u, "the package's own -update is gone")
	assert.Equal(t, "a package's own golden-file flag, beside llmtest's", u.Usage)
	assert.False(t, *userUpdate)
}

// A golden file that does not exist fails the comparison and says how to
// create it.
func TestGoldenMissingFile(t *testing.T) {
	setUpdate(t, false)
	srv := llmtest.NewServer(t)
	sess := agentSession(t, srv, "Take an umbrella.")
	path := filepath.Join(t.TempDir(), "testdata", "missing.golden")
	rec := &reportTB{name: t.Name()}
	assert.False(t, llmtest.CheckGolden(rec, sess, path))
	msg := rec.reported()
	assert.Contains(t, msg, "golden file "+path+" does not exist")
	assert.Contains(t, msg, "-llmtest.update or LLMTEST_UPDATE=1")
	assert.Contains(t, msg, "\t"+strings.SplitN(llmtest.Transcript(sess), "\n", 2)[0])
	_, err := os.Stat(path)
	assert.ErrorIs(t, err, os.ErrNotExist, "a comparison created the golden file")
}

// The diff names the first line that differs and shows it in both
// versions, then both transcripts whole; a file shorter or longer than
// the transcript says where it ends.
func TestGoldenDiffMessage(t *testing.T) {
	setUpdate(t, false)
	srv := llmtest.NewServer(t)
	sess := agentSession(t, srv, "Take an umbrella.")
	got := llmtest.Transcript(sess)
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	require.Len(t, lines, 9, "six requests and the three scenarios the miss tried")
	dir := t.TempDir()
	write := func(name string, lines []string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644))
		return path
	}
	edited := append([]string(nil), lines...)
	edited[2] = "#3 edited by hand"

	for _, tc := range []struct {
		name      string
		file      []string
		line      int
		want, got string
	}{
		{"a line changed", edited, 3, "#3 edited by hand", lines[2]},
		{"the file is shorter", lines[:4], 5, "(end of file)", lines[4]},
		{"the file is longer", append(append([]string(nil), lines...), "#7 extra"), len(lines) + 1, "#7 extra", "(end of transcript)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := write(strings.ReplaceAll(tc.name, " ", "_")+".golden", tc.file)
			rec := &reportTB{name: t.Name()}
			assert.False(t, llmtest.CheckGolden(rec, sess, path))
			msg := rec.reported()
			assert.Contains(t, msg, "llmtest: session "+sess.ID()+": transcript differs from golden file "+path+"\n")
			assert.Contains(t, msg, "first difference at line "+strconv.Itoa(tc.line)+":\n\twant: "+tc.want+"\n\tgot:  "+tc.got+"\n")
			assert.Contains(t, msg, "want ("+path+"):\n\t"+strings.Join(tc.file, "\n\t")+"\n")
			assert.Contains(t, msg, "got:\n\t"+strings.Join(lines, "\n\t")+"\n")
		})
	}

	t.Run("CRLF line endings and no final newline", func(t *testing.T) {
		path := filepath.Join(dir, "crlf.golden")
		require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines, "\r\n")), 0o644))
		assert.True(t, llmtest.CheckGolden(t, sess, path))
	})
}

// What Transcript prints is the same run after run under a session's ID
// seed: no timings, no session ID, and the IDs the server generates
// (completion, response, tool-call) repeat, so golden files hold.
func TestTranscriptStableUnderIDSeed(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	first := agentSession(t, srv, "Take an umbrella.")
	second := agentSession(t, srv, "Take an umbrella.")
	a, b := llmtest.Transcript(first), llmtest.Transcript(second)
	require.NotEmpty(t, a)
	assert.Equal(t, a, b)
	for _, sess := range []*session.Session{first, second} {
		assert.NotContains(t, a, sess.ID())
	}

	// Another server, in the other transport mode, prints the same.
	mode := llmtest.InMemory
	if srv.TransportMode() == llmtest.InMemory {
		mode = llmtest.Loopback
	}
	other := llmtest.NewServer(t, llmtest.WithTransport(mode))
	assert.Equal(t, a, llmtest.Transcript(agentSession(t, other, "Take an umbrella.")))
}
