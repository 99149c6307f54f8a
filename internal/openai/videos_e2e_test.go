package openai_test

import (
	"bytes"
	"image/jpeg"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

var videoStart = time.Date(2030, 6, 1, 12, 0, 0, 0, time.UTC)

// videoSession is a session on a server whose clock the test advances,
// and an openai-go client of it.
func videoSession(t *testing.T, opts ...session.Option) (*clock.Fake, *llmtest.Server, *session.Session, openai.Client) {
	clk := clock.NewFake(videoStart)
	srv := llmtest.NewServer(t, llmtest.WithClock(clk))
	sess := srv.NewSession(t, opts...)
	return clk, srv, sess, e2e.ClientFor(sess, "k")
}

// newVideo creates a video of prompt with the SDK's defaults.
func newVideo(t *testing.T, client openai.Client, prompt string) *openai.Video {
	t.Helper()
	v, err := client.Videos.New(t.Context(), openai.VideoNewParams{Prompt: prompt})
	require.NoError(t, err)
	return v
}

func getVideo(t *testing.T, client openai.Client, id string) *openai.Video {
	t.Helper()
	v, err := client.Videos.Get(t.Context(), id)
	require.NoError(t, err)
	return v
}

// download fetches a variant of the video id, with its Content-Type.
func download(t *testing.T, client openai.Client, id string, variant openai.VideoDownloadContentParamsVariant) ([]byte, string) {
	t.Helper()
	resp, err := client.Videos.DownloadContent(t.Context(), id, openai.VideoDownloadContentParams{Variant: variant})
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return b, resp.Header.Get("Content-Type")
}

// A video is queued when created, in progress with its progress in the
// plan's steps while it runs, and completed once its plan has run, with
// completed_at and expires_at: all on the session's clock, each poll
// journaled with the job's state and model, and the polls answered with
// openai-poll-after-ms while the video runs.
func TestVideoStateMachine(t *testing.T) {
	t.Parallel()
	clk, _, sess, client := videoSession(t)
	sess.Videos("slow").Reply(scenario.Job(scenario.JobPlan{Queued: 2 * time.Second, Running: 8 * time.Second, Steps: 4}))

	v, err := client.Videos.New(t.Context(), openai.VideoNewParams{Prompt: "A cat on a skateboard",
		Model: openai.VideoModelSora2Pro, Seconds: openai.VideoSeconds8, Size: openai.VideoSize1792x1024})
	require.NoError(t, err)
	assert.Regexp(t, `^video_[0-9a-f]{48}$`, v.ID)
	assert.Equal(t, openai.VideoStatusQueued, v.Status)
	assert.Equal(t, openai.VideoModelSora2Pro, v.Model)
	assert.Equal(t, openai.VideoSeconds8, v.Seconds)
	assert.Equal(t, openai.VideoSize1792x1024, v.Size)
	assert.Equal(t, "A cat on a skateboard", v.Prompt)
	assert.Equal(t, videoStart.Unix(), v.CreatedAt)
	assert.Zero(t, v.Progress)
	for _, null := range []string{"completed_at", "expires_at", "error", "remixed_from_video_id"} {
		assert.Contains(t, v.RawJSON(), `"`+null+`":null`)
	}

	for _, step := range []struct {
		advance  time.Duration
		status   openai.VideoStatus
		progress int64
		pollMS   string
	}{
		{time.Second, openai.VideoStatusQueued, 0, "1000"},
		{time.Second, openai.VideoStatusInProgress, 0, "2000"},
		{3 * time.Second, openai.VideoStatusInProgress, 25, "1000"},
		{2 * time.Second, openai.VideoStatusInProgress, 50, "1000"},
		{2 * time.Second, openai.VideoStatusInProgress, 75, "1000"},
		{time.Second, openai.VideoStatusCompleted, 100, ""},
	} {
		clk.Advance(step.advance)
		var raw *http.Response
		got, err := client.Videos.Get(t.Context(), v.ID, option.WithResponseInto(&raw))
		require.NoError(t, err)
		at := clk.Now().Sub(videoStart)
		require.Equal(t, step.status, got.Status, "at %v", at)
		assert.Equal(t, step.progress, got.Progress, "at %v", at)
		assert.Equal(t, step.pollMS, raw.Header.Get("openai-poll-after-ms"), "at %v", at)
	}
	done := getVideo(t, client, v.ID)
	assert.Equal(t, videoStart.Add(10*time.Second).Unix(), done.CompletedAt)
	assert.Equal(t, videoStart.Add(10*time.Second+24*time.Hour).Unix(), done.ExpiresAt, "kept a day")
	assert.Contains(t, done.RawJSON(), `"error":null`)

	entries := sess.Journal().Entries()
	require.Len(t, entries, 8)
	var states []string
	for _, e := range entries {
		assert.Equal(t, v.ID, e.Job)
		assert.Equal(t, "sora-2-pro", e.Model)
		states = append(states, e.JobState)
	}
	assert.Equal(t, []string{"queued", "queued", "in_progress", "in_progress", "in_progress", "in_progress", "completed", "completed"}, states)
	assert.Equal(t, "slow", entries[0].Scenario, "the create took the reply")
	assert.Equal(t, "videos", entries[0].Endpoint)
	assert.Equal(t, "A cat on a skateboard", entries[0].UserText, "the prompt is the user message")

	// Gone once kept a day past its end.
	clk.Advance(24 * time.Hour)
	_, err = client.Videos.Get(t.Context(), v.ID)
	assert.Equal(t, http.StatusNotFound, e2e.OpenAIError(t, err).StatusCode)
}

// Without a scenario a video takes the defaults: a second queued, four
// running, and echoes the API's defaults of model, seconds and size.
func TestVideoDefaults(t *testing.T) {
	t.Parallel()
	clk, _, _, client := videoSession(t)
	v := newVideo(t, client, "A sunrise")
	assert.Equal(t, openai.VideoModelSora2, v.Model)
	assert.Equal(t, openai.VideoSeconds4, v.Seconds)
	assert.Equal(t, openai.VideoSize720x1280, v.Size)
	clk.Advance(4999 * time.Millisecond)
	assert.Equal(t, openai.VideoStatusInProgress, getVideo(t, client, v.ID).Status)
	clk.Advance(time.Millisecond)
	assert.Equal(t, openai.VideoStatusCompleted, getVideo(t, client, v.ID).Status)
}

// The three variants of a completed video's content, with their
// Content-Types, decoded: the spritesheet by image/jpeg, the thumbnail
// and the MP4 by their headers; the default variant is the MP4. Before
// completion, the content is the API's 404 "not ready".
func TestVideoContentVariants(t *testing.T) {
	t.Parallel()
	clk, _, _, client := videoSession(t)
	v, err := client.Videos.New(t.Context(), openai.VideoNewParams{Prompt: "Waves", Seconds: openai.VideoSeconds12, Size: openai.VideoSize1280x720})
	require.NoError(t, err)

	_, err = client.Videos.DownloadContent(t.Context(), v.ID, openai.VideoDownloadContentParams{})
	apiErr := e2e.OpenAIError(t, err)
	assert.Equal(t, http.StatusNotFound, apiErr.StatusCode)
	assert.Contains(t, apiErr.Message, "Video is not ready yet")
	clk.Advance(time.Minute)

	mp4, ct := download(t, client, v.ID, "")
	assert.Equal(t, "video/mp4", ct)
	assert.Equal(t, "ftyp", string(mp4[4:8]))
	assert.Contains(t, string(mp4), "moov")
	assert.Contains(t, string(mp4), "mdat")
	again, _ := download(t, client, v.ID, openai.VideoDownloadContentParamsVariantVideo)
	assert.Equal(t, mp4, again)

	webp, ct := download(t, client, v.ID, openai.VideoDownloadContentParamsVariantThumbnail)
	assert.Equal(t, "image/webp", ct)
	assert.Equal(t, "RIFF", string(webp[:4]))
	assert.Equal(t, "WEBPVP8L", string(webp[8:16]))

	sheet, ct := download(t, client, v.ID, openai.VideoDownloadContentParamsVariantSpritesheet)
	assert.Equal(t, "image/jpeg", ct)
	img, err := jpeg.Decode(bytes.NewReader(sheet))
	require.NoError(t, err)
	assert.Equal(t, 4*128, img.Bounds().Dx(), "four frames a row")
	assert.Equal(t, 3*72, img.Bounds().Dy(), "twelve seconds: three rows")

	_, err = client.Videos.DownloadContent(t.Context(), v.ID, openai.VideoDownloadContentParams{Variant: "poster"})
	apiErr = e2e.WantInvalidRequest(t, "variant", err, http.StatusBadRequest, "invalid_value", "variant")
	assert.Contains(t, apiErr.Message, "'video', 'thumbnail', and 'spritesheet'")
}

// A multipart create with an input_reference file part is read (the
// image not kept); the bracketed URL form and a JSON body are accepted
// too.
func TestVideoInputReference(t *testing.T) {
	t.Parallel()
	_, srv, sess, client := videoSession(t)
	png := []byte("\x89PNG\r\n\x1a\n" + strings.Repeat("x", 4096))
	v, err := client.Videos.New(t.Context(), openai.VideoNewParams{Prompt: "Animate this",
		InputReference: openai.VideoNewParamsInputReferenceUnion{OfFile: openai.File(bytes.NewReader(png), "ref.png", "image/png")}})
	require.NoError(t, err)
	assert.Equal(t, openai.VideoStatusQueued, v.Status)
	assert.Equal(t, "Animate this", v.Prompt)

	byURL, err := client.Videos.New(t.Context(), openai.VideoNewParams{Prompt: "From a URL",
		InputReference: openai.VideoNewParamsInputReferenceUnion{OfImageInputReference: &openai.ImageInputReferenceParam{ImageURL: openai.String("https://example.com/a.png")}}})
	require.NoError(t, err)
	assert.Equal(t, "From a URL", byURL.Prompt)

	r := e2e.Call(t, srv.Client(), "POST", sess.BaseURL()+"/videos",
		`{"prompt":"As JSON","seconds":"12","size":"1024x1792","model":"sora-2-pro","input_reference":{"file_id":"file-abc"}}`,
		append(e2e.SelectorOf(sess), "Content-Type", "application/json")...)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Contains(t, string(r.Body), `"seconds":"12","size":"1024x1792","status":"queued"`)
}

// Bad input is the API's 400 invalid_request_error naming the param,
// never a 500; a refused create takes no reply.
func TestVideoValidation(t *testing.T) {
	t.Parallel()
	_, srv, sess, client := videoSession(t)
	sess.Videos("any").Reply(scenario.Job(scenario.JobPlan{})).Repeat()
	pending := sess.Pending()
	for _, c := range []struct {
		name   string
		params openai.VideoNewParams
		code   string
		param  string
	}{
		{"model", openai.VideoNewParams{Prompt: "p", Model: "sora-3"}, "invalid_value", "model"},
		{"seconds", openai.VideoNewParams{Prompt: "p", Seconds: "5"}, "invalid_value", "seconds"},
		{"size", openai.VideoNewParams{Prompt: "p", Size: "1920x1080"}, "invalid_value", "size"},
		{"empty prompt", openai.VideoNewParams{Prompt: ""}, "empty_string", "prompt"},
	} {
		_, err := client.Videos.New(t.Context(), c.params)
		e2e.WantInvalidRequest(t, c.name, err, http.StatusBadRequest, c.code, c.param)
	}
	_, err := client.Videos.New(t.Context(), openai.VideoNewParams{Prompt: "p", Seconds: "5"})
	assert.Contains(t, e2e.OpenAIError(t, err).Message, "Invalid value: '5'. Supported values are: '4', '8', and '12'.")

	for _, c := range []struct{ name, body, code, param string }{
		{"no prompt", `{"model":"sora-2"}`, "missing_required_parameter", "prompt"},
		{"seconds a number", `{"prompt":"p","seconds":4}`, "invalid_type", "seconds"},
		{"unknown field", `{"prompt":"p","duration":4}`, "unknown_parameter", "duration"},
		{"not JSON", `{"prompt":`, "", ""},
		{"not an object", `[1]`, "invalid_type", ""},
	} {
		r := e2e.Call(t, srv.Client(), "POST", sess.BaseURL()+"/videos", c.body, e2e.SelectorOf(sess)...)
		require.Equal(t, http.StatusBadRequest, r.Status, "%s: %s", c.name, r.Body)
		code, typ, param, _ := r.APIError(t)
		assert.Equal(t, "invalid_request_error", typ, c.name)
		assert.Equal(t, c.code, code, c.name)
		assert.Equal(t, c.param, param, c.name)
	}
	r := e2e.Call(t, srv.Client(), "POST", sess.BaseURL()+"/videos", "--x\r\nContent-Disposition: form-data; name=\"prompt\"\r\n\r\nunterminated",
		append(e2e.SelectorOf(sess), "Content-Type", "multipart/form-data; boundary=x")...)
	assert.Equal(t, http.StatusBadRequest, r.Status, "a broken multipart body: %s", r.Body)
	assert.Equal(t, pending, sess.Pending(), "no reply taken")

	// A model the session does not serve is the API's 404 model_not_found.
	narrow := srv.NewSession(t, session.OnlyModels("gpt-4.1-mini"))
	narrowClient := e2e.ClientFor(narrow, "k")
	_, err = narrowClient.Videos.New(t.Context(), openai.VideoNewParams{Prompt: "p"})
	apiErr := e2e.OpenAIError(t, err)
	assert.Equal(t, http.StatusNotFound, apiErr.StatusCode)
	assert.Equal(t, "model_not_found", apiErr.Code)
}

// A video is deleted in any state, while running too: the deleted object
// answers, its ID is 404 from then on, on every route.
func TestVideoDeleteWhileRunning(t *testing.T) {
	t.Parallel()
	clk, _, sess, client := videoSession(t)
	v := newVideo(t, client, "Long")
	clk.Advance(2 * time.Second)
	require.Equal(t, openai.VideoStatusInProgress, getVideo(t, client, v.ID).Status)
	deleted, err := client.Videos.Delete(t.Context(), v.ID)
	require.NoError(t, err)
	assert.Equal(t, v.ID, deleted.ID)
	assert.True(t, deleted.Deleted)
	assert.Equal(t, "video.deleted", string(deleted.Object))
	entries := sess.Journal().Entries()
	assert.Equal(t, "deleted", entries[len(entries)-1].JobState)

	clk.Advance(time.Minute)
	_, err = client.Videos.Get(t.Context(), v.ID)
	assert.Equal(t, http.StatusNotFound, e2e.OpenAIError(t, err).StatusCode)
	_, err = client.Videos.Delete(t.Context(), v.ID)
	assert.Equal(t, http.StatusNotFound, e2e.OpenAIError(t, err).StatusCode)
	_, err = client.Videos.DownloadContent(t.Context(), v.ID, openai.VideoDownloadContentParams{})
	assert.Equal(t, http.StatusNotFound, e2e.OpenAIError(t, err).StatusCode)
	page, err := client.Videos.List(t.Context(), openai.VideoListParams{})
	require.NoError(t, err)
	assert.Empty(t, page.Data)
}

// A reply of scenario.FailJob is taken at the create, which answers
// queued; the video fails with the reply's error once its plan has run,
// and PollStatus returns it (a failed video is no error to the SDK). A
// plan that expires fails it too; a plain scripted error refuses the
// create itself.
func TestVideoFails(t *testing.T) {
	t.Parallel()
	clk, _, sess, client := videoSession(t)
	sess.Videos("a").Reply(
		scenario.FailJob(scenario.Error{Kind: scenario.ErrorInvalidRequest, Code: "moderation_blocked", Message: "Your request was blocked by our moderation system."}),
		scenario.Job(scenario.JobPlan{Ends: scenario.JobExpired}),
		scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorRateLimit}})

	failing := newVideo(t, client, "forbidden")
	assert.Equal(t, openai.VideoStatusQueued, failing.Status)
	expiring := newVideo(t, client, "slow")
	_, err := client.Videos.New(t.Context(), openai.VideoNewParams{Prompt: "now"})
	assert.Equal(t, http.StatusTooManyRequests, e2e.OpenAIError(t, err).StatusCode)

	clk.Advance(time.Minute)
	failed, err := client.Videos.PollStatus(t.Context(), failing.ID, 1)
	require.NoError(t, err)
	assert.Equal(t, openai.VideoStatusFailed, failed.Status)
	assert.Equal(t, "moderation_blocked", failed.Error.Code)
	assert.Equal(t, "Your request was blocked by our moderation system.", failed.Error.Message)
	assert.Equal(t, videoStart.Add(5*time.Second).Unix(), failed.CompletedAt)
	assert.Zero(t, failed.ExpiresAt, "no assets")
	_, err = client.Videos.DownloadContent(t.Context(), failed.ID, openai.VideoDownloadContentParams{})
	assert.Equal(t, http.StatusNotFound, e2e.OpenAIError(t, err).StatusCode)

	expired := getVideo(t, client, expiring.ID)
	assert.Equal(t, openai.VideoStatusFailed, expired.Status)
	assert.Equal(t, "video_expired", expired.Error.Code)
}

// A remix of a completed video is a new video job with the new prompt,
// the source's model, seconds and size, and remixed_from_video_id; a
// remix of one not completed is refused, and the prompt is required.
func TestVideoRemix(t *testing.T) {
	t.Parallel()
	clk, _, sess, client := videoSession(t)
	src, err := client.Videos.New(t.Context(), openai.VideoNewParams{Prompt: "A dog", Seconds: openai.VideoSeconds8, Size: openai.VideoSize1280x720})
	require.NoError(t, err)
	_, err = client.Videos.Remix(t.Context(), src.ID, openai.VideoRemixParams{Prompt: "Too soon"})
	apiErr := e2e.OpenAIError(t, err)
	assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
	assert.Contains(t, apiErr.Message, "only a completed video can be remixed")
	clk.Advance(time.Minute)

	sess.Videos("remix").When(scenario.UserContains("cat")).Reply(scenario.Job(scenario.JobPlan{Queued: -1, Running: time.Second}))
	remix, err := client.Videos.Remix(t.Context(), src.ID, openai.VideoRemixParams{Prompt: "Make it a cat"})
	require.NoError(t, err)
	assert.NotEqual(t, src.ID, remix.ID)
	assert.Equal(t, src.ID, remix.RemixedFromVideoID)
	assert.Equal(t, "Make it a cat", remix.Prompt)
	assert.Equal(t, openai.VideoSeconds8, remix.Seconds)
	assert.Equal(t, openai.VideoSize1280x720, remix.Size)
	assert.Equal(t, openai.VideoStatusInProgress, remix.Status, "its plan skips the queue")
	entries := sess.Journal().Entries()
	assert.Equal(t, "remix", entries[len(entries)-1].Scenario)
	assert.Equal(t, remix.ID, entries[len(entries)-1].Job)

	_, err = client.Videos.Remix(t.Context(), src.ID, openai.VideoRemixParams{})
	e2e.WantInvalidRequest(t, "remix without a prompt", err, http.StatusBadRequest, "empty_string", "prompt")
	_, err = client.Videos.Remix(t.Context(), "video_nope", openai.VideoRemixParams{Prompt: "x"})
	assert.Equal(t, http.StatusNotFound, e2e.OpenAIError(t, err).StatusCode)
}

// The list pages the session's videos newest first (oldest first with
// order=asc) as ConversationCursorPage reads it: ListAutoPaging walks
// them all through after=last_id, each page with first_id, last_id and
// has_more.
func TestVideoListPages(t *testing.T) {
	t.Parallel()
	clk, _, _, client := videoSession(t, session.WithVideos(8))
	var ids []string
	for i := range 5 {
		ids = append(ids, newVideo(t, client, "video "+string(rune('a'+i))).ID)
		clk.Advance(time.Second)
	}
	var walked []string
	pages := client.Videos.ListAutoPaging(t.Context(), openai.VideoListParams{Limit: openai.Int(2)})
	for pages.Next() {
		walked = append(walked, pages.Current().ID)
	}
	require.NoError(t, pages.Err())
	assert.Equal(t, []string{ids[4], ids[3], ids[2], ids[1], ids[0]}, walked)

	first, err := client.Videos.List(t.Context(), openai.VideoListParams{Limit: openai.Int(2), Order: openai.VideoListParamsOrderAsc})
	require.NoError(t, err)
	require.Len(t, first.Data, 2)
	assert.Equal(t, ids[0], first.Data[0].ID)
	assert.Equal(t, openai.VideoStatusCompleted, first.Data[0].Status, "each listed as it stands")
	assert.True(t, first.HasMore)
	assert.Equal(t, ids[1], first.LastID)
	assert.Contains(t, first.RawJSON(), `"object":"list"`)
	assert.Contains(t, first.RawJSON(), `"first_id":"`+ids[0]+`"`)

	_, err = client.Videos.List(t.Context(), openai.VideoListParams{Limit: openai.Int(101)})
	e2e.WantInvalidRequest(t, "limit", err, http.StatusBadRequest, "integer_above_max_value", "limit")
	_, err = client.Videos.List(t.Context(), openai.VideoListParams{After: openai.String("video_gone")})
	e2e.WantInvalidRequest(t, "after", err, http.StatusBadRequest, "", "after")
}

// Another session sees none of a session's videos: its IDs are 404 on
// every route, its list is empty.
func TestVideoSessionsIsolated(t *testing.T) {
	t.Parallel()
	clk, srv, _, client := videoSession(t)
	other := e2e.ClientFor(srv.NewSession(t), "k")
	v := newVideo(t, client, "mine")
	clk.Advance(time.Minute)
	ctx := t.Context()
	for name, call := range map[string]func() error{
		"get":    func() error { _, err := other.Videos.Get(ctx, v.ID); return err },
		"delete": func() error { _, err := other.Videos.Delete(ctx, v.ID); return err },
		"content": func() error {
			_, err := other.Videos.DownloadContent(ctx, v.ID, openai.VideoDownloadContentParams{})
			return err
		},
		"remix": func() error {
			_, err := other.Videos.Remix(ctx, v.ID, openai.VideoRemixParams{Prompt: "x"})
			return err
		},
	} {
		apiErr := e2e.OpenAIError(t, call())
		assert.Equal(t, http.StatusNotFound, apiErr.StatusCode, name)
		assert.Equal(t, "invalid_request_error", apiErr.Type, name)
	}
	page, err := other.Videos.List(ctx, openai.VideoListParams{})
	require.NoError(t, err)
	assert.Empty(t, page.Data)
	assert.Equal(t, openai.VideoStatusCompleted, getVideo(t, client, v.ID).Status, "the owner still has it")
}

// A session whose videos are at videos.capacity refuses a new one with a
// 429, taking no reply; everything else goes on (the kept videos poll
// and download, chat answers, other jobs are not counted) and a video
// fits again once one is deleted.
func TestVideoCapacityFullRefusesWithA429(t *testing.T) {
	t.Parallel()
	clk, _, sess, client := videoSession(t, session.WithVideos(2))
	sess.Chat("any").Responds("still answered").Repeat()
	sess.Videos("any").Reply(scenario.Job(scenario.JobPlan{})).Repeat()
	a, b := newVideo(t, client, "a"), newVideo(t, client, "b")
	_, err := client.Videos.New(t.Context(), openai.VideoNewParams{Prompt: "c"})
	apiErr := e2e.OpenAIError(t, err)
	assert.Equal(t, http.StatusTooManyRequests, apiErr.StatusCode)
	assert.Contains(t, apiErr.Message, "videos.capacity")
	_, err = client.Videos.Remix(t.Context(), a.ID, openai.VideoRemixParams{Prompt: "c"})
	assert.Error(t, err, "not completed yet, and no room either")

	clk.Advance(time.Minute)
	for _, id := range []string{a.ID, b.ID} {
		assert.Equal(t, openai.VideoStatusCompleted, getVideo(t, client, id).Status)
		mp4, _ := download(t, client, id, "")
		assert.Equal(t, "ftyp", string(mp4[4:8]))
	}
	_, err = client.Videos.Remix(t.Context(), a.ID, openai.VideoRemixParams{Prompt: "c"})
	assert.Equal(t, http.StatusTooManyRequests, e2e.OpenAIError(t, err).StatusCode, "a remix is a video too")
	chat, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(openai.ChatModelGPT4_1Mini, "hi"))
	require.NoError(t, err)
	assert.Equal(t, "still answered", chat.Choices[0].Message.Content)
	_, err = client.Videos.Delete(t.Context(), a.ID)
	require.NoError(t, err)
	newVideo(t, client, "room again")
}

// A fork copies the session's videos as they stand: it polls and
// downloads them, and deleting one there leaves the parent's alone.
func TestVideoForkCopiesVideos(t *testing.T) {
	t.Parallel()
	clk, srv, sess, client := videoSession(t)
	v := newVideo(t, client, "shared")
	fork := srv.Fork(t, sess)
	forkClient := e2e.ClientFor(fork, "k")
	fv := getVideo(t, forkClient, v.ID)
	assert.Equal(t, v.CreatedAt, fv.CreatedAt)
	assert.Equal(t, "shared", fv.Prompt)
	clk.Advance(time.Minute)
	assert.Equal(t, openai.VideoStatusCompleted, getVideo(t, forkClient, v.ID).Status)
	mine, _ := download(t, client, v.ID, "thumbnail")
	theirs, _ := download(t, forkClient, v.ID, "thumbnail")
	assert.Equal(t, mine, theirs)
	_, err := forkClient.Videos.Delete(t.Context(), v.ID)
	require.NoError(t, err)
	assert.Equal(t, openai.VideoStatusCompleted, getVideo(t, client, v.ID).Status, "deleted in the fork only")
}

// A deleted session's videos are gone with it, and a fork made before
// keeps its copy, which runs on.
func TestVideoSessionDeleted(t *testing.T) {
	t.Parallel()
	clk, srv, sess, client := videoSession(t)
	v := newVideo(t, client, "doomed")
	fork := srv.Fork(t, sess)
	sess.Close()
	clk.Advance(time.Minute)
	_, err := client.Videos.Get(t.Context(), v.ID)
	assert.Equal(t, http.StatusNotFound, e2e.OpenAIError(t, err).StatusCode)
	_, err = client.Videos.New(t.Context(), openai.VideoNewParams{Prompt: "after"})
	assert.Error(t, err)
	forkClient := e2e.ClientFor(fork, "k")
	assert.Equal(t, openai.VideoStatusCompleted, getVideo(t, forkClient, v.ID).Status)
}

// Routes and methods the videos API does not serve are the usual 404 and
// 405.
func TestVideoRoutesRefuseWhatTheyDoNotServe(t *testing.T) {
	t.Parallel()
	_, srv, sess, client := videoSession(t)
	v := newVideo(t, client, "x")
	for _, c := range []struct {
		method, path string
		status       int
	}{
		{"PUT", "/videos", http.StatusMethodNotAllowed},
		{"POST", "/videos/" + v.ID, http.StatusMethodNotAllowed},
		{"GET", "/videos/" + v.ID + "/remix", http.StatusMethodNotAllowed},
		{"POST", "/videos/" + v.ID + "/content", http.StatusMethodNotAllowed},
		{"GET", "/videos/" + v.ID + "/other", http.StatusNotFound},
		{"GET", "/videos/" + v.ID + "/content/x", http.StatusNotFound},
	} {
		r := e2e.Call(t, srv.Client(), c.method, sess.BaseURL()+c.path, "", e2e.SelectorOf(sess)...)
		assert.Equal(t, c.status, r.Status, "%s %s: %s", c.method, c.path, r.Body)
	}
}
